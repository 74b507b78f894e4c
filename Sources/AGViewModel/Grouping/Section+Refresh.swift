extension Section {
    /// Which ViewModels of a section a bulk operation touches.
    public struct Parts: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8

        /// Creates a set from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The header.
        public static let header = Parts(rawValue: 1 << 0)
        /// Every item.
        public static let items = Parts(rawValue: 1 << 1)
        /// The footer.
        public static let footer = Parts(rawValue: 1 << 2)
        /// Header and footer.
        public static let headerAndFooter: Parts = [.header, .footer]
        /// Header, items and footer.
        public static let all: Parts = [.header, .items, .footer]
    }

    /// The ViewModels of `parts`, header first, then items, then footer.
    public func viewModels(in parts: Parts) -> [ViewModel] {
        var result: [ViewModel] = []
        if parts.contains(.header), let header { result.append(header) }
        if parts.contains(.items) { result.append(contentsOf: items) }
        if parts.contains(.footer), let footer { result.append(footer) }
        return result
    }

    /// The ViewModels of `parts` of `sections`, in order, each once: a bulk
    /// operation tells a ViewModel held in several places (an item twice, a
    /// header that is also an item) once.
    internal static func distinctViewModels(in parts: Parts, of sections: some Sequence<Section>) -> [ViewModel] {
        var seen: Set<ObjectIdentifier> = []
        var result: [ViewModel] = []
        for section in sections {
            for viewModel in section.viewModels(in: parts) where seen.insert(ObjectIdentifier(viewModel)).inserted {
                result.append(viewModel)
            }
        }
        return result
    }

    /// The ViewModels of `parts` of this section, each once.
    private func distinctViewModels(in parts: Parts) -> [ViewModel] {
        Self.distinctViewModels(in: parts, of: CollectionOfOne(self))
    }

    /// Refreshes the bound views of `parts` now (each ViewModel's `refresh()`,
    /// once for a ViewModel held in several places).
    @MainActor
    public func refresh(_ parts: Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.refresh() }
    }

    /// Merges `values` into every ViewModel of `parts`, marks their cached
    /// sizes stale and refreshes them now (each ViewModel's
    /// `updateAndRefresh`). ViewModels that already hold `values` are not
    /// measured again, and refreshed only if a refresh is pending
    /// (``refresh(_:)`` refreshes every one).
    @MainActor
    public func refresh(_ parts: Parts = .all, updating values: JSONObject) {
        for viewModel in distinctViewModels(in: parts) { viewModel.refresh(merging: values) }
    }

    /// Marks every ViewModel of `parts` as needing a refresh
    /// (`setNeedsRefresh()`); views refresh on their next `refreshIfNeeded()`.
    @MainActor
    public func setNeedsRefresh(_ parts: Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsRefresh() }
    }

    /// Merges `values` into every ViewModel of `parts`, marks their cached
    /// sizes stale and marks them as needing a refresh (each ViewModel's
    /// `update`); ViewModels that already hold `values` are left alone.
    @MainActor
    public func setNeedsRefresh(_ parts: Parts = .all, updating values: JSONObject) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsRefresh(merging: values) }
    }

    /// Marks every ViewModel of `parts` as needing its cached size
    /// recomputed (`setNeedsCachedSize()`), after a font or width change.
    @MainActor
    public func setNeedsCachedSize(_ parts: Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsCachedSize() }
    }
}
