import Foundation
import Testing
import AGViewModel

@Suite("Packaging sections and managers")
struct SectionPackagingTests {
    static let response: JSONValue = try! JSONValue(parsing: """
    {"groups": {
       "articles": [{"id_str": "1", "title": "Swift", "likes": "3", "user": {"screen_name": "ada"}},
                    {"title": "no id"},
                    {"id_str": "2", "title": "Rust", "user": {"screen_name": "bob"}}],
       "videos": [{"id_str": "3", "title": "Clip", "likes": 9, "user": {"screen_name": "eve"}}]},
     "meta": {"articles": {"total": 2}}}
    """)

    static let fields = """
      [{"key": "id", "path": "id_str", "type": "string", "required": true},
       {"key": "title", "path": "title", "type": "string"},
       {"key": "likes", "path": "likes", "type": "int", "default": 0},
       {"key": "handle", "template": "@{user.screen_name}"}]
    """

    static let spec = try! PackagingSpec(data: Data("""
    {"name": "groups",
     "sections": [
       {"title": "Articles", "items": "groups.articles", "header": "meta.articles"},
       {"title": "Videos", "items": "groups.videos"},
       {"items": "groups.podcasts"}],
     "fields": \(fields),
     "headerFields": [{"key": "total", "path": "total", "type": "int"}]}
    """.utf8), source: "groups.spec.json")

    /// The same mapping as `fields`, written by hand.
    static func codePackager() -> ClosurePackager<JSONObject> {
        ClosurePackager { viewModel, object in
            viewModel["id"] = .string(try object.read(String.self, at: "id_str"))
        if let title = object.string(at: "title") { viewModel["title"] = .string(title) }
        viewModel["likes"] = .int(object.int64(at: "likes") ?? 0)
        if let name = object.string(at: "user.screen_name") { viewModel["handle"] = .string("@" + name) }
        }
    }

