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
        ("a\u{2E2F}b", "au2E2Fb"),
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
    /// Generating SIL for nested types takes twice as long per level past
    /// about 20: packagers stop at 16 levels, with a note where; the key
    /// constants go all the way down.
    @Test func packagersStopAtSixteenLevels() {
        var sample: JSONValue = ["v": 1]
        for _ in 1..<300 { sample = ["a": sample] }
        var generator = KeyConstantGenerator(sample: sample, moduleName: "Deep", sourceName: "d.json")
        #expect(generator.notes.isEmpty)
        generator.includePackager = true
        let source = generator.generate(.swift)
        #expect(source.components(separatedBy: ": ViewModelPackager {").count - 1 == KeyConstantGenerator.deepestPackager)
        #expect(source.contains(#"V: Self { "v" }"#))
        #expect(KeyConstantGenerator.deepestPackager == 16)
        let path = Array(repeating: "a", count: 16).joined(separator: ".")
        #expect(generator.notes.map(\.description) == [
            "\(path): packagers stop at 16 levels of nesting (the Swift compiler's time doubles with each level of nested types past about 20); none for the objects here and below",
        ])
    }

    /// A number added to tell two keys apart never spells a third key.
    @Test func objectiveCNumbersAfterADigitAreSeparated() {
        let sample: JSONValue = .object(JSONObject([("v1", 1), ("v_1", 2), ("v12", 3), ("a", 4), ("A", 5)]))
        let objc = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").generate(.objc)
        #expect(objc.contains(#"kMV1 = @"v1";"#))
        #expect(objc.contains(#"kMV1_2 = @"v_1";"#), "\(objc)")
        #expect(objc.contains(#"kMV12 = @"v12";"#), "\(objc)")
        #expect(objc.contains(#"kMA2 = @"A";"#), "\(objc)")
    }

    /// Objective-C declares no type: a module named like a Swift type keeps
    /// its name as the prefix, and no note says it changed.
    @Test func objectiveCPrefixIsTheModuleName() {
        let io = CapturedIO(files: ["t.json": Data(#"{"title": "x"}"#.utf8)])
        #expect(io.run("keys", "t.json", "--module", "Value", "--language", "objc") == 0, "\(io.error)")
        #expect(io.output.contains(#"static NSString * const kValueTitle = @"title";"#), "\(io.output)")
        #expect(io.error.isEmpty, "\(io.error)")
        let swift = CapturedIO(files: ["t.json": Data(#"{"title": "x"}"#.utf8)])
        #expect(swift.run("keys", "t.json", "--module", "Value") == 0)
        #expect(swift.error.contains("is written as 'Value2'"))
        let spaced = CapturedIO(files: ["t.json": Data(#"{"title": "x"}"#.utf8)])
        #expect(spaced.run("keys", "t.json", "--module", "my api", "--language", "objc") == 0)
        #expect(spaced.output.contains("kMyApiTitle"), "\(spaced.output)")
        #expect(spaced.error.contains("is written as 'MyApi'"), "\(spaced.error)")
    }

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

    /// A module name that is not a Swift name is changed with a note; a
    /// good one is used silently.
    @Test func aChangedModuleNameIsNoted() {
        let files = ["s.json": Data(#"{"a": 1}"#.utf8)]
        let renamed = CapturedIO(files: files)
        #expect(renamed.run("keys", "s.json", "--module", "my module") == 0)
        #expect(renamed.error == "s.json: note: module name 'my module' is written as 'MyModule'\n")
        #expect(renamed.output.contains("MyModule"))
        let kept = CapturedIO(files: files)
        #expect(kept.run("keys", "s.json", "--module", "Books") == 0)
        #expect(kept.error.isEmpty)
    }

    @Test func onlyObjectsWithMembersHaveKeys() {
        for sample: JSONValue in [[1, 2], [], "error page", nil, [["a": 1], 2]] {
            let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
            #expect(!generator.hasKeys && !generator.isObjectSample, "\(sample)")
        }
        for sample: JSONValue in [[:], [[:], [:]]] {
            let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
            #expect(!generator.hasKeys && generator.isObjectSample, "\(sample)")
        }
        for sample: JSONValue in [["a": 1], [["a": 1]], ["a": [:]], ["1": ["a": 1], "2": ["a": 2]]] {
            #expect(KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").hasKeys, "\(sample)")
        }
    }

    func swift(_ sample: JSONValue) -> String {
        KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").generate(.swift)
    }

    /// Names for one object's members: `count` words that are not ids.
    func recordNames(_ count: Int) -> [String] {
        (0 ..< count).map { "field" + String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) + String(repeating: "z", count: $0 / 26) }
    }

    @Test func mapsAreRecognisedFromTheirThresholdsOn() throws {
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }
        // A single numeric member, hex digests of 8 characters, tokens of 16.
        #expect(swift(["events": ["138586341": ["a": 1]]]).contains("(map keyed by id, 1 member)"))
        #expect(swift(["hashes": ["a1b2c3d4": ["a": 1], "e5f6a7b8": ["a": 2]]]).contains("(map keyed by id, 2 members)"))
        #expect(swift(["tokens": ["-Mx3fK9a2bQ7zL0p": ["a": 1], "-Nq8rT2c5dW1yH6k": ["a": 2]]])
            .contains("(map keyed by id, 2 members)"))
        // Numbers of both kinds are one kind of value.
        #expect(swift(["rates": ["1": 1, "2": 2.5]]).contains("(map keyed by id, 2 members)"))
        // 32 members whose values are objects of one shape, even if only half of
        // the keys are in each value.
        let names = recordNames(32)
        let shaped = object(names.enumerated().map { ($0.element, ($0.offset % 2 == 0 ? ["a": 1] : ["b": 2]) as JSONValue) })
        #expect(swift(["catalogue": shaped]).contains("(map keyed by id, 32 members)"))
        #expect(!swift(["record": object(recordNames(31).map { ($0, ["a": 1] as JSONValue) })]).contains("(map keyed by id"))
        // 200 members of one scalar kind.
        let table = object(recordNames(200).map { ($0, 1 as JSONValue) })
        #expect(swift(["table": table]).contains("(map keyed by id, 200 members)"))
        #expect(!swift(["record": object(recordNames(199).map { ($0, 1 as JSONValue) })]).contains("(map keyed by id"))
    }

    /// A sample that is itself a table of flags or strings (or an array
    /// of them) is the object whose keys are asked for, not a map; a map of
    /// objects at the top still gives the objects' keys.
    @Test func aTopLevelTableOfValuesGivesItsOwnKeys() {
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }
        let flags = object(recordNames(200).map { ($0, true as JSONValue) })
        for sample in [flags, [flags] as JSONValue] {
            let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
            #expect(generator.hasKeys)
            #expect(generator.generate(.swift).contains(#"public static var fielda: Self { "fielda" }"#))
        }
        let codes: JSONValue = ["200": "OK", "404": "Not Found"]
        #expect(swift(codes).contains(#"public static var _200: Self { "200" }"#), "\(swift(codes))")
        // Below the top, such a table is still a map.
        #expect(swift(["flags": flags]).contains("(map keyed by id, 200 members)"))
        let users: JSONValue = ["1": ["name": "A"], "2": ["name": "B"]]
        #expect(swift(users).contains(#"public static var name: Self { "name" }"#))
        #expect(!swift(users).contains(#"Self { "1" }"#))
    }

    @Test func theValuesOfAMapAreMergedLikeArrayElements() {
        let sample: JSONValue = ["users": [
            "1": ["a": 1, "b": 2, "site": "https://a.example/x", "gone": nil],
            "2": ["a": 3, "site": "not a link", "gone": nil],
        ]]
        let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
        let source = generator.generate(.swift)
        #expect(source.contains("/// In `users`: `a` Example: 1\n"), "\(source)")
        #expect(source.contains("/// In `users`: `b` (optional) Example: 2\n"), "\(source)")
        #expect(!source.contains("Value == URL"), "\(source)")
        #expect(generator.notes.map(\.description).contains("users[id].gone: null in every sample; typed as JSONValue"))
    }

    /// Maps keyed by ids in an array (pages of a catalogue) and objects in
    /// arrays of arrays (rows of a grid) hold keys too, at the top of the
    /// sample and below it.
    @Test func objectsReachedThroughArraysAndMapsGetKeys() {
        let page: JSONValue = ["101": ["name": "a", "price": 1], "102": ["name": "b", "price": 2]]
        for top: JSONValue in [[page], [[["name": "a", "price": 1]]]] {
            let generator = KeyConstantGenerator(sample: top, moduleName: "M", sourceName: "m.json")
            #expect(generator.hasKeys, "\(top)")
            #expect(generator.generate(.swift).contains(#"public static var price: Self { "price" }"#), "\(top)")
        }
        // The top-level map is noted, as a map at the very top is.
        #expect(KeyConstantGenerator(sample: [[page]], moduleName: "M", sourceName: "m.json").notes.map(\.description)
            == ["(root)[][]: a map keyed by ids (2 members); keys of its values generated"])
        #expect(KeyConstantGenerator(sample: [[["name": "a"]]], moduleName: "M", sourceName: "m.json").notes.isEmpty)
        // A table of flags is the object asked for, however deep in arrays.
        let flags = JSONValue.object(JSONObject((0 ..< 250).map { ("flag\($0)", JSONValue.bool(true)) }))
        for top: JSONValue in [flags, [flags], [[flags]]] {
            #expect(KeyConstantGenerator(sample: top, moduleName: "M", sourceName: "m.json").generate(.swift).contains("flag249"))
        }
        let sample: JSONValue = ["pages": [page], "grid": [[["cell": nil]]]]
        let generator = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json")
        let source = generator.generate(.swift)
        #expect(source.contains(#"public static var pagesPrice: Self { "price" }"#), "\(source)")
        #expect(source.contains(#"public static var gridCell: Self { "cell" }"#), "\(source)")
        #expect(generator.notes.map(\.description).contains("grid[][].cell: null in every sample; typed as JSONValue"))
        #expect(generator.generate(.objc).contains("kMPagesPrice"))
    }

    @Test func onlyWebAddressesWithAHostAreURLs() {
        #expect(swift(["link": "https://example.com/a"]).contains("Value == URL"))
        #expect(!swift(["link": "http:///a"]).contains("Value == URL"))
    }

    /// A key typed `URL` must read its own sample: `URL.read` refuses a
    /// space at either end and control characters, so such strings stay
    /// `String`.
    @Test func webAddressesAURLKeyCannotReadStayStrings() {
        for text in ["https://example.com/x ", " https://example.com/x", "https://example.com/\u{85}x", "https://ex.com/\u{7}"] {
            #expect(URL.read(from: .string(text)) == nil)
            #expect(!swift(["link": .string(text)]).contains("Value == URL"), "\(text.debugDescription)")
        }
    }

    /// Bidirectional overrides, the byte order mark and other invisible
    /// characters would make a line of generated source read other than it
    /// compiles; they are escaped in literals and comments, joiners and
    /// variation selectors too, and identifiers never hold them.
    @Test func invisibleCharactersAreEscapedInLiteralsAndComments() {
        let sample: JSONValue = ["\u{202E}name": 1, "next\u{85}line": 2, "\u{FEFF}id": 3, "family\u{1F468}\u{200D}\u{1F469}": 4]
        let source = swift(sample)
        #expect(source.contains(#"public static var name: Self { "\u{202e}name" }"#), "\(source)")
        #expect(source.contains("/// `\\u{202e}name` Example: 1"), "\(source)")
        #expect(source.contains(#"{ "next\u{85}line" }"#) && source.contains(#"{ "\u{feff}id" }"#))
        #expect(source.contains("{ \"family\u{1F468}\\u{200d}\u{1F469}\" }"), "\(source)")
        #expect(!source.unicodeScalars.contains { [0x202E, 0x85, 0xFEFF, 0x200D].contains($0.value) })
        // Invisible letters and marks: escaped, and word breaks in names.
        let invisible: JSONValue = .object(JSONObject([
            ("a", 1), ("a\u{FE0F}", 2), ("\u{3164}", 3), ("b\u{34F}c", 4), ("d\u{E0101}", 5), ("e\u{180B}f", 6),
        ]))
        let names = swift(invisible).split(separator: "\n").filter { $0.contains("public static var") }
        #expect(names.map { $0.split(separator: ":")[0] } == [
            "    public static var a", "    public static var a2", "    public static var key", "    public static var bC",
            "    public static var d", "    public static var eF",
        ], "\(names)")
        #expect(names.allSatisfy { line in !line.unicodeScalars.contains { $0.properties.isDefaultIgnorableCodePoint } })
        let objc = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").generate(.objc)
        #expect(objc.contains(#"@"\u202Ename""#) && objc.contains(#"@"\uFEFFid""#), "\(objc)")
        // C allows no universal character name below U+00A0: octal UTF-8.
        #expect(objc.contains(#"@"next\302\205line""#), "\(objc)")
        // `??=` would be a trigraph: the second `?` is escaped.
        let trigraphs = KeyConstantGenerator(sample: ["what??=": 1, "a???/": 2], moduleName: "M", sourceName: "m.json").generate(.objc)
        #expect(trigraphs.contains(#"@"what?\?=""#) && trigraphs.contains(#"@"a?\?\?/""#), "\(trigraphs)")
        #expect(!objc.unicodeScalars.contains { [0x202E, 0x85, 0xFEFF].contains($0.value) })
    }

    /// Swift compares identifiers scalar by scalar: a key sent decomposed
    /// (`e` and a combining accent) gets the composed name a keyboard types;
    /// its literal keeps the key as sent.
    @Test func decomposedKeysGetComposedNames() throws {
        let source = swift(["cafe\u{301}": 1])
        let line = try #require(source.split(separator: "\n").first { $0.contains("public static var") })
        #expect(Array(line.unicodeScalars) == Array("    public static var caf\u{E9}: Self { \"cafe\u{301}\" }".unicodeScalars))
        // Upper-casing a word's first letter can decompose it: composed again.
        let name = IdentifierCleaner.camelCase("a_\u{390}", upperFirst: false)
        #expect(Array(name.unicodeScalars) == Array(name.precomposedStringWithCanonicalMapping.unicodeScalars))
        #expect(Array(name.unicodeScalars) == Array("a\u{3AA}\u{301}".unicodeScalars))
    }

    @Test func controlCharactersInKeysAreEscapedInSwiftLiterals() {
        let source = swift(["a\u{1}b": 1, "c\u{7F}": 2])
        #expect(source.contains(#"{ "a\u{1}b" }"#), "\(source)")
        #expect(source.contains(#"{ "c\u{7f}" }"#), "\(source)")
        #expect(!source.unicodeScalars.contains { $0.value == 1 || $0.value == 0x7F })
    }

    @Test func noObjectiveCLineEndsInABackslash() {
        let objc = KeyConstantGenerator(sample: ["a\\": ["b": 1]], moduleName: "M", sourceName: "m.json").generate(.objc)
        #expect(objc.contains("#pragma mark - M a\n"), "\(objc)")
        #expect(!objc.split(separator: "\n").contains { $0.hasSuffix("\\") })
        let header = KeyConstantGenerator(sample: ["a": 1], moduleName: "M", sourceName: "x\u{85}y.json").generate(.objc)
        #expect(header.hasPrefix("// Generated by `agvm keys` from x y.json. Do not edit by hand;\n"))
    }

    /// A key's doc comment shows it as it is: backslashes kept (a code
    /// span shows them literally), backticks inside a longer fence.
    @Test func docCommentsShowKeysAsTheyAre() {
        let source = swift(["\\": 1, "q`x": 2, "`": 3, "a``b\\": ["c": 4]])
        for line in ["/// `\\` Example: 1", "/// ``q`x`` Example: 2", "/// `` ` `` Example: 3",
                     "/// ```a``b\\``` Example: {1 member}", "/// In ```a``b\\\\```: `c` Example: 4"] {
            #expect(source.contains(line + "\n"), "\(line) in \(source)")
        }
        #expect(KeyConstantGenerator.codeSpan("") == "``")
    }

    @Test func keysFromStandardInputNameIt() {
        let io = CapturedIO(standardInput: Data(#"{"a": 1}"#.utf8))
        #expect(io.run("keys", "-", "--module", "M") == 0)
        #expect(io.output.hasPrefix("// Generated by `agvm keys` from standard input. Do not edit by hand;\n"))
    }
}
