import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("specs: items from an object's members, scalar items")
struct SpecItemSourceTests {
    let catalogue = Data("""
    {"events": {"138586341": {"name": "Opera", "id": 1}, "138586345": {"name": "Ballet"}, "7": "not an object"},
     "areaNames": {"205705993": "Stage", "205705994": "Balcony"},
     "empty": [],
     "tags": ["swift", 3, true, null, ["x"]]}
    """.utf8)

    func packaged(_ spec: String) throws -> PackagingResult {
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8)))
        return try packager.package(document: try JSONValue(parsing: catalogue))
    }

    @Test func membersBecomeItemsInDocumentOrderWithTheirName() throws {
        let result = try packaged("""
        {"items": "events", "keyedBy": "id", "fields": [
          {"key": "id", "path": "id", "type": "string", "required": true},
          {"key": "name", "path": "name", "type": "string"}]}
        """)
        #expect(result.items.map { $0["id"] } == [.string("138586341"), .string("138586345")])
        #expect(result.items.map { $0["name"] } == [.string("Opera"), .string("Ballet")])
        #expect(result.skipped.map(\.description) == ["item 2: expected an object, found string"])
    }

    @Test func withoutFieldsTheNameComesFirst() throws {
        let result = try packaged(#"{"items": "events", "keyedBy": "eventId"}"#)
        #expect(result.items[0].keys == ["eventId", "name", "id"])
    }

    @Test func scalarMembersAndElementsArePackagedUnderTheScalarKey() throws {
        let areas = try packaged(#"{"items": "areaNames", "keyedBy": "id", "scalarKey": "name"}"#)
        #expect(areas.items.map { $0["name"] } == [.string("Stage"), .string("Balcony")])
        #expect(areas.items.map { $0["id"] } == [.string("205705993"), .string("205705994")])

        let tags = try packaged(#"{"items": "tags", "scalarKey": "tag"}"#)
        #expect(tags.items.map { $0["tag"] } == [.string("swift"), .int(3), .bool(true)])
        #expect(tags.skipped.map(\.description) == ["item 3: expected an object, found null",
                                                    "item 4: expected an object, found array"])
    }

    @Test func aListGivenToASpecPackagerHasItsScalarsWrappedToo() throws {
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(#"""
        {"scalarKey": "tag", "fields": [{"key": "name", "path": "tag", "type": "string", "required": true}]}
        """#.utf8)))
        let tags: [JSONValue] = ["swift", "ios", .null]
        let fromDocument = try packager.package(document: .array(JSONArray(tags)))
        let fromList = packager.package(tags)
        for result in [fromDocument, fromList] {
            #expect(result.items.map { $0["name"] } == [.string("swift"), .string("ios")])
            #expect(result.skipped.map(\.description) == ["item 2: expected an object, found null"])
        }
        let section = Section()
        section.appendItems(packaging: tags, using: packager)
        #expect(section.items.map { $0["name"] } == [.string("swift"), .string("ios")])
    }

    @Test func anArrayStillWorksWithKeyedByAndAnObjectNeedsIt() throws {
        #expect(try packaged(#"{"items": "empty", "keyedBy": "id"}"#).items.isEmpty)
        #expect(throws: PackagingError.self) { try packaged(#"{"items": "events"}"#) }
        do {
            _ = try packaged(#"{"items": "events"}"#)
        } catch {
            #expect("\(error)".contains("expected an array, found object"))
        }
    }

    @Test func aKeyedByItemsValueOfAnotherKindSaysWhatItExpected() throws {
        do {
            _ = try packaged(#"{"items": "tags[0]", "keyedBy": "id"}"#)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == #"tags[0]: expected an array or an object, found string "swift""#)
        }
    }

    @Test func sectionEntriesTakeMembersToo() throws {
        let packager = SpecPackager(spec: try PackagingSpec(data: Data("""
        {"sections": [{"title": "Areas", "items": "areaNames", "keyedBy": "id", "scalarKey": "name"}]}
        """.utf8)))
        let sections = try packager.packageSections(document: try JSONValue(parsing: catalogue))
        #expect(sections[0].items.count == 2)
    }

    @Test(arguments: [
        (#"{"keyedBy": 3}"#, #"<spec>: error: "keyedBy" must be a key string, found int"#),
        (#"{"scalarKey": ""}"#, #"<spec>: error: "scalarKey" is empty; give the key to store under"#),
    ])
    func badItemSourcesAreRejected(spec: String, message: String) {
        #expect(throws: (any Error).self) { try PackagingSpec(data: Data(spec.utf8)) }
        do { _ = try PackagingSpec(data: Data(spec.utf8)) } catch { #expect("\(error)" == message) }
    }

    @Test func scalarsAreSummedUpInOneWarningLine() throws {
        let numbers = "[" + (0 ... 10_000).map(String.init).joined(separator: ",") + "]"
        let io = CapturedIO(files: ["n.json": Data(#"{"values": \#(numbers)}"#.utf8),
                                    "s.json": Data(#"{"items": "values"}"#.utf8)])
        #expect(io.run("convert", "n.json", "-p", "s.json", "--to", "json") == 0)
        #expect(io.error == "n.json: warning: 10,001 elements skipped: numbers, not objects (a spec with \"scalarKey\" packages them)\n")
        // The count reads the same in the tree and in the --strict error.
        let tree = CapturedIO(files: io.files)
        #expect(tree.run("convert", "n.json", "-p", "s.json") == 0)
        #expect(tree.output.hasPrefix("n.json · 1 section · 0 items · 10,001 skipped\n"))
        let strict = CapturedIO(files: io.files)
        #expect(strict.run("convert", "n.json", "-p", "s.json", "--strict") == 1)
        #expect(strict.error.hasSuffix("agvm: error: 10,001 elements were skipped (--strict); nothing written\n"))
    }

    @Test func theScalarKeyHintNamesWhereASpecTakesScalarKey() throws {
        let io = CapturedIO(files: ["d.json": Data(#"{"groups": {"x": [1, 2]}}"#.utf8),
                                    "s.json": Data(#"{"sectionsFrom": "groups"}"#.utf8)])
        #expect(io.run("convert", "d.json", "-p", "s.json") == 0)
        #expect(io.error == "d.json: warning: section 0: 2 elements skipped: numbers, not objects\n")
        let sections = CapturedIO(files: ["d.json": Data(#"{"x": [1, 2]}"#.utf8),
                                          "s.json": Data(#"{"sections": [{"items": "x"}]}"#.utf8)])
        #expect(sections.run("convert", "d.json", "-p", "s.json") == 0)
        #expect(sections.error == "d.json: warning: section 0: 2 elements skipped: numbers, not objects (a section with \"scalarKey\" packages them)\n")
        #expect(throws: PackagingSpecError.self) {
            try PackagingSpec(data: Data(#"{"sectionsFrom": "groups", "scalarKey": "v"}"#.utf8))
        }
    }

    @Test func strictAndTheTreeCountElementsApartFromOtherProblems() throws {
        let files = ["d.json": Data(#"{"rows": [{"a": 1}, 2, 3]}"#.utf8),
                     "s.json": Data(#"{"items": "rows", "header": "meta"}"#.utf8),
                     "h.json": Data(#"{"items": "rows", "header": "meta", "scalarKey": "a"}"#.utf8)]
        let both = CapturedIO(files: files)
        #expect(both.run("convert", "d.json", "-p", "s.json", "--strict") == 1)
        #expect(both.error.hasSuffix(
            "agvm: error: 2 elements were skipped and 1 other problem was reported (--strict); nothing written\n"))
        let headerOnly = CapturedIO(files: files)
        #expect(headerOnly.run("convert", "d.json", "-p", "h.json", "--strict") == 1)
        #expect(headerOnly.error == "d.json: warning: header: meta: missing\n"
            + "agvm: error: 1 problem was reported (--strict); nothing written\n")
        let tree = CapturedIO(files: files)
        #expect(tree.run("convert", "d.json", "-p", "s.json") == 0)
        #expect(tree.output.hasPrefix("d.json · 1 section · 1 item · 2 skipped · 1 problem\n"))
    }

    @Test func summaryLines() {
        let skipped = [
            SkippedElement(location: .item(0), reason: .notAnObject(found: .int)),
            SkippedElement(location: .item(1), reason: .missingRequiredValue(key: "id", source: "path id",
                                                                             cause: JSONAccessError(path: JSONPath([.key("id")]), reason: .missing))),
            SkippedElement(location: .item(2), reason: .notAnObject(found: .string)),
            SkippedElement(location: .item(3), reason: .notAnObject(found: .double)),
            SkippedElement(location: .section(1, .item(0)), reason: .notAnObject(found: .array)),
        ]
        #expect(SkippedSummary.lines(for: skipped) == [
            "3 elements skipped: 2 numbers, 1 string, not objects (a spec with \"scalarKey\" packages them)",
            skipped[1].description,
            skipped[4].description,
        ])
        #expect(SkippedSummary.lines(for: Array(skipped[2...3]), scalarKeyHolder: nil) == [
            "2 elements skipped: 1 string, 1 number, not objects",
        ])
        #expect(SkippedSummary.lines(for: Array(skipped[2...3]), scalarKeyHolder: "a section") == [
            "2 elements skipped: 1 string, 1 number, not objects (a section with \"scalarKey\" packages them)",
        ])
        // A section per element (a `sectionsFrom` map of scalars): one
        // line per section, in order, found without searching them all.
        let perSection = (0 ..< 20_000).map { SkippedElement(location: .section($0, .item(0)), reason: .notAnObject(found: .int)) }
        let lines = SkippedSummary.lines(for: perSection)
        #expect(lines.count == 20_000)
        #expect(lines.first == perSection[0].description && lines.last == perSection[19_999].description)
        #expect(grouped(1_234_567) == "1,234,567")
        #expect(grouped(999) == "999")
    }
}
