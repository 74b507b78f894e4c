import Foundation
import Testing
@testable import AGViewModel

/// Paths and keys held in `String`s, path parsing, and exact `UInt64` reads.
@Suite("JSON paths from strings")
struct JSONPathStringKeyTests {
    static let document: JSONValue = try! JSONValue(parsing: """
    {"title": "Swift", "user": {"name": "Ann", "tags": ["a", "b"]},
     "a.b": "dotted", "c[d": "bracketed", "back\\\\slash": 1, "名前": "naïve",
     "big": 18446744073709551615, "tooBig": 18446744073709551616, "neg": -1,
     "asText": "18446744073709551615", "float": 3.0, "null": null}
    """)

    /// The texts used below, with what each means.
    static let cases: [(text: String, components: [JSONPath.Component])] = [
        ("title", [.key("title")]),
        ("user.name", [.key("user"), .key("name")]),
        ("user.tags[1]", [.key("user"), .key("tags"), .index(1)]),
        ("a\\.b", [.key("a.b")]),
        ("c\\[d", [.key("c[d")]),
        ("back\\\\slash", [.key("back\\slash")]),
        ("名前", [.key("名前")]),
        ("n\\ä.x", [.key("nä"), .key("x")]),
        ("[0][12]", [.index(0), .index(12)]),
        ("", []),
        // An index past Int's range names no element, as Int.max does.
        ("a[99999999999999999999]", [.key("a"), .index(.max)]),
        // Not a valid path: one key, as written.
        ("a..b", [.key("a..b")]),
        ("x[y]", [.key("x[y]")]),
        ("a[0]b", [.key("a[0]b")]),
        ("a\\", [.key("a\\")]),
        ("a[\u{663}]", [.key("a[\u{663}]")]),
    ]

    @Test func stringsMeanWhatLiteralsMean() {
        for (text, components) in Self.cases {
            #expect(JSONPath(text).components == components, "\(text)")
            #expect(JSONPath(text) == JSONPath(components), "\(text)")
            #expect(JSONPath(text).hashValue == JSONPath(components).hashValue, "\(text)")
            #expect(JSONPath(text).components.count == components.count, "\(text)")
        }
        let literal: JSONPath = "user.tags[1]"
        #expect(literal == JSONPath("user.tags[1]"))
        let single: JSONPath = "title"
        #expect(single == JSONPath(key: "title"))
        #expect(single.components == [.key("title")])
    }

    @Test func keyConstantsReadEverywhere() {
        let kTitle = "title"
        let kUserName = "user.name"
        let kDotted = "a\\.b"
        let doc = Self.document
        let object = doc.objectValue!
        let viewModel = ViewModel(object)
        #expect(doc.string(at: kTitle) == "Swift")
        #expect(object.string(at: kTitle) == "Swift")
        #expect(viewModel.string(at: kTitle) == "Swift")
        #expect(doc.string(at: kUserName) == "Ann")
        #expect(object.string(at: kUserName) == "Ann")
        #expect(viewModel.string(at: kUserName) == "Ann")
        #expect(viewModel.string(at: kDotted) == "dotted")
        #expect(doc.string(at: "\(kUserName)x", default: "none") == "none")
        #expect(doc.int(at: "user" + ".tags", default: 7) == 7)
        #expect(doc.array(at: ["user", "tags"].joined(separator: "."))?.count == 2)
        #expect(doc.value(at: kTitle) == "Swift")
        #expect(doc.containsValue(at: kTitle))
        #expect(!doc.containsValue(at: "nope"))
        #expect(doc.containsValue(at: "null"))
        let error = #expect(throws: JSONAccessError.self) { try viewModel.read(Int.self, at: kUserName) }
        #expect(error?.path == "user.name")
        // Generated keys: every key of the document, read back through a String.
        for key in object.keys {
            let path = JSONPath(key: key).description
            #expect(doc.value(at: path) == object[key], "\(key)")
            #expect(viewModel.value(at: path) == object[key], "\(key)")
        }
    }

