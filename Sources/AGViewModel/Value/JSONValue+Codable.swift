/// `JSONValue` encodes and decodes through any `Encoder`/`Decoder`, so it can
/// sit inside your own `Codable` types. Object member order is kept when the
/// decoder reports keys in order (Foundation's `JSONDecoder` does not
/// guarantee it; use ``JSONParser`` when order matters).
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members = JSONObject(minimumCapacity: object.allKeys.count)
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
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
        } else if let d = try? single.decode(Double.self) {
            self = .double(d)
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
            if let u = UInt64(text) { try c.encode(u) } else { try c.encode(Double(text) ?? 0) }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for element in a { try c.encode(element) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in o { try c.encode(value, forKey: AnyCodingKey(key)) }
        }
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
