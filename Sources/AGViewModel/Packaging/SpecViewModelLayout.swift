/// The storage layout shared by every ViewModel one field list packages:
/// the keys in field order, and a table from key to field index whose hash
/// layout each new ViewModel's storage copies.
///
/// Filling a new `Dictionary` hashes every key again for every object.
/// `mapValues` instead copies the table's buckets as they are and only
/// computes the values, so a ViewModel with all its fields costs no hashing
/// and shares the key list; a missing field costs one removal. (The copies
/// share the table's hash seed too, as any copy of a dictionary does.)
internal struct SpecViewModelLayout: Sendable {
    /// The fields' keys, in field order: a packaged ViewModel's key order
    /// when every field has a value.
    let keys: [String]
    /// Each key's field index.
    let fieldIndices: [String: Int]

    /// The layout of `keys`, which must be unique (a spec is checked for
    /// that when loaded).
    init(keys: [String]) {
        self.keys = keys
        var fieldIndices = [String: Int](minimumCapacity: keys.count)
        for (index, key) in keys.enumerated() { fieldIndices[key] = index }
        self.fieldIndices = fieldIndices
    }

    /// A ViewModel holding `values[i]` under `keys[i]` for each non-`nil`
    /// value, in field order. Moves every value out of `values`, which must
    /// hold one initialized value per key and is left uninitialized.
    func viewModel(movingValuesFrom values: UnsafeMutableBufferPointer<JSONValue?>) -> ViewModel {
        precondition(values.count == keys.count, "one value per key")
        // The shared key list, until a field turns out missing.
        var presentKeys = keys
        var missingKeys: [String] = []
        for index in values.indices {
            if case .none = values[index] {
                if missingKeys.isEmpty { presentKeys = Array(keys[..<index]) }
                missingKeys.append(keys[index])
            } else if !missingKeys.isEmpty {
                presentKeys.append(keys[index])
            }
        }
        guard let base = values.baseAddress else { return ViewModel() }
        // Every field index is in the table once, and `mapValues` calls its
        // closure once per element, so each value is moved out exactly once.
        var entries = fieldIndices.mapValues { index in
            ViewModel.Entry(.json((base + index).move() ?? .null))
        }
        for key in missingKeys { entries.removeValue(forKey: key) }
        return ViewModel(uncheckedKeys: presentKeys, entries: entries)
    }
}
