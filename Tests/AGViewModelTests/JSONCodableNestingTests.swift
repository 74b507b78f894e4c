import Foundation
import Testing
import AGViewModel

/// `Codable` refuses values nested past `codableNestingLimit` with an
/// error, instead of recursing through the coders until the stack ends.
@Suite("JSON Codable nesting limit")
struct JSONCodableNestingTests {
    struct Envelope: Codable { var payload: JSONValue }

    static func nested(_ levels: Int) -> String {
        (0..<levels).map { $0.isMultiple(of: 2) ? "[" : "{\"k\":" }.joined() + "1"
            + (0..<levels).reversed().map { $0.isMultiple(of: 2) ? "]" : "}" }.joined()
    }

    @Test func decodesUpToTheLimitAndRefusesDeeper() throws {
        let limit = JSONValue.codableNestingLimit
        let atLimit = try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(limit).utf8))
        #expect(atLimit == (try JSONValue(parsing: Self.nested(limit))))
        // Inside the caller's own type too: the envelope is not a JSON level.
        let wrapped = "{\"payload\":\(Self.nested(limit))}"
        #expect(try JSONDecoder().decode(Envelope.self, from: Data(wrapped.utf8)).payload == atLimit)

        #expect {
            try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(limit + 1).utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.contains("more than \(limit) levels")
        }
        // The count went back down: the same thread decodes at the limit again.
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(limit).utf8)) == atLimit)
    }

    @Test func encodesUpToTheLimitAndRefusesDeeper() throws {
        let limit = JSONValue.codableNestingLimit
        let atLimit = try JSONValue(parsing: Self.nested(limit))
        let data = try JSONEncoder().encode(atLimit)
        #expect(try JSONValue(parsing: data) == atLimit)
        let deeper = try JSONValue(parsing: Self.nested(limit + 1))
        #expect {
            try JSONEncoder().encode(Envelope(payload: deeper))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.debugDescription.contains("JSONWriter")
        }
        #expect(try JSONEncoder().encode(atLimit) == data)
    }
}
