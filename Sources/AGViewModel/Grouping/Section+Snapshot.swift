extension Section {
    /// A `Sendable` copy of a section: its items and its header, footer,
    /// common and item-merge ViewModels, as ``ViewModel/Snapshot``s, and
    /// the keys it registers for export and archives. A ViewModel the
    /// section holds in several places is taken once, and made once again
    /// by ``makeSection()``; so is one snapshot placed twice. A snapshot
    /// edited through its properties is made as a section of its own.
    public struct Snapshot: Sendable {
        // An edited snapshot is a section of its own: it gets a new
        // identity, so it is not made as the one it was copied from.
        /// The items, in order.
        public var items: [ViewModel.Snapshot] { didSet { identity = SnapshotRun.newIdentity() } }
        /// The header.
        public var header: ViewModel.Snapshot? { didSet { identity = SnapshotRun.newIdentity() } }
        /// The footer.
        public var footer: ViewModel.Snapshot? { didSet { identity = SnapshotRun.newIdentity() } }
        /// The values shared by the section.
        public var common: ViewModel.Snapshot? { didSet { identity = SnapshotRun.newIdentity() } }
        /// The values merged into packaged items.
        public var itemMerge: ViewModel.Snapshot? { didSet { identity = SnapshotRun.newIdentity() } }
        /// Every payload left out of the snapshot as taken, with its path
        /// from the section (`items[0].avatar`) and why, as
        /// ``ViewModel/Snapshot/omitted`` lists them.
        public private(set) var omitted: [SkippedPayload] = []
        /// The keys registered per part for export and archives.
        internal var partKeyRegistry = PartKeyRegistry()
        /// The section's identity in snapshots (see ``ViewModel/Snapshot``).
        internal private(set) var identity: UInt64
        /// The identity of the section it copies, kept by the sections it
        /// makes (see `Section.sourceIdentity`); edits leave it.
        internal var sourceIdentity: UInt64

        /// A snapshot of `section`. Swift Observation tracking that makes
        /// one hears when items or parts are added, removed or replaced, not
        /// of changes to the items' keys.
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
            guard !run.isTakingAny(of: section) else { return nil }
            identity = SnapshotRun.newIdentity()
            sourceIdentity = section.sourceIdentity
            run.beginTaking(section)
            defer { run.endTaking(section) }
            items = Self.items(of: section, run: &run)
            header = Self.part(section.header, "header", run: &run)
            footer = Self.part(section.footer, "footer", run: &run)
            common = Self.part(section.common, "common", run: &run)
            itemMerge = Self.part(section.itemMerge, "itemMerge", run: &run)
            partKeyRegistry = section.partKeyRegistry
        }

        /// The snapshots of the items, at `items[i]`.
        @inline(never)
        private static func items(of section: Section, run: inout SnapshotRun) -> [ViewModel.Snapshot] {
            run.enter(.key("items"))
            defer { run.leave() }
            return section.items.enumerated().map { run.snapshot(of: $0.element, at: .index($0.offset)) }
        }

        /// The snapshot of a section-level ViewModel, at `name`.
        @inline(never)
        private static func part(_ viewModel: ViewModel?, _ name: String, run: inout SnapshotRun) -> ViewModel.Snapshot? {
            viewModel.map { run.snapshot(of: $0, at: .key(name)) }
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
            section.sourceIdentity = sourceIdentity
            return section
        }
    }

    /// A `Sendable` copy of the section; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}
