// Small local merge helpers for grouping (item-merge ViewModels and bulk
// "update then refresh"). Named apart from the ViewModel's own public merge
// API (issue 3) so both can coexist; they go through the single write path.
extension ViewModel {
    /// Stores every value of `source` into this ViewModel, replacing values
    /// under equal keys, in `source`'s key order.
    internal func storeValues(of source: ViewModel) {
        guard source !== self else { return }
        let (order, values) = source.lock.withLock { (source.keyOrder, source.values) }
        for key in order {
            if let value = values[key] { store(value, forKey: key) }
        }
    }

    /// Stores every member of `object`, replacing values under equal keys.
    internal func storeValues(of object: JSONObject) {
        for (key, value) in object { store(.json(value), forKey: key) }
    }
}
