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
/// Numbers keep the case they were written in, for writing back: integer
/// literals that fit in `Int64` are stored exactly as ``int(_:)``; numbers
/// with a fraction or exponent are ``double(_:)``; integer literals too large
/// for `Int64` (such as unsigned 64-bit ids) are kept as their exact decimal
/// text in ``bigInteger(_:)`` and written back unchanged, never rounded.
/// Equality ignores the case: `1`, `1.0` and `1e0` are one number (see
/// `==`).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exactly.
    case int(Int64)
    /// A double-precision number. JSON text holds finite ones only: the
    /// parser never makes NaN or infinity, and the writer refuses them.
    case double(Double)
    /// An integer literal outside the `Int64` range, kept as its exact
    /// decimal text (an optional `-` followed by digits without leading zeros).
    case bigInteger(String)
    /// A string.
    case string(String)
    /// An ordered array.
    case array(JSONArray)
    /// An object whose keys keep their parsed or inserted order.
    case object(JSONObject)
}

extension JSONValue {
    /// The kind of a value, used in diagnostics and generated code.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// ``JSONValue/null``.
        case null
        /// ``JSONValue/bool(_:)``.
        case bool
        /// ``JSONValue/int(_:)``.
        case int
        /// ``JSONValue/double(_:)``.
        case double
        /// ``JSONValue/bigInteger(_:)``.
        case bigInteger
        /// ``JSONValue/string(_:)``.
        case string
        /// ``JSONValue/array(_:)``.
        case array
        /// ``JSONValue/object(_:)``.
        case object
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
    ///
    /// Settable and mutated in place: `json.objectValue?["id"] = 1` changes
    /// an object without copying it. Setting an object replaces the value;
    /// setting `nil` leaves it unchanged. (Setting it to `nil` in the middle
    /// of an in-place mutation, as `inout` access does, leaves an empty
    /// object: the members were moved out so they could change in place.)
    public var objectValue: JSONObject? {
        get {
            if case .object(let object) = self { return object }
            return nil
        }
        _modify {
            var object = objectValue
            let wasObject = object != nil
            if wasObject { self = .null }  // unique reference: mutate in place
            defer {
                if let object { self = .object(object) }
                else if wasObject { self = .object(JSONObject()) }
            }
            yield &object
        }
        set {
            if let newValue { self = .object(newValue) }
        }
    }

    /// The elements of an array, or `nil` for other kinds.
    ///
    /// Settable and mutated in place: `json.arrayValue?.append(5)` or
    /// `json.arrayValue?.remove(at: 0)` change an array without copying it.
    /// Setting an array replaces the value; setting `nil` leaves it
    /// unchanged. (Setting it to `nil` in the middle of an in-place
    /// mutation, as `inout` access does, leaves an empty array.)
    public var arrayValue: JSONArray? {
        get {
            if case .array(let array) = self { return array }
            return nil
        }
        _modify {
            var array = arrayValue
            let wasArray = array != nil
            if wasArray { self = .null }  // unique reference: mutate in place
            defer {
                if let array { self = .array(array) }
                else if wasArray { self = .array([]) }
            }
            yield &array
        }
        set {
            if let newValue { self = .array(newValue) }
        }
    }

    /// The value of the member named `key` of an object; `nil` when this is
    /// not an object or has no such member.
    ///
    /// Setting a value on a non-object turns it into an object; setting
    /// `nil` removes the member, and on a non-object changes nothing.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let object) = self { return object[key] }
            return nil
        }
        _modify {
            if case .object(var object) = self {
                self = .null  // drop our reference so `object` mutates in place
                defer { self = .object(object) }
                yield &object[key]
            } else {
                var member: JSONValue? = nil
                defer {
                    if let member {
                        var object = JSONObject()
                        object.appendNew(key: key, value: member)
                        self = .object(object)
                    }
                }
                yield &member
            }
        }
        set {
            guard let newValue else {
                // Removing: only from an object; any other value stays.
                guard case .object(var object) = self else { return }
                self = .null  // drop our reference so `object` mutates in place
                object[key] = nil
                self = .object(object)
                return
            }
            var object = objectValue ?? JSONObject()
            self = .null  // drop our reference so `object` mutates in place
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The value of the member named `key`, or `defaultValue` when this is
    /// not an object or has no such member (as `JSONObject`'s). Setting
    /// sets the member, as ``subscript(_:)-(String)`` does.
    @inlinable
    public subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// The element at `index` of an array; `nil` when this is not an array
    /// or `index` is out of range. Never traps.
    ///
    /// Setting replaces the element in range; past the end the array is
    /// padded with `null` up to `index` and the value appended. Setting on
    /// a non-array turns it into an array. Setting `nil` removes the element
    /// (later elements move down), and on a non-array or past the end
    /// changes nothing. A negative index, or one no array can reach
    /// (``JSONArray/maximumCount`` or more), is ignored.
    public subscript(index: Int) -> JSONValue? {
        get {
            if case .array(let array) = self, array.indices.contains(index) {
                return array[index]
            }
            return nil
        }
        _modify {
            if case .array(var array) = self, array.indices.contains(index) {
                self = .null  // drop our reference so `array` mutates in place
                var element: JSONValue? = array[index]
                array[index] = .null
                defer {
                    if let element { array[index] = element } else { array.remove(at: index) }
                    self = .array(array)
                }
                yield &element
            } else {
                var element: JSONValue? = nil
                defer { if let element { self[index] = element } }
                yield &element
            }
        }
        set {
            guard index >= 0 && index < JSONArray.maximumCount else { return }
            guard let newValue else {
                // Removing: only from an array; any other value stays.
                guard case .array(var array) = self, index < array.count else { return }
                self = .null  // drop our reference so `array` mutates in place
                array.remove(at: index)
                self = .array(array)
                return
            }
            var array = arrayValue ?? []
            self = .null  // drop our reference so `array` mutates in place
            defer { self = .array(array) }
            if index < array.count {
                array[index] = newValue
            } else {
                // Growing by at least doubling, as appending does: setting
                // index `count` again and again stays linear.
                if index >= array.storage.capacity {
                    array.reserveCapacity(Swift.max(index + 1, array.count * 2))
                }
                while array.count < index { array.append(.null) }
                array.append(newValue)
            }
        }
    }

    /// The number of elements of an array or members of an object; 0 for
    /// other kinds.
    public var count: Int {
        switch self {
        case .array(let array): array.count
        case .object(let object): object.count
        default: 0
        }
    }
}
