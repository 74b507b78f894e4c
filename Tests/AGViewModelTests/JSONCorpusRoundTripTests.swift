import Foundation
import Testing
@testable import AGViewModel

/// Round trips over documents: parse → Codable encode → decode and
/// parse → write → parse give back an equal value, by every route.
@Suite("JSON corpus round trips")
struct JSONCorpusRoundTripTests {
    /// JSONTestSuite-style accepted documents (`y_` cases), weighted to the
    /// numbers that routes disagree about.
    static let acceptedDocuments: [String] = [
        "[1.0]", "[-0]", "[-0.0]", "[0e1]", "[1e0]", "[1E22]", "[1E+2]", "[1e-2]", "[123e65]", "[123e45]",
        "[-123123e100000]".replacingOccurrences(of: "e100000", with: "e100"), "[0.5]", "[2.0]", "[35.0]",
        "{\"price\": 35.0}", "[100000000000000000000]", "[-9223372036854775808]", "[9223372036854775807]",
        "[9223372036854775808]", "[18446744073709551615]", "[18446744073709551616]", "[-9223372036854775809]",
        "[123456789012345678901234567890]", "[1.7976931348623157e308]", "[5e-324]", "[4.9406564584124654e-324]",
        "[9007199254740993]", "[0.1, 0.2, 0.30000000000000004]", "[1e21, 1e22, 1e23]",
        "[]", "{}", "[null]", "[true, false]", "[\"\"]", "[\"\\u0000\"]", "[\"\\uD834\\uDD1E\"]",
        "{\"a\": [], \"b\": {}, \"c\": [[[]]]}", "{\"\": 0, \"a.b\": 1, \"c[0]\": 2}",
        "[[1, 1.0, 1e0], {\"x\": -0.0}]", "\"only a string\"", "42", "4.2", "null",
        "{\"é\": \"ünïcödé\", \"😀\": [\"👩‍👩‍👧\"]}",
    ]

    /// Every JSON document this test can find: the table above, the
    /// bundled fixtures, and the shared data corpus when it is present.
    static func documents() throws -> [(name: String, data: Data)] {
        var result = acceptedDocuments.enumerated().map { ("y_\($0.offset)", Data($0.element.utf8)) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folders = [
            root.appendingPathComponent("Fixtures"),
            root.appendingPathComponent("Fixtures/golden"),
            root.appendingPathComponent("../shared/data").standardizedFileURL,
        ]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".json") && !name.hasSuffix(".spec.json") {
                result.append((name, try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        return result
    }

    @Test func theCorpusIsThere() throws {
        // The bundled fixtures alone make this more than the table.
        #expect(try Self.documents().count > Self.acceptedDocuments.count + 4)
    }

    @Test func parseEncodeDecodeIsEqual() throws {
        for (name, data) in try Self.documents() {
            let parsed = try JSONValue(parsing: data)
            let encoded = try JSONEncoder().encode(parsed)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: encoded)
            if let difference = firstDifference(decoded, parsed) { Issue.record("\(name): \(difference)") }
            #expect(decoded.hashValue == parsed.hashValue, "\(name)")
            // And the decoded value, read back by our parser, is the same again.
            #expect(try JSONValue(parsing: encoded) == parsed, "\(name)")
        }
    }

    @Test func parseWriteParseIsEqual() throws {
        for (name, data) in try Self.documents() {
            let parsed = try JSONValue(parsing: data)
            for options in [JSONWriter.Options(), JSONWriter.Options(pretty: true, sortedKeys: true)] {
                let written = try parsed.jsonData(options: options)
                let reparsed = try JSONValue(parsing: written)
                #expect(reparsed == parsed, "\(name)")
                #expect(reparsed.hashValue == parsed.hashValue, "\(name)")
            }
            // Unsorted output keeps every number's representation and key order.
            let written = try parsed.jsonData()
            let reparsed = try JSONValue(parsing: written)
            #expect(try reparsed.jsonData() == written, "\(name)")
            #expect(sameKeyOrder(reparsed, parsed), "\(name)")
        }
    }

    @Test func foundationRoutesAgree() throws {
        for (name, data) in try Self.documents() {
            let parsed = try JSONValue(parsing: data)
            // JSONSerialization's reading of the same bytes, and our writing
            // read by JSONSerialization, decode to equal values.
            let written = try parsed.jsonData()
            let viaFoundation = try JSONSerialization.jsonObject(with: written, options: [.fragmentsAllowed])
            let backAgain = try JSONSerialization.data(withJSONObject: viaFoundation, options: [.fragmentsAllowed])
            let decoded = try JSONDecoder().decode(JSONValue.self, from: backAgain)
            #expect(decoded == parsed, "\(name)")
        }
    }

    @Test func randomValuesRoundTripThroughTheWriter() throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: 1313))
        for round in 0..<200 {
            let value = generator.value()
            let reparsed = try JSONValue(parsing: value.jsonData())
            if let difference = firstDifference(reparsed, value) { Issue.record("round \(round): \(difference)") }
            #expect(reparsed.hashValue == value.hashValue, "round \(round)")
        }
    }

    /// The Codable route over random values. One known gap of Foundation's
    /// coders, recorded as a known issue so it stays visible: integers of
    /// more than 38 digits pass through `Decimal` and come back as doubles.
    /// A double of 2^53 or more that `JSONEncoder` writes as e.g.
    /// `5.632938523701434e+18` is decoded by `JSONDecoder` as the `Int64`
    /// that text spells; the one number rule compares a double by its
    /// shortest text, so the two are equal.
    @Test func randomValuesRoundTripThroughCodable() throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: 1313))
        var known: [String] = []
        for round in 0..<200 {
            let value = generator.value()
            if nesting(of: value) > JSONValue.codableNestingLimit {
                #expect(throws: EncodingError.self, "round \(round): past the Codable limit") { try JSONEncoder().encode(value) }
                continue
            }
            let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
            guard let (got, expected) = firstDifferingLeaves(decoded, value) else {
                #expect(decoded.hashValue == value.hashValue, "round \(round)")
                continue
            }
            let text = "round \(round): \(got.briefDescription) (\(got.kind)) vs \(expected.briefDescription) (\(expected.kind))"
            switch (got, expected) {
            case (.double, .bigInteger(let digits)) where digits.filter(\.isNumber).count > 38:
                known.append(text)
            default:
                Issue.record(Comment(rawValue: text))  // anything else is a real failure
            }
        }
        withKnownIssue("big integers over 38 digits come back from Foundation's coders as doubles", isIntermittent: true) {
            for text in known { Issue.record(Comment(rawValue: text)) }
        }
    }

    /// The levels of arrays and objects in `value`.
    private func nesting(of value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(nesting).max() ?? 0)
        case .object(let object): 1 + (object.values.map(nesting).max() ?? 0)
        default: 0
        }
    }

    @Test func oneNumberWhateverTheRoute() throws {
        let texts = ["35", "35.0", "3.5e1", "350e-1"]
        let values = try texts.map { try JSONValue(parsing: $0) }
        let decoded = try texts.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        let literals: [JSONValue] = [35, 35.0]
        for value in values + decoded + literals {
            #expect(value == values[0])
            #expect(value.hashValue == values[0].hashValue)
        }
        #expect(Set(values + decoded + literals).count == 1)
        // Representations stay for writing back.
        #expect(try values.map { try $0.jsonString() } == ["35", "35.0", "35.0", "35.0"])
        // The issue's cases.
        for value: JSONValue in [2.0, -0.0, [1.0], ["price": 35.0], 1e22, 0.1] {
            let roundTripped = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
            #expect(roundTripped == value, "\(value)")
        }
        #expect(JSONValue.double(-0.0) == JSONValue.int(0))
        #expect(JSONValue.double(1e20) == JSONValue.bigInteger("100000000000000000000"))
        #expect(JSONValue.double(1e20).hashValue == JSONValue.bigInteger("100000000000000000000").hashValue)
        #expect(JSONValue.bigInteger("100000000000000000001") != JSONValue.double(1e20))
        #expect(JSONValue.bigInteger("5") == JSONValue.int(5))
        // A double is the decimal its shortest text spells.
        let large = -1.9011924315268797e18
        #expect(JSONValue.double(large) == JSONValue.int(-1_901_192_431_526_879_700))
        #expect(JSONValue.double(large).hashValue == JSONValue.int(-1_901_192_431_526_879_700).hashValue)
        #expect(JSONValue.double(large) != JSONValue.int(Int64(large)))
        #expect(!(JSONValue.double(large) < JSONValue.int(-1_901_192_431_526_879_700)))
        #expect(JSONValue.int(Int64(large)) < JSONValue.double(large))
        #expect(JSONValue.double(1e23) == JSONValue.bigInteger("100000000000000000000000"))
        #expect(JSONValue.bool(true) != JSONValue.int(1))
    }
}

