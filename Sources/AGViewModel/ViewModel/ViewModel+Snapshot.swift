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
    /// of them, sections and managers. Other payloads (an image, a
    /// formatter) may not be `Sendable` and are left out; their keys are
    /// listed in ``omittedKeys``. The keys registered for export and
    /// archives are copied, so the copy writes what the original writes.
    /// Commands, weak slots, observers and the delegate belong to the
    /// running screen and are not copied.
    ///
    /// Taking a snapshot recurses once per nested ViewModel: a 512 KB
    /// stack (Apple's default for secondary threads) holds chains of about
    /// 600 nested ViewModels in an optimized build, more than archives nest
    /// by default (512); deeper chains need a larger stack.
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

        /// The keys in insertion order (omitted payloads left out).
        public private(set) var keys: [String] = []
        private var values: [String: Value] = [:]
        /// The keys whose payload could not be copied into the snapshot, in
        /// order, and nested ViewModels that contain themselves.
        public private(set) var omittedKeys: [String] = []
        /// The keys registered for export and archives.
        internal var keyRegistry = KeyRegistry()

        /// A snapshot of `viewModel`. Swift Observation tracking that makes
        /// one (`Observations { book.snapshot }`) hears of any change to the
        /// ViewModel's keys (not of changes inside nested ViewModels).
        public init(_ viewModel: ViewModel) {
            viewModel.trackReadOfEveryKey()
            var visiting: Set<ObjectIdentifier> = []
            self.init(viewModel, visiting: &visiting)
        }

        internal init(_ viewModel: ViewModel, visiting: inout Set<ObjectIdentifier>) {
            visiting.insert(ObjectIdentifier(viewModel))
            defer { visiting.remove(ObjectIdentifier(viewModel)) }
            keys.reserveCapacity(viewModel.keyOrder.count)
            keyRegistry = viewModel.keyRegistry
            for key in viewModel.keyOrder {
                guard let stored = viewModel.untrackedValue(forKey: key) else { continue }
                if let value = Value(stored, visiting: &visiting) {
                    keys.append(key)
                    values[key] = value
                } else {
                    omittedKeys.append(key)
                }
            }
        }

        /// The number of keys.
        public var count: Int { keys.count }

        /// The JSON value of `key`; `nil` when absent or not JSON.
        public subscript(key: String) -> JSONValue? {
            values[key]?.json
        }

        /// The value of `key`, or `nil`.
        public subscript(value key: String) -> Value? {
            values[key]
        }

        /// The JSON value of `key` read leniently as `V`, as the ViewModel
        /// reads it; `nil` when absent or unreadable. Nested
        /// ViewModels, sections and managers are read with
        /// ``subscript(value:)``. Where a string literal fits this and the
        /// JSON subscript, the JSON one is chosen, as on ViewModel.
        @_disfavoredOverload
        public subscript<V: ViewModelStorable>(key: ViewModel.Key<V>) -> V? {
            values[key.name]?.json.flatMap { V.fromViewModelValue(.json($0)) }
        }

        /// The value of `key` read as `V`, or `fallback`.
        public subscript<V: ViewModelStorable>(key: ViewModel.Key<V>, default fallback: @autoclosure () -> V) -> V {
            self[key] ?? fallback()
        }

        /// A new ViewModel, of the caller's isolation domain, with the
        /// snapshot's keys and values (nested snapshots become ViewModels,
        /// sections and managers again).
        public func makeViewModel() -> ViewModel {
            var stored: [String: ViewModelValue] = Dictionary(minimumCapacity: keys.count)
            for key in keys { stored[key] = values[key]!.viewModelValue() }
            let viewModel = ViewModel(uncheckedKeys: keys, values: stored)
            viewModel.keyRegistry = keyRegistry
            return viewModel
        }
    }

    /// A `Sendable` copy of the keys and values; see ``Snapshot``.
    public var snapshot: Snapshot { Snapshot(self) }
}

extension ViewModel.Snapshot.Value {
    /// The snapshot of a stored value; `nil` for a payload that cannot be
    /// copied (or a ViewModel that contains itself).
    internal init?(_ stored: ViewModelValue, visiting: inout Set<ObjectIdentifier>) {
        if case .payload(let payload) = stored, let list = NestedContent.viewModelList(payload) {
            var copies: [ViewModel.Snapshot] = []
            copies.reserveCapacity(list.count)
            for nested in list {
                guard !visiting.contains(ObjectIdentifier(nested)) else { return nil }
                copies.append(ViewModel.Snapshot(nested, visiting: &visiting))
            }
            self = .viewModels(copies)
            return
        }
        switch stored {
        case .json(let value):
            self = .json(value)
        case .payload(let nested as ViewModel):
            guard !visiting.contains(ObjectIdentifier(nested)) else { return nil }
            self = .viewModel(ViewModel.Snapshot(nested, visiting: &visiting))
        case .payload(let section as Section):
            guard !visiting.contains(ObjectIdentifier(section)) else { return nil }
            self = .section(Section.Snapshot(section, visiting: &visiting))
        case .payload(let manager as Manager):
            guard !visiting.contains(ObjectIdentifier(manager)) else { return nil }
            self = .manager(Manager.Snapshot(manager, visiting: &visiting))
        case .payload:
            return nil
        }
    }

    /// The value to store in a ViewModel made from the snapshot.
    internal func viewModelValue() -> ViewModelValue {
        switch self {
        case .json(let value): .json(value)
        case .viewModel(let snapshot): .payload(snapshot.makeViewModel())
        case .viewModels(let snapshots): .payload(snapshots.map { $0.makeViewModel() })
        case .section(let snapshot): .payload(snapshot.makeSection())
        case .manager(let snapshot): .payload(snapshot.makeManager())
        }
    }
}
