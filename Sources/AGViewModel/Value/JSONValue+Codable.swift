import Foundation

/// `JSONValue` encodes and decodes through any `Encoder`/`Decoder`, so it can
/// sit inside your own `Codable` types. An object's keys are data, as a
/// `[String: T]`'s are: key strategies (`.convertFromSnakeCase`) rename the
/// model's properties around it, never its keys. So an object is encoded
/// as a dictionary, in the encoder's order, and decoded in the order the
/// decoder reports keys, when that names them all (else in UTF-8 order).
/// Foundation's coders keep no member order either way: use ``JSONParser``
/// and ``JSONWriter`` when order matters.
///
/// Numbers follow the one number rule: decoding gives the same number the
/// parser gives, though maybe in another case (`JSONDecoder` reads `35.0` as
/// an integer, which is `==` to the parser's `.double(35)`). Integers beyond
/// `Int64` stay exact up to 38 digits (through `UInt64` or `Decimal`);
/// longer ones pass as the nearest double, as `Codable` has no way to carry
/// the text, and one beyond `Double`'s range (about 1.8e308) cannot be
/// encoded. So, with Foundation's `JSONEncoder` and `JSONDecoder`,
/// `decode(encode(value)) == value` for every value without an integer of
/// more than 38 digits.
///
/// What a decoder cannot tell apart:
/// - `1e23` from `100000000000000000000000`: text that is a double's
///   shortest form decodes as that double.
/// - An integer written with a fraction or an exponent past 2^53
///   (`9007199254740993.0`) from the integer: the decoder gives the exact
///   integer, where the parser gives the nearest double.
///
/// Other coders: property-list coders store a `Decimal` as a dictionary of
/// its parts, so an integer beyond `UInt64` comes back as that dictionary,
/// and they read a whole double that fits `Int64` back as that integer,
/// which past 2^53 is not `==` to the double (`1.9011924315268797e18`
/// comes back as `1901192431526879744`). Use ``JSONWriter`` and
/// ``JSONParser`` (or archives) for such values.
///
/// Coders recurse once per level of nesting, theirs and this conformance's
/// calls alike, so values nested more than ``codableNestingLimit`` levels
/// deep are refused with a `DecodingError` or `EncodingError` instead of
/// overflowing a thread's stack (512 KB, Apple's default for secondary
/// threads, ran out at about 330 levels in an optimized build). Debug
/// builds use far larger frames: there, 512 KB holds only about 150 levels.
/// ``JSONParser`` and ``JSONWriter`` have no such limit.
extension JSONValue: Codable {
    /// How many levels of arrays and objects `Codable` decodes and encodes.
    public static let codableNestingLimit = 256

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            try CodableNesting.enterForDecoding()
            defer { CodableNesting.leave() }
            var elements = JSONArray()
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            try CodableNesting.enterForDecoding()
            defer { CodableNesting.leave() }
            // The members as a `String`-keyed dictionary: key strategies
            // (`convertFromSnakeCase`, `.custom`) rewrite the keys of keyed
            // containers but leave a dictionary's keys as they are, which
            // an object's keys are: data, not property names.
            let dictionary: [String: JSONValue]
            do {
                dictionary = try decoder.singleValueContainer().decode([String: JSONValue].self)
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == decoder.codingPath.count {
                // A decoder whose single values are scalars only (a
                // member's mismatch has a longer path): its keys are
                // what it has.
                var members = JSONObject(minimumCapacity: object.allKeys.count)
                for key in object.allKeys {
                    members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
                }
                self = .object(members)
                return
            }
            var members = JSONObject(minimumCapacity: dictionary.count)
            // The decoder's key order when it names the same keys (no
            // strategy changed them); otherwise a fixed one.
            let ordered = object.allKeys.map(\.stringValue)
            if ordered.count == dictionary.count, ordered.allSatisfy({ dictionary[$0] != nil }) {
                for key in ordered { members[key] = dictionary[key] }
            } else {
                for key in dictionary.keys.sorted(by: JSONObject.utf8Less) { members[key] = dictionary[key] }
            }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .int(i)
        } else if let u = try? single.decode(UInt64.self) {
            self = .bigInteger(String(u))
        } else if let d = try? single.decode(Double.self) {
            self = Self.decodedNumber(d, from: single)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.dataCorruptedError(
                in: single, debugDescription: "Expected a JSON value")
        }
    }

    /// Encodes the value; `bigInteger` is encoded as its `Decimal` value when
    /// the encoder cannot take the exact text.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer(); try c.encode(d)
        case .bigInteger(let text):
            var c = encoder.singleValueContainer()
            if let u = UInt64(text) {
                try c.encode(u)
            } else if let i = Int64(text) {
                try c.encode(i)
            } else if text.utf8.count <= 39, let decimal = Decimal(string: text), decimal.description == text {
                try c.encode(decimal)  // exact: Decimal holds 38 digits
            } else if let d = Double(text), d.isFinite {
                try c.encode(d)
            } else {
                // Past Double's range no number an encoder takes holds it.
                throw EncodingError.invalidValue(text, EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "an integer of \(text.utf8.count) digits is beyond what Codable numbers hold; write it with JSONWriter"))
            }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            try CodableNesting.enterForEncoding(self)
            defer { CodableNesting.leave() }
            var c = encoder.unkeyedContainer()
            for element in a { try c.encode(element) }
        case .object(let o):
            try CodableNesting.enterForEncoding(self)
            defer { CodableNesting.leave() }
            // As a `String`-keyed dictionary, whose keys no key strategy
            // (`convertToSnakeCase`) rewrites.
            var members: [String: JSONValue] = Dictionary(minimumCapacity: o.count)
            for (key, value) in o { members[key] = value }
            var c = encoder.singleValueContainer()
            try c.encode(members)
        }
    }
}

extension JSONValue {
    /// The number a decoder read as `d`: an integer beyond `Int64` is kept
    /// exactly when the decoder can give it as a `Decimal`.
    fileprivate static func decodedNumber(_ d: Double, from container: any SingleValueDecodingContainer) -> JSONValue {
        guard d.isFinite, d.magnitude >= 0x1p63, d.magnitude <= 1e38, d == d.rounded(.towardZero),
              let decimal = try? container.decode(Decimal.self) else { return .double(d) }
        let text = decimal.description
        guard !text.contains(where: { !($0.isASCII && ($0.isNumber || $0 == "-")) }),
              Double(text) == d else { return .double(d) }
        // Text that is the double's own shortest form (`1e+23`, as encoders
        // write doubles) means the double; more digits than a double
        // holds mean an exact integer.
        if let shortest = Decimal(string: d.description), shortest == decimal { return .double(d) }
        return JSONValue.integer(text: text)
    }
}

/// A coding key for arbitrary strings.
internal struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string; intValue = nil }
    init?(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}
