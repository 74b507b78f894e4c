import Foundation
import Testing
@testable import AGViewModel

/// The parser against ``ReferenceJSONParser``, a slow independent one: on
/// the bundled fixtures and on thousands of seeded random edits of them and
/// of short documents that reach every rule (escapes, surrogates, UTF-8,
/// number forms, duplicate keys, a byte-order mark), both accept or both
/// reject, and accepted documents read to the same value. The same check
/// runs in the `json-parser` fuzz target.
@Suite("JSON parser against a reference parser")
struct ReferenceParserDifferentialTests {
    /// Short documents between them using every rule the parser documents.
    static let seeds: [String] = [
        #"{"a": [1, -0, 0.5e-3, 1E+2, 12345678901234567890, -9223372036854775808, true, false, null]}"#,
        #"["\"\\\/\b\f\n\r\t", "\u00e9\u0301", "\ud83d\ude00", "\ud800", "\udc00x", "\ud800\u0041"]"#,
        #"{"k": 1, "k": 2, "\u006b": 3, "é": 4, "e\u0301": 5}"#,
        "\u{FEFF}[\"é漢字😀\", {\"ключ\": \"значение\"}]",
        #"[1.7976931348623157e308, 4.9e-324, 2.2250738585072011e-308, 9007199254740993, 0.1e-400]"#,
        #"{"nested": {"deeper": [[[{"x": [{}]}]]], "empty": [], "o": {}}, "s": "0123456789abcdefghij"}"#,
        "[\n\t1 ,\r\n 2 ]",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        String(repeating: "{\"a\":", count: 511) + "[{}]" + String(repeating: "}", count: 511),
    ]

