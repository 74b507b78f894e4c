import Foundation

extension ViewModel {
    /// A ViewModel holding the members `value` encodes to, with `encoder`'s
    /// strategies: a Codable model from elsewhere in the app (a cache, a
    /// form's draft) packaged like an API object. Keys come in the order
    /// the encoder writes them (`.sortedKeys` gives a stable one). Numbers
    /// are read as ``JSONValue/init(encoding:encoder:)`` reads them: a
    /// `Decimal` of more than 15 significant digits may come back rounded.
    ///
    /// ```swift
    /// struct Profile: Codable { var name: String; var followers: Int }
    /// let viewModel = try ViewModel(encoding: Profile(name: "Ada", followers: 3))
    /// viewModel.string(at: "name")   // "Ada"
    /// ```
    ///
    /// - Throws: The encoder's `EncodingError`, also when `value` does not
    ///   encode as an object (an array, a string).
    public convenience init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        let json = try JSONValue(encoding: value, encoder: encoder)
        guard case .object(let object) = json else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "a ViewModel needs an object; the value encodes as \(json.kind.rawValue)"))
        }
        self.init(object)
    }

    /// The ViewModel's JSON contents decoded as `type`, with `decoder`'s
    /// strategies: the keys holding JSON, nested ViewModels as nested
    /// objects (other payloads are left out), as ``SafeJSONAccess`` reads
    /// them. Reading the contents does not recurse, so a chain of nested
    /// ViewModels deeper than the decoder accepts throws its error.
    ///
    /// - Throws: The decoder's `DecodingError`, naming the coding path of a
    ///   missing key or a value of the wrong type; a ``JSONWriteError`` when
    ///   the contents are no JSON text (a NaN or infinite double).
    public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try jsonSnapshot().decode(type, decoder: decoder)
    }
}
