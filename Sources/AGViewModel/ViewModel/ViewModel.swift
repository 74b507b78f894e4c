import Foundation

/// A keyed store for one view: display-ready values by key.
///
/// A ViewModel is a reference type: a cell, its controller and observers hold
/// the same instance. It stores JSON values and payloads (nested ViewModels,
/// images, formatters) by string key, in insertion order, and reads them by
/// string key, by typed key (`vm[.title]`, see ``Key``) or by path with the
/// safe getters (`vm.int(at: "user.age", default: 0)`, see
/// ``SafeJSONAccess``).
///
/// Around the store it keeps weak object slots, an index path, keyed
/// commands (derived values, marked stale when the keys they depend on
/// change and computed again by `executeCommandIfNeeded`), a weakly held
/// delegate for actions, and a weakly held binding
/// view with a size cache and refresh flags.
///
/// ## Isolation
/// A ViewModel is an ordinary, non-`Sendable` class without locks. It
/// belongs to one isolation domain at a time (the main actor for a cell's
/// ViewModel, a background task while packaging) and the compiler checks
/// that nobody else touches it. Build it anywhere and hand it over with a
/// `sending` result (`func load() async throws -> sending Manager`).
/// Observers, commands and delegates run synchronously in the owner's
/// domain, so a `@MainActor` cell updates itself from its handler. For what
/// must really be shared between domains, take a ``Snapshot``.
///
/// The UI parts (delegate and actions, binding view, size cache, refresh
/// flags) are `@MainActor`, like the views they serve.
public final class ViewModel {
    // `storage`, `commandDependents` and `observationCenter` are on every
    // read and write, so they skip the runtime's exclusivity checks (which
    // cost as much as the lookup itself). That is safe because each access
    // to them is a short read or in-place update that runs no user code:
    // replaced values are released after the access ends.

    /// The stored values by key, each with the key path Swift Observation
    /// tracks it by once it has been read (see ViewModel+Observable.swift).
    @exclusivity(unchecked) internal var storage: [String: Entry]
    internal var keyOrder: [String]

    // Weak slots, index path and keyed commands (see
    // ViewModel+WeakSlots.swift, ViewModel+IndexPath.swift,
    // Commands/ViewModel+Commands.swift).
    internal var weakSlots: [String: WeakBox] = [:]
    internal var indexPathSlot: IndexPath? = nil
    internal var commandSlots: [String: CommandSlot] = [:]
    /// Dependency key → keys of the commands that depend on it.
    @exclusivity(unchecked) internal var commandDependents: [String: Set<String>] = [:]
    /// The round of automatic commands running; `nil` when none is.
    internal var automaticCommandRound: AutomaticCommandRound? = nil
    /// What the rounds need to know of the commands, once asked; cleared
    /// when a command is set or removed.
    internal var commandGraphCache: CommandGraph? = nil
    /// The number of the latest claim of a command for a run (see
    /// `CommandSlot.claim`).
    internal var lastCommandClaim = 0
    /// For a ViewModel made from a snapshot: the keys of the commands the
    /// original had. The values under them are commands' outputs, which
    /// diffs leave out as they leave out those of commands set here.
    internal var snapshotCommandKeys: Set<String> = []
    // Main-actor state (see ViewModel+Actions.swift and ViewModel+Binding.swift).
    @MainActor internal weak var delegateSlot: (any ViewModelDelegate)?
    @MainActor internal weak var bindingViewSlot: (any ViewModelBindable)?
    @MainActor internal var sizeCache: SizeCache? = nil
    @MainActor internal var needsRefreshFlag = false
    @MainActor internal var needsCachedSizeFlag = false

    // Keys registered for JSON export and archives (see
    // Persistence/ViewModel+KeyRegistration.swift).
    internal var keyRegistry = KeyRegistry()

    // Observers, batches, the Observation registrar, change streams and
    // named notifications (see Observation/). Allocated on first use, so a
    // ViewModel nobody observes or tracks pays nothing for observation.
    @exclusivity(unchecked) internal var observationCenter: ObservationCenter?

    /// An empty ViewModel.
    public init() {
        storage = [:]
        keyOrder = []
    }

    /// An empty ViewModel with room for at least `minimumCapacity` keys, as
    /// `Dictionary(minimumCapacity:)`: a packager that knows how many keys
    /// it sets saves the storage's regrowth. More keys simply grow it.
    public init(minimumCapacity: Int) {
        storage = Dictionary(minimumCapacity: minimumCapacity)
        keyOrder = []
        keyOrder.reserveCapacity(minimumCapacity)
    }