    /// Bytes an edit puts in: JSON's structure, escapes, digits, hexadecimal
    /// digits and the letters just past them, letters of literals, multi-byte
    /// leads and continuations, control characters.
    static let alphabet: [UInt8] = Array(#"{}[]:,"\/ubfnrtu0123456789-+.eE aelnrstuxAFGfg"#.utf8) + [0x0A, 0x09, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xED, 0xA0, 0xF0, 0x9F, 0xEF, 0xBB, 0xBF, 0xFF]

    /// `document` with one to three random edits: a byte replaced,
    /// inserted or removed, a span repeated, or the end cut off.
    static func edited(_ document: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = document
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            // Now and then any byte at all, for what the alphabet forgot.
            let byte = Int.random(in: 0..<8, using: &generator) == 0
                ? UInt8.random(in: 0...255, using: &generator)
                : alphabet.randomElement(using: &generator)!
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where position < bytes.count: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            case 2 where position < bytes.count: bytes.remove(at: position)
            case 3 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            default: bytes.removeSubrange(position...)
            }
        }
        return bytes
    }

    static func fixtureDocuments() throws -> [[UInt8]] {
        let folder = FuzzRegressionTests.root.appendingPathComponent("Fixtures")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
        return try files.map { try [UInt8](Data(contentsOf: $0)) }
    }

    static func problems(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { buffer in
            let result = JSONParser().parseResult(buffer)
            var problems = FuzzInvariants.checkAgainstReference(result, in: buffer)
            if case .failure(let error) = result { problems += FuzzInvariants.checkParseError(error, in: buffer) }
            return problems
        }
    }

    @Test func fixturesAndSeedsReadAlike() throws {
        let documents = try Self.fixtureDocuments() + Self.seeds.map { Array($0.utf8) }
        #expect(documents.count >= 10)
        for document in documents {
            let problems = Self.problems(document)
            #expect(problems.isEmpty, "\(String(decoding: document.prefix(80), as: UTF8.self)): \(problems)")
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomEditsAreAcceptedAndReadAlike(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let fixtures = try Self.fixtureDocuments()
        let seeds = Self.seeds.map { Array($0.utf8) }
        var accepted = 0
        var failures = 0
        for round in 0..<1_500 {
            // Mostly short documents, where an edit is likely to land on a
            // rule; some fixtures, where it lands among real API data.
            let original = round % 10 == 0 ? fixtures.randomElement(using: &generator)! : seeds.randomElement(using: &generator)!
            let document = Self.edited(original, using: &generator)
            let problems = Self.problems(document)
            if !problems.isEmpty {
                failures += 1
                Issue.record("seed \(seed), round \(round): \(String(decoding: document.prefix(200), as: UTF8.self).debugDescription): \(problems)")
                if failures >= 5 { return }
            }
            if (try? JSONParser().parse(document)) != nil { accepted += 1 }
        }
        // Both outcomes are exercised, not only rejections.
        #expect(accepted >= 100, "only \(accepted) of 1,500 edited documents were valid")
    }

    /// Every short seed with each of its bytes replaced, in turn, by each
    /// byte of the alphabet: one edit that keeps the rest of the document
    /// valid, everywhere.
    @Test func everyOneByteReplacementReadsAlike() {
        var checked = 0
        var failures = 0
        for seed in Self.seeds where seed.utf8.count < 200 {
            let original = Array(seed.utf8)
            for position in original.indices {
                for byte in Self.alphabet where byte != original[position] {
                    var document = original
                    document[position] = byte
                    let problems = Self.problems(document)
                    checked += 1
                    guard problems.isEmpty else {
                        Issue.record("\(String(decoding: document, as: UTF8.self).debugDescription): \(problems)")
                        failures += 1
                        if failures >= 5 { return }
                        continue
                    }
                }
            }
        }
        #expect(checked > 20_000)
    }

    /// The comparison reports each kind of disagreement.
    @Test func theComparisonTellsEveryDisagreement() throws {
        func problems(_ text: String, _ result: Result<JSONValue, JSONParseError>) -> [String] {
            Array(text.utf8).withUnsafeBytes { FuzzInvariants.checkAgainstReference(result, in: $0) }
        }
        let error = JSONParseError(line: 1, column: 1, offset: 0, message: "planted")
        let valid = #"{"a": [0.0, "e\u0301"], "b": 1}"#
        let parsed = try JSONValue(parsing: valid)
        #expect(problems(valid, .success(parsed)).isEmpty)
        // Rejecting a valid document, accepting an invalid one.
        #expect(!problems(valid, .failure(error)).isEmpty)
        #expect(!problems("[1,]", .success([1])).isEmpty)
        #expect(problems("[1,]", .failure(error)).isEmpty)
        // A different sign of zero, spelling of a string, or key order.
        #expect(!problems(valid, .success(["a": [-0.0, "e\u{301}"], "b": 1])).isEmpty)
        #expect(!problems(valid, .success(["a": [0.0, "\u{E9}"], "b": 1])).isEmpty)
        #expect(!problems(valid, .success(["b": 1, "a": [0.0, "e\u{301}"]])).isEmpty)
        #expect(!problems(valid, .success(["a": [0.0, "e\u{301}"], "b": 1.0])).isEmpty)
    }

    /// The reference parser itself follows the documented rules.
    @Test func theReferenceFollowsTheDocumentedRules() {
        func reference(_ text: String) -> JSONValue? {
            Array(text.utf8).withUnsafeBytes { bytes in
                var parser = ReferenceJSONParser(bytes)
                return parser.parseDocument()
            }
        }
        #expect(reference("-0").map { FuzzInvariants.strictDifference($0, .double(-0.0), at: "$") == nil } == true)
        #expect(reference("123456789012345678901") == .bigInteger("123456789012345678901"))
        #expect(reference("1e400") == nil)
        #expect(reference("1e-400") == .double(0))
        #expect(reference(#""\ud800""#) == .string("\u{FFFD}"))
        #expect(reference(#"{"k": 1, "k": 2, "j": 3}"#).map { Array($0.objectValue!.keys) } == ["k", "j"])
        #expect(reference(#"{"k": 1, "k": 2}"#)?["k"] == 2)
        #expect(reference("\u{FEFF}1") == 1)
        #expect(reference("1\u{FEFF}") == nil)
        #expect(reference(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) != nil)
        #expect(reference(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)) == nil)
        #expect(reference("[01]") == nil)
        #expect(reference(#"["\x"]"#) == nil)
    }
}
