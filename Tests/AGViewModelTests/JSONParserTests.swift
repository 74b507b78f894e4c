import Foundation
import Testing
@testable import AGViewModel

@Suite("JSONParser: valid documents")
struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("42", .int(42)),
        ("-7", .int(-7)),
        ("1.5", .double(1.5)),
        ("\"\"", .string("")),
        ("\"hello\"", .string("hello")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n 12 \n", .int(12)),
        ("[1, \"a\", null, true, false, 2.5, [], {}]",
         .array([1, "a", nil, true, false, 2.5, [], [:]])),
        ("{\"a\": {\"b\": [1, {\"c\": null}]}}", ["a": ["b": [1, ["c": nil]]]]),
        ("\u{FEFF}[1]", [1]),
    ] as [(String, JSONValue)])
    func acceptsEveryKindAtTopLevel(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    /// Containers closing just as the parser's value stack fills up (it
    /// starts with room for 64 values and doubles): every count of values
    /// before an empty or full array or object, at the top and nested.
    @Test func containersClosingAtTheValueStackBoundary() throws {
        for before in 60...132 {
            let numbers = (0..<before).map { JSONValue.int(Int64($0)) }
            let text = (0..<before).map(String.init).joined(separator: ",")
            let endings: [(String, JSONValue)] = [
                ("[]", .array([])), ("{}", .object([:])), ("[7]", [7]), (#"{"k":7}"#, ["k": 7]),
                (#"[{},[],{"a":[]}]"#, [[:], [], ["a": []]]),
            ]
            for (ending, value) in endings {
                let expected = JSONValue.array(JSONArray(numbers + [value]))
                #expect(try JSONValue(parsing: "[\(text),\(ending)]") == expected)
                #expect(try JSONValue(parsing: #"{"n":[\#(text),\#(ending)],"z":\#(ending)}"#)
                    == ["n": expected, "z": value])
            }
        }
    }

    @Test func keepsKeyOrderOfSource() throws {
        let value = try JSONValue(parsing: #"{"z": 1, "a": 2, "m": 3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func parsesDataStringsAndBytesAlike() throws {
        let text = #"{"id": 505874924095815681, "name": "Jürgen 😀"}"#
        let fromString = try JSONValue(parsing: text)
        let fromData = try JSONValue(parsing: Data(text.utf8))
        let fromBytes = try JSONValue(parsing: Array(text.utf8))
        #expect(fromString == fromData)
        #expect(fromString == fromBytes)
        #expect(fromString["id"] == .int(505874924095815681))
        #expect(fromString["name"] == "Jürgen 😀")
    }

    @Test func rawUnicodeOfEveryLengthIsKept() throws {
        // 1-, 2-, 3- and 4-byte UTF-8, and the edges of the valid ranges.
        let text = "a é € 😀 \u{D7FF} \u{E000} \u{FFFF} \u{10FFFF}"
        #expect(try JSONValue(parsing: "\"\(text)\"") == .string(text))
    }

    @Test func parsesTheBundledFixtures() throws {
        let fixtures = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        for name in ["books.json", "feed.json", "products.json"] {
            let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let value = try JSONValue(parsing: data)
            #expect(value.objectValue != nil, "\(name) is an object")
            // Our result agrees with Foundation's reading of the same file.
            let foundation = try JSONSerialization.jsonObject(with: data) as? NSDictionary
            #expect(foundation?.count == value.objectValue?.count)
        }
    }

    @Test func largeObjectsFindEveryKey() throws {
        let members = (0..<100).map { "\"key\($0)\": \($0)" }.joined(separator: ", ")
        let value = try JSONValue(parsing: "{\(members)}")
        for i in 0..<100 { #expect(value["key\(i)"] == .int(Int64(i))) }
        #expect(value["key100"] == nil)
        #expect(value.objectValue?.keys.first == "key0")
    }
}

@Suite("JSONParser: duplicate keys")
struct JSONParserDuplicateKeyTests {
    @Test func lastValueWinsAtFirstPosition() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
        #expect(value.objectValue?.count == 2)
    }

    @Test func sameRuleInLargeObjects() throws {
        let members = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let value = try JSONValue(parsing: "{\(members), \"k3\": \"again\", \"k19\": null}")
        let object = try #require(value.objectValue)
        #expect(object.count == 20)
        #expect(object.keys[3] == "k3")
        #expect(object["k3"] == "again")
        #expect(object["k19"] == .null)
        #expect(object.keys.last == "k19")
    }

    // The parser skips the duplicate check for an object whose key shape
    // repeats an earlier, checked one: a duplicate after many objects of one
    // shape (and a large object sharing an earlier one's index) must still
    // resolve by the usual rule.
    @Test func duplicatesAfterRepeatedShapesStillResolve() throws {
        let small = Array(repeating: #"{"id": 1, "name": "x", "ok": true}"#, count: 5)
        let large = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let json = "[" + small.joined(separator: ", ")
            + #", {"id": 1, "name": "x", "id": 2}, {"id": 1, "id": 2, "id": 3}, "#
            + "{\(large)}, {\(large)}, {\(large), \"k5\": \"dup\"}]"
        let array = try #require(try JSONValue(parsing: json).arrayValue)
        #expect(array[5].objectValue?.keys == ["id", "name"])
        #expect(array[5]["id"] == 2)
        #expect(array[6].objectValue?.keys == ["id"])
        #expect(array[6]["id"] == 3)
        var shared = try #require(array[8].objectValue)
        #expect(shared.count == 20)
        #expect(shared["k19"] == 19)
        shared["k20"] = "new"
        #expect(shared["k20"] == "new")
        #expect(array[7].objectValue?["k20"] == nil)
        #expect(array[7].objectValue?["k7"] == 7)
        let duplicated = try #require(array[9].objectValue)
        #expect(duplicated.count == 20)
        #expect(duplicated.keys[5] == "k5")
        #expect(duplicated["k5"] == "dup")
    }

    @Test func escapedAndRawSpellingsOfOneKeyAreDuplicates() throws {
        let value = try JSONValue(parsing: #"{"é": 1, "\u00e9": 2}"#)
        #expect(value.objectValue?.count == 1)
        #expect(value["é"] == 2)
    }
}

@Suite("JSONParser: escapes and surrogates")
struct JSONParserEscapeTests {
    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u00e9\u00E9""#, "éé"),
        (#""\u0000""#, "\u{0}"),
        (#""\u20AC""#, "€"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        (#""a\u0062c""#, "abc"),
        (#""long text before the escape \n and after it""#, "long text before the escape \n and after it"),
        (#""ünïcödé before \t after""#, "ünïcödé before \t after"),
    ])
    func decodesEscapes(text: String, expected: String) throws {
        #expect(try JSONValue(parsing: text) == .string(expected))
    }

    @Test(arguments: [
        (#""\uD83D""#, "\u{FFFD}"),          // lone high surrogate at the end
        (#""\uDE00""#, "\u{FFFD}"),          // lone low surrogate
        (#""\uD83Dx""#, "\u{FFFD}x"),        // high surrogate followed by text
        (#""\uD83D\u0041""#, "\u{FFFD}A"),   // high surrogate followed by a non-surrogate escape
        (#""\uD83D\uD83D\uDE00""#, "\u{FFFD}😀"),
        (#""\uDE00\uD83D""#, "\u{FFFD}\u{FFFD}"),
        (#""\uDC00\uDC00""#, "\u{FFFD}\u{FFFD}"),  // two low surrogates
        (#""\uD800\uE000""#, "\u{FFFD}\u{E000}"),  // high surrogate, then the first code unit past the low ones
    ])
    func loneSurrogatesBecomeReplacementCharacters(text: String, expected: String) throws {
        #expect(try JSONValue(parsing: text) == .string(expected))
    }

    @Test func escapedKeysAreDecoded() throws {
        let value = try JSONValue(parsing: #"{"a\"b": 1, "\u00fcber": 2}"#)
        #expect(value.objectValue?.keys == ["a\"b", "über"])
    }
}
