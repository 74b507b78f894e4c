/// A JSON value: the currency of the whole toolkit.
///
/// Every ViewModel stores `JSONValue`s, every export writes them and the
/// parser produces them. The type is a plain value: `Sendable`, `Hashable`
/// and cheap to copy (arrays, strings and objects share storage until
/// mutated).
///
/// ```swift
/// let book: JSONValue = ["title": "Swift", "price": 9.5, "tags": ["a"]]
/// book.string(at: "title")   // "Swift"
/// ```
///
/// Numbers keep their kind. Integer literals that fit in `Int64` are stored
/// exactly as ``int(_:)``; numbers with a fraction or exponent are
/// ``double(_:)``; integer literals too large for `Int64` (such as unsigned
/// 64-bit ids) are kept as their exact decimal text in ``bigInteger(_:)`` and
/// written back unchanged, never rounded.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exactly.
    case int(Int64)
    /// A finite double-precision number.
    case double(Double)
    /// An integer literal outside the `Int64` range, kept as its exact
    /// decimal text (an optional `-` followed by digits without leading zeros).
    case bigInteger(String)
    /// A string.
    case string(String)
    /// An ordered array.
    case array([JSONValue])
    /// An object whose keys keep their parsed or inserted order.
    case object(JSONObject)
}

extension JSONValue {
    /// The kind of a value, used in diagnostics and generated code.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case null, bool, int, double, bigInteger, string, array, object
    }

    /// The kind of this value.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .bigInteger: .bigInteger
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// `true` for ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// `true` for the three number kinds.
    public var isNumber: Bool {
        switch self {
        case .int, .double, .bigInteger: true
        default: false
        }
    }

    /// The members of an object, or `nil` for other kinds.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements of an array, or `nil` for other kinds.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The value of the member named `key` of an object; `nil` when this is
    /// not an object or has no such member.
    ///
    /// Setting a value on a non-object turns it into an object; setting
    /// `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let object) = self { return object[key] }
            return nil
        }
        set {
            var object = objectValue ?? JSONObject()
            self = .null  // drop our reference so `object` mutates in place
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` of an array; `nil` when this is not an array
    /// or `index` is out of range. Never traps.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) {
            return array[index]
        }
        return nil
    }
}

extension JSONValue: Equatable {
    /// Values are equal when they have the same kind and content. Objects
    /// compare their members regardless of order (JSON objects are
    /// unordered); doubles compare by `==`, so `0.0 == -0.0`. An `int` never
    /// equals a `double`: `1` and `1.0` are different values.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.bigInteger(a), .bigInteger(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes consistently with `==` (object member order does not matter).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int(let i): hasher.combine(2); hasher.combine(i)
        case .double(let d): hasher.combine(3); hasher.combine(d)
        case .bigInteger(let s): hasher.combine(4); hasher.combine(s)
        case .string(let s): hasher.combine(5); hasher.combine(s)
        case .array(let a): hasher.combine(6); hasher.combine(a)
        case .object(let o): hasher.combine(7); hasher.combine(o)
        }
    }
}
