extension Manager {
    /// A `Sendable` copy of a manager: its sections and common ViewModel,
    /// as ``Section/Snapshot``s and a ``ViewModel/Snapshot``, and the keys
    /// it registers for export and archives. A section or ViewModel the
    /// manager holds in several places is taken once, and made once again
    /// by ``makeManager()``.
    ///
    /// Take one to diff on another task, or to export in the background:
    ///
    /// ```swift
    /// let snapshot = manager.snapshot
    /// let json = await Task.detached { snapshot.makeManager().exportJSON() }.value
    /// ```
    public struct Snapshot: Sendable {
        // An edited snapshot is a manager of its own (see Section.Snapshot).
        /// The sections, in order.
        public var sections: [Section.Snapshot] { didSet { identity = SnapshotRun.newIdentity() } }
        /// The values shared by the whole manager.
        public var common: ViewModel.Snapshot? { didSet { identity = SnapshotRun.newIdentity() } }
        /// Every payload left out of the snapshot as taken, with its path
        /// from the manager (`sections[0].items[2].avatar`) and why, as
        /// ``ViewModel/Snapshot/omitted`` lists them.
        public private(set) var omitted: [SkippedPayload] = []
        /// The keys registered per part for export and archives.
        internal var partKeyRegistry = PartKeyRegistry()
        /// The manager's identity in snapshots (see ``ViewModel/Snapshot``).
        internal private(set) var identity: UInt64

        /// A snapshot of `manager`. Swift Observation tracking that makes
        /// one hears when sections or items are added, removed or replaced,
        /// not of changes to the items' keys.
        public init(_ manager: Manager) {
            var run = SnapshotRun()
            // Nothing is being taken yet, so nothing the manager holds
            // closes a cycle.
            self = run.snapshot(of: manager)!
            omitted = run.omitted
        }

        /// A snapshot of `manager`; `nil` when one of its ViewModels is
        /// being taken further up (it contains the manager: a cycle).
        internal init?(_ manager: Manager, run: inout SnapshotRun) {
            let held = manager.sections
            if let common = manager.common, run.isTaking(common) { return nil }
            guard !held.contains(where: { run.isTakingAny(of: $0) }) else { return nil }
            identity = SnapshotRun.newIdentity()
            run.beginTaking(manager)
            defer { run.endTaking(manager) }
            run.enter(.key("sections"))
            var taken: [Section.Snapshot] = []
            for (index, section) in held.enumerated() {
                run.enter(.index(index))
                // Checked above: none of its ViewModels is being taken.
                guard let snapshot = run.snapshot(of: section) else {
                    preconditionFailure("Manager.Snapshot: section \(index) closes a cycle after the check")
                }
                taken.append(snapshot)
                run.leave()
            }
            run.leave()
            sections = taken
            common = manager.common.map { run.snapshot(of: $0, at: .key("common")) }
            partKeyRegistry = manager.partKeyRegistry
        }

        /// A new manager, of the caller's isolation domain, made from the
        /// snapshot.
        public func makeManager() -> Manager {
            var assembly = SnapshotAssembly()
            return assembly.manager(from: self)
        }

        internal func makeManager(assembly: inout SnapshotAssembly) -> Manager {
            let manager = Manager(sections: sections.map { assembly.section(from: $0) }, common: common.map { assembly.viewModel(from: $0) })
            manager.partKeyRegistry = partKeyRegistry
            return manager
        }
    }

    /// A `Sendable` copy of the manager; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}
