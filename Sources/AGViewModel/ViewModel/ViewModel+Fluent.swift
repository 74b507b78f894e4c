// Chainable setters: each returns the ViewModel, so a ViewModel can be
// built in one expression. Merges, weak slots, commands, the delegate, the
// binding view and the refresh and size flags have chainable methods in
// their own files (`merge`, `setWeakObject`, `setCommand`, `setDelegate`,
// `bind`, `setNeedsRefresh`, `setNeedsCachedSize`, `update`, `refresh`).
//
// ```swift
// let viewModel = ViewModel(json)
//     .set(.subtitle, to: "New")
//     .set("badge", to: 3)
//     .setCommand(for: .formattedPrice, dependsOn: .price) { vm in ... }
// ```
extension ViewModel {
    /// Sets `value` under the typed `key` (`nil` removes it). Returns the
    /// ViewModel, for chaining.
    @discardableResult
    public func set<Value: ViewModelStorable>(_ key: Key<Value>, to value: Value?) -> ViewModel {
        store(value?.viewModelValue, forKey: key.name)
        return self
    }

    /// Sets `value` under `key` in its natural stored form (`nil` removes
    /// it). Returns the ViewModel, for chaining.
    @discardableResult
    public func set<Value: ViewModelStorable>(_ key: String, to value: Value?) -> ViewModel {
        store(value?.viewModelValue, forKey: key)
        return self
    }

    /// Stores `payload` (any value that is not JSON: an image, a formatter,
    /// a nested ViewModel) under `key`; it belongs to the ViewModel's
    /// isolation domain, as the ViewModel does. Returns the ViewModel, for
    /// chaining.
    @discardableResult
    public func set(_ key: String, payload: Any) -> ViewModel {
        store(.payload(payload), forKey: key)
        return self
    }
}
