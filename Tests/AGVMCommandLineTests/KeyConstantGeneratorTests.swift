import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("agvm keys: identifiers")
struct IdentifierCleanerTests {
    @Test(arguments: [
        ("screen_name", "screenName"),
        ("profile-image-url", "profileImageUrl"),
        ("already camel", "alreadyCamel"),
        ("screenName", "screenName"),
        ("ID", "id"),
        ("URLs", "urls"),
        ("HTMLBody", "htmlBody"),
        ("1080p", "_1080p"),
        ("名前", "名前"),
        ("prénom", "prénom"),
        ("price €", "priceU20AC"),
        ("Ünits", "Ünits"),
        ("a\u{200B}b", "aB"),
        ("\u{0301}x", "_\u{0301}x"),
        ("名前・よみ", "名前よみ"),
        ("___", "key"),
        ("", "key"),
        ("default", "`default`"),
        ("self", "self_"),
        ("a.b[0]", "aB0"),
    ])
    func memberNames(key: String, expected: String) {
        var cleaner = IdentifierCleaner()
        #expect(cleaner.memberName(for: key) == expected)
    }

    @Test func collisionsAreNumberedInSourceOrder() {
        var cleaner = IdentifierCleaner()
        #expect(cleaner.memberName(for: "user_name") == "userName")
        #expect(cleaner.memberName(for: "user-name") == "userName2")
        #expect(cleaner.memberName(for: "userName") == "userName3")
        #expect(cleaner.memberName(for: "default") == "`default`")
        #expect(cleaner.memberName(for: "Default") == "default2")
    }

    @Test func typeNamesAvoidReservedNames() {
        var cleaner = IdentifierCleaner(reserved: ["String"])
        #expect(cleaner.typeName(for: "string") == "String2")
        #expect(cleaner.typeName(for: "user_profile") == "UserProfile")
    }
}

@Suite("agvm keys: inference and output")
struct KeyConstantGeneratorTests {
    let sample: JSONValue = [
        "items": [
            ["id": 1, "title": "A", "price": 9, "cover": "https://example.com/a.png", "note": nil, "tag": "x",
             "author": ["first_name": "Ann"]],
            ["id": 2, "title": "B", "price": 9.5, "cover": "https://example.com/b.png", "note": nil, "tag": 3,
             "extra": true, "author": ["first_name": "Bo", "born": 1970]],
        ],
        "next_cursor": .bigInteger("18446744073709551615"),
        "default": "keyword",
    ]

    @Test func infersTypesFromAllElements() {
        let generator = KeyConstantGenerator(sample: sample, moduleName: "book_list", sourceName: "books.json")
        let swift = generator.generate(.swift)
        #expect(generator.moduleName == "BookList")
        #expect(swift.contains("extension ViewModel.Key where Value == [JSONValue] {"))
        #expect(swift.contains("public static var items: Self { \"items\" }"))
        #expect(swift.contains("public static var nextCursor: Self { \"next_cursor\" }"))
        #expect(swift.contains("public static var `default`: Self { \"default\" }"))
        #expect(swift.contains("extension ViewModel.Key where Value == Int {"))
        #expect(swift.contains("public static var itemsId: Self { \"id\" }"))
        #expect(swift.contains("public static var itemsPrice: Self { \"price\" }"))
        #expect(swift.contains("public static var itemsCover: Self { \"cover\" }"))
        #expect(swift.contains("public static var itemsNote: Self { \"note\" }"))
        #expect(swift.contains("public static var itemsTag: Self { \"tag\" }"))
        #expect(swift.contains("/// In `items`: `extra` (optional) Example: true"))
        #expect(!swift.contains("VMKey"))
        #expect(swift.contains("/// In `items.author`: `born` (optional) Example: 1970"))
    }

