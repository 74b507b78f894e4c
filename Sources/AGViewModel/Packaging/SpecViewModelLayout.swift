/// The storage layouts shared by the ViewModels one field list packages:
/// the keys in field order, and tables from key to field index whose hash
/// layout each new ViewModel's storage copies.
///
/// Filling a new `Dictionary` hashes every key again for every object.
/// `mapValues` instead copies the table's buckets as they are and only
/// computes the values, so a ViewModel costs no hashing and shares its key
/// list. A ViewModel with every field, or with all but one (an optional
/// field absent from some objects, the common case), copies a table made
/// for it up front; one missing two or more fields copies the full table
/// and removes the missing keys. (The copies share the tables' hash seeds
/// too, as any copy of a dictionary does.) Each value is stored with its
/// key's Observation key path, looked up once here, so a cell's first read
/// of a packaged ViewModel's key looks nothing up.
internal struct SpecViewModelLayout: Sendable {
    /// Keys in field order and each key's field index.
    struct Table: Sendable {
        let keys: [String]
        let fieldIndices: [String: Int]

        init(keys: [String], skipping skipped: Int? = nil) {
            var fieldIndices = [String: Int](minimumCapacity: keys.count)
            var present: [String] = []
            present.reserveCapacity(keys.count)
            for (index, key) in keys.enumerated() where index != skipped {
                fieldIndices[key] = index
                present.append(key)
            }
            self.keys = present
            self.fieldIndices = fieldIndices
        }
    }

    /// Every field.
    let full: Table
    /// The Observation key path of each field's key, by field index.
    let keyPaths: [ViewModel.ObservedKeyPath]
    /// Element `i`: every field but field `i`; empty for field lists
    /// longer than ``maximumFieldCountForTablesWithoutOneField``.
    let tablesWithoutOneField: [Table]

    /// The longest field list that gets a table per missing field: the
    /// tables take memory quadratic in the number of fields.
    static let maximumFieldCountForTablesWithoutOneField = 32

    /// The layout of `keys`, which must be unique (a spec is checked for
    /// that when loaded).
    init(keys: [String]) {
        full = Table(keys: keys)
        keyPaths = keys.map(ViewModel.observedKeyPath)
        tablesWithoutOneField = keys.count <= Self.maximumFieldCountForTablesWithoutOneField
            ? keys.indices.map { Table(keys: keys, skipping: $0) } : []
    }

    /// A ViewModel holding `values[i]` under field `i`'s key for each
    /// non-`nil` value, in field order. Moves every value out of `values`,
    /// which must hold one initialized value per key and is left
    /// uninitialized.
    func viewModel(movingValuesFrom values: UnsafeMutableBufferPointer<JSONValue?>) -> ViewModel {
        precondition(values.count == full.keys.count, "one value per key")
        guard let base = values.baseAddress else { return ViewModel() }
        var firstMissing = -1
        var missingCount = 0
        for index in values.indices {
            if case .none = values[index] {
                if missingCount == 0 { firstMissing = index }
                missingCount += 1
            }
        }
        // The table made for this pattern of missing fields, if any.
        let madeForPattern: Table? = switch missingCount {
        case 0: full
        case 1 where !tablesWithoutOneField.isEmpty: tablesWithoutOneField[firstMissing]
        default: nil
        }
        let table = madeForPattern ?? full
        let presentKeys: [String]
        var missingKeys: [String] = []
        if let madeForPattern {
            presentKeys = madeForPattern.keys
        } else {
            // Which keys stay, read before the values are moved out.
            var kept: [String] = []
            kept.reserveCapacity(full.keys.count - missingCount)
            for index in values.indices {
                if case .none = values[index] { missingKeys.append(full.keys[index]) } else { kept.append(full.keys[index]) }
            }
            presentKeys = kept
        }
        // Every field index is in the table at most once, and `mapValues`
        // calls its closure once per element, so each value is moved out
        // exactly once; a missing value is `nil`, so leaving it in place or
        // moving it out costs nothing.
        var entries = table.fieldIndices.mapValues { index in
            ViewModel.Entry(.json((base + index).move() ?? .null), keyPath: keyPaths[index])
        }
        for key in missingKeys { entries.removeValue(forKey: key) }
        return ViewModel(uncheckedKeys: presentKeys, entries: entries)
    }
}
