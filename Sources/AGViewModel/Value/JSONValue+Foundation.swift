import Foundation

/// Bridging to and from Foundation's untyped JSON: what
/// `JSONSerialization`, `UserDefaults`, notifications' `userInfo` and
/// Objective-C APIs hand out and take in.
extension JSONValue {
    /// The JSON form of a Foundation or `Any` value: `NSNull`, `NSNumber`,
    /// `NSString`, `NSArray`, `NSDictionary`, Swift strings, numbers,
    /// booleans, arrays, `[String: Any]` and optionals, nested. Conversion
    /// recurses once per level: 512 KB, Apple's default stack for secondary
    /// threads, holds about 1,000 levels in an optimized build (more than
    /// `JSONSerialization` returns); deeper values need a larger stack.
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: data)
    /// let json = try JSONValue(object)
    /// let built = try JSONValue(["n": 1, "tags": ["a"]] as [String: Any])
    /// ```
    ///
    /// Booleans stay booleans and numbers stay numbers, on every platform
    /// (an `NSNumber` made from a `Bool` is a boolean, `NSNumber(1)` is the
    /// number 1). Integers are exact; integers beyond `Int64` become
    /// ``bigInteger(_:)``. Dictionary keys are sorted, since Foundation
    /// dictionaries have no order. Anything else (a `Date`, a `URL`, a
    /// non-finite double, a non-string key) throws a
    /// ``JSONConversionError`` naming the path of the first such value.
    // Disfavoured so that a literal of mixed types (`["a": 1, "b": "x"]`)
    // becomes `[String: JSONValue]` and needs no `try`; a value typed
    // `Any`, `[String: Any]` or a Foundation class still lands here.
    @_disfavoredOverload
    public init(_ value: Any) throws(JSONConversionError) {
        var path: [JSONPath.Component] = []
        self = try Self.converting(value, path: &path)
    }

    /// The same as ``init(_:)-(Any)``: the JSON form of a Foundation object.
    public init(jsonObject value: Any) throws(JSONConversionError) {
        try self.init(value)
    }

    /// The value as Foundation's untyped JSON, for APIs that take `Any`
    /// (`JSONSerialization`, `UserDefaults`, `userInfo`): `NSNull`, `Bool`,
    /// `Int`, `Double`, `String`, `[Any]` and `[String: Any]`. A
    /// ``bigInteger(_:)`` becomes a `UInt64` when it fits, else an
    /// `NSDecimalNumber` (exact up to 38 digits, holding up to about
    /// 10^165), else the nearest `Double`; one beyond even a double's range
    /// (about 1.8 × 10^308) becomes its digits as a `String`, since no
    /// Foundation number holds it. Object member order is lost, as
    /// `[String: Any]` has none. Like ``init(_:)-(Any)``, conversion
    /// recurses once per level (as does releasing the nested `[Any]`): a
    /// 512 KB stack holds about 2,000 levels in an optimized build; deeper
    /// values need a larger stack.
    public var jsonObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return Int(exactly: i) ?? i
        case .double(let d): return d
        case .bigInteger(let text):
            if let u = UInt64(text) { return u }
            let decimal = NSDecimalNumber(string: text)
            if decimal != NSDecimalNumber.notANumber { return decimal }
            if let double = Double(text), double.isFinite { return double }
            return text
        case .string(let s): return s
        case .array(let elements): return elements.map(\.jsonObject)
        case .object(let object):
            var dictionary: [String: Any] = [:]
            dictionary.reserveCapacity(object.count)
            for (key, value) in object { dictionary[key] = value.jsonObject }
            return dictionary
        }
    }

    private static func converting(_ value: Any, path: inout [JSONPath.Component]) throws(JSONConversionError) -> JSONValue {
        // Exact native types first: on Linux `1 as Any` also casts to `Bool`
        // and `NSNumber`, so casts alone cannot tell a number from a flag.
        switch value {
        case let json as JSONValue: return json
        case let object as JSONObject: return .object(object)
        case let array as JSONArray: return .array(array)
        // A class only when it conforms itself: `NSNumber` and `NSString`
        // also cast (by bridging), and must reach the Foundation cases below.
        case let convertible as any JSONRepresentable
            where !(type(of: value) is AnyClass) || type(of: value) is any JSONRepresentable.Type:
            if value is any OptionalBox || value is [Any] || value is [String: Any] {
                break  // converted element by element below, with paths
            }
            return try finite(convertible.jsonValue, path: path, typeName: typeName(of: value))
        default: break
        }
        if let wrapped = value as? any OptionalBox {
            guard let inner = wrapped.wrappedAny else { return .null }
            return try converting(inner, path: &path)
        }
        // Strings and Swift collections before the Foundation classes:
        // asking whether a Swift array or dictionary is an `NSNumber` or an
        // `NSDictionary` bridges all of it, at every level (quadratic, and
        // deep recursion inside Foundation).
        if let string = value as? String { return .string(string) }
        if let dictionary = value as? [String: Any] {
            var object = JSONObject(minimumCapacity: dictionary.count)
            for key in dictionary.keys.sorted(by: JSONObject.utf8Less) {
                path.append(.key(key))
                object.appendNew(key: key, value: try converting(dictionary[key]!, path: &path))
                path.removeLast()
            }
            return .object(object)
        }
        if let array = value as? [Any] {
            var elements = JSONArray()
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                path.append(.index(index))
                elements.append(try converting(element, path: &path))
                path.removeLast()
            }
            return .array(elements)
        }
        if value is NSNull { return .null }
        if let number = value as? NSNumber {
            return try finite(number.jsonValue, path: path, typeName: "NSNumber")
        }
        if let decimal = value as? Decimal {
            return try finite(NSDecimalNumber(decimal: decimal).jsonValue, path: path, typeName: "Decimal")
        }
        if let dictionary = value as? NSDictionary {
            var pairs: [(String, Any)] = []
            for (key, element) in dictionary {
                guard let key = key as? String else {
                    throw JSONConversionError(path: JSONPath(path), typeName: typeName(of: value),
                                              detail: "a key of type \(typeName(of: key)), not a string")
                }
                pairs.append((key, element))
            }
            pairs.sort { JSONObject.utf8Less($0.0, $1.0) }
            var object = JSONObject(minimumCapacity: pairs.count)
            for (key, element) in pairs {
                path.append(.key(key))
                object.appendNew(key: key, value: try converting(element, path: &path))
                path.removeLast()
            }
            return .object(object)
        }
        if let array = value as? NSArray {
            return try converting(array.map { $0 }, path: &path)
        }
        throw JSONConversionError(path: JSONPath(path), typeName: typeName(of: value))
    }

    private static func finite(_ json: JSONValue, path: [JSONPath.Component], typeName: String) throws(JSONConversionError) -> JSONValue {
        if case .double(let d) = json, !d.isFinite {
            throw JSONConversionError(path: JSONPath(path), typeName: typeName, detail: "not a finite number")
        }
        return json
    }

    private static func typeName(of value: Any) -> String {
        String(describing: type(of: value))
    }
}

