extension ViewModel {
    /// Takes the JSON value stored under `key` out of the store, so that a
    /// change to it (`vm["list"]?.append(x)`) is made in place instead of on
    /// a copy, or returns `nil` when the change must take the usual read and
    /// write: the key is absent or holds a payload, a command depends on a
    /// key, an observer or a batch is open, or Swift Observation read the key
    /// since its last change. In those cases someone may need the old value
    /// or hear of the change; otherwise no one would, so nothing is lost.
    ///
    /// `null` stands in the entry until ``putBack(_:forKey:)``.
    internal func takeForChangeInPlace(forKey key: String) -> JSONValue? {
        guard commandDependents.isEmpty, observationCenter?.isQuiet ?? true,
              let index = storage.index(forKey: key),
              !storage.values[index].isReadSinceChange,
              case .json = storage.values[index].value
        else { return nil }
        var taken = ViewModelValue.json(.null)
        swap(&storage.values[index].value, &taken)
        // Consumed, so the value taken is the only reference to its storage.
        switch consume taken {
        case .json(let value): return value
        case .payload: return nil
        }
    }

    /// Stores a value taken by ``takeForChangeInPlace(forKey:)`` and changed,
    /// or removes the key for `nil`.
    internal func putBack(_ value: consuming JSONValue?, forKey key: String) {
        if let value = consume value {
            assign(.json(value), forKey: key)
        } else {
            store(nil, forKey: key)
        }
    }
}
