import Foundation

/// A type that can be read leniently from a ``JSONValue``: the rules behind
/// every safe getter and every typed ViewModel key.
///
/// The rules favour showing something over crashing on API drift:
///
/// | type | reads from |
/// | --- | --- |
/// | `String` | strings; numbers as their JSON text (`42`, `9.5`) |
/// | `Int`, `Int64`, `UInt64` | integers in range (`UInt64` exactly up to `UInt64.max`); integral doubles (one of magnitude 2^53 or more reads as the integer its shortest text spells, as `==` compares it: `1.9011924315268797e18` reads as 1901192431526879700); strings whose digits spell such an integer exactly (`"42"`, `"3.0"`, `"1e3"`; not `"1.5"` or `"0x10"`) |
/// | `Double` | any number (big integers approximately); decimal numeric strings (`"9.5"`, `"1e3"`; not `"0x10"`) |
/// | `Bool` | booleans; numbers (`0` is false, other numbers true); the strings `true`/`false`/`yes`/`no`/`1`/`0` |
/// | `URL` | non-empty strings that parse as a URL, without control characters or a space at either end (inner spaces and non-ASCII letters are percent-encoded) |
/// | `[JSONValue]`, `JSONArray` | arrays |
/// | `[T]`, `T` readable | arrays whose every element reads as `T` (otherwise none of it) |
/// | `JSONObject` | objects |
/// | `JSONValue` | anything, including `null` |
///
/// `null` reads as no value for every type except `JSONValue` itself.
/// Conform your own types to read them through the same accessors.
// Not refining `Sendable` (every conformance here is): with that
// refinement, the default `fromViewModelValue` of JSON types makes a payload
// type declared in an app target with default MainActor isolation fail to
// compile ("circular reference", Swift 6.2 and 6.3).
public protocol JSONReadable {
    /// The value read from `json`, or `nil` when it cannot be read as this type.
    static func read(from json: JSONValue) -> Self?
    /// A short name of what is expected, for error messages ("an integer").
    static var expectedDescription: String { get }
}

extension String: JSONReadable {
    /// Strings, and numbers as their JSON text.
    public static func read(from json: JSONValue) -> String? {
        switch json {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): JSONValue.shortestText(d)
        case .bigInteger(let text): text
        default: nil
        }
    }
    /// "a string".
    public static var expectedDescription: String { "a string" }
}

extension Int64: JSONReadable {
    /// Integers, integral doubles in range (from magnitude 2^53 on, the
    /// integer of the double's shortest text), and strings holding one.
    public static func read(from json: JSONValue) -> Int64? {
        switch json {
        case .int(let i): return i
        // Out of range as the parser makes it; a hand-made one may not be.
        case .bigInteger(let text): return Int64(text)
        case .double: return JSONNumber(json)?.int64
        case .string(let s):
            if let i = Int64(s) { return i }
            return NumericText.integerDigits(of: s).flatMap { Int64($0) }
        default: return nil
        }
    }
    /// "an integer".
    public static var expectedDescription: String { "an integer" }
}

extension UInt64: JSONReadable {
    /// Non-negative integers up to `UInt64.max`, exactly (including
    /// ``JSONValue/bigInteger(_:)`` text in range), integral doubles in
    /// range (from magnitude 2^53 on, the integer of the double's shortest
    /// text), and strings holding one.
    public static func read(from json: JSONValue) -> UInt64? {
        switch json {
        case .int(let i): return UInt64(exactly: i)
        case .bigInteger(let text): return UInt64(text)
        case .double: return JSONNumber(json)?.uint64
        case .string(let s):
            if let u = UInt64(s) { return u }
            return NumericText.integerDigits(of: s).flatMap { UInt64($0) }
        default: return nil
        }
    }
    /// "an unsigned integer".
    public static var expectedDescription: String { "an unsigned integer" }
}

/// Numeric strings, read as decimal text: `[+-]digits[.digits][e[+-]digits]`
/// (the JSON number grammar, also allowing a `+`, leading zeros and a
/// missing whole or fraction part). Not hexadecimal (`"0x10"`), `inf` or
/// `nan`, which `Double(String)` would take.
internal enum NumericText {
    /// Where a written exponent's magnitude stops growing: beyond every
    /// double, and beyond the length of any text, so the digits' count
    /// added to it cannot bring a saturated exponent back into range.
    /// Where `Int` has 32 bits (watchOS's arm64_32), `1 << 50` would be 0.
    @inline(__always) static var exponentLimit: Int { Int.bitWidth >= 64 ? 1 << 50 : 1 << 26 }

    /// The parts of decimal number `text`, or `nil` when it is not one.
    /// The exponent saturates at ±``exponentLimit``.
    static func parts(of text: String) -> (negative: Bool, whole: [UInt8], fraction: [UInt8], exponent: Int)? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            bytes = bytes.dropFirst(exponentDigits.count)
            // Saturates beyond any text's length, which the integer and
            // fraction digits can move the scale by.
            for digit in exponentDigits where exponent < NumericText.exponentLimit {
                exponent = exponent &* 10 &+ Int(digit &- UInt8(ascii: "0"))
            }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        return (negative, Array(whole), Array(fraction), exponent)
    }

    /// Whether `text` is a decimal number.
    static func isDecimal(_ text: String) -> Bool { parts(of: text) != nil }

    /// The integer decimal `text` spells, as its sign and digits: `"3.0"`
    /// is 3 and `"1e3"` is 1000, while `"1.5"`, `"1e-400"` and
    /// `"4503599627370496.5"` spell no integer (a `Double` would round them
    /// to one). `nil` too past 20 digits (beyond every 64-bit integer).
    static func integerDigits(of text: String) -> String? {
        guard let (negative, whole, fraction, exponent) = parts(of: text) else { return nil }
        // The value is `digits` × 10^scale; trailing zeros move into the scale.
        var digits = Array((whole + fraction).drop { $0 == UInt8(ascii: "0") })
        var scale = exponent - fraction.count
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            scale += 1
        }
        if digits.isEmpty { return "0" }
        guard scale >= 0, digits.count + scale <= 20 else { return nil }
        digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: scale))
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }
}