/// Lets the converter see through an `Optional` stored in an `Any`.
private protocol OptionalBox {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalBox {
    fileprivate var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}

extension NSNumber {
    /// Booleans as `.bool`, integers exactly, other numbers as doubles (a
    /// float as a Swift `Float` converts: `0.1`, not the wider double).
    fileprivate var jsonValue: JSONValue {
        if isBoolean { return .bool(boolValue) }
        if let decimal = self as? NSDecimalNumber {
            // NaN's text is "NaN": as a double, it is refused as not finite.
            if decimal.decimalValue.isNaN { return .double(.nan) }
            let text = decimal.stringValue
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                return JSONValue.integer(text: text)
            }
            return .double(decimal.doubleValue)
        }
        switch UInt8(objCType.pointee) {
        case UInt8(ascii: "f"): return floatValue.jsonValue
        case UInt8(ascii: "d"): return .double(doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"):
            let u = uint64Value
            return Int64(exactly: u).map(JSONValue.int) ?? .bigInteger(String(u))
        default:
            return .int(int64Value)
        }
    }

    /// `true` for the `NSNumber`s Foundation makes from `Bool` (what
    /// `JSONSerialization` returns for `true` and `false`).
    fileprivate var isBoolean: Bool {
        #if canImport(Darwin)
        return CFGetTypeID(self) == CFBooleanGetTypeID()
        #else
        // Foundation on Linux makes every boolean NSNumber one of two
        // shared instances (of a private subclass).
        return self === NSNumber(value: true) || self === NSNumber(value: false)
        #endif
    }
}

extension JSONValue {
    /// `.int` for integer text in the `Int64` range, else `.bigInteger`.
    internal static func integer(text: String) -> JSONValue {
        if let i = Int64(text) { return .int(i) }
        return .bigInteger(text)
    }
}
