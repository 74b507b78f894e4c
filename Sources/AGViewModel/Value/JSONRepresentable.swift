import Foundation

/// A Swift value with a JSON form: the types `JSONValue(_:)` builds from.
///
/// The library conforms `String`, `Substring`, `Bool`, every standard
/// integer type, `Double`, `Float`, ``JSONValue``, ``JSONObject``, and
/// arrays, `String`-keyed dictionaries and optionals of conforming types, so
/// Swift collections become JSON without a cast:
///
/// ```swift
/// let tags = JSONValue(["swift", "json"])                 // ["swift","json"]
/// let counts = JSONValue(["likes": 3, "shares": 1])        // {"likes":3,"shares":1}
/// let values = [1, 2, 3].map(JSONValue.init)               // [JSONValue]
/// ```
///
/// Dictionaries become objects with their keys sorted (a Swift dictionary
/// has no order of its own); build a ``JSONObject`` to choose the order.
/// Values of unknown static type (`Any`, `[String: Any]`, Foundation
/// objects) go through the throwing ``JSONValue/init(_:)-(Any)``.
public protocol JSONRepresentable {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension JSONValue {
    /// The JSON form of `value`: `JSONValue(["a", "b"])`,
    /// `JSONValue(UInt64.max)`, `JSONValue(["n": 1])`.
    @inlinable
    public init(_ value: some JSONRepresentable) {
        self = value.jsonValue
    }
}

extension JSONValue {
    /// An array of values; also what an array literal of mixed element
    /// types becomes: `JSONValue([1, "two", nil])`.
    @inlinable
    public init(_ elements: [JSONValue]) {
        self = .array(elements)
    }

    /// An object of the dictionary's members, keys sorted in UTF-8 byte order;
    /// also what a dictionary literal of mixed value types becomes:
    /// `JSONValue(["title": "Swift", "tags": ["a"]])`. (A `JSONValue`
    /// literal keeps source order instead.)
    public init(_ members: [String: JSONValue]) {
        var object = JSONObject(minimumCapacity: members.count)
        for key in members.keys.sorted(by: JSONObject.utf8Less) {
            object.appendNew(key: key, value: members[key]!)
        }
        self = .object(object)
    }
}

extension JSONValue: JSONRepresentable {
    /// The value itself.
    @inlinable public var jsonValue: JSONValue { self }
}

extension JSONObject: JSONRepresentable {
    /// `.object(self)`.
    @inlinable public var jsonValue: JSONValue { .object(self) }
}

extension JSONArray: JSONRepresentable {
    /// `.array(self)`.
    @inlinable public var jsonValue: JSONValue { .array(self) }
}

extension String: JSONRepresentable {
    /// `.string(self)`.
    @inlinable public var jsonValue: JSONValue { .string(self) }
}

extension Substring: JSONRepresentable {
    /// `.string` of the substring's text.
    @inlinable public var jsonValue: JSONValue { .string(String(self)) }
}

extension Bool: JSONRepresentable {
    /// `.bool(self)`.
    @inlinable public var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONRepresentable {
    /// `.double(self)`. JSON cannot hold NaN or infinity: such a value
    /// can be stored but makes writing fail with an error.
    @inlinable public var jsonValue: JSONValue { .double(self) }
}

extension Float: JSONRepresentable {
    /// The double with the same shortest decimal text (`Float(0.1)` becomes
    /// `0.1`, not `0.10000000149011612`).
    public var jsonValue: JSONValue {
        guard isFinite else { return .double(Double(self)) }
        return .double(Double(description) ?? Double(self))
    }
}

extension BinaryInteger where Self: JSONRepresentable {
    /// `.int` when the value fits in `Int64`, otherwise its exact decimal
    /// text as `.bigInteger` (never rounded).
    @inlinable
    public var jsonValue: JSONValue {
        if let exact = Int64(exactly: self) { return .int(exact) }
        return .bigInteger(String(self))
    }
}

extension Int: JSONRepresentable {}
extension Int8: JSONRepresentable {}
extension Int16: JSONRepresentable {}
extension Int32: JSONRepresentable {}
extension Int64: JSONRepresentable {}
extension UInt: JSONRepresentable {}
extension UInt8: JSONRepresentable {}
extension UInt16: JSONRepresentable {}
extension UInt32: JSONRepresentable {}
extension UInt64: JSONRepresentable {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: JSONRepresentable {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: JSONRepresentable {}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    /// An array of the elements' JSON forms.
    @inlinable
    public var jsonValue: JSONValue {
        if let values = self as? [JSONValue] { return .array(values) }
        return .array(map(\.jsonValue))
    }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    /// An object of the values' JSON forms, keys sorted in UTF-8 byte order.
    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: count)
        for key in keys.sorted(by: JSONObject.utf8Less) {
            object.appendNew(key: key, value: self[key]!.jsonValue)
        }
        return .object(object)
    }
}

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    /// The wrapped value's JSON form, or `null` for `nil`.
    @inlinable
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}