    @Test func pathsRoundTripThroughTheirDescription() {
        var generator = SplitMix64(seed: 13)
        let alphabet: [Character] = ["a", "Z", ".", "[", "]", "\\", "0", "é", "名", " ", "\u{301}", "\""]
        for _ in 0..<500 {
            var components: [JSONPath.Component] = []
            for _ in 0..<Int(generator.next() % 4) + 1 {
                if generator.next() % 3 == 0 {
                    components.append(.index(Int(generator.next() % 1000)))
                } else {
                    let length = Int(generator.next() % 6)  // empty keys too
                    components.append(.key(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })))
                }
            }
            guard case .key = components[0] else { continue }  // a written path starts with a key or index alike
            let path = JSONPath(components)
            #expect(JSONPath(parsing: path.description) == path, "\(path.description)")
            #expect(JSONPath(path.description) == path, "\(path.description)")
        }
    }

    /// An empty key is written `[""]`, anywhere in a path, so error
    /// messages name it unambiguously; a negative index reads back as one.
    @Test func emptyKeysAndNegativeIndicesHaveWrittenForms() {
        let cases: [([JSONPath.Component], String)] = [
            ([.key("")], #"[""]"#),
            ([.key("a"), .key("")], #"a[""]"#),
            ([.key(""), .key("a")], #"[""].a"#),
            ([.index(0), .key("")], #"[0][""]"#),
            ([.key(""), .key("")], #"[""][""]"#),
            ([.key("a"), .index(-1)], "a[-1]"),
        ]
        for (components, text) in cases {
            #expect(JSONPath(components).description == text)
            #expect(JSONPath(text) == JSONPath(components), "\(text)")
        }
        // Read from text, they find what they name.
        let value: JSONValue = ["": ["x": 1], "x": 2, "a": ["": 3]]
        #expect(value.value(at: #"[""].x"#) == 1)
        #expect(value.value(at: #"a[""]"#) == 3)
        // Messages name the empty key: not "x", which exists.
        let viewModel = ViewModel(["x": 1, "": ["x": .double(.nan)]])
        #expect(throws: ArchiveError.cannotEncode(path: #"[""].x"#, reason: "nan is not a finite number")) {
            try ArchiveEncoder().encode(.viewModel(viewModel))
        }
    }

    /// A path read from text, which takes the fast byte-level walk when it
    /// can, finds exactly what the parsed path finds, from a value, an
    /// object and a ViewModel, for every text: valid, escaped, malformed,
    /// or with a combining mark that joins a separator into one Character.
    @Test func textReadsFindWhatParsedPathsFind() {
        let doc: JSONValue = [
            "title": "Swift", "a.b": "dotted", "名前": "naïve", "x": [[1], "é"],
            "long_list_name": ["first", "second"], "long.dotted.key.text": "dots in a long key",
            "user": ["name": "Ann", "tags": ["a", "b"], "\u{301}name": "after a mark",
                     "profile_image_url_https": "a key longer than 15 bytes"],
        ]
        let object = doc.objectValue!
        let viewModel = ViewModel(object)
        let tokens = ["user", "name", "tags", "title", "a", "b", "名前", ".", ".", "[", "]", "[0]", "[1]", "[7]", "\\", "\\.", "x", "é", "\u{301}", "profile_image_url_https", "[1234567890123456789]", "[123456789012345678]", "", "long_list_name", "long", "dotted", "key", "text", "long\\.dotted\\.key\\.text", "naïve_but_longer_key"]
        var generator = SplitMix64(seed: 29)
        var texts = Self.cases.map(\.text) + ["user.tags[0]", "user.tags[1]", "user.tags[2]", "user.name.x", "user..name", "[0]", ".user", "user.\u{301}name", "x[1]", "x[0][0]", "user.profile_image_url_https", "user.tags[123456789012345678]", "long_list_name[1]", "long_list_name[0]x", "long_list_name.x", "long\\.dotted\\.key\\.text"]
        for _ in 0..<2_000 {
            texts.append((0..<Int(generator.next() % 5)).map { _ in tokens[Int(generator.next() % UInt64(tokens.count))] }.joined())
        }
        for text in texts {
            let parsed = JSONPath(text)
            #expect(doc.value(at: text) == doc.value(at: parsed), "\(text)")
            #expect(object.value(at: text) == object.value(at: parsed), "\(text)")
            #expect(viewModel.value(at: text) == viewModel.value(at: parsed), "\(text)")
        }
    }

    @Test func missesAndDefaultsGoThroughTheFastPath() {
        let doc = Self.document
        #expect(doc.value(at: "user.tags[5]") == nil)
        #expect(doc.value(at: "user.tags[-1]") == nil)
        #expect(doc.value(at: "title.x") == nil)
        #expect(doc.value(at: "null") == .null)
        #expect(doc.string(at: "null") == nil)
        #expect(doc.string(at: "null", default: "-") == "-")
        // The throwing read still explains a miss.
        #expect(throws: JSONAccessError(path: "user.tags[5]", reason: .missing)) {
            try doc.read(String.self, at: "user.tags[5]")
        }
        #expect(throws: JSONAccessError(path: "title", reason: .notAContainer(found: .string))) {
            try doc.read(String.self, at: "title.x")
        }
        #expect(throws: JSONAccessError(path: "null", reason: .null)) {
            try doc.read(String.self, at: "null")
        }
    }

    @Test func uint64IsExact() throws {
        let doc = Self.document
        #expect(doc.uint64(at: "big") == UInt64.max)
        #expect(doc.uint64(at: "asText") == UInt64.max)
        #expect(doc.uint64(at: "tooBig") == nil)
        #expect(doc.uint64(at: "neg") == nil)
        #expect(doc.uint64(at: "float") == 3)
        #expect(doc.uint64(at: "neg", default: 9) == 9)
        #expect(doc.int64(at: "big") == nil)
        let written = JSONValue(UInt64.max)
        #expect(written.uint64(at: "") == UInt64.max)
        #expect(try written.jsonString() == "18446744073709551615")
        #expect(try JSONValue(parsing: written.jsonString()).uint64(at: "") == UInt64.max)
        #expect(JSONValue(UInt64(5)) == 5)
        for value: UInt64 in [0, 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max - 1, UInt64.max] {
            #expect(JSONValue(value).uint64(at: "") == value)
            #expect(try JSONValue(parsing: JSONValue(value).jsonString()).uint64(at: "") == value)
        }
    }

    /// Text that only starts like a path (a trailing backslash, an index of
    /// non-ASCII digits, a key right after an index) reads the member whose
    /// key it spells, from a value, an object and a ViewModel, even when the
    /// document also holds what a path would reach.
    @Test func textThatIsNotAPathReadsTheKeyItSpells() {
        let doc: JSONValue = [
            "items": [["x": 2], 3], "a": [5, 6],
            "items[0]x": 1, "a\\": 7, "a[\u{663}]": 8,
        ]
        let object = doc.objectValue!
        let viewModel = ViewModel(object)
        let expected: [(text: String, value: Int)] = [("items[0]x", 1), ("a\\", 7), ("a[\u{663}]", 8)]
        for (text, value) in expected {
            #expect(doc.int(at: text) == value, "\(text)")
            #expect(object.int(at: text) == value, "\(text)")
            #expect(viewModel.int(at: text) == value, "\(text)")
            #expect(JSONPath(parsing: text) == nil, "\(text)")
        }
    }

    /// An index of 19 or more digits names no element, however its digits
    /// would wrap in 64 bits (2^64 and 2^64 + 1 would wrap to 0 and 1).
    @Test func indicesPastSixtyFourBitsNameNoElement() {
        let doc: JSONValue = ["items": ["first", "second"]]
        let object = doc.objectValue!
        let viewModel = ViewModel(object)
        for text in ["items[18446744073709551616]", "items[18446744073709551617]", "items[1000000000000000000]"] {
            #expect(doc.value(at: text) == nil, "\(text)")
            #expect(object.value(at: text) == nil, "\(text)")
            #expect(viewModel.value(at: text) == nil, "\(text)")
            #expect(doc.value(at: JSONPath(text)) == nil, "\(text)")
        }
        #expect(doc.string(at: "items[1]") == "second")
    }
}
