// Typed keys read raw API JSON too, so a hand-written packager can use the
// constants `agvm keys` generates from the same samples for both sides:
// `viewModel[.title] = status[.title]`.

extension JSONObject {
    /// The member named by the typed `key`, read leniently as `Value` (as
    /// `viewModel[key]` reads it: a number reads as text under a
    /// `Key<String>`, a numeric string as a number); `nil` when absent or
    /// not readable as `Value`.
    ///
    /// ```swift
    /// viewModel[.title] = status[.title]
    /// ```
    ///
    /// A string literal is a key too: when both fit, `object["title"]`
    /// reads the untyped `JSONValue`.
    @inlinable
    @_disfavoredOverload
    public subscript<Value: ViewModelStorable>(key: ViewModel.Key<Value>) -> Value? {
        self[key.name].flatMap { Value.fromViewModelValue(.json($0)) }
    }

    /// The member named by the typed `key` read as `Value`, or `fallback`
    /// when absent or unreadable.
    @inlinable
    @_disfavoredOverload
    public subscript<Value: ViewModelStorable>(
        key: ViewModel.Key<Value>, default fallback: @autoclosure () -> Value
    ) -> Value {
        self[key] ?? fallback()
    }
}

extension JSONValue {
    /// The member named by the typed `key` when this is an object, read
    /// leniently as `Value` (as `JSONObject` reads it); `nil` otherwise.
    @inlinable
    @_disfavoredOverload
    public subscript<Value: ViewModelStorable>(key: ViewModel.Key<Value>) -> Value? {
        objectValue?[key]
    }

    /// The member named by the typed `key` read as `Value`, or `fallback`.
    @inlinable
    @_disfavoredOverload
    public subscript<Value: ViewModelStorable>(
        key: ViewModel.Key<Value>, default fallback: @autoclosure () -> Value
    ) -> Value {
        self[key] ?? fallback()
    }
}

extension SafeJSONAccess {
    /// Reads the value under the typed `key` (one member, its name taken
    /// as it is, not as a path), or throws why it could not: missing, null
    /// or of the wrong type. For the fields a packager requires:
    ///
    /// ```swift
    /// viewModel[.id] = try status.read(.id)
    /// ```
    public func read<Value: JSONReadable>(_ key: ViewModel.Key<Value>) throws(JSONAccessError) -> Value {
        try read(Value.self, at: JSONPath(key: key.name))
    }
}
