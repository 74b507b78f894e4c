extension ViewModel {
    /// The value under `key`, read leniently as `Value`; `nil` when absent
    /// or not readable as `Value`. Setting `nil` removes the key.
    ///
    /// ```swift
    /// extension ViewModel.Key where Value == String { static var title: Self { "title" } }
    /// viewModel[.title] = "Swift"
    /// let title = viewModel[.title]  // "Swift"
    /// ```
    ///
    /// A string literal is a key too, so `viewModel["tags"]` could read
    /// either way: when both fit, the untyped `subscript(_: String)`
    /// is chosen, so a comparison such as `items.map { $0["tags"] } ==
    /// [["a"], nil]` compares JSON and does not read an object as `nil`.
    @inlinable
    @_disfavoredOverload
    public subscript<Value: ViewModelStorable>(key: Key<Value>) -> Value? {
        get { typedRead(forKey: key.name).flatMap(Value.fromViewModelValue) }
        set { typedWrite(newValue?.viewModelValue, forKey: key.name) }
    }

    /// The value under `key`, or `fallback` when absent or unreadable.
    @inlinable
    public subscript<Value: ViewModelStorable>(key: Key<Value>, default fallback: @autoclosure () -> Value) -> Value {
        typedRead(forKey: key.name).flatMap(Value.fromViewModelValue) ?? fallback()
    }

    /// The payload under `key` when it casts to `T` (Swift's `as?`), else
    /// `nil`. As with `as?`, an empty array casts to every array type: an
    /// empty `[Image]` reads as an empty `[ViewModel]`. A typed key tells
    /// them apart (`vm[Key<[ViewModel]>("images")]` is `nil`).
    public func payload<T>(forKey key: String, as type: T.Type = T.self) -> T? {
        storedValue(forKey: key)?.payload as? T
    }

    /// Whether a value (JSON or payload) is stored under `key`.
    public func contains(_ key: String) -> Bool {
        storedValue(forKey: key) != nil
    }

    /// Whether a value is stored under `key`.
    public func contains<Value>(_ key: Key<Value>) -> Bool {
        contains(key.name)
    }

    // Typed access is generic: the subscripts are inlinable so they are
    // specialized for the key's type in the caller (no generic metadata
    // lookups per access), and reach the single read and write paths
    // through these entry points.

    /// `storedValue(forKey:)`, for inlinable typed reads.
    @usableFromInline
    internal func typedRead(forKey key: String) -> ViewModelValue? {
        storedValue(forKey: key)
    }

    /// `store(_:forKey:)`, for inlinable typed writes.
    @usableFromInline
    internal func typedWrite(_ value: ViewModelValue?, forKey key: String) {
        assign(value, forKey: key)
    }
}
