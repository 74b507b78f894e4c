/// Subscript chains through missing values: `json["user"]["name"]`.
///
/// A key or index subscript on a ``JSONValue`` gives `JSONValue?`; these
/// subscripts continue the chain on that optional, so each step reads
/// `nil` once anything on the way is missing (the same as
/// `json["user"]?["name"]`). Setting through a chain creates what is
/// missing: `json["user"]["name"] = "Ann"` on `{}` gives
/// `{"user":{"name":"Ann"}}`, without copying the parts that exist.
extension Optional where Wrapped == JSONValue {
    /// The member `key` of the wrapped object; `nil` when there is none.
    /// Setting creates the object when the value is missing.
    public subscript(key: String) -> JSONValue? {
        get { self?[key] }
        _modify {
            if case .some(var value) = self {
                self = nil  // drop our reference so `value` mutates in place
                defer { self = value }
                yield &value[key]
            } else {
                var member: JSONValue? = nil
                defer {
                    if let member {
                        var value = JSONValue.null
                        value[key] = member
                        self = value
                    }
                }
                yield &member
            }
        }
        set {
            if case .some(var value) = self {
                self = nil
                value[key] = newValue
                self = value
            } else if let newValue {
                var value = JSONValue.null
                value[key] = newValue
                self = value
            }
        }
    }

    /// The element at `index` of the wrapped array; `nil` when there is
    /// none. Setting creates the array when the value is missing (see
    /// ``JSONValue/subscript(_:)-(Int)``).
    public subscript(index: Int) -> JSONValue? {
        get { self?[index] }
        _modify {
            if case .some(var value) = self {
                self = nil
                defer { self = value }
                yield &value[index]
            } else {
                var element: JSONValue? = nil
                defer {
                    if let element {
                        var value = JSONValue.null
                        value[index] = element
                        if !value.isNull { self = value }
                    }
                }
                yield &element
            }
        }
        set {
            if case .some(var value) = self {
                self = nil
                value[index] = newValue
                self = value
            } else if let newValue {
                var value = JSONValue.null
                value[index] = newValue
                // An index the subscript ignores creates nothing.
                if !value.isNull { self = value }
            }
        }
    }
}