/// Where two values first differ, as `path: a vs b`, or `nil` when equal.
func firstDifference(_ a: JSONValue, _ b: JSONValue, at path: String = "") -> String? {
    switch (a, b) {
    case let (.array(x), .array(y)) where x.count == y.count:
        for i in x.indices { if let d = firstDifference(x[i], y[i], at: path + "[\(i)]") { return d } }
        return nil
    case let (.object(x), .object(y)) where x.count == y.count:
        for (key, value) in x {
            guard let other = y[key] else { return "\(path).\(key): missing" }
            if let d = firstDifference(value, other, at: path + "." + key) { return d }
        }
        return nil
    default:
        return a == b ? nil : "\(path): \(a.briefDescription) (\(a.kind)) vs \(b.briefDescription) (\(b.kind))"
    }
}

/// The first pair of leaves (or mismatched containers) where two values differ.
func firstDifferingLeaves(_ a: JSONValue, _ b: JSONValue) -> (JSONValue, JSONValue)? {
    switch (a, b) {
    case let (.array(x), .array(y)) where x.count == y.count:
        for i in x.indices { if let d = firstDifferingLeaves(x[i], y[i]) { return d } }
        return nil
    case let (.object(x), .object(y)) where x.count == y.count:
        for (key, value) in x {
            guard let other = y[key] else { return (a, b) }
            if let d = firstDifferingLeaves(value, other) { return d }
        }
        return nil
    default:
        return a == b ? nil : (a, b)
    }
}

extension JSONCorpusRoundTripTests {
    /// A Foundation dictionary has no order: its keys come out sorted, so
    /// the same dictionary always converts to the same object.
    @Test func foundationDictionaryKeysAreSorted() throws {
        var dictionary: [String: Any] = [:]
        for i in 0..<30 { dictionary["key\(i)"] = i }
        let keys = try #require(try JSONValue(dictionary).objectValue?.keys)
        #expect(keys == dictionary.keys.sorted())
    }

    /// `JSONDecoder` gives 1e23 as a `Decimal`; its shortest text is a
    /// double's, so it decodes as that double and writes back as it was.
    @Test func aDoublesShortestTextDecodesAsThatDouble() throws {
        let data = try JSONEncoder().encode(JSONValue.double(1e23))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded.description == JSONValue.double(1e23).description)
        guard case .double(let d) = decoded else { Issue.record("decoded as \(decoded)"); return }
        #expect(d == 1e23)
    }
}
