extension ViewModel {
    /// A ViewModel filled in one step from keys the caller guarantees are
    /// unique and all present in `values`. Used by decoders and packagers to
    /// skip the per-key write path: a new ViewModel has no observers yet.
    internal convenience init(uncheckedKeys keys: [String], values: [String: ViewModelValue]) {
        self.init(uncheckedKeys: keys, entries: values.mapValues(Entry.init))
    }

    /// ``init(uncheckedKeys:values:)`` with the entries already made.
    internal convenience init(uncheckedKeys keys: [String], entries: [String: Entry]) {
        self.init()
        self.keyOrder = keys
        self.storage = entries
    }

    /// The stored values by key, not reported to Swift Observation (a view
    /// of the store, not a copy).
    internal var values: StoredValues {
        StoredValues(storage: storage)
    }

    /// A new ViewModel with this one's keys and values (nothing else).
    internal func copyOfStore() -> ViewModel {
        let copy = ViewModel()
        copy.keyOrder = keyOrder
        copy.storage = storage.mapValues { Entry($0.value) }
        return copy
    }

    /// The keys in order and their values.
    internal var storageSnapshot: (keys: [String], values: StoredValues) {
        (keyOrder, values)
    }
}

/// The stored values of a ViewModel by key, for the library's bulk reads
/// (export, archive, diff, packaging): no Observation reports.
internal struct StoredValues {
    let storage: [String: ViewModel.Entry]

    /// The number of stored keys.
    var count: Int { storage.count }

    /// The value of `key`, or `nil`.
    @inline(__always)
    subscript(key: String) -> ViewModelValue? { storage[key]?.value }
}
