import Foundation

extension ViewModel {
    /// A `Sendable` copy of a ViewModel's keys and values, for what really
    /// crosses isolation domains: a change stream read on another task, an
    /// export on a background task, a value kept by an actor.
    ///
    /// ```swift
    /// let snapshot = book.snapshot               // on the main actor
    /// Task.detached {
    ///     let copy = snapshot.makeViewModel()    // a ViewModel of this task
    ///     print(copy.exportJSON())
    /// }
    /// ```
    ///
    /// A snapshot holds JSON values and copies of nested ViewModels, lists
    /// of them, sections and managers, keeping their shape: what the
    /// ViewModel holds in several places is taken once, and made once
    /// again by ``makeViewModel()``, as ``copy()`` keeps it. Other payloads
    /// (an image, a formatter, a URL) may not be `Sendable` and are left
    /// out, and so are lists of sections or of managers: ``omittedKeys``
    /// lists this ViewModel's keys left out, and ``omitted`` every payload
    /// left out, nested ones included, with its path. A key that leads back
    /// to a ViewModel being taken (a cycle) is left out: the whole list,
    /// section or manager holding it, and from a ViewModel held in several
    /// places, wherever it is held (listed once). The keys registered for
    /// export and archives and the index path are copied, so the copy
    /// writes what the original writes. Commands, weak slots, observers and the delegate belong to
    /// the running screen and are not copied; the values commands computed
    /// are, and a diff of the made copies leaves them out as it leaves out
    /// commands' outputs (see ``ChangeSet/init(from:to:identity:sectionIdentity:)``).
    ///
    /// Taking a snapshot recurses once per nested ViewModel: a 512 KB
    /// stack (Apple's default for secondary threads) holds chains of about
    /// 1,100 nested ViewModels in an optimized build, more than archives
    /// nest by default (512), and about 130 levels of ViewModels nested in
    /// sections; deeper chains need a larger stack. Making a ViewModel from
    /// a snapshot, and releasing a snapshot, recurse too: on a 512 KB stack
    /// releasing fails at about 1,500 nested ViewModels and making at
    /// about 400 levels of ViewModels in sections.
    public struct Snapshot: Sendable {
        /// A stored value, as a snapshot holds it.
        public indirect enum Value: Sendable {
            /// A JSON value.
            case json(JSONValue)
            /// A nested ViewModel.
            case viewModel(Snapshot)
            /// A list of ViewModels.
            case viewModels([Snapshot])
            /// A section.
            case section(Section.Snapshot)
            /// A manager.
            case manager(Manager.Snapshot)

            /// The JSON value, or `nil` for the other cases.
            public var json: JSONValue? {
                if case .json(let value) = self { return value }
                return nil
            }
        }

        /// What the snapshot holds, in one immutable object: a snapshot is
        /// copied often while it is taken, once per level of nesting, and
        /// a small one keeps those frames small.
        private final class Storage: Sendable {
            let keys: [String]
            let values: [String: Value]
            let omittedKeys: [String]
            let keyRegistry: KeyRegistry
            let indexPath: IndexPath?
            let identity: UInt64
            let commandKeys: Set<String>

            init(
                keys: [String], values: [String: Value], omittedKeys: [String],
                keyRegistry: KeyRegistry, indexPath: IndexPath?, identity: UInt64, commandKeys: Set<String>
            ) {
                (self.keys, self.values, self.omittedKeys) = (keys, values, omittedKeys)
                (self.keyRegistry, self.indexPath, self.identity) = (keyRegistry, indexPath, identity)
                self.commandKeys = commandKeys
            }
        }

        private let storage: Storage

        /// The keys in insertion order (omitted payloads left out).
        public var keys: [String] { storage.keys }
        /// The keys whose payload could not be copied into the snapshot, in
        /// order, and those of nested ViewModels that contain themselves.
        public var omittedKeys: [String] { storage.omittedKeys }
        /// Every payload left out of the snapshot, nested ones included,
        /// each with its path from this snapshot and why, where it was
        /// first found (a ViewModel held in several places is taken once).
        /// Listed by the snapshot that was taken; the nested snapshots in
        /// it list none.
        public private(set) var omitted: [SkippedPayload] = []
        /// The keys registered for export and archives.
        internal var keyRegistry: KeyRegistry { storage.keyRegistry }
        /// The ViewModel's index path.
        internal var indexPath: IndexPath? { storage.indexPath }
        /// The ViewModel's identity in snapshots: the snapshots of one
        /// ViewModel taken in one run share it.
        internal var identity: UInt64 { storage.identity }