extension Int: JSONReadable {
    /// As `Int64`, when it fits in `Int`.
    public static func read(from json: JSONValue) -> Int? {
        Int64.read(from: json).flatMap { Int(exactly: $0) }
    }
    /// "an integer".
    public static var expectedDescription: String { "an integer" }
}

extension Double: JSONReadable {
    /// Any number, and numeric strings, when finite as a `Double`: an
    /// integer beyond `Double`'s range (about 1.8e308) reads as `nil`, not
    /// infinity, which no JSON can hold. (A non-finite ``JSONValue/double(_:)``
    /// built in code reads as it is.)
    public static func read(from json: JSONValue) -> Double? {
        switch json {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .bigInteger(let text):
            guard let d = Double(text), d.isFinite else { return nil }
            return d
        case .string(let s):
            guard NumericText.isDecimal(s), let d = Double(s), d.isFinite else { return nil }
            return d
        default: return nil
        }
    }
    /// "a number".
    public static var expectedDescription: String { "a number" }
}

extension Float: JSONReadable {
    /// Any number, and numeric strings, as ``Double`` reads them, rounded
    /// to the nearest `Float`: integers, big integers and numeric strings
    /// from their exact value; a `.double` (what the parser makes of a
    /// fraction or an exponent) from that double. `nil` when the nearest
    /// `Float` overflows its range (about 3.4e38).
    public static func read(from json: JSONValue) -> Float? {
        guard let d = Double.read(from: json) else { return nil }
        let f: Float
        switch json {
        case .int(let i): f = Float(i)
        case .bigInteger(let text): f = Float(text) ?? Float(d)
        case .string(let s): f = Float(s) ?? Float(d)
        default: f = Float(d)
        }
        return f.isFinite || !d.isFinite ? f : nil
    }
    /// "a number".
    public static var expectedDescription: String { "a number" }
}

extension Bool: JSONReadable {
    /// Booleans, numbers (zero is false) and the usual boolean words.
    public static func read(from json: JSONValue) -> Bool? {
        switch json {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0
        case .bigInteger(let text): return text.utf8.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        case .string(let s):
            switch s.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        default: return nil
        }
    }
    /// "a boolean".
    public static var expectedDescription: String { "a boolean" }
}

extension URL: JSONReadable {
    /// Non-empty strings that parse as a URL, with no control characters
    /// and no space at either end. Characters a URL cannot hold (a space
    /// inside, letters outside ASCII) are percent-encoded, as `URL(string:)`
    /// does, so `"https://example.com/a b"` reads; a relative reference
    /// such as `"a b"` or `"images/1.png"` reads too.
    public static func read(from json: JSONValue) -> URL? {
        guard case .string(let s) = json, let first = s.unicodeScalars.first, let last = s.unicodeScalars.last,
              first != " ", last != " ",
              !s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) }) else {
            return nil
        }
        return URL(string: s)
    }
    /// "a URL string".
    public static var expectedDescription: String { "a URL string" }
}

extension Array: JSONReadable where Element: JSONReadable {
    /// Arrays whose every element reads as `Element` (otherwise `nil`,
    /// never a partial array): `[JSONValue]` takes any array, `[String]`
    /// one of strings (or of numbers, read as their text).
    public static func read(from json: JSONValue) -> [Element]? {
        guard let elements = json.arrayValue else { return nil }
        if Element.self == JSONValue.self { return Array<JSONValue>(elements) as? [Element] }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let read = Element.read(from: element) else { return nil }
            result.append(read)
        }
        return result
    }
    /// "an array", or "an array whose every element is a string".
    public static var expectedDescription: String {
        Element.self == JSONValue.self ? "an array" : "an array whose every element is \(Element.expectedDescription)"
    }
}

extension JSONArray: JSONReadable {
    /// Arrays.
    public static func read(from json: JSONValue) -> JSONArray? { json.arrayValue }
    /// "an array".
    public static var expectedDescription: String { "an array" }
}

extension JSONObject: JSONReadable {
    /// Objects.
    public static func read(from json: JSONValue) -> JSONObject? { json.objectValue }
    /// "an object".
    public static var expectedDescription: String { "an object" }
}

extension JSONValue: JSONReadable {
    /// Any value, `null` included.
    public static func read(from json: JSONValue) -> JSONValue? { json }
    /// "a value".
    public static var expectedDescription: String { "a value" }
}

extension JSONValue {
    /// The shortest text that reads back as exactly `d` (Swift's own
    /// shortest round-trip formatting), as JSON writes it.
    public static func shortestText(_ d: Double) -> String {
        d.description
    }

    /// A short rendering of the value for diagnostics: strings quoted,
    /// containers summarised, cut to about 40 characters.
    public var briefDescription: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let b): text = b ? "true" : "false"
        case .int(let i): text = String(i)
        case .double(let d): text = Self.shortestText(d)
        case .bigInteger(let s): text = s
        case .string(let s): text = "\"\(s)\""
        case .array(let a): text = a.count == 1 ? "[1 element]" : "[\(a.count) elements]"
        case .object(let o): text = o.count == 1 ? "{1 member}" : "{\(o.count) members}"
        }
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
