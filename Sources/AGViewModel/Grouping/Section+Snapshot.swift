extension Section {
    /// A `Sendable` copy of a section: its items and its header, footer,
    /// common and item-merge ViewModels, as ``ViewModel/Snapshot``s, and
    /// the keys it registers for export and archives. A ViewModel the
    /// section holds in several places is taken once, and made once again
    /// by ``makeSection()``.
    public struct Snapshot: Sendable {
        /// The items, in order.
        public var items: [ViewModel.Snapshot]
        /// The header.
        public var header: ViewModel.Snapshot?
        /// The footer.
        public var footer: ViewModel.Snapshot?
        /// The values shared by the section.
        public var common: ViewModel.Snapshot?
        /// The values merged into packaged items.
        public var itemMerge: ViewModel.Snapshot?
        /// Every payload left out of the snapshot, with its path from the
        /// section (`items[0].avatar`) and why, as
        /// ``ViewModel/Snapshot/omitted`` lists them.
        public private(set) var omitted: [SkippedPayload] = []
        /// The keys registered per part for export and archives.
        internal var partKeyRegistry = PartKeyRegistry()
        /// The section's identity in snapshots (see ``ViewModel/Snapshot``).
        internal let identity: UInt64

        /// A snapshot of `section`.
        public init(_ section: Section) {
            var run = SnapshotRun()
            // Nothing is being taken yet, so no ViewModel of the section
            // closes a cycle.
            self = run.snapshot(of: section)!
            omitted = run.omitted
        }

        /// A snapshot of `section`; `nil` when one of its ViewModels is
        /// being taken further up (it contains the section: a cycle).
        internal init?(_ section: Section, run: inout SnapshotRun) {
            let parts: [(String, ViewModel?)] = [
                ("header", section.header), ("footer", section.footer),
                ("common", section.common), ("itemMerge", section.itemMerge),
            ]
            guard !run.isTakingAny(of: section) else { return nil }
            let items = section.items
            identity = SnapshotRun.newIdentity()
            run.beginTaking(section)
            defer { run.endTaking(section) }
            run.enter(.key("items"))
            var taken: [ViewModel.Snapshot] = []
            taken.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { taken.append(run.snapshot(of: item, at: .index(index))) }
            run.leave()
            self.items = taken
            var slots: [ViewModel.Snapshot?] = []
            for (name, viewModel) in parts { slots.append(viewModel.map { run.snapshot(of: $0, at: .key(name)) }) }
            (header, footer, common, itemMerge) = (slots[0], slots[1], slots[2], slots[3])
            partKeyRegistry = section.partKeyRegistry
        }

        /// A new section, of the caller's isolation domain, with new
        /// ViewModels made from the snapshots.
        public func makeSection() -> Section {
            var assembly = SnapshotAssembly()
            return assembly.section(from: self)
        }

        internal func makeSection(assembly: inout SnapshotAssembly) -> Section {
            let section = Section(
                items: items.map { assembly.viewModel(from: $0) },
                header: header.map { assembly.viewModel(from: $0) },
                footer: footer.map { assembly.viewModel(from: $0) },
                common: common.map { assembly.viewModel(from: $0) },
                itemMerge: itemMerge.map { assembly.viewModel(from: $0) })
            section.partKeyRegistry = partKeyRegistry
            return section
        }
    }

    /// A `Sendable` copy of the section; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}
