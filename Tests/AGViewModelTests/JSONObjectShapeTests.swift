import Foundation
import Testing
@testable import AGViewModel

/// Objects whose keys repeat earlier objects' keys take a fast path in the
/// parser (keys matched by their bytes against a remembered shape). These
/// tests build documents full of near-miss shapes and check every object
/// against one built member by member.
@Suite("JSONParser: repeated object shapes")
struct JSONObjectShapeTests {
    /// A member list as written, duplicates and all, and the object it means.
    struct Model {
        var members: [(key: String, spelling: String, value: JSONValue)] = []

        var object: JSONObject {
            var object = JSONObject()
            for member in members { object.updateValue(member.value, forKey: member.key) }
            return object
        }

        var text: String {
            "{" + members.map { "\"\($0.spelling)\":" + (try! $0.value.jsonString()) }.joined(separator: ",") + "}"
        }
    }

    static let keys = ["id", "name", "ida", "i", "nam", "names", "created_at", "user", "text",
                       "a_much_longer_key_name_than_eight_bytes", "a_much_longer_key_name_than_eight_byteZ",
                       "é", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12", "k13"]

    /// The key written with an escape, so its bytes differ but its value does not.
    static func escaped(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, first.isASCII else { return key }
        return String(format: "\\u%04x", first.value) + key.unicodeScalars.dropFirst().map(String.init).joined()
    }

    /// Many shapes, interleaved, fill every set of the parser's shape
    /// memory and evict each other; objects with a repeated key come in
    /// between. Every object must still read back exactly.
    @Test("interleaved shapes, large and small, with duplicates in between, read back exactly")
    func interleavedShapes() throws {
        // 120 shapes of 2 to 40 keys (the large ones have a hash index).
        let shapes: [[String]] = (0..<120).map { shape in
            (0..<(2 + shape % 39)).map { "k\(shape % 7)_\($0)_\(shape)" }
        }
        var text = "["
        var expected: [[(String, Int)]] = []
        for round in 0..<6 {
            for (index, keys) in shapes.enumerated() {
                let members = keys.enumerated().map { ($0.element, round * 1_000 + index * 50 + $0.offset) }
                expected.append(members)
                text += "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "},"
                if index % 17 == 0 {
                    // The same keys with one repeated: the last value wins,
                    // at the first position.
                    var repeated = members
                    repeated.append((keys[0], -1))
                    text += "{" + repeated.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "},"
                    expected.append([(keys[0], -1)] + members.dropFirst())
                }
            }
        }
        text.removeLast()
        text += "]"
        guard case .array(let objects) = try JSONValue(parsing: text) else {
            Issue.record("not an array")
            return
        }
        #expect(objects.count == expected.count)
        for (value, members) in zip(objects, expected) {
            guard case .object(let object) = value else {
                Issue.record("not an object: \(value)")
                continue
            }
            #expect(object.map(\.key) == members.map(\.0))
            for (key, number) in members {
                #expect(object[key] == .int(Int64(number)), "\(key)")
            }
            #expect(object["absent"] == nil)
        }
    }

    @Test func randomShapesWithNearMisses() throws {
        var random = SplitMix64(seed: 0x5EED_5A9E)
        // A few base shapes, repeated with mutations.
        var bases: [[String]] = []
        for _ in 0..<6 {
            let count = Int.random(in: 2...16, using: &random)
            bases.append((0..<count).map { _ in Self.keys.randomElement(using: &random)! })
        }
        for _ in 0..<300 {
            var models: [Model] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                var keys = bases.randomElement(using: &random)!
                switch Int.random(in: 0..<8, using: &random) {
                case 0: keys.removeLast()
                case 1: keys.append(Self.keys.randomElement(using: &random)!)
                case 2: keys[Int.random(in: 0..<keys.count, using: &random)] = Self.keys.randomElement(using: &random)!
                case 3: keys.swapAt(0, keys.count - 1)
                default: break
                }
                var model = Model()
                for key in keys {
                    let spelling = Int.random(in: 0..<10, using: &random) == 0 ? Self.escaped(key) : key
                    let value: JSONValue
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: value = .int(Int64.random(in: -5...5, using: &random))
                    case 1: value = .string(key)
                    case 2: value = .object(Model(members: [(key, key, .bool(true)), ("z", "z", .null)]).object)
                    default: value = .array([.int(1)])
                    }
                    model.members.append((key, spelling, value))
                }
                models.append(model)
            }
            let text = "[" + models.map(\.text).joined(separator: ",\n ") + "]"
            let parsed = try JSONValue(parsing: text)
            let expected = JSONValue.array(models.map { .object($0.object) })
            #expect(parsed == expected, "\(text)")
            guard case .array(let objects) = parsed else { continue }
            for (object, model) in zip(objects, models) {
                guard case .object(let o) = object else { continue }
                // Same keys in the same order, and every key found by lookup
                // (the hash index shared from a shape must fit this object).
                #expect(o.keys == model.object.keys, "\(text)")
                for key in model.object.keys { #expect(o[key] == model.object[key], "\(key) in \(text)") }
                #expect(o["not-a-key"] == nil)
            }
        }
    }

    @Test func keyThatExtendsTheShapesKeyIsNotTakenForIt() throws {
        let value = try JSONValue(parsing: #"[{"id":1,"name":2},{"id":3,"names":4},{"id":5,"nam":6},{"id":7,"name":8,"name":9}]"#)
        #expect(value == [["id": 1, "name": 2], ["id": 3, "names": 4], ["id": 5, "nam": 6], ["id": 7, "name": 9]])
    }

    @Test func nestedObjectsReplacingTheShapeMidObject() throws {
        // The inner objects close while the outer one is matching its keys.
        var members: [String] = []
        for i in 0..<14 { members.append("\"k\(i)\":{\"k\(i)\":1,\"x\":2}") }
        let object = "{" + members.joined(separator: ",") + "}"
        let text = "[" + Array(repeating: object, count: 4).joined(separator: ",") + "]"
        let value = try JSONValue(parsing: text)
        guard case .array(let objects) = value else { Issue.record("not an array"); return }
        for case .object(let o) in objects {
            #expect(o.count == 14)
            for i in 0..<14 { #expect(o["k\(i)"] == ["k\(i)": 1, "x": 2]) }
        }
    }
}

@Suite("JSONParser: whitespace runs")
struct JSONWhitespaceRunTests {
    @Test func everyMixOfWhitespaceAroundTokensIsSkippedAndNothingElse() throws {
        var random = SplitMix64(seed: 0x5EED_0A20)
        let whitespace: [String] = [" ", "\n", "\r", "\t"]
        func run() -> String {
            (0..<Int.random(in: 0...19, using: &random)).map { _ in whitespace.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<500 {
            let text = run() + "{" + run() + "\"a\"" + run() + ":" + run() + "[" + run() + "1" + run() + "," + run()
                + "true" + run() + "]" + run() + "}" + run()
            #expect(try JSONValue(parsing: text) == ["a": [1, true]], "\(text.debugDescription)")
            // A control character or other byte inside a run still stops the skip.
            for bad in ["\u{0B}", "\u{0C}", "\u{00}", "\u{85}", "x"] {
                let broken = run() + "[1," + run() + bad + run() + "2]"
                #expect(throws: JSONParseError.self, "\(broken.debugDescription)") { try JSONValue(parsing: broken) }
            }
        }
    }
}
