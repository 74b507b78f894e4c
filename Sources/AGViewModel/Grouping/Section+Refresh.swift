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

    /// Refreshes the bound views of `parts` now (each ViewModel's `refresh()`).
    @MainActor
    public func refresh(_ parts: Parts = .all) {
        for viewModel in viewModels(in: parts) { viewModel.refresh() }
    }

    /// Merges `values` into every ViewModel of `parts`, marks their cached
    /// sizes stale and refreshes them now (each ViewModel's
    /// `updateAndRefresh`).
    @MainActor
    public func refresh(_ parts: Parts = .all, updating values: JSONObject) {
        for viewModel in viewModels(in: parts) {
            viewModel.updateAndRefresh { $0.merge(values) }
        }
    }

    /// Marks every ViewModel of `parts` as needing a refresh
    /// (`setNeedsRefresh()`); views refresh on their next `refreshIfNeeded()`.
    @MainActor
    public func setNeedsRefresh(_ parts: Parts = .all) {
        for viewModel in viewModels(in: parts) { viewModel.setNeedsRefresh() }
    }

    /// Merges `values` into every ViewModel of `parts`, marks their cached
    /// sizes stale and marks them as needing a refresh (each ViewModel's
    /// `update`).
    @MainActor
    public func setNeedsRefresh(_ parts: Parts = .all, updating values: JSONObject) {
        for viewModel in viewModels(in: parts) {
            viewModel.update { $0.merge(values) }
        }
    }

    /// Marks every ViewModel of `parts` as needing its cached size
    /// recomputed (`setNeedsCachedSize()`), after a font or width change.
    @MainActor
    public func setNeedsCachedSize(_ parts: Parts = .all) {
        for viewModel in viewModels(in: parts) { viewModel.setNeedsCachedSize() }
    }
}
