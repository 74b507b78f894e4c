extension Manager {
    /// A `Sendable` copy of a manager: its sections and common ViewModel,
    /// as ``Section/Snapshot``s and a ``ViewModel/Snapshot``, and the keys
    /// it registers for export and archives.
    ///
    /// Take one to diff on another task, or to export in the background:
    ///
    /// ```swift
    /// let snapshot = manager.snapshot
    /// let json = await Task.detached { snapshot.makeManager().exportJSON() }.value
    /// ```
    public struct Snapshot: Sendable {
        /// The sections, in order.
        public var sections: [Section.Snapshot]
        /// The values shared by the whole manager.
        public var common: ViewModel.Snapshot?
        /// The keys registered per part for export and archives.
        internal var partKeyRegistry = PartKeyRegistry()

        /// A snapshot of `manager`.
        public init(_ manager: Manager) {
            var visiting: Set<ObjectIdentifier> = []
            self.init(manager, visiting: &visiting)
        }

        internal init(_ manager: Manager, visiting: inout Set<ObjectIdentifier>) {
            visiting.insert(ObjectIdentifier(manager))
            defer { visiting.remove(ObjectIdentifier(manager)) }
            sections = manager.sections.map { Section.Snapshot($0, visiting: &visiting) }
            common = manager.common.map { ViewModel.Snapshot($0, visiting: &visiting) }
            partKeyRegistry = manager.partKeyRegistry
        }

        /// A new manager, of the caller's isolation domain, made from the
        /// snapshot.
        public func makeManager() -> Manager {
            let manager = Manager(sections: sections.map { $0.makeSection() }, common: common?.makeViewModel())
            manager.partKeyRegistry = partKeyRegistry
            return manager
        }
    }

    /// A `Sendable` copy of the manager; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}
