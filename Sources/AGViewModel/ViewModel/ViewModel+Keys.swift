extension ViewModel {
    /// The value under `key`, read leniently as `Value`; `nil` when absent
    /// or not readable as `Value`. Setting `nil` removes the key.
    ///
    /// ```swift
    /// extension ViewModelKeys { static let title = VMKey<String>("title") }
    /// viewModel[.title] = "Swift"
    /// let title = viewModel[.title]  // "Swift"
    /// ```
    public subscript<Value>(key: VMKey<Value>) -> Value? {
        get { storedValue(forKey: key.name).flatMap(Value.fromViewModelValue) }
        set { store(newValue?.viewModelValue, forKey: key.name) }
    }

    /// The value under `key`, or `fallback` when absent or unreadable.
    public subscript<Value>(key: VMKey<Value>, default fallback: @autoclosure () -> Value) -> Value {
        storedValue(forKey: key.name).flatMap(Value.fromViewModelValue) ?? fallback()
    }

    /// The payload under `key` when it has type `T`, else `nil`.
    public func payload<T: Sendable>(forKey key: String, as type: T.Type = T.self) -> T? {
        storedValue(forKey: key)?.payload as? T
    }

    /// Whether a value (JSON or payload) is stored under `key`.
    public func contains(_ key: String) -> Bool {
        storedValue(forKey: key) != nil
    }

    /// Whether a value is stored under `key`.
    public func contains(_ key: ViewModelKeys) -> Bool {
        contains(key.name)
    }
}
