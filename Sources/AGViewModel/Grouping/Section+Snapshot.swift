extension Section {
    /// A `Sendable` copy of a section: its items and its header, footer,
    /// common and item-merge ViewModels, as ``ViewModel/Snapshot``s, and
    /// the keys it registers for export and archives.
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
        /// The keys registered per part for export and archives.
        internal var partKeyRegistry = PartKeyRegistry()

        /// A snapshot of `section`.
        public init(_ section: Section) {
            var visiting: Set<ObjectIdentifier> = []
            self.init(section, visiting: &visiting)
        }

        internal init(_ section: Section, visiting: inout Set<ObjectIdentifier>) {
            visiting.insert(ObjectIdentifier(section))
            defer { visiting.remove(ObjectIdentifier(section)) }
            items = section.items.map { ViewModel.Snapshot($0, visiting: &visiting) }
            header = section.header.map { ViewModel.Snapshot($0, visiting: &visiting) }
            footer = section.footer.map { ViewModel.Snapshot($0, visiting: &visiting) }
            common = section.common.map { ViewModel.Snapshot($0, visiting: &visiting) }
            itemMerge = section.itemMerge.map { ViewModel.Snapshot($0, visiting: &visiting) }
            partKeyRegistry = section.partKeyRegistry
        }

        /// A new section, of the caller's isolation domain, with new
        /// ViewModels made from the snapshots.
        public func makeSection() -> Section {
            let section = Section(
                items: items.map { $0.makeViewModel() },
                header: header?.makeViewModel(),
                footer: footer?.makeViewModel(),
                common: common?.makeViewModel(),
                itemMerge: itemMerge?.makeViewModel())
            section.partKeyRegistry = partKeyRegistry
            return section
        }
    }

    /// A `Sendable` copy of the section; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}
