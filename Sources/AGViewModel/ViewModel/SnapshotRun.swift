import Synchronization

/// One run of taking snapshots of a graph of ViewModels, sections and
/// managers: what is being taken (so a cycle is left out, not followed)
/// and what was taken (so an object held in several places is taken once,
/// keeping the graph's shape, in time linear in its size).
internal struct SnapshotRun {
    private var visiting: Set<ObjectIdentifier> = []
    private var viewModels: [ObjectIdentifier: ViewModel.Snapshot] = [:]
    private var sections: [ObjectIdentifier: Section.Snapshot] = [:]
    private var managers: [ObjectIdentifier: Manager.Snapshot] = [:]
    /// Where the value being taken sits, from the run's first snapshot.
    private var path: [JSONPath.Component] = []
    /// Every payload left out so far, where it was first found.
    private(set) var omitted: [SkippedPayload] = []

    /// A new identity, unique in the process: a snapshot keeps the
    /// identity of its object, so the objects made from snapshots are
    /// shared where the originals were.
    static func newIdentity() -> UInt64 {
        nextIdentity.add(1, ordering: .relaxed).newValue
    }

    /// Whether `object` is being taken further up: taking it again would
    /// not end.
    func isTaking(_ object: AnyObject) -> Bool {
        visiting.contains(ObjectIdentifier(object))
    }

    /// Whether `section` is being taken further up, or holds a ViewModel
    /// that is (as an item, or as its header, footer, common or item-merge
    /// ViewModel): the section contains it, a cycle.
    func isTakingAny(of section: Section) -> Bool {
        isTaking(section) || section.items.contains { isTaking($0) }
            || section.slotViewModels.contains { $0.viewModel.map { isTaking($0) } ?? false }
    }

    /// Records that `object` is being taken, until ``endTaking(_:)``.
    mutating func beginTaking(_ object: AnyObject) {
        visiting.insert(ObjectIdentifier(object))
    }

    /// Records that `object` is taken.
    mutating func endTaking(_ object: AnyObject) {
        visiting.remove(ObjectIdentifier(object))
    }

    /// Moves one step down, to the value at `component`, until ``leave()``.
    mutating func enter(_ component: JSONPath.Component) {
        path.append(component)
    }

    /// Moves back up one step.
    mutating func leave() {
        path.removeLast()
    }

    /// Records that the value where the run is was left out.
    mutating func omit(_ reason: SkippedPayload.Reason) {
        omitted.append(SkippedPayload(path: JSONPath(path), reason: reason))
    }

    /// The snapshot of the ViewModel at `component`, one step down.
    mutating func snapshot(of viewModel: ViewModel, at component: JSONPath.Component) -> ViewModel.Snapshot {
        enter(component)
        defer { leave() }
        return snapshot(of: viewModel)
    }

    /// The snapshot of `viewModel`, taken once per run.
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func snapshot(of viewModel: ViewModel) -> ViewModel.Snapshot {
        if let done = viewModels[ObjectIdentifier(viewModel)] { return done }
        let snapshot = ViewModel.Snapshot(viewModel, run: &self)
        viewModels[ObjectIdentifier(viewModel)] = snapshot
        return snapshot
    }

    /// The snapshot of `section`, taken once per run; `nil` when it holds
    /// a ViewModel being taken further up (a cycle).
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func snapshot(of section: Section) -> Section.Snapshot? {
        if let done = sections[ObjectIdentifier(section)] { return done }
        guard let snapshot = Section.Snapshot(section, run: &self) else { return nil }
        sections[ObjectIdentifier(section)] = snapshot
        return snapshot
    }

    /// The snapshot of `manager`, taken once per run; `nil` when it holds
    /// a ViewModel being taken further up (a cycle).
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func snapshot(of manager: Manager) -> Manager.Snapshot? {
        if let done = managers[ObjectIdentifier(manager)] { return done }
        guard let snapshot = Manager.Snapshot(manager, run: &self) else { return nil }
        managers[ObjectIdentifier(manager)] = snapshot
        return snapshot
    }
}

private let nextIdentity = Atomic<UInt64>(0)

/// Objects made from snapshots: one per snapshot identity, so what the
/// originals shared is shared again.
internal struct SnapshotAssembly {
    private var viewModels: [UInt64: ViewModel] = [:]
    private var sections: [UInt64: Section] = [:]
    private var managers: [UInt64: Manager] = [:]

    /// The ViewModel made from `snapshot`, made once.
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func viewModel(from snapshot: ViewModel.Snapshot) -> ViewModel {
        if let made = viewModels[snapshot.identity] { return made }
        let made = snapshot.makeViewModel(assembly: &self)
        viewModels[snapshot.identity] = made
        return made
    }

    /// The section made from `snapshot`, made once.
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func section(from snapshot: Section.Snapshot) -> Section {
        if let made = sections[snapshot.identity] { return made }
        let made = snapshot.makeSection(assembly: &self)
        sections[snapshot.identity] = made
        return made
    }

    /// The manager made from `snapshot`, made once.
    // Not inlined: the recursion through nested snapshots keeps its
    // frames small.
    @inline(never)
    mutating func manager(from snapshot: Manager.Snapshot) -> Manager {
        if let made = managers[snapshot.identity] { return made }
        let made = snapshot.makeManager(assembly: &self)
        managers[snapshot.identity] = made
        return made
    }
}
