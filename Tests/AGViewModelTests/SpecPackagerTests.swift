import Foundation
import Testing
@testable import AGViewModel

@Suite("Spec packager")
struct SpecPackagerTests {
    static let response: JSONValue = try! JSONValue(parsing: """
    {"statuses": [
      {"id_str": "1", "text": "hello", "favorite_count": 3, "lang": " en ",
       "user": {"screen_name": "ada", "followers_count": "1200", "verified": 1},
       "entities": {"urls": [{"expanded_url": "https://example.com/a"}], "hashtags": [{"text": "swift"}]}},
      {"id_str": "2", "text": null, "favorite_count": "7", "lang": "FR",
       "user": {"screen_name": "bob", "followers_count": 5, "verified": false},
       "entities": {"urls": [], "hashtags": []}},
      {"text": "no id", "user": {"screen_name": "eve"}},
      "not an object",
      {"id_str": 4, "favorite_count": "many", "user": null, "entities": {"urls": [{"expanded_url": "  https://x.org  "}]}}
     ],
     "search_metadata": {"count": 5, "query": "swift", "max_id_str": "9"}}
    """)

    static let spec = try! PackagingSpec(data: Data("""
    {"name": "timeline", "items": "statuses", "header": "search_metadata",
     "fields": [
       {"key": "id", "path": "id_str", "type": "string", "required": true},
       {"key": "text", "path": "text", "type": "string", "default": ""},
       {"key": "screenName", "path": "user.screen_name", "type": "string"},
       {"key": "handle", "template": "@{user.screen_name}"},
       {"key": "firstURL", "path": "entities.urls[0].expanded_url", "type": "url", "format": "trim"},
       {"key": "likes", "path": "favorite_count", "type": "int", "default": 0},
       {"key": "followers", "path": "user.followers_count", "type": "double"},
       {"key": "verified", "path": "user.verified", "type": "bool"},
       {"key": "tags", "path": "entities.hashtags", "type": "array"},
       {"key": "user", "path": "user", "type": "object"},
       {"key": "lang", "path": "lang", "type": "string", "format": "lowercase"}],
     "headerFields": [
       {"key": "count", "path": "count", "type": "int"},
       {"key": "title", "template": "Results for \\"{query}\\" {{{count}}}"}]}
    """.utf8), source: "timeline.spec.json")

    @Test func packagesItemsAndHeaderFollowingTheSpec() throws {
        let result = try SpecPackager(spec: Self.spec).package(document: Self.response)
        #expect(result.items.count == 3)
        let first = result.items[0]
        #expect(first.keys == ["id", "text", "screenName", "handle", "firstURL", "likes", "followers", "verified", "tags", "user", "lang"])
        #expect(first["id"] == "1")
        #expect(first["handle"] == "@ada")
        #expect(first["firstURL"] == "https://example.com/a")
        #expect(first["likes"] == 3)
        #expect(first["followers"] == 1200.0)
        #expect(first["verified"] == true)
        #expect(first["tags"] == [["text": "swift"]])
        #expect(first["user"]?["screen_name"] == "ada")
        #expect(first["lang"] == " en ")  // lowercase does not trim

        let second = result.items[1]
        #expect(second["text"] == "")         // null → default
        #expect(second["likes"] == 7)         // numeric string → int
        #expect(second["firstURL"] == nil)    // missing optional → key left out
        #expect(second["verified"] == false)
        #expect(second["lang"] == "fr")
        #expect(!second.keys.contains("firstURL"))

        let last = result.items[2]
        #expect(last["id"] == "4")             // number → string
        #expect(last["likes"] == 0)            // "many" is not an int → default
        #expect(last["handle"] == nil)         // template placeholder on a null user
        #expect(last["firstURL"] == "https://x.org")  // trimmed before the URL check
        #expect(last.keys == ["id", "text", "firstURL", "likes"])

        let header = try #require(result.header)
        #expect(header.keys == ["count", "title"])
        #expect(header["count"] == 5)
        #expect(header["title"] == "Results for \"swift\" {5}")
    }