    /// A ViewModel holding the members of `object`, in order.
    public init(_ object: JSONObject) {
        storage = Dictionary(minimumCapacity: object.count)
        keyOrder = []
        keyOrder.reserveCapacity(object.count)
        for (key, value) in object where storage.updateValue(Entry(.json(value)), forKey: key) == nil {
            keyOrder.append(key)
        }
    }

    deinit {
        // Tear nested ViewModels, sections and managers down iteratively:
        // releasing a deep tree (a ViewModel in a ViewModel, a million
        // levels) one deinit inside the next would overflow the stack.
        guard !storage.isEmpty else { return }
        var teardown = DeepTeardown()
        teardown.moveContents(of: &storage)
        teardown.run()
    }

    /// The stored value for `key`, JSON or payload. Setting `nil` removes the key.
    public subscript(value key: String) -> ViewModelValue? {
        get { storedValue(forKey: key) }
        set { assign(newValue, forKey: key) }
    }

    /// The JSON value for `key`; `nil` when absent or a payload. Setting
    /// `nil` removes the key.
    ///
    /// A change through the subscript (`vm["list"]?.append(x)`) is a read
    /// and a set: code that runs during it (the argument, when the change
    /// is chained with `?.`) reads the stored value. A change that finds no
    /// JSON under the key (absent, or a payload) and leaves the value `nil`
    /// writes nothing, so a payload stays; only `vm[key] = nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { storedValue(forKey: key)?.json }
        set {
            if let newValue { assign(.json(newValue), forKey: key) } else { store(nil, forKey: key) }
        }
        _modify {
            var value = storedValue(forKey: key)?.json
            // A get/set pair would write back `nil` when `?.` finds no JSON,
            // removing a payload stored under the key.
            let hadJSON = value != nil
            defer {
                if let value {
                    assign(.json(value), forKey: key)
                } else if hadJSON {
                    store(nil, forKey: key)
                }
            }
            yield &value
        }
    }

    /// The keys in insertion order. Observation tracking that reads them
    /// hears when a key is added or removed.
    public var keys: [String] {
        trackKeySetAccess()
        return keyOrder
    }

    /// The number of stored keys. Observation tracking that reads it hears
    /// when a key is added or removed.
    public var count: Int {
        trackKeySetAccess()
        return keyOrder.count
    }

    /// Whether no key is stored. Observation tracking that reads it hears
    /// when a key is added or removed.
    public var isEmpty: Bool {
        trackKeySetAccess()
        return keyOrder.isEmpty
    }

    /// The single read path: every read of a key goes through here, so
    /// Swift Observation hears of every read.
    @inline(__always)
    internal func storedValue(forKey key: String) -> ViewModelValue? {
        // One in-place access to the store for the lookup and the entry:
        // reading fields through the dictionary's getter would copy (retain
        // and release) the whole entry.
        readValue(forKey: key, in: &storage)
    }

    @inline(__always)
    private func readValue(forKey key: String, in storage: inout [String: Entry]) -> ViewModelValue? {
        guard let index = storage.index(forKey: key) else {
            trackAccessToAbsentKey(key)
            return nil
        }
        return readValue(of: &storage.values[index], key: key)
    }

    /// The value of `entry`, with the read reported to Observation.
    @inline(__always)
    private func readValue(of entry: inout Entry, key: String) -> ViewModelValue {
        if entry.isReadSinceChange, let center = observationCenter.map(Unmanaged.passUnretained) {
            // The center and the key path are kept alive by this ViewModel
            // and its entry: borrow them instead of retaining both per read.
            center._withUnsafeGuaranteedRef { center in
                Unmanaged.passUnretained(entry.keyPath.unsafelyUnwrapped)._withUnsafeGuaranteedRef { keyPath in
                    center.registrar.access(self, keyPath: keyPath)
                }
            }
        } else {
            trackAccess(to: &entry, key: key)
        }
        return entry.value
    }

    /// The stored value for `key`, not reported to Swift Observation: for
    /// the library's own bulk reads (export, archive, diff, copy).
    @inline(__always)
    internal func untrackedValue(forKey key: String) -> ViewModelValue? {
        storage[key]?.value
    }

    /// Edits the JSON stored under `key` where it is stored, for path
    /// edits: a copy would cost the whole value's size per edit, so a loop
    /// setting one member of each element of a large array would be
    /// quadratic. `isChange` tells from the current value whether `edit`
    /// changes it (an unchanged value is reported to no one). Only when
    /// nobody waits for a report but Swift Observation: no key observers,
    /// open batch or commands depending on keys. Returns `false`, having
    /// changed nothing, when those are there or the key holds no JSON;
    /// the caller then writes the edited copy.
    internal func editJSONInPlace(
        forKey key: String, isChange: (JSONValue) -> Bool, edit: (inout JSONValue) -> Void
    ) -> Bool {
        guard let index = editableJSONEntry(forKey: key) else { return false }
        // Asked in a function of its own: no reference to the value may
        // outlive the question, or the edit would copy it.
        func changes() -> Bool {
            guard case .json(let current) = storage.values[index].value else { return false }
            return isChange(current)
        }
        guard changes() else { return true }
        if let keyPath = storage.values[index].trackedKeyPath, let center = observationCenter {
            // Read since its last change: Observation is told around the
            // edit. Its willSet may run code (an `onChange`) that changes
            // this ViewModel. A read made then (tracking again) stays
            // recorded, as `ObservationCenter.store` keeps it. When key
            // observers, a batch or commands came, or the key holds another
            // value, the edited copy of the value before is written, as a
            // whole write stores what it computed before; inside this
            // report, so didSet follows the store.
            var before = storage.values[index].value.json ?? .null
            storage.values[index].isReadSinceChange = false
            center.registrar.willSet(self, keyPath: keyPath)
            defer { center.registrar.didSet(self, keyPath: keyPath) }
            func holdsBefore(_ index: Dictionary<String, Entry>.Index) -> Bool {
                guard case .json(let now) = storage.values[index].value else { return false }
                return now.hasSameRepresentation(as: before)
            }
            if let index = editableJSONEntry(forKey: key), holdsBefore(index) {
                before = .null                            // let go: the edit is then in place
                storage.values[index].value.editJSON(edit)
            } else {
                // Stored as the whole write's store after its willSet: the
                // report above is this change's only one (a scope the
                // `onChange` started, or a `didSet` scope, would hear a
                // second report from `self[key] = copy`), and a read made
                // meanwhile stays recorded for the next change.
                var copy = before
                before = .null
                edit(&copy)
                center.storeReported(.json(copy), forKey: key, in: self)
            }
            return true
        }
        storage.values[index].value.editJSON(edit)
        return true
    }

    /// The index of `key`'s entry when it holds JSON that can be edited in
    /// place (see ``editJSONInPlace(forKey:isChange:edit:)``).
    private func editableJSONEntry(forKey key: String) -> Dictionary<String, Entry>.Index? {
        guard commandDependents.isEmpty, observationCenter?.isQuiet ?? true,
              let index = storage.index(forKey: key), case .json = storage.values[index].value else { return nil }
        return index
    }

    /// The keys in order and their values, not reported to Swift Observation.
    internal var untrackedEntries: [(key: String, value: ViewModelValue)] {
        keyOrder.map { ($0, storage[$0]!.value) }
    }

    /// Stores `newValue` (or removes the key for `nil`) and reports the
    /// change. The single write path: every mutation goes through here.
    @discardableResult
    @inline(__always)
    internal func store(_ newValue: ViewModelValue?, forKey key: String) -> ViewModelValue? {
        // The common write: a stored key, not read since its last change,
        // that no observer or open batch waits for. One lookup; the values
        // are compared only when commands depend on keys.
        if let newValue, observationCenter?.isQuiet ?? true {
            var replaced = newValue
            if Self.replaceIfUnread(&replaced, forKey: key, in: &storage) {
                if !commandDependents.isEmpty, !ViewModelValue.isSame(replaced, newValue) {
                    keyDidChange(key, from: replaced, to: newValue)
                }
                return replaced
            }
        }
        return storeReportingChange(newValue, forKey: key)
    }

    /// A setter's write, the old value unused: the common case moves the
    /// new value in and the old one out, with no copies; every other case
    /// goes through `store(_:forKey:)`.
    @inline(__always)
    internal func assign(_ newValue: consuming ViewModelValue?, forKey key: String) {
        if newValue != nil, commandDependents.isEmpty, observationCenter?.isQuiet ?? true {
            var value = (consume newValue).unsafelyUnwrapped
            guard observationCenter != nil else {
                // Nothing has read, observed or tracked this ViewModel yet
                // (the first read of a key allocates the center), and no
                // command depends on keys: the write reports to no one, and
                // no entry holds a key path yet. So one lookup replaces the
                // value, or inserts a placeholder entry and swaps the value
                // in (how a packager fills a ViewModel).
                var inserted = false
                swap(&storage[key, default: { inserted = true; return Entry(.json(.null)) }()].value, &value)
                if inserted { keyOrder.append(key) }
                return
            }
            guard let index = storage.index(forKey: key) else {
                storeReportingChange(value, forKey: key)
                return
            }
            if storage.values[index].replaceIfUnread(&value) { return }
            store(value, forKey: key)
            return
        }
        store(newValue, forKey: key)
    }

    /// Every other write: new keys, removals, observed or batched keys and
    /// keys read since their last change.
    @inline(never)
    @discardableResult
    private func storeReportingChange(_ newValue: ViewModelValue?, forKey key: String) -> ViewModelValue? {
        // Observed ViewModels (observers, batch, tracking) take the
        // observation path, which also calls `keyDidChange`.
        if let center = observationCenter {
            return center.store(newValue, forKey: key, in: self)
        }
        let old = replaceValue(newValue, forKey: key)
        // Equal-value rule: a set to a value that `isSame` as the old one
        // (or removing an absent key) is not a change.
        if ViewModelValue.isSame(old, newValue) { return old }
        keyDidChange(key, from: old, to: newValue)
        return old
    }

    /// Swaps `value` into the entry of `key` when the key is stored and
    /// its change needs no report to Observation.
    @inline(__always)
    private static func replaceIfUnread(
        _ value: inout ViewModelValue, forKey key: String, in storage: inout [String: Entry]
    ) -> Bool {
        guard let index = storage.index(forKey: key) else { return false }
        return storage.values[index].replaceIfUnread(&value)
    }

    /// Writes `newValue` (removes the key for `nil`) and returns the old
    /// value. A key keeps its Observation key path while it is stored.
    @inline(__always)
    internal func replaceValue(_ newValue: ViewModelValue?, forKey key: String) -> ViewModelValue? {
        if let newValue {
            if let index = storage.index(forKey: key) {
                let old = storage.values[index].value
                storage.values[index].value = newValue
                return old
            }
            storage[key] = Entry(newValue)
            keyOrder.append(key)
            return nil
        }
        guard let old = storage.removeValue(forKey: key) else { return nil }
        // From the end: `removeAll` removes the last key first, which makes
        // each of its removals O(1) rather than a scan of every key.
        if let i = keyOrder.lastIndex(of: key) { keyOrder.remove(at: i) }
        return old.value
    }

    /// Called once per real change of `key`.
    ///
    /// - Only real changes arrive here: a set to a value that
    ///   `ViewModelValue.isSame` as the old one is not a change.
    /// - Inside `performBatchUpdates` it is called at each set too, so
    ///   commands marked here are never stale inside the batch; only
    ///   observer delivery waits for the batch to end.
    /// - Order: dependent commands are marked here; observer delivery
    ///   follows in `ObservationCenter`, so observers see commands marked.
    internal func keyDidChange(_ key: String, from old: ViewModelValue?, to new: ViewModelValue?) {
        markCommandsDepending(on: key)
    }
}

