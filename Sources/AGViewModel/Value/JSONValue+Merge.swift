/// Deep merge: combining a value with an update, such as a partial API
/// response or a settings override.
///
/// The policy:
/// - **Objects merge recursively.** Members of both sides are merged key by
///   key; members only in `self` stay where they are, members only in
///   `other` are appended in `other`'s order.
/// - **Everything else: `other` wins.** Arrays are replaced as a whole (not
///   concatenated, not merged by index), scalars are replaced, and an
///   object meeting a non-object is replaced.
/// - **`null` is a value**: a `null` in `other` sets `null`, it does not
///   delete the member (unlike JSON Merge Patch, RFC 7396). Remove members
///   with ``JSONValue/removeValue(at:)-(JSONPath)``.
///
/// ```swift
/// var settings: JSONValue = ["theme": ["color": "blue", "size": 12], "tags": ["a"]]
/// settings.merge(["theme": ["size": 14], "tags": ["b"]])
/// // {"theme":{"color":"blue","size":14},"tags":["b"]}
/// ```
extension JSONValue {
    /// Merges `other` into this value by the deep-merge policy above.
    public mutating func merge(_ other: JSONValue) {
        guard case .object(let update) = other, case .object(var object) = self else {
            self = other
            return
        }
        self = .null  // drop our reference so `object` mutates in place
        object.merge(update)
        self = .object(object)
    }

    /// This value with `other` merged in by the deep-merge policy above.
    public func merging(_ other: JSONValue) -> JSONValue {
        var result = self
        result.merge(other)
        return result
    }
}

extension JSONObject {
    /// Merges the members of `other` into this object: objects under the
    /// same key merge recursively, any other value from `other` replaces
    /// the one here (see ``JSONValue/merge(_:)``).
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other {
            if case .object = value, case .object? = self[key] {
                self[key, default: .null].merge(value)
            } else {
                self[key] = value
            }
        }
    }

    /// This object with the members of `other` merged in (see
    /// ``merge(_:)``).
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        result.merge(other)
        return result
    }
}