    @Test func reportsNullOnlyAndVaryingKeys() {
        let generator = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "books.json")
        let notes = generator.notes.map(\.description)
        #expect(notes.contains("items[].note: null in every sample; typed as JSONValue"))
        #expect(notes.contains("items[].tag: type varies (int, string); typed as String"))
    }

    @Test func sameInputSameOutput() {
        let a = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "b.json").generate(.swift)
        let b = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "b.json").generate(.swift)
        #expect(a == b)
    }

    @Test func objectiveCConstants() {
        let objc = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "b.json").generate(.objc)
        #expect(objc.contains("static NSString * const kBooksItems = @\"items\";"))
        #expect(objc.contains("static NSString * const kBooksItemsAuthorFirstName = @\"first_name\";"))
        #expect(objc.contains("#pragma mark - Books items author"))
    }

    /// A doc comment names where a key is with the API's own keys, in
    /// `JSONPath`'s written form: underscores kept, a `.` in a key escaped.
    @Test func commentPathsAreTheAPIKeys() {
        let sample: JSONValue = ["search_metadata": ["next_page": ["max_id": 1]], "a.b": ["c": 2]]
        let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
        let swift = generator.generate(.swift)
        #expect(swift.contains("/// In `search_metadata`: `next_page` Example: {1 member}"))
        #expect(swift.contains("/// In `search_metadata.next_page`: `max_id` Example: 1\n    public static var searchMetadataNextPageMaxId"))
        #expect(swift.contains(#"/// In `a\.b`: `c` Example: 2"#))
        let objc = generator.generate(.objc)
        #expect(objc.contains("#pragma mark - M search_metadata next_page\n/** `max_id` Example: 1 */"))
    }

    /// Every generated declaration is `nonisolated`, so a target whose
    /// default isolation is MainActor can package and read off the main actor.
    @Test func generatedDeclarationsAreNonisolated() {
        var generator = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "b.json")
        generator.includePackager = true
        let declarations = generator.generate(.swift).split(separator: "\n")
            .filter { $0.contains("extension ") || $0.contains("struct ") || $0.contains("enum ") }
        #expect(declarations.contains { $0.contains("extension ") } && declarations.contains { $0.contains("struct Items") })
        for line in declarations {
            #expect(line.contains("nonisolated extension ViewModel.Key where Value == ") || line.contains("public nonisolated struct "), "\(line)")
        }
    }

    @Test func objectiveCEscapesStopBeforeTheCharactersThatFollow() throws {
        // "\x01abc" would be one (out of range) hex escape; octal stops at three digits.
        let sample = try JSONValue(parsing: #"{"\u0001abc": 1, "\u007f7": 2}"#)
        let objc = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").generate(.objc)
        #expect(objc.contains(#"@"\001abc";"#))
        #expect(objc.contains(#"@"\1777";"#))
        #expect(!objc.contains(#"\x"#))
    }

    @Test func aFileNameWithALineBreakStaysInItsComment() {
        for language in KeyConstantGenerator.Language.allCases {
            let source = KeyConstantGenerator(sample: ["title": "a"], moduleName: "M", sourceName: "evil\nlet x = 1 +\u{2028}.json")
                .generate(language)
            #expect(source.hasPrefix("// Generated by `agvm keys` from evil let x = 1 + .json. Do not edit by hand;\n"), "\(language)")
            #expect(!source.split(separator: "\n").contains { $0.hasPrefix("let x") })
        }
    }

    @Test func packagerLinesCopyEveryKey() {
        var generator = KeyConstantGenerator(sample: sample, moduleName: "Books", sourceName: "b.json")
        generator.includePackager = true
        let swift = generator.generate(.swift)
        #expect(swift.contains("public static func package(_ json: JSONObject) -> sending ViewModel {"))
        #expect(swift.contains("public nonisolated struct Books: ViewModelPackager {"))
        #expect(swift.contains("public func package(_ json: JSONObject) -> sending ViewModel { Self.package(json) }"))
        #expect(swift.contains("viewModel[\"next_cursor\"] = json[\"next_cursor\"]"))
    }

    /// A module name that is a common type name is renamed only where it
    /// declares a type: the top-level packager.
    @Test func commonTypeNamesAreRenamedOnlyForThePackager() {
        var generator = KeyConstantGenerator(sample: ["a": 1], moduleName: "Data", sourceName: "d.json")
        #expect(generator.moduleName == "Data")
        #expect(generator.generate(.objc).contains("kDataA = @\"a\""))
        generator.includePackager = true
        #expect(generator.moduleName == "Data2")
        #expect(generator.generate(.swift).contains("public nonisolated struct Data2: ViewModelPackager {"))
        #expect(KeyConstantGenerator(sample: ["a": 1], moduleName: "ViewModel", sourceName: "v.json").moduleName == "ViewModel2")
    }

    @Test func onlyObjectsHaveKeys() {
        for sample: JSONValue in [[1, 2], [], "error page", nil, [["a": 1], 2]] {
            #expect(!KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").hasKeys, "\(sample)")
        }
        for sample: JSONValue in [["a": 1], [["a": 1]], [:], ["1": ["a": 1], "2": ["a": 2]]] {
            #expect(KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").hasKeys, "\(sample)")
        }
    }
}
