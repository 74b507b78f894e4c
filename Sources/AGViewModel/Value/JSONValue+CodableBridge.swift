import Foundation

// Codable types meet JSON values through Foundation's coders, so the
// app's own strategies (dates, keys, data) apply: a struct is encoded to
// text and parsed strictly, a value is written and decoded.

extension JSONValue {
    /// The JSON `value` encodes to, with `encoder`'s strategies.
    ///
    /// ```swift
    /// struct Draft: Codable { var title: String; var tags: [String] }
    /// let json = try JSONValue(encoding: Draft(title: "Hi", tags: ["a"]))   // {"title":"Hi","tags":["a"]}
    /// ```
    ///
    /// The numbers follow the parser's rules: integers stay exact, and a
    /// number with a fraction or an exponent is a `Double`, so a `Decimal`
    /// of more than 15 significant digits may come back rounded.
    ///
    /// - Throws: The encoder's `EncodingError` (a `Double.nan` without a
    ///   non-conforming float strategy, for one).
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        self = try JSONValue(parsing: encoder.encode(value))
    }

    /// This value decoded as `type`, with `decoder`'s strategies.
    ///
    /// - Throws: The decoder's `DecodingError`, naming the coding path of a
    ///   missing key or a value of the wrong type.
    public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try decoder.decode(type, from: jsonData())
    }
}

extension JSONObject {
    /// This object decoded as `type`, with `decoder`'s strategies.
    public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try JSONValue.object(self).decode(type, decoder: decoder)
    }
}
