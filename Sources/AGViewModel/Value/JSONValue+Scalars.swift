import Foundation

/// The value itself read as a Swift type, by the same lenient rules as the
/// path getters (``JSONReadable``): `json["price"]?.doubleValue`,
/// `json["user"]["name"].stringValue`.
///
/// Each is `nil` when the value cannot be read as that type: there is no
/// silent `0` or `""` (use `?? 0`), no truncation (`1.5` has no
/// `intValue`), and no boolean from `"Y"`.
extension JSONValue {
    /// The string, or a number's JSON text; `nil` for other kinds.
    public var stringValue: String? { String.read(from: self) }
    /// The integer (integral numbers and numeric strings in range), or `nil`.
    public var intValue: Int? { Int.read(from: self) }
    /// The 64-bit integer, or `nil`.
    public var int64Value: Int64? { Int64.read(from: self) }
    /// The unsigned 64-bit integer, exact up to `UInt64.max`, or `nil`.
    public var uint64Value: UInt64? { UInt64.read(from: self) }
    /// The number as a double (numeric strings too), or `nil`.
    public var doubleValue: Double? { Double.read(from: self) }
    /// The boolean (booleans, numbers, `true`/`false`/`yes`/`no`/`1`/`0`), or `nil`.
    public var boolValue: Bool? { Bool.read(from: self) }
    /// The URL a non-empty string parses as, or `nil`.
    public var urlValue: URL? { URL.read(from: self) }
}

/// The same reads at the end of a subscript chain whose value may be
/// missing: `json["user"]["name"].stringValue` is `nil` when `user` or
/// `name` is absent.
extension Optional where Wrapped == JSONValue {
    /// The wrapped value's ``JSONValue/stringValue``.
    public var stringValue: String? { self?.stringValue }
    /// The wrapped value's ``JSONValue/intValue``.
    public var intValue: Int? { self?.intValue }
    /// The wrapped value's ``JSONValue/int64Value``.
    public var int64Value: Int64? { self?.int64Value }
    /// The wrapped value's ``JSONValue/uint64Value``.
    public var uint64Value: UInt64? { self?.uint64Value }
    /// The wrapped value's ``JSONValue/doubleValue``.
    public var doubleValue: Double? { self?.doubleValue }
    /// The wrapped value's ``JSONValue/boolValue``.
    public var boolValue: Bool? { self?.boolValue }
    /// The wrapped value's ``JSONValue/urlValue``.
    public var urlValue: URL? { self?.urlValue }
    /// The wrapped value's ``JSONValue/arrayValue``.
    public var arrayValue: JSONArray? { self?.arrayValue }
    /// The wrapped value's ``JSONValue/objectValue``.
    public var objectValue: JSONObject? { self?.objectValue }
}