extension ViewModel {
    /// One stored value and, once the key has been read, the key path Swift
    /// Observation knows it by (cached here so a read costs one lookup).
    ///
    /// `isReadSinceChange` says whether the key was read since its last
    /// change was reported to Observation. Only such a change needs
    /// reporting: a `withObservationTracking` scope hears of the first
    /// change after its reads and then ends, and every new scope reads the
    /// key again. So repeated writes with no read in between skip
    /// Observation's `willSet`/`didSet`.
    internal struct Entry {
        var value: ViewModelValue
        var keyPath: ObservedKeyPath?
        var isReadSinceChange: Bool

        @inline(__always)
        init(_ value: ViewModelValue) {
            self.value = value
            self.keyPath = nil
            self.isReadSinceChange = false
        }

        /// A value stored with its key's key path, looked up beforehand.
        @inline(__always)
        init(_ value: ViewModelValue, keyPath: ObservedKeyPath) {
            self.value = value
            self.keyPath = keyPath
            self.isReadSinceChange = false
        }

        /// The key path, when a read since the last change already
        /// reported it.
        @inline(__always)
        var trackedKeyPath: ObservedKeyPath? {
            isReadSinceChange ? keyPath : nil
        }

        /// Stores `newValue` and hands back the old value in it, unless a
        /// change must be reported to Observation first.
        @inline(__always)
        mutating func replaceIfUnread(_ newValue: inout ViewModelValue) -> Bool {
            guard !isReadSinceChange else { return false }
            swap(&value, &newValue)
            return true
        }
    }
}
