import Foundation

/// A keyed store for one view: display-ready values by key.
///
/// A ViewModel is a reference type: a cell, its controller and observers hold
/// the same instance. It stores JSON values and `Sendable` payloads (nested
/// ViewModels, images, formatters) by string key, in insertion order, and
/// reads them by string key, by typed key (`vm[.title]`, see
/// ``ViewModelKeys``) or by path with the safe getters
/// (`vm.int(at: "user.age", default: 0)`, see ``SafeJSONAccess``).
///
/// Around the store it keeps weak object slots, an index path, keyed
/// commands (derived values that recompute when the keys they depend on
/// change), a weakly held delegate for actions, and a weakly held binding
/// view with a size cache and refresh flags.
///
/// ## Concurrency
/// - **The data is thread-safe.** Every read and write of the store, the
///   weak slots, the index path and the commands takes an internal lock for
///   a short moment, so a ViewModel is `Sendable`: build one on a background
///   thread (packaging API data) and hand it to the main actor; read and
///   write it from several threads at once. Each key changes atomically;
///   multi-key operations (`merge`, `removeAll`) are a sequence of atomic
///   key changes.
/// - **No user code runs under the lock.** Key changes are reported, and
///   command bodies and undo closures run, on the calling thread after the
///   lock is released, so they may freely read and write ViewModels.
/// - **The UI parts are main actor.** The delegate and actions, the binding
///   view, the size cache and the refresh flags are `@MainActor`, like the
///   views they serve; the compiler enforces it.
public final class ViewModel: @unchecked Sendable {
    // Guards `values` and `keyOrder`. Storage that is only touched with the
    // lock held is marked `@exclusivity(unchecked)`: the lock already rules
    // out overlapping access, and the runtime check cost reads ~20%.
    internal let lock = Lock()
    @exclusivity(unchecked) internal var values: [String: ViewModelValue]
    @exclusivity(unchecked) internal var keyOrder: [String]

    // MARK: Weak slots, index path, keyed commands, UI state (issue 3)
    // Guarded by `lock`, like the store (see ViewModel+WeakSlots.swift,
    // ViewModel+IndexPath.swift, Commands/ViewModel+Commands.swift).
    internal var weakSlots: [String: WeakBox] = [:]
    internal var indexPathSlot: IndexPath? = nil
    @exclusivity(unchecked) internal var commandSlots: [String: CommandSlot] = [:]
    /// Dependency key → keys of the commands that depend on it.
    @exclusivity(unchecked) internal var commandDependents: [String: Set<String>] = [:]
    // Main-actor state: only touched on the main actor, so no lock (see
    // ViewModel+Actions.swift and ViewModel+Binding.swift).
    @MainActor internal weak var delegateSlot: (any ViewModelDelegate)?
    @MainActor internal weak var bindingViewSlot: (any ViewModelBindable)?
    @MainActor internal var sizeCache: SizeCache? = nil
    @MainActor internal var needsRefreshFlag = false
    @MainActor internal var needsCachedSizeFlag = false

    // MARK: Persisted-key registration (issue 6)
    // Keys registered for JSON export and archives; guarded by `lock` (see
    // Persistence/ViewModel+KeyRegistration.swift). Two empty arrays unless used.
    internal var keyRegistry = KeyRegistry()

    // MARK: Observation state (issue 4, see Observation/)
    // Observers, batches, Observation-framework tracking, change streams and
    // named notifications live here. Allocated on first use and guarded by
    // `lock`; while it is `nil` reads and writes take the fast path and a
    // ViewModel nobody observes pays nothing for observation.
    @exclusivity(unchecked) internal var observationCenter: ObservationCenter?

    /// An empty ViewModel.
    public init() {
        values = [:]
        keyOrder = []
    }

    /// A ViewModel holding the members of `object`, in order.
    public init(_ object: JSONObject) {
        values = Dictionary(minimumCapacity: object.count)
        keyOrder = []
        keyOrder.reserveCapacity(object.count)
        for (key, value) in object where values.updateValue(.json(value), forKey: key) == nil {
            keyOrder.append(key)
        }
    }

