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
/// path is built once per stored key (building one costs about a
/// microsecond) and kept with the value; every read then reports it to the
/// ViewModel's registrar through the public `access` call, which does
/// nothing outside tracking.
extension ViewModel: Observable {
    /// The value of `key`, as the observable property Swift Observation
    /// tracks for it. Reads the store without reporting the read.
    internal subscript(observed key: String) -> ViewModelValue? {
        storage[key]?.value
    }

    /// The key path Swift Observation knows `key` by.
    internal static func observedKeyPath(_ key: String) -> KeyPath<ViewModel, ViewModelValue?> {
        \ViewModel.[observed: key]
    }

    /// The registrar, allocated with the observation center on first use.
    internal var registrar: ObservationRegistrar {
        observationCenterAllocated().registrar
    }

    /// The first read of a stored key: builds and caches its key path, then
    /// reports the read.
    @inline(never)
    internal func trackFirstAccess(at index: Dictionary<String, Entry>.Index, key: String) {
        let keyPath = Self.observedKeyPath(key)
        storage.values[index].keyPath = keyPath
        registrar.access(self, keyPath: keyPath)
    }

    /// A read of a key that is not stored: reported too, so tracking code
    /// that finds a key absent hears when it is added. The key path is
    /// kept in the center until the key is stored.
    @inline(never)
    internal func trackAccessToAbsentKey(_ key: String) {
        let center = observationCenterAllocated()
        let keyPath: KeyPath<ViewModel, ViewModelValue?>
        if let cached = center.absentKeyPaths[key] {
            keyPath = cached
        } else {
            keyPath = Self.observedKeyPath(key)
            center.absentKeyPaths[key] = keyPath
        }
        center.registrar.access(self, keyPath: keyPath)
    }

    /// The key path of `key` when it has one (the key was read), for the
    /// write path's `willSet`/`didSet`.
    internal func existingKeyPath(forKey key: String) -> KeyPath<ViewModel, ViewModelValue?>? {
        if let keyPath = storage[key]?.keyPath { return keyPath }
        return observationCenter?.absentKeyPaths[key]
    }
}
