/// A keyed store for one view: display-ready values by key.
///
/// A ViewModel is a reference type: a cell, its controller and observers hold
/// the same instance. It stores JSON values and `Sendable` payloads by
/// string key, in insertion order.
///
/// ## Concurrency
/// A ViewModel is safe to use from any thread: every read and write of its
/// storage is guarded by an internal lock, so it is `Sendable` and can be
/// built on a background thread and handed to the main actor. Change
/// delivery to observers happens on the thread that made the change, after
/// the lock is released.
public final class ViewModel: @unchecked Sendable {
    // Guards `values` and `keyOrder`.
    internal let lock = Lock()
    internal var values: [String: ViewModelValue]
    internal var keyOrder: [String]

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
        lock.withLock { values[key] }
    }

    /// Stores `newValue` (or removes the key for `nil`) and reports the
    /// change. The single write path: every mutation goes through here.
    @discardableResult
    internal func store(_ newValue: ViewModelValue?, forKey key: String) -> ViewModelValue? {
        lock.lock()
        let old: ViewModelValue?
        if let newValue {
            old = values.updateValue(newValue, forKey: key)
            if old == nil { keyOrder.append(key) }
        } else {
            old = values.removeValue(forKey: key)
            if old != nil, let i = keyOrder.firstIndex(of: key) { keyOrder.remove(at: i) }
        }
        lock.unlock()
        keyDidChange(key, from: old, to: newValue)
        return old
    }

    /// Called after every change, outside the lock. Observation, dependent
    /// commands and the Observation framework hook in here.
    internal func keyDidChange(_ key: String, from old: ViewModelValue?, to new: ViewModelValue?) {
    }
}