    /// The stored value for `key`, JSON or payload. Setting `nil` removes the key.
    public subscript(value key: String) -> ViewModelValue? {
        get { storedValue(forKey: key) }
        set { store(newValue, forKey: key) }
    }

    /// The JSON value for `key`; `nil` when absent or a payload. Setting
    /// `nil` removes the key.
    public subscript(key: String) -> JSONValue? {
        get { storedValue(forKey: key)?.json }
        set { store(newValue.map(ViewModelValue.json), forKey: key) }
    }

    /// The keys in insertion order.
    public var keys: [String] { lock.withLock { keyOrder } }

    /// The number of stored keys.
    public var count: Int { lock.withLock { keyOrder.count } }

    /// The single read path: every read of a key goes through here, so
    /// observation tracking can hook in at one place.
    @inline(__always)
    internal func storedValue(forKey key: String) -> ViewModelValue? {
        // Swift Observation (issue 4): registers the read inside
        // `withObservationTracking`; otherwise costs about what reading an
        // `@Observable` property costs (one registrar call).
        trackAccessForObservation(key)
        return lock.withLock { values[key] }
    }

    /// Stores `newValue` (or removes the key for `nil`) and reports the
    /// change. The single write path: every mutation goes through here.
    /// `isCurrent`, when given, runs under the lock and can cancel the
    /// write atomically (commands drop results computed from stale inputs).
    @discardableResult
    internal func store(_ newValue: ViewModelValue?, forKey key: String, onlyIf isCurrent: (() -> Bool)? = nil) -> ViewModelValue? {
        lock.lock()
        if let isCurrent, !isCurrent() {
            lock.unlock()
            return nil
        }
        // Observed ViewModels (observers, batch, tracking) take the
        // observation path, which also calls `keyDidChange` (issue 4).
        if let center = observationCenter {
            return center.store(newValue, forKey: key, in: self)   // releases the lock
        }
        let old = replaceValueLocked(newValue, forKey: key)
        lock.unlock()
        // Equal-value rule (issue 4): a set to a value that `isSame` as the
        // old one (or removing an absent key) is not a change.
        if ViewModelValue.isSame(old, newValue) { return old }
        keyDidChange(key, from: old, to: newValue)
        return old
    }

    /// Writes `newValue` (removes the key for `nil`) and returns the old
    /// value. Call with `lock` held.
    @inline(__always)
    internal func replaceValueLocked(_ newValue: ViewModelValue?, forKey key: String) -> ViewModelValue? {
        let old: ViewModelValue?
        if let newValue {
            old = values.updateValue(newValue, forKey: key)
            if old == nil { keyOrder.append(key) }
        } else {
            old = values.removeValue(forKey: key)
            if old != nil, let i = keyOrder.firstIndex(of: key) { keyOrder.remove(at: i) }
        }
        return old
    }

    /// Called once per real change of `key`, outside the lock.
    ///
    /// - Only real changes arrive here: a set to a value that
    ///   `ViewModelValue.isSame` as the old one is not a change.
    /// - Inside `performBatchUpdates` it is not called per set: when the
    ///   outermost batch ends it is called once per changed key, with the
    ///   first old and the last new value (keys restored to their old value
    ///   are skipped). So work done here, such as marking dependent
    ///   commands, happens once per batch.
    /// - Order: (1) dependent-command marking runs here; (2) observer
    ///   delivery (issue 4) runs right after this returns, in
    ///   `ObservationCenter` (it needs the observer snapshot taken under
    ///   the lock), so observers already see commands marked.
    internal func keyDidChange(_ key: String, from old: ViewModelValue?, to new: ViewModelValue?) {
        // (1) dependent-command marking (issue 3)
        markCommandsDepending(on: key)
        // (2) observer delivery (issue 4): follows in ObservationCenter.
    }
}