        /// A snapshot of `viewModel`. Swift Observation tracking that makes
        /// one (`Observations { book.snapshot }`) hears of any change to the
        /// ViewModel's keys (not of changes inside nested ViewModels).
        public init(_ viewModel: ViewModel) {
            viewModel.trackReadOfEveryKey()
            var run = SnapshotRun()
            self.init(viewModel, run: &run)
            omitted = run.omitted
        }

        internal init(_ viewModel: ViewModel, run: inout SnapshotRun) {
            let identity = SnapshotRun.newIdentity()
            run.beginTaking(viewModel)
            defer { run.endTaking(viewModel) }
            var keys: [String] = [], values: [String: Value] = [:], omittedKeys: [String] = []
            keys.reserveCapacity(viewModel.keyOrder.count)
            for key in viewModel.keyOrder {
                guard let stored = viewModel.untrackedValue(forKey: key) else { continue }
                if case .json(let value) = stored {
                    keys.append(key)
                    values[key] = .json(value)
                    continue
                }
                run.enter(.key(key))
                if let value = Value(stored, run: &run) {
                    keys.append(key)
                    values[key] = value
                } else {
                    omittedKeys.append(key)
                }
                run.leave()
            }
            storage = Storage(
                keys: keys, values: values, omittedKeys: omittedKeys,
                keyRegistry: viewModel.keyRegistry, indexPath: viewModel.indexPathSlot, identity: identity,
                commandKeys: viewModel.commandOutputKeys)
        }

        /// The number of keys.
        public var count: Int { keys.count }

        /// Whether no key is stored.
        public var isEmpty: Bool { keys.isEmpty }

        /// The JSON value of `key`; `nil` when absent or not JSON.
        public subscript(key: String) -> JSONValue? {
            storage.values[key]?.json
        }

        /// The value of `key`, or `nil`.
        public subscript(value key: String) -> Value? {
            storage.values[key]
        }

        /// The JSON value of `key` read leniently as `V`, as the ViewModel
        /// reads it; `nil` when absent or unreadable. Nested
        /// ViewModels, sections and managers are read with
        /// ``subscript(value:)``. Where a string literal fits this and the
        /// JSON subscript, the JSON one is chosen, as on ViewModel.
        @_disfavoredOverload
        public subscript<V: ViewModelStorable>(key: ViewModel.Key<V>) -> V? {
            storage.values[key.name]?.json.flatMap { V.fromViewModelValue(.json($0)) }
        }

        /// The value of `key` read as `V`, or `fallback`.
        public subscript<V: ViewModelStorable>(key: ViewModel.Key<V>, default fallback: @autoclosure () -> V) -> V {
            self[key] ?? fallback()
        }

        /// The snapshot of the ViewModel nested under `key`, or `nil`
        /// (a string literal still reads JSON, as above).
        @_disfavoredOverload
        public subscript(key: ViewModel.Key<ViewModel>) -> Snapshot? {
            if case .viewModel(let nested)? = storage.values[key.name] { return nested }
            return nil
        }

        /// The snapshots of the list of ViewModels under `key`, or `nil`.
        @_disfavoredOverload
        public subscript(key: ViewModel.Key<[ViewModel]>) -> [Snapshot]? {
            if case .viewModels(let list)? = storage.values[key.name] { return list }
            return nil
        }

        /// The snapshot of the section nested under `key`, or `nil`.
        @_disfavoredOverload
        public subscript(key: ViewModel.Key<Section>) -> Section.Snapshot? {
            if case .section(let nested)? = storage.values[key.name] { return nested }
            return nil
        }

