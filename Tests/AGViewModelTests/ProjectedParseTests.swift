import Foundation
import Testing
@testable import AGViewModel

/// Parsing for a spec (``SpecPackager/parseDocument(_:options:)``): the whole
/// document is checked like a full parse, only what the spec reads is built,
/// and packaging gives exactly what packaging a full parse gives.
@Suite("Projected parse")
struct ProjectedParseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A projection reading `keep`, `list[1]`, every element's `id` under
    /// `items`, and `whole` whole: everything else is skipped.
    static let projection: JSONProjection = {
        var projection = JSONProjection()
        projection.readWhole(JSONPath(parsing: "keep")!)
        projection.readWhole(JSONPath(parsing: "list[1]")!)
        projection.readWhole(JSONPath(parsing: "whole")!)
        let items = projection.node(at: JSONPath(parsing: "items")!)!
        let element = projection.everyElement(of: items)!
        projection.readWhole(JSONPath(parsing: "id")!, from: element)
        return projection.finished()
    }()

    /// Values in every JSON form, valid and not, for the skipped positions.
    static let snippets: [String] = [
        "1", "-0", "0.5e-3", "1E+2", "12345678901234567890123", "1e400", "-1e400", "01", "1.", ".5", "+1", "-", "1e",
        "true", "false", "null", "tru", "nul", "True", "NaN", "Infinity",
        "\"\"", "\"abc\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\\uD834\\uDD1E\"", "\"\\uD800\"", "\"\\uDC00x\"",
        "\"\\uD800\\u12\"", "\"\\u12G4\"", "\"\\x\"", "\"\\", "\"abc", "\"a\nb\"", "\"a\u{1}b\"", "\"é😀名前\"",
        "\"\\u0000\"", "'a'",
        "[]", "{}", "[1, 2, [3, {\"a\": []}]]", "{\"a\": {\"b\": [1, \"x\", null]}, \"a\": 2}", "[1,]", "[,1]", "[1 2]",
        "{\"a\":1,}", "{\"a\" 1}", "{1: 2}", "{\"a\": }", "{'a': 1}", "[1, /* c */ 2]", "[[[[", "]", "}", "{\"a\"",
        String(repeating: "[", count: 20) + String(repeating: "]", count: 20),
        String(repeating: "{\"k\":", count: 20) + "1" + String(repeating: "}", count: 20),
    ]

    /// Invalid UTF-8 and edge sequences inside a string, as raw bytes.
    static let byteSnippets: [[UInt8]] = [
        [0x22, 0xC3, 0xA9, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
        [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22], [0x22, 0xF0, 0x9F, 0x98, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0xFF, 0x22], [0x22, 0xEF, 0xBB, 0xBF, 0x22], [0x22, 0xE3, 0x5C, 0x6E, 0x22],
        Array("\"abcdefghijklmnopqrstuvwxyz".utf8) + [0xE5, 0x90, 0x8D] + Array("abcdefgh\\n\"".utf8),
        Array("\"abcdefghijklmnopqrstuvwxyz".utf8) + [0xE5, 0x90] + Array("abcdefgh\"".utf8),
    ]

    /// `snippet` at positions the projection skips, reads whole and reads
    /// partly.
    static func documents(around snippet: [UInt8]) -> [[UInt8]] {
        let twoParts = [
            ("{\"keep\": 1, \"skip\": ", "}"),
            ("{\"skip\": [", ", {\"a\": 1}], \"keep\": true}"),
            ("{\"list\": [", "]}"),
            ("{\"items\": [{\"id\": 1, \"x\": ", "}]}"),
            ("[", "]"),
            ("", ""),
        ].map { Array($0.0.utf8) + snippet + Array($0.1.utf8) }
        let threeParts = [
            ("{\"list\": [", ", ", ", 3]}"),
            ("{\"items\": [", ", {\"id\": ", "}]}"),
            ("{\"whole\": ", ", \"keep\": ", "}"),
        ].map { Array($0.0.utf8) + snippet + Array($0.1.utf8) + snippet + Array($0.2.utf8) }
        return twoParts + threeParts
    }

    /// The projected parse accepts exactly what the full parse accepts, and
    /// a rejected document gets the full parse's error.
    static func expectSameVerdict(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let parser = JSONParser()
        let full = bytes.withUnsafeBytes { parser.parseResult($0) }
        let projected = bytes.withUnsafeBytes { parser.parseResult($0, keeping: projection) }
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        switch (full, projected) {
        case (.success, .success): break
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        case (.success, .failure(let error)):
            Issue.record("projected parse rejects \(text): \(error)", sourceLocation: sourceLocation)
        case (.failure(let error), .success):
            Issue.record("projected parse accepts \(text), full parse says \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func acceptsAndRejectsExactlyAsAFullParse() {
        for snippet in Self.snippets.map({ Array($0.utf8) }) + Self.byteSnippets {
            for document in Self.documents(around: snippet) { Self.expectSameVerdict(document) }
        }
    }

    @Test func depthLimitCountsSkippedContainers() {
        let options = JSONParser.Options(maximumDepth: 4)
        let parser = JSONParser(options: options)
        for depth in 1...6 {
            let inner = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let bytes = Array("{\"skip\": \(inner), \"keep\": 1}".utf8)
            let full = bytes.withUnsafeBytes { parser.parseResult($0) }
            let projected = bytes.withUnsafeBytes { parser.parseResult($0, keeping: Self.projection) }
            #expect((try? full.get()) == nil ? (try? projected.get()) == nil : (try? projected.get()) != nil, "depth \(depth)")
        }
    }

    @Test func skippedContainersMustCloseWithTheirOwnBracket() {
        for snippet in ["[1}", "{\"a\": 1]", "[{}, [1}]", "[[], {\"a\": 1]]", "{\"a\": [], \"b\": {\"c\": 2]}"] {
            for document in Self.documents(around: Array(snippet.utf8)) { Self.expectSameVerdict(document) }
        }
    }

    @Test func skippedValuesNestedMoreThanSixtyFourLevels() {
        for depth in [63, 64, 65, 100, 130, 200] {
            var open = "", close = ""
            for level in 0..<depth {
                open += level % 3 == 1 ? "{\"k\": " : "["
                close = (level % 3 == 1 ? "}" : "]") + close
            }
            let valid = open + "1" + close
            Self.expectSameVerdict(Array("{\"skip\": \(valid), \"keep\": 1}".utf8))
            // The same document with each closing bracket in turn swapped for the other kind.
            let closers = Array(close)
            for i in closers.indices where i % 7 == 0 || i == closers.count - 1 {
                var wrong = closers
                wrong[i] = wrong[i] == "]" ? "}" : "]"
                Self.expectSameVerdict(Array("{\"skip\": \(open)1\(String(wrong)), \"keep\": 1}".utf8))
            }
        }
    }

    @Test func mutatedDocumentsGetTheSameVerdict() throws {
        let base = Array(#"""
        {"keep": {"a": [1, 2.5, -3e2]}, "skip": {"text": "héllo \"wörld\" \u00e9 😀", "n": [true, false, null, 12345678901234567890]},
         "list": ["x", {"y": "名前"}, 3], "items": [{"id": "1", "name": "a\tb"}, {"id": 2, "deep": [[{"z": "\\"}]]}],
         "whole": [0.1, {"k": "v"}]}
        """#.utf8)
        Self.expectSameVerdict(base)
        let alphabet = Array(#"{}[]:,"\ 0-1.eE+tfnu"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE5, 0xED, 0xF0, 0xFF]
        var random = SplitMix64(seed: 0x5EED_15)
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let i = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[i] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &random)!, at: i)
                }
            }
            Self.expectSameVerdict(bytes)
        }
    }

    @Test func buildsOnlyWhatIsRead() throws {
        let text = #"{"skip": {"a": 1}, "keep": [1, {"b": 2}], "list": [10, {"c": 3}, 30, 40], "items": [{"id": 7, "x": 8}, 9, [1]], "whole": {"d": [4]}}"#
        let value = try JSONParser().parse(Data(text.utf8), keeping: Self.projection)
        let expected: JSONValue = [
            "keep": [1, ["b": 2]],
            "list": [nil, ["c": 3]],
            "items": [["id": 7], 9, [1]],
            "whole": ["d": [4]],
        ]
        #expect(value == expected)
    }

    /// A spec may name any index a path can hold, `Int.max` included.
    @Test func theLargestIndexInASpec() throws {
        let spec = #"{"fields": [{"key": "a", "path": "items[9223372036854775807].x", "type": "string"}, {"key": "b", "path": "items[1].x", "type": "string"}, {"key": "c", "template": "{items[9223372036854775807]}"}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8)))
        let data = Data(#"[{"items": [1, {"x": "y"}]}]"#.utf8)
        let projected = try packager.packageManager(document: packager.parseDocument(data)).manager
        let full = try packager.packageManager(document: JSONValue(parsing: data)).manager
        #expect(projected.itemCount == 1 && full.itemCount == 1)
        #expect(projected.item(at: IndexPath(item: 0, section: 0))?["b"] == "y")
        #expect(projected.item(at: IndexPath(item: 0, section: 0))?["a"] == full.item(at: IndexPath(item: 0, section: 0))?["a"])
    }

    /// Every bundled spec, and specs of every shape, package the same from
    /// a projected parse as from a full parse.
    @Test func packagingMatchesAFullParseForTheBundledSpecs() throws {
        for name in ["books", "feed", "products", "profile", "search"] {
            let data = try Data(contentsOf: Self.root.appendingPathComponent("Fixtures/\(name).json"))
            let packager = try SpecPackager(contentsOf: Self.root.appendingPathComponent("Fixtures/specs/\(name).spec.json"))
            try Self.expectSamePackaging(packager, data, name)
        }
    }

    @Test(arguments: [
        #"{"items": "statuses", "header": "search_metadata", "fields": [{"key": "id", "path": "id_str", "type": "string", "required": true}, {"key": "handle", "template": "@{user.screen_name}"}, {"key": "url", "path": "entities.urls[0].expanded_url", "type": "url"}, {"key": "user", "path": "user", "type": "object"}], "headerFields": [{"key": "count", "path": "count", "type": "int"}]}"#,
        #"{"items": "statuses"}"#,
        #"{"items": "statuses", "header": "search_metadata"}"#,
        #"{"items": "statuses", "fields": [{"key": "tags", "path": "entities.hashtags[1].text", "type": "string"}, {"key": "all", "path": "entities.hashtags", "type": "array"}]}"#,
        #"{"items": "search_metadata", "keyedBy": "name", "scalarKey": "value"}"#,
        #"{"items": "statuses[0].entities.urls", "fields": [{"key": "u", "path": "expanded_url", "type": "string"}]}"#,
        #"{"fields": [{"key": "n", "path": "search_metadata.count", "type": "int"}]}"#,
        #"{"sectionsFrom": "groups", "fields": [{"key": "v", "path": "v", "type": "int"}]}"#,
        #"{"sections": [{"title": "S", "items": "statuses", "header": "search_metadata", "headerFields": [{"key": "q", "path": "query", "type": "string"}]}, {"items": "groups.a", "fields": [{"key": "v", "path": "v", "type": "int"}]}]}"#,
        #"{"fields": [{"key": "c", "template": "{search_metadata.query}!"}]}"#,
        // One path read as both kinds: the error names the whole container.
        #"{"items": "search_metadata", "headerFields": [{"key": "q", "path": "search_metadata.query", "type": "string"}], "fields": [{"key": "v", "path": "v", "type": "int"}]}"#,
        #"{"fields": [{"key": "n", "path": "statuses[1].id_str", "type": "int"}], "headerFields": [{"key": "c", "path": "statuses.count", "type": "int", "required": true}]}"#,
        #"{"sections": [{"items": "groups.c", "header": "groups", "fields": [{"key": "v", "path": "v", "type": "int"}]}, {"items": "groups", "fields": [{"key": "v", "path": "v", "type": "int"}]}], "headerFields": [{"key": "a", "path": "a", "type": "array"}]}"#,
    ])
    func packagingMatchesAFullParse(specText: String) throws {
        let document = #"""
        {"statuses": [
           {"id_str": "1", "text": "hello", "user": {"screen_name": "ada", "bio": "x"}, "entities": {"urls": [{"expanded_url": "https://a.example", "x": 1}], "hashtags": [{"text": "a"}, {"text": "b"}]}},
           {"id_str": 2, "user": "not an object", "entities": {"urls": {"0": "x"}, "hashtags": "none"}},
           {"user": {"screen_name": null}, "entities": []},
           "a string", [1, 2], null, 3
         ],
         "search_metadata": {"count": "5", "query": "swift", "name": {"k": 1}},
         "groups": {"a": [{"v": 1}, {"v": "2"}, {"w": 3}], "b": [], "c": "not an array"}}
        """#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(specText.utf8), source: "test.spec.json"))
        try Self.expectSamePackaging(packager, Data(document.utf8), specText)
    }

    /// A spec without an items path packages an array document's elements,
    /// or an object document as the one item: the document's kind decides,
    /// so only what the fields read is built either way.
    @Test func aDocumentWhoseKindDecidesBuildsOnlyWhatIsRead() throws {
        let spec = #"{"fields": [{"key": "name", "path": "user.login", "type": "string"}, {"key": "n", "path": "id", "type": "int", "required": true}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "events.spec.json"))
        let array = #"[{"id": 1, "user": {"login": "ada", "url": "https://example.com/ada"}, "payload": {"size": 3}}, {"id": "x"}, 7, [1, 2], {"user": "bob"}]"#
        let object = #"{"id": 2, "user": {"login": "grace", "bio": "long text"}, "other": [1, 2, 3]}"#
        #expect(try packager.parseDocument(Data(array.utf8)) == [["id": 1, "user": ["login": "ada"]], ["id": "x"], 7, [1, 2], ["user": "bob"]])
        #expect(try packager.parseDocument(Data(object.utf8)) == ["id": 2, "user": ["login": "grace"]])
        for document in [array, object, "3", "[]", "{}"] {
            try Self.expectSamePackaging(packager, Data(document.utf8), "\(document)")
        }
        // A header read from the document itself reads it as an object: an
        // array document is then built whole, for the error that follows.
        let withHeader = SpecPackager(spec: try PackagingSpec(data: Data(#"{"headerFields": [{"key": "c", "path": "count", "type": "int", "required": true}], "fields": [{"key": "n", "path": "id", "type": "int"}]}"#.utf8), source: "h.spec.json"))
        #expect(try withHeader.parseDocument(Data(array.utf8)) == (try JSONParser().parse(Data(array.utf8))))
        for document in [array, object] {
            try Self.expectSamePackaging(withHeader, Data(document.utf8), "header: \(document)")
        }
    }

    /// A header whose fields all start with an index still reads an object:
    /// an array in its place is built whole, so the error counts it all.
    @Test func aHeaderReadOnlyByIndexStillExpectsAnObject() throws {
        let cases = [
            (#"{"items": "i", "header": "h", "headerFields": [{"key": "k", "path": "[0]", "type": "int"}]}"#, #"{"h": [1, 2, 3], "i": []}"#),
            (#"{"sections": [{"items": "[0].x", "headerFields": [{"key": "k", "path": "[2]", "type": "object"}]}]}"#, "[1, 2, 3, 4, 5]"),
        ]
        for (spec, document) in cases {
            let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "h.spec.json"))
            try Self.expectSamePackaging(packager, Data(document.utf8), spec)
            let full = try JSONParser().parse(Data(document.utf8))
            let projected = try packager.parseDocument(Data(document.utf8))
            let strict = (
                Result { () throws(PackagingError) in try packager.packageManager(document: full, policy: .strict) },
                Result { () throws(PackagingError) in try packager.packageManager(document: projected, policy: .strict) }
            )
            if case .failure(let full) = strict.0, case .failure(let projected) = strict.1 {
                #expect(full == projected, "\(spec)")
            } else {
                Issue.record("\(spec): strict packaging should fail both ways")
            }
        }
    }

    /// A spec key that is not ASCII but equals an ASCII key as a `String`
    /// (U+212A KELVIN SIGN is "K", U+037E GREEK QUESTION MARK is ";") reads
    /// that key, as a full parse's lookup does; with both spellings in one
    /// object, the last value wins either way.
    @Test(arguments: [("\u{212A}", "K"), ("\u{037E}", ";"), ("\u{1FEF}", "`")])
    func aSpecKeyEqualToAnASCIIKeyReadsIt(specKey: String, ascii: String) throws {
        #expect(specKey == ascii)
        let specText = #"{"items": "xs", "fields": [{"key": "k", "path": "\#(specKey)", "type": "string", "required": true}, {"key": "n", "path": "n", "type": "int"}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(specText.utf8), source: "k.spec.json"))
        let documents = [
            #"{"xs": [{"n": 1, "\#(ascii)": "ascii", "other": 2}]}"#,
            #"{"xs": [{"\#(ascii)": "first", "\#(specKey)": "second"}]}"#,
            #"{"xs": [{"\#(specKey)": "first", "\#(ascii)": "second", "n": 3}]}"#,
        ]
        for document in documents {
            try Self.expectSamePackaging(packager, Data(document.utf8), document)
        }
        let read = try packager.packageManager(document: packager.parseDocument(Data(documents[0].utf8))).manager
        #expect(read.item(at: IndexPath(item: 0, section: 0))?.string(at: "k") == "ascii")
    }

    /// A spec reading a later index of an array before an earlier one keeps
    /// every element up to the later one, so each index still finds its own.
    @Test func indicesReadInAnyOrderKeepTheirElements() throws {
        let spec = #"{"items": "xs", "fields": [{"key": "late", "path": "ys[5]", "type": "int"}, {"key": "early", "path": "ys[2]", "type": "int"}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "i.spec.json"))
        let data = Data(#"{"xs": [{"ys": [0, 1, 2, 3, 4, 5, 6]}]}"#.utf8)
        try Self.expectSamePackaging(packager, data, spec)
        let item = try packager.packageManager(document: packager.parseDocument(data)).manager.item(at: IndexPath(item: 0, section: 0))
        #expect(item?.int(at: "late") == 5 && item?.int(at: "early") == 2)
    }

    /// Two sections over the same items, each with its own fields: every
    /// element keeps the fields of both.
    @Test func sectionsSharingItemsEachGetTheirFields() throws {
        let spec = #"{"sections": [{"items": "xs", "fields": [{"key": "a", "path": "a", "type": "int"}]}, {"items": "xs", "fields": [{"key": "b", "path": "b", "type": "int"}]}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "s.spec.json"))
        let data = Data(#"{"xs": [{"a": 1, "b": 2, "c": 3}]}"#.utf8)
        try Self.expectSamePackaging(packager, data, spec)
        let manager = try packager.packageManager(document: packager.parseDocument(data)).manager
        #expect(manager.item(at: IndexPath(item: 0, section: 0))?.int(at: "a") == 1)
        #expect(manager.item(at: IndexPath(item: 0, section: 1))?.int(at: "b") == 2)
    }

    /// An element read both by index (from the header) and as one of the
    /// items keeps what both read.
    @Test func anElementReadByIndexAndAsAnItemKeepsBoth() throws {
        let spec = #"{"items": "xs", "headerFields": [{"key": "first", "path": "xs[0].b", "type": "int"}], "fields": [{"key": "a", "path": "a", "type": "int"}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "h.spec.json"))
        let data = Data(#"{"xs": [{"a": 1, "b": 2, "c": 3}, {"a": 4, "b": 5}]}"#.utf8)
        try Self.expectSamePackaging(packager, data, spec)
        let manager = try packager.packageManager(document: packager.parseDocument(data)).manager
        #expect(manager.exportJSON() == ["sections": [["header": ["first": 2], "items": [["a": 1], ["a": 4]]]]])
    }

    /// An ASCII spec key reads a document key that is not ASCII but equals
    /// it as a `String` (U+212A KELVIN SIGN is "K"), as a full parse's
    /// lookup does, also at the very end of a short document.
    @Test(arguments: [("\u{212A}", "K"), ("\u{037E}", ";")])
    func anASCIISpecKeyReadsAnEqualKeyThatIsNot(documentKey: String, specKey: String) throws {
        #expect(documentKey == specKey)
        let spec = #"{"fields": [{"key": "k", "path": "\#(specKey)", "type": "int", "required": true}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "k.spec.json"))
        for document in [#"{"\#(documentKey)":1}"#, #"{"n": 2, "\#(documentKey)": 1}"#] {
            let data = Data(document.utf8)
            try Self.expectSamePackaging(packager, data, document)
            let item = try packager.packageManager(document: packager.parseDocument(data)).manager.item(at: IndexPath(item: 0, section: 0))
            #expect(item?.int(at: "k") == 1, "\(document)")
        }
    }

    static func expectSamePackaging(_ packager: SpecPackager, _ data: Data, _ name: String) throws {
        let full = try JSONParser().parse(data)
        let projected = try packager.parseDocument(data)
        let a = Result { () throws(PackagingError) in try packager.packageManager(document: full) }
        let b = Result { () throws(PackagingError) in try packager.packageManager(document: projected) }
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x.manager.exportJSON() == y.manager.exportJSON(), "\(name)")
            #expect(x.skipped == y.skipped, "\(name)")
        case (.failure(let x), .failure(let y)):
            #expect(x == y, "\(name)")
        default:
            Issue.record("\(name): full parse gives \(a), projected parse gives \(b)")
        }
    }
}
