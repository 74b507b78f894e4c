import Observation

/// A ViewModel takes part in Swift Observation key by key: code that reads
/// `viewModel["title"]` inside `withObservationTracking` (or a SwiftUI
/// `body`) is told when `title` changes, and not when another key changes.
///
/// ```swift
/// withObservationTracking {
///     titleLabel.text = viewModel.string(at: "title")
/// } onChange: {
///     // `title` is about to change
/// }
/// ```
///
/// Each key is its own observable property, identified by the key path
/// `\ViewModel.[observed: key]`: the key is the subscript's argument, so
/// two keys are two properties by the key path's own equality. The key
/// path of a key is built once per thread for all ViewModels (see
/// `ObservedKeyPaths`) and kept with the value on its first read; every
/// read then reports it to the ViewModel's registrar through the public
/// `access` call, which does nothing outside tracking.
extension ViewModel: Observable {
    /// The key path Swift Observation knows a key by. Immutable and built
    /// from a `String` argument, so one can be shared across isolation
    /// domains (see `ObservedKeyPaths`).
    internal typealias ObservedKeyPath = KeyPath<ViewModel, ViewModelValue?> & Sendable

    /// The value of `key`, as the observable property Swift Observation
    /// tracks for it. Reads the store without reporting the read.
    internal subscript(observed key: String) -> ViewModelValue? {
        storage[key]?.value
    }

    /// The key path Swift Observation knows `key` by.
    internal static func observedKeyPath(_ key: String) -> ObservedKeyPath {
        ObservedKeyPaths.current.keyPath(forKey: key)
    }

    /// The observable property of the set of keys: read by `keys`, `count`
    /// and whole-store reads, changed when a key is added or removed.
    internal static let keySetKeyPath: KeyPath<ViewModel, [String]> & Sendable = \ViewModel.keyOrder

    /// A read of the set of keys (`keys`, `count`).
    internal func trackKeySetAccess() {
        let center = observationCenterAllocated()
        center.isKeySetRead = true
        center.registrar.access(self, keyPath: Self.keySetKeyPath)
    }

    /// A read of the key set and of every key, for the public whole-store
    /// reads (a snapshot, an export): tracking code that makes one hears of
    /// any change. The library's own bulk reads stay untracked.
    internal func trackReadOfEveryKey() {
        trackKeySetAccess()
        for key in keyOrder { _ = storedValue(forKey: key) }
    }

    /// The registrar, allocated with the observation center on first use.
    internal var registrar: ObservationRegistrar {
        observationCenterAllocated().registrar
    }

    /// A read of a stored key that is the first since its last change:
    /// keeps its key path in the entry on the very first read, marks the
    /// entry read, then reports the read.
    @inline(never)
    internal func trackAccess(to entry: inout Entry, key: String) {
        let keyPath: ObservedKeyPath
        if let cached = entry.keyPath {
            keyPath = cached
        } else {
            keyPath = Self.observedKeyPath(key)
            entry.keyPath = keyPath
        }
        entry.isReadSinceChange = true
        registrar.access(self, keyPath: keyPath)
    }

    /// How many absent keys keep a key path of their own: reads of absent
    /// keys happen outside any tracking too (`contains` on a set of ids),
    /// so what each keeps must be bounded.
    internal static let absentKeyPathLimit = 256

    /// A read of a key that is not stored: reported too, so tracking code
    /// that finds a key absent hears when it is added. The key path is
    /// kept in the center until the key is stored; past
    /// ``absentKeyPathLimit`` keys, the read is one of the key set.
    @inline(never)
    internal func trackAccessToAbsentKey(_ key: String) {
        let center = observationCenterAllocated()
        let keyPath: ObservedKeyPath
        if let cached = center.absentKeyPaths[key] {
            keyPath = cached
        } else if center.absentKeyPaths.count < Self.absentKeyPathLimit {
            keyPath = ObservedKeyPaths.current.keyPath(forKey: key, caching: false)
            center.absentKeyPaths[key] = keyPath
        } else {
            // Past the limit (code probing many keys that never come), the
            // read is reported as a read of the key set: tracking code hears
            // when any key is added, and nothing more is kept per key.
            trackKeySetAccess()
            return
        }
        center.registrar.access(self, keyPath: keyPath)
    }

    /// The key path of `key` when a change of it must be reported to
    /// Observation (the key was read since its last reported change, or
    /// read while absent), for the write path's `willSet`/`didSet`.
    internal func reportedKeyPath(forKey key: String) -> ObservedKeyPath? {
        if let index = storage.index(forKey: key) { return storage.values[index].trackedKeyPath }
        guard let center = observationCenter, !center.absentKeyPaths.isEmpty else { return nil }
        return center.absentKeyPaths[key]
    }

    /// Records that `key` was read since its change, after the change added
    /// or removed it: in its new entry, or among the absent keys.
    internal func keepRead(forKey key: String, keyPath: ObservedKeyPath) {
        if let index = storage.index(forKey: key) {
            storage.values[index].keyPath = storage.values[index].keyPath ?? keyPath
            storage.values[index].isReadSinceChange = true
            observationCenter?.absentKeyPaths.removeValue(forKey: key)
        } else {
            observationCenter?.absentKeyPaths[key] = keyPath
        }
    }

    /// Marks `key` as not read since its change, before the change is
    /// reported: a read made while it is reported (an `onChange` handler
    /// that tracks again) marks it read again.
    internal func markChangeReported(forKey key: String) {
        if let index = storage.index(forKey: key) {
            storage.values[index].isReadSinceChange = false
        } else {
            observationCenter?.absentKeyPaths.removeValue(forKey: key)
        }
    }
}