    @Test func specWithSectionsPackagesAManager() throws {
        let (manager, skipped) = try SpecPackager(spec: Self.spec).packageManager(document: Self.response)
        #expect(manager.count == 3)
        #expect(manager[0].header?.keys == ["total", "title"])
        #expect(manager[0].header?["title"] == "Articles")
        #expect(manager[0].header?["total"] == 2)
        #expect(manager[0].map { $0["id"] } == ["1", "2"])
        #expect(manager[0][0]["likes"] == 3)
        #expect(manager[1].header?.keys == ["title"])  // no header path: title only
        #expect(manager[1][0]["handle"] == "@eve")
        #expect(manager[2].isEmpty && manager[2].header == nil)
        #expect(skipped.map(\.description) == [
            #"section 0, item 1: required key "id" (path id_str) has no value: id_str: missing"#,
            "section 2, items: groups.podcasts: missing",
        ])
    }

    @Test func sectionsFromMakesOneSectionPerMember() throws {
        let spec = try PackagingSpec(json: ["sectionsFrom": "groups", "fields": try JSONValue(parsing: Self.fields)])
        let (manager, skipped) = try SpecPackager(spec: spec).packageManager(document: Self.response)
        #expect(manager.map { $0.header?["title"] } == ["articles", "videos"])
        #expect(manager.map(\.count) == [2, 1])
        #expect(skipped.map(\.location) == [.section(0, .item(1))])
        // An array of arrays gives untitled sections; a member that is not an array is reported.
        let arrays: JSONValue = ["rows": [[["id_str": "1"]], "oops", []]]
        let (fromArrays, problems) = try SpecPackager(spec: spec).packageManager(document: ["groups": arrays["rows"]!])
        #expect(fromArrays.count == 3)
        #expect(fromArrays[0].header == nil)
        #expect(problems.map(\.description) == ["section 1, items: groups[1]: expected an array, found string \"oops\""])
        #expect(throws: PackagingError.self) { try SpecPackager(spec: spec).packageManager(document: ["groups": 1]) }
    }

    @Test func codeAndSpecPackagersGiveTheSameManager() throws {
        let groups = try #require(Self.response["groups"]?.objectValue)
        let arrays = groups.values.compactMap(\.arrayValue)
        let code = Manager()
        let (_, codeSkipped) = code.appendSections(packaging: arrays, using: Self.codePackager())
        let spec = try PackagingSpec(json: ["sectionsFrom": "groups", "fields": try JSONValue(parsing: Self.fields)])
        let (declared, specSkipped) = try SpecPackager(spec: spec).packageManager(document: Self.response)
        // The spec adds titles; everything else must match byte for byte.
        for section in declared { section.header = nil }
        #expect(try code.exportJSONData(options: .everything) == declared.exportJSONData(options: .everything))
        #expect(codeSkipped.map(\.location) == specSkipped.map(\.location))
        // And for one section.
        let single = try PackagingSpec(json: ["items": "groups.articles", "fields": try JSONValue(parsing: Self.fields)])
        let (specSection, _) = try SpecPackager(spec: single).packageSection(document: Self.response)
        let codeSection = Section()
        codeSection.appendItems(packaging: arrays[0], using: Self.codePackager())
        #expect(try specSection.exportJSONData(options: .everything) == codeSection.exportJSONData(options: .everything))
    }

    @Test func closurePackagersBuildSectionsAndManagersOfAnyElements() {
        let common = ViewModel(["style": "compact"])
        let numbers = ClosurePackager { (viewModel, n: Int) in viewModel["n"] = .int(Int64(n)) }
        let section = Section(packaged: numbers.package([1, 2, 3], defaults: common))
        #expect(section.map { $0["n"] } == [1, 2, 3])
        #expect(section[0].keys == ["n", "style"])
        let appended = Section(packaged: numbers.package([4, 5]), itemMerge: common)
        #expect(appended.map { $0["n"] } == [4, 5] && appended[1]["style"] == "compact")
        let texts = ClosurePackager { (viewModel, text: String) in viewModel["text"] = .string(text) }
        let manager = Manager(packaged: [["a"], ["b", "c"]].map { texts.package($0) })
        #expect(manager.map(\.count) == [1, 2])
        #expect(manager[1][1]["text"] == "c")
    }

    @Test func strictSpecPackagingThrowsTheFirstProblemWithItsSection() throws {
        let packager = SpecPackager(spec: Self.spec)
        #expect(throws: PackagingError(location: .section(0, .item(1)), reason: .missingRequiredValue(
            key: "id", source: "path id_str", cause: JSONAccessError(path: JSONPath(parsing: "id_str")!, reason: .missing)))) {
            _ = try packager.packageManager(document: Self.response, policy: .strict)
        }
        // A document without problems packages the same either way.
        let clean: JSONValue = ["groups": ["articles": [["id_str": "1"]], "videos": [], "podcasts": []], "meta": ["articles": ["total": 1]]]
        let strict = try packager.packageManager(document: clean, policy: .strict)
        let lenient = try packager.packageManager(document: clean)
        #expect(strict.skipped.isEmpty && lenient.skipped.isEmpty)
        #expect(try strict.manager.exportJSONData(options: .everything) == lenient.manager.exportJSONData(options: .everything))
        // A single-list spec packaged as a manager names its one section too,
        // as skip-and-report does; packaged alone, it has no section.
        let single = SpecPackager(spec: try PackagingSpec(json: ["items": "list", "fields": [["key": "id", "path": "id", "type": "int", "required": true]]]))
        let document: JSONValue = ["list": [["id": 1], ["name": "no id"]]]
        #expect(try single.packageManager(document: document).skipped.map { "\($0.location)" } == ["section 0, item 1"])
        #expect(throws: PackagingError(location: .section(0, .item(1)), reason: .missingRequiredValue(
            key: "id", source: "path id", cause: JSONAccessError(path: JSONPath(parsing: "id")!, reason: .missing)))) {
            _ = try single.packageManager(document: document, policy: .strict)
        }
        #expect(throws: PackagingError(location: .item(1), reason: .missingRequiredValue(
            key: "id", source: "path id", cause: JSONAccessError(path: JSONPath(parsing: "id")!, reason: .missing)))) {
            _ = try single.package(document: document, policy: .strict)
        }
        // The header is checked first.
        let headerSpec = try PackagingSpec(json: ["items": "list", "header": "meta"])
        #expect(throws: PackagingError(location: .header, reason: .documentMismatch(
            JSONAccessError(path: JSONPath(parsing: "meta")!, reason: .missing)))) {
            _ = try SpecPackager(spec: headerSpec).package(document: ["list": ["oops"]], policy: .strict)
        }
    }

    @Test func managerConveniencesSkipAndReportOrThrow() throws {
        let manager = Manager()
        let (sections, skipped) = manager.appendSections(packaging: [[["id_str": "1"]], "oops", [3]] as JSONValue, using: Self.codePackager())
        #expect(sections.count == 3 && manager.count == 3)
        #expect(skipped.map(\.location) == [.section(1, .items), .section(2, .item(0))])
        #expect(throws: PackagingError(location: .section(0, .item(0)), reason: .notAnObject(found: .int))) {
            try manager.appendSections(packaging: [[1]] as JSONValue, policy: .strict)
        }
        #expect(manager.count == 3)  // unchanged after the strict failure
        let (_, notArray) = manager.appendSections(packaging: "nope")
        #expect(notArray.map(\.location) == [.items])
        let (section, itemSkips) = manager.appendSection(packaging: [["a": 1], 2])
        #expect(section.count == 1 && itemSkips.map(\.location) == [.item(1)])
    }

    /// Every way of adding packaged items to a section fills the keys the
    /// item has no value for from the section's item merge, and keeps the
    /// elements' order.
    @Test func sectionPackagingAppliesTheItemMergeAndKeepsOrder() {
        let section = Section(itemMerge: ViewModel(["style": "card", "id": "none"]))
        section.appendItems(packaging: [["id": 1]] as JSONValue)
        section.appendItems(packaging: JSONArray([["id": 2]]))
        section.insertItems(packaging: [["id": 3], ["id": 4], ["x": 5]], at: 1)
        #expect(section.map { $0["id"] } == [1, 3, 4, "none", 2])
        #expect(section.map { $0["style"] } == Array(repeating: "card", count: 5))
    }

    @Test func packagingResultWrapsIntoASectionApplyingItemMerge() throws {
        let result = try SpecPackager(spec: PackagingSpec(json: ["items": "groups.videos", "header": "meta"]))
            .package(document: Self.response)
        let merge = ViewModel(["kind": "video"])
        let section = Section(packaged: result, footer: ViewModel(["more": true]), itemMerge: merge)
        #expect(section.header?["articles"] == ["total": 2])
        #expect(section[0]["kind"] == "video")
        #expect(section.itemMerge === merge)
        #expect(section.footer?["more"] == true)
        let manager = Manager(packaged: [result, result], common: ViewModel(["screen": "feed"]))
        #expect(manager.count == 2 && manager.common?["screen"] == "feed")
    }

    @Test func packagingASectionReportsWhatItSkipped() throws {
        let spec = try PackagingSpec(json: ["items": "groups.articles", "fields": try JSONValue(parsing: Self.fields)])
        let (section, skipped) = try SpecPackager(spec: spec).packageSection(document: Self.response)
        #expect(section.map { $0["id"] } == ["1", "2"])
        #expect(skipped.map(\.description) == [#"item 1: required key "id" (path id_str) has no value: id_str: missing"#])
    }

    @Test func multiSectionSpecsRefuseTheSingleSectionCall() {
        #expect(throws: PackagingError.self) { try SpecPackager(spec: Self.spec).package(document: Self.response) }
    }

    @Test func badSectionSpecsNameTheEntry() {
        func message(_ text: String) -> String? {
            do { _ = try PackagingSpec(data: Data(text.utf8), source: "s.json"); return nil } catch { return error.description }
        }
        #expect(message(#"{"sections": []}"#) == #"s.json: error: "sections" must be a non-empty array of section entries, found an empty array"#)
        #expect(message(#"{"sections": [{"items": "a"}, {"title": "B"}]}"#)
            == #"s.json: error: sections[1]: missing "items", the path of the section's array"#)
        #expect(message(#"{"sections": [{"items": "a", "tittle": "B"}]}"#)
            == #"s.json: error: sections[0]: unknown member "tittle" (did you mean "title"?); a section entry has title, items, header, fields, headerFields, keyedBy, scalarKey"#)
        #expect(message(#"{"sections": [{"items": "a", "fields": [{"key": "x", "path": "x", "type": "integer"}]}]}"#)?
            .hasPrefix(#"s.json: error: sections[0].fields[0] (key "x"): unknown type "integer""#) == true)
        #expect(message(#"{"items": "a", "sections": [{"items": "b"}]}"#)
            == #"s.json: error: "items" cannot be used with "sections"; give each section its own"#)
        #expect(message(#"{"sectionsFrom": "g", "sections": [{"items": "b"}]}"#)
            == #"s.json: error: "sections" cannot be used with "sectionsFrom""#)
        // Top-level item settings would apply to nothing.
        #expect(message(#"{"sections": [{"items": "d"}], "keyedBy": "id"}"#)
            == #"s.json: error: "keyedBy" cannot be used with "sections"; give each section its own"#)
        #expect(message(#"{"sectionsFrom": "g", "scalarKey": "tag"}"#)
            == #"s.json: error: "scalarKey" cannot be used with "sectionsFrom""#)
        #expect(message(#"{"sectionsFrom": "g", "keyedBy": "id"}"#)
            == #"s.json: error: "keyedBy" cannot be used with "sectionsFrom""#)
        #expect(message(#"{"sectionsFrom": 3}"#) == #"s.json: error: "sectionsFrom" must be a path string, found int"#)
        #expect(message(#"{"sections": [{"items": "a", "title": 1}]}"#) == #"s.json: error: sections[0]: "title" must be a string, found int"#)
    }
}

extension SectionPackagingTests {
    /// A `null` where the items array should be is reported as `null`, not
    /// as a value of the wrong type.
    @Test func aNullItemsValueIsReportedAsNull() {
        let result = Section(items: []).appendItems(packaging: JSONValue.null)
        #expect(result.skipped == [SkippedElement(location: .items, reason: .documentMismatch(
            JSONAccessError(path: JSONPath([]), reason: .null)))])
    }
}