        /// The snapshot of the manager nested under `key`, or `nil`.
        @_disfavoredOverload
        public subscript(key: ViewModel.Key<Manager>) -> Manager.Snapshot? {
            if case .manager(let nested)? = storage.values[key.name] { return nested }
            return nil
        }

        /// A new ViewModel, of the caller's isolation domain, with the
        /// snapshot's keys and values (nested snapshots become ViewModels,
        /// sections and managers again, one for each object the original
        /// held, however many places held it, unless a section or manager
        /// snapshot was edited).
        public func makeViewModel() -> ViewModel {
            var assembly = SnapshotAssembly()
            return assembly.viewModel(from: self)
        }

        internal func makeViewModel(assembly: inout SnapshotAssembly) -> ViewModel {
            var stored: [String: ViewModelValue] = Dictionary(minimumCapacity: keys.count)
            for key in keys { stored[key] = storage.values[key]!.viewModelValue(assembly: &assembly) }
            let viewModel = ViewModel(uncheckedKeys: keys, values: stored)
            viewModel.keyRegistry = keyRegistry
            viewModel.indexPathSlot = indexPath
            viewModel.snapshotCommandKeys = storage.commandKeys
            return viewModel
        }
    }

    /// A `Sendable` copy of the keys and values; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}

extension ViewModel.Snapshot.Value {
    /// The snapshot of a stored value; `nil` for a payload that cannot be
    /// copied, or one that holds a ViewModel being taken further up (a
    /// cycle), recorded in `run`.
    internal init?(_ stored: ViewModelValue, run: inout SnapshotRun) {
        // Each kind in a function of its own: this frame is on the stack
        // once per level of nesting, so it holds only the dispatch.
        switch stored {
        case .json(let value):
            self = .json(value)
        case .payload(let nested as ViewModel):
            guard !run.isTaking(nested) else {
                run.omit(.cycle)
                return nil
            }
            self = .viewModel(run.snapshot(of: nested))
        case .payload(let payload):
            guard let value = Self.nestedContent(payload, run: &run) else { return nil }
            self = value
        }
    }

    /// The snapshot of a list, section or manager payload; `nil`, recorded
    /// in `run`, for one that cannot be copied or closes a cycle.
    @inline(never)
    private static func nestedContent(_ payload: Any, run: inout SnapshotRun) -> Self? {
        if let list = NestedContent.viewModelList(payload) {
            guard !list.contains(where: { run.isTaking($0) }) else {
                run.omit(.cycle)
                return nil
            }
            var copies: [ViewModel.Snapshot] = []
            copies.reserveCapacity(list.count)
            for (index, nested) in list.enumerated() {
                copies.append(run.snapshot(of: nested, at: .index(index)))
            }
            return .viewModels(copies)
        }
        switch payload {
        case let section as Section:
            guard !run.isTaking(section), let snapshot = run.snapshot(of: section) else {
                run.omit(.cycle)
                return nil
            }
            return .section(snapshot)
        case let manager as Manager:
            guard !run.isTaking(manager), let snapshot = run.snapshot(of: manager) else {
                run.omit(.cycle)
                return nil
            }
            return .manager(snapshot)
        default:
            run.omit(.unsupportedType(String(describing: type(of: payload))))
            return nil
        }
    }

    /// The value to store in a ViewModel made from the snapshot.
    internal func viewModelValue(assembly: inout SnapshotAssembly) -> ViewModelValue {
        switch self {
        case .json(let value): .json(value)
        case .viewModel(let snapshot): .payload(assembly.viewModel(from: snapshot))
        default: nestedPayload(assembly: &assembly)
        }
    }

    /// The list, section or manager made from the snapshot; in a function
    /// of its own, as ``init(_:run:)`` is split.
    @inline(never)
    private func nestedPayload(assembly: inout SnapshotAssembly) -> ViewModelValue {
        switch self {
        case .json(let value): .json(value)
        case .viewModel(let snapshot): .payload(assembly.viewModel(from: snapshot))
        case .viewModels(let snapshots): .payload(snapshots.map { assembly.viewModel(from: $0) })
        case .section(let snapshot): .payload(assembly.section(from: snapshot))
        case .manager(let snapshot): .payload(assembly.manager(from: snapshot))
        }
    }
}