    /// A `null` default stores null, so the last page, without a "next"
    /// cursor, clears the cursor of the page it is merged into; without
    /// that default the key is left out and the old cursor stays.
    @Test func aNullDefaultLetsTheLastPageClearTheCursor() throws {
        func pages(cursorDefault: String) throws -> Section {
            let spec = try PackagingSpec(data: Data("""
                {"items": "books", "headerFields": [
                  {"key": "next", "path": "next_page_url", "type": "url"\(cursorDefault)},
                  {"key": "page", "path": "page", "type": "int"}]}
                """.utf8))
            let packager = SpecPackager(spec: spec)
            let first = Section(packaged: try packager.package(document: [
                "page": 1, "next_page_url": "https://x.example/books?page=2", "books": [["id": 1]]]))
            let last = Section(packaged: try packager.package(document: [
                "page": 2, "next_page_url": nil, "books": [["id": 2]]]))
            first.merge(last)
            return first
        }
        let cleared = try pages(cursorDefault: #", "default": null"#)
        #expect(cleared.header?["next"] == .null, "stored as null")
        #expect(cleared.header?.string(at: "next") == nil)
        #expect(cleared.header?["page"] == 2)
        #expect(cleared.count == 2)
        let kept = try pages(cursorDefault: "")
        #expect(kept.header?["next"] == "https://x.example/books?page=2", "a key the page lacks keeps its value")
    }

    /// A template field's `default` is stored when the template has no value
    /// (a placeholder missing or null, or a format that cannot read it), as
    /// for a path field; without a default the key is left out.
    @Test func templateFieldsFallBackToTheirDefault() throws {
        let spec = try PackagingSpec(json: ["fields": [
            ["key": "byline", "template": "by {user.name}", "default": "anonymous"],
            ["key": "day", "template": "{at|date}", "default": "-"],
            ["key": "plain", "template": "{user.name}"],
        ]])
        let result = try SpecPackager(spec: spec).package(document: [
            ["user": ["name": "Ann"], "at": "2024-03-12"],
            ["user": nil, "at": "yesterday"],
        ])
        #expect(result.items.map { $0["byline"] } == ["by Ann", "anonymous"])
        #expect(result.items.map { $0["day"] } == ["Mar 12, 2024", "-"])
        #expect(result.items.map { $0["plain"] } == ["Ann", nil])
    }

    /// A value of another type is no value: a `url` needs a usable URL
    /// string, an `array` an array, and `trim` removes newlines too.
    @Test func valuesAreConvertedStrictlyToTheFieldType() throws {
        let spec = try PackagingSpec(json: ["fields": [
            ["key": "link", "path": "link", "type": "url"],
            ["key": "list", "path": "list", "type": "array"],
            ["key": "name", "path": "name", "type": "string", "format": "trim"],
        ]])
        let result = try SpecPackager(spec: spec).package(document: [
            ["link": "https://example.com/a", "list": [1], "name": "\n\t Ada \r\n"],
            ["link": "", "list": ["a": 1], "name": "Bob"],
            ["link": " https://example.com/a", "list": "1"],
        ])
        #expect(result.items.map { $0["link"] as JSONValue? } == ["https://example.com/a", nil, nil])
        #expect(result.items.map { $0["list"] as JSONValue? } == [[1], nil, nil])
        #expect(result.items.map { $0["name"] as JSONValue? } == ["Ada", "Bob", nil])
    }

    @Test func aRequiredTemplateWithANullPlaceholderSaysNull() throws {
        let spec = try PackagingSpec(json: ["fields": [["key": "t", "template": "#{tag}", "required": true]]])
        let result = try SpecPackager(spec: spec).package(document: [["tag": nil]])
        #expect(result.skipped.map(\.description) == [##"item 0: required key "t" (template "#{tag}") has no value: tag: null"##])
    }

    @Test func elementsWithoutRequiredValuesAreSkippedAndReported() throws {
        let result = try SpecPackager(spec: Self.spec).package(document: Self.response)
        #expect(result.skipped.map(\.location) == [.item(2), .item(3)])
        #expect(result.skipped.map(\.description) == [
            #"item 2: required key "id" (path id_str) has no value: id_str: missing"#,
            "item 3: expected an object, found string",
        ])
        guard case .missingRequiredValue(let key, _, let cause) = result.skipped[0].reason else {
            Issue.record("reason"); return
        }
        #expect(key == "id")
        #expect(cause.path == "id_str")
        #expect(cause.reason == .missing)
    }

    @Test func requiredValuesOfTheWrongTypeOrNullAreReported() throws {
        let spec = try PackagingSpec(json: ["fields": [
            ["key": "n", "path": "stats.n", "type": "int", "required": true],
            ["key": "t", "template": "#{tag}", "required": true],
        ]])
        let packager = SpecPackager(spec: spec)
        let result = packager.package([
            ["stats": ["n": "12k"], "tag": "a"], ["stats": nil, "tag": "a"], ["stats": ["n": 1], "tag": [1]], ["stats": ["n": 2], "tag": 7],
        ])
        #expect(result.items.map { $0["t"] } == ["#7"])
        #expect(result.skipped.map(\.description) == [
            #"item 0: required key "n" (path stats.n) has no value: stats.n: expected an integer, found string "12k""#,
            #"item 1: required key "n" (path stats.n) has no value: stats: null"#,
            ##"item 2: required key "t" (template "#{tag}") has no value: tag: expected a string, found array [1 element]"##,
        ])
        #expect(throws: PackagingError.self) { try packager.package(["stats": ["n": "x"]]) }
    }

    @Test func aNumberBeyondDoubleIsNoValueSoItsElementIsSkipped() throws {
        let spec = try PackagingSpec(json: ["fields": [["key": "n", "path": "n", "type": "double", "required": true]]])
        let document = try JSONValue(parsing: "[{\"n\": " + String(repeating: "9", count: 400) + "}, {\"n\": 2.5}]")
        let (manager, skipped) = try SpecPackager(spec: spec).packageManager(document: document)
        #expect(skipped.count == 1)
        #expect(skipped.first?.description.contains("expected a number") == true)
        #expect(manager.allItems.map { $0["n"] } == [2.5])
        // What was packaged can be written: no infinity in it.
        #expect(throws: Never.self) { try manager.exportJSON(options: .everything).jsonString() }
    }

    @Test func documentsWithoutTheItemsArrayThrow() throws {
        let packager = SpecPackager(spec: Self.spec)
        #expect(throws: PackagingError(reason: .documentMismatch(JSONAccessError(path: "statuses", reason: .missing)))) {
            try packager.package(document: ["other": []])
        }
        do {
            _ = try packager.package(document: ["statuses": ["a": 1]])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "statuses: expected an array, found object {1 member}")
        }
    }

    @Test func aMissingHeaderIsReportedAndItemsAreStillPackaged() throws {
        let result = try SpecPackager(spec: Self.spec).package(document: ["statuses": [["id_str": "1"]], "search_metadata": 3])
        #expect(result.header == nil)
        #expect(result.items.count == 1)
        #expect(result.skipped.map(\.description) == ["header: search_metadata: expected an object, found int 3"])
    }

    @Test func specsWithoutFieldsCopyMembersAndDefaultToTheDocument() throws {
        let spec = try PackagingSpec(json: ["header": "meta"])
        let array = try SpecPackager(spec: spec).package(document: [["b": 1, "a": 2]])
        #expect(array.items.first?.keys == ["b", "a"])
        #expect(array.skipped.map(\.location) == [.header])  // an array has no "meta"
        let object = try SpecPackager(spec: spec).package(document: ["meta": ["page": 1], "x": 1])
        #expect(object.header?["page"] == 1)
        #expect(object.items.count == 1)  // the object itself is the single item
        #expect(object.items[0]["x"] == 1)
        #expect(throws: PackagingError.self) { try SpecPackager(spec: spec).package(document: "text") }
        // headerFields without a header path read the document itself.
        let rootHeader = try PackagingSpec(json: ["items": "rows", "headerFields": [["key": "total", "path": "total", "type": "int"]]])
        let packaged = try SpecPackager(spec: rootHeader).package(document: ["rows": [], "total": 9])
        #expect(packaged.header?["total"] == 9)
        #expect(packaged.items.isEmpty)
    }

    @Test func packagesJSONData() throws {
        let packager = SpecPackager(spec: Self.spec)
        let result = try packager.package(document: JSONValue(parsing: Data(#"{"statuses": [{"id_str": "x"}]}"#.utf8)))
        #expect(result.items.first?["id"] == "x")
        #expect(throws: JSONParseError.self) { try packager.package(document: JSONValue(parsing: Data("{".utf8))) }
    }

    /// The same mapping written by hand.
    static var codePackager: ClosurePackager<JSONObject> { ClosurePackager { viewModel, status in
        guard let id = status.string(at: "id_str") else {
            throw PackagingError(reason: .missingRequiredValue(
                key: "id", source: "path id_str", cause: JSONAccessError(path: "id_str", reason: .missing)))
        }
        viewModel["id"] = .string(id)
        viewModel["text"] = .string(status.string(at: "text", default: ""))
        if let name = status.string(at: "user.screen_name") {
            viewModel["screenName"] = .string(name)
            viewModel["handle"] = .string("@" + name)
        }
        if let url = status.string(at: "entities.urls[0].expanded_url")?.trimmingCharacters(in: .whitespacesAndNewlines),
           URL(string: url) != nil, !url.isEmpty {
            viewModel["firstURL"] = .string(url)
        }
        viewModel["likes"] = .int(status.int64(at: "favorite_count") ?? 0)
        if let followers = status.double(at: "user.followers_count") { viewModel["followers"] = .double(followers) }
        if let verified = status.bool(at: "user.verified") { viewModel["verified"] = .bool(verified) }
        if let tags = status.array(at: "entities.hashtags") { viewModel["tags"] = .array(tags) }
        if let user = status.object(at: "user") { viewModel["user"] = .object(user) }
        if let lang = status.string(at: "lang") { viewModel["lang"] = .string(lang.lowercased()) }
    } }

    @Test func codeAndSpecPackagersGiveTheSameViewModels() throws {
        let statuses = try #require(Self.response.array(at: "statuses"))
        let byCode = Self.codePackager.package(statuses)
        let bySpec = SpecPackager(spec: Self.spec).package(statuses)
        #expect(byCode.items.count == bySpec.items.count)
        for (a, b) in zip(byCode.items, bySpec.items) {
            #expect(Set(a.keys) == Set(b.keys))
            for key in a.keys { #expect(a[key] == b[key], "key \(key)") }
        }
        #expect(byCode.skipped == bySpec.skipped)
    }

    @Test func packagedItemsSurviveAnArchiveRoundTrip() throws {
        let result = try SpecPackager(spec: Self.spec).package(document: Self.response)
        let data = try ArchiveEncoder().encode(.viewModels(result.items)).data
        guard case .viewModels(let back) = try ArchiveDecoder().decode(data) else { Issue.record("kind"); return }
        #expect(back.count == result.items.count)
        for (a, b) in zip(result.items, back) {
            #expect(a.keys == b.keys)
            for key in a.keys { #expect(a[key] == b[key]) }
        }
    }

    // Each section entry packages with its own item and header fields, made
    // ready once per packager; an entry without fields uses the spec's.
    @Test func sectionsPackageWithTheirOwnFields() throws {
        let spec = try PackagingSpec(data: Data(#"""
            {"sections": [
               {"title": "A", "items": "a", "header": "metaA", "fields": [{"key": "x", "path": "p", "type": "int"}],
                "headerFields": [{"key": "total", "path": "count", "type": "int"}]},
               {"title": "B", "items": "b", "header": "metaB", "fields": [{"key": "y", "path": "q.r", "type": "string"}],
                "headerFields": [{"key": "name", "path": "label", "type": "string"}]},
               {"title": "C", "items": "c"}],
             "fields": [{"key": "z", "path": "s", "type": "bool"}]}
            """#.utf8))
        let document: JSONValue = [
            "a": [["p": 1], ["p": 2, "q": ["r": "no"]]], "metaA": ["count": 2, "label": "no"],
            "b": [["q": ["r": "one"]], ["p": 3]], "metaB": ["count": 9, "label": "bees"],
            "c": [["s": true, "p": 4]],
        ]
        let packager = SpecPackager(spec: spec)
        for _ in 0..<2 {
            let results = try packager.packageSections(document: document)
            #expect(results.map { $0.items.map(\.keys) } == [[["x"], ["x"]], [["y"], []], [["z"]]])
            #expect(results[0].items.map { $0["x"] } == [1, 2])
            #expect(results[1].items[0]["y"] == "one")
            #expect(results[2].items[0]["z"] == true)
            #expect(results.map { $0.header?.keys } == [["total", "title"], ["name", "title"], ["title"]])
            #expect(results[0].header?["total"] == 2 && results[1].header?["name"] == "bees")
        }
    }

    // A section entry with header fields but no header path reads its
    // header from the document itself, as a spec without sections does.
    @Test func aSectionWithHeaderFieldsAndNoHeaderPathReadsTheDocument() throws {
        let spec = try PackagingSpec(json: ["sections": [
            ["title": "A", "items": "a", "headerFields": [["key": "total", "path": "total", "type": "int"]]],
            ["items": "a"],
        ]])
        let document: JSONValue = ["a": [["x": 1]], "total": 3]
        let packager = SpecPackager(spec: spec)
        let results = try packager.packageSections(document: document)
        #expect(results.map { $0.header?.keys } == [["total", "title"], nil])
        #expect(results[0].header?["total"] == 3)
        let projected = try packager.packageSections(document: packager.parseDocument(Data(#"{"a": [{"x": 1}], "total": 3}"#.utf8)))
        #expect(projected[0].header?["total"] == 3)
    }

    // Indices no array has, through every kind of path read.
    @Test(arguments: [-1, 2, Int.max, Int.min])
    func indicesOutOfRangeReadNothing(index: Int) {
        let object: JSONObject = ["a": [[true], [false]]]
        let path = JSONPath([.key("a"), .index(index), .index(0)])
        #expect(object.value(at: path) == nil)
        #expect(object.value(at: JSONHashedPath(path)) == nil)
        #expect(JSONValue.object(object).value(at: path) == nil)
        #expect(object.value(at: JSONPath([.key("a"), .index(1), .index(0)])) == false)
        #expect(object.value(at: JSONHashedPath(JSONPath([.key("a"), .index(1), .index(0)]))) == false)
    }

    // A required field is read like an optional one first; only when that
    // finds no usable value is it read again for the reason, which must be
    // the reason of the first step that failed.
    @Test func requiredFieldsSayWhyTheyHaveNoValue() throws {
        let spec = try PackagingSpec(data: Data(#"{"items": "items", "fields": [{"key": "n", "path": "a.b[1]", "type": "int", "required": true}]}"#.utf8))
        let items: [JSONValue] = [
            ["a": ["b": [0, 7]]],
            ["a": ["b": [0, .null]]],
            ["a": ["b": [0, "seven"]]],
            ["a": ["b": [0]]],
            ["a": ["b": "text"]],
            ["a": .null],
            [:],
        ]
        let result = try SpecPackager(spec: spec).package(document: ["items": .array(JSONArray(items))])
        #expect(result.items.map { $0["n"] } == [7])
        let causes = result.skipped.map { skipped -> JSONAccessError? in
            guard case .missingRequiredValue(let key, _, let cause) = skipped.reason, key == "n" else { return nil }
            return cause
        }
        #expect(causes.map { $0?.path.description } == ["a.b[1]", "a.b[1]", "a.b[1]", "a.b", "a", "a"])
        #expect(causes.map { $0?.reason } == [
            .null,
            .typeMismatch(expected: "an integer", found: .string, value: #""seven""#),
            .missing,
            .notAContainer(found: .string),
            .null,
            .missing,
        ])
    }

    // Packaged ViewModels start from one shared storage layout; whichever
    // fields are missing, each keeps the present ones in field order, and
    // changing one ViewModel leaves the others alone.
    @Test func everyPatternOfMissingFieldsKeepsFieldOrder() throws {
        let fields = (0..<6).map { #"{"key": "f\#($0)", "path": "p\#($0)", "type": "int"}"# }
        let spec = try PackagingSpec(data: Data(#"{"items": "items", "fields": [\#(fields.joined(separator: ", ")), {"key": "id", "path": "id", "type": "int", "required": true}]}"#.utf8))
        var items: [JSONValue] = []
        for mask in 0..<64 {
            var members: [(String, JSONValue)] = (0..<6).filter { mask & (1 << $0) != 0 }.map { ("p\($0)", .int(Int64(mask * 10 + $0))) }
            members.append(("id", .int(Int64(mask))))
            items.append(.object(JSONObject(members)))
        }
        // A required field read last fails after the others were read.
        items.append(["p0": 1, "p1": 2])
        let result = try SpecPackager(spec: spec).package(document: ["items": .array(JSONArray(items))])
        #expect(result.items.count == 64)
        #expect(result.skipped.map(\.location) == [.item(64)])
        for (mask, viewModel) in result.items.enumerated() {
            let present = (0..<6).filter { mask & (1 << $0) != 0 }
            #expect(viewModel.keys == present.map { "f\($0)" } + ["id"], "mask \(mask)")
            for field in present { #expect(viewModel["f\(field)"] == .int(Int64(mask * 10 + field))) }
            for field in 0..<6 where !present.contains(field) { #expect(viewModel["f\(field)"] == nil) }
            #expect(viewModel["id"] == .int(Int64(mask)))
        }
        result.items[63]["f0"] = "changed"
        result.items[63]["f9"] = "added"
        #expect(result.items[62]["f1"] == .int(621))
        #expect(result.items[62]["f0"] == nil && result.items[62]["f9"] == nil && result.items[0]["f9"] == nil)
        #expect(result.items[0].keys == ["id"])
        // Two ViewModels with every field share one key list until one
        // changes its keys.
        let complete = try SpecPackager(spec: spec).package(document: ["items": .array(JSONArray([items[63], items[63]]))])
        complete.items[0]["f2"] = nil
        #expect(complete.items[0].keys == ["f0", "f1", "f3", "f4", "f5", "id"])
        #expect(complete.items[1].keys == ["f0", "f1", "f2", "f3", "f4", "f5", "id"])
        #expect(complete.items[1]["f2"] == .int(632))
    }

    // Field lists longer than the limit for per-missing-field tables take
    // the general path; the lists at the limit and one past it package alike.
    @Test(arguments: [SpecViewModelLayout.maximumFieldCountForTablesWithoutOneField, SpecViewModelLayout.maximumFieldCountForTablesWithoutOneField + 1])
    func longFieldListsKeepFieldOrder(fieldCount: Int) throws {
        let fields = (0..<fieldCount).map { #"{"key": "f\#($0)", "path": "p\#($0)", "type": "int"}"# }
        let spec = try PackagingSpec(data: Data(#"{"items": "items", "fields": [\#(fields.joined(separator: ", "))]}"#.utf8))
        let missingSets: [Set<Int>] = [[], [0], [fieldCount / 2], [fieldCount - 1], [1, fieldCount - 2], [0, 3, 5]]
        let items: [JSONValue] = missingSets.map { missing in
            .object(JSONObject((0..<fieldCount).filter { !missing.contains($0) }.map { ("p\($0)", .int(Int64($0))) }))
        }
        let result = try SpecPackager(spec: spec).package(document: ["items": .array(JSONArray(items))])
        #expect(result.items.count == missingSets.count)
        for (missing, viewModel) in zip(missingSets, result.items) {
            let present = (0..<fieldCount).filter { !missing.contains($0) }
            #expect(viewModel.keys == present.map { "f\($0)" }, "missing \(missing)")
            for field in present { #expect(viewModel["f\(field)"] == .int(Int64(field))) }
            for field in missing { #expect(viewModel["f\(field)"] == nil) }
        }
    }
}
