import Foundation
import Testing
@testable import AGViewModel

@Suite("JSON export and import")
struct JSONExportTests {
    @Test func managerExportsItsDocumentedShape() throws {
        let json = PersistenceFixtures.manager().exportJSON(options: .everything)
        #expect(json.objectValue?.keys == ["common", "sections"])
        let articles = try #require(json["sections"]?[0])
        #expect(articles.objectValue?.keys == ["header", "footer", "common", "itemMerge", "items"])
        #expect(articles["items"]?[0]?["author"] == ["name": "Ada", "handle": "@ada"])
        #expect(articles["items"]?[0]?["replies"] == [["text": "hi"], ["text": "yo", "n": nil]])
        // Absent parts are left out; "items" is always there.
        #expect(json["sections"]?[1]?.objectValue?.keys == ["header", "items"])
        #expect(json["sections"]?[2] == ["items": []])
        #expect(Manager().exportJSON() == ["sections": []])
    }

    @Test func exportIsByteForByteDeterministic() throws {
        let first = try PersistenceFixtures.manager().exportJSONData(options: .everything)
        for _ in 0 ..< 5 {
            #expect(try PersistenceFixtures.manager().exportJSONData(options: .everything) == first)
        }
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix(#"{"common":{"screen":"home"},"sections":[{"header":{"title":"Articles","count":2}"#))
        let pretty = try PersistenceFixtures.manager().exportJSONData(options: .everything, writer: .init(pretty: true))
        #expect(try JSONValue(parsing: pretty) == JSONValue(parsing: first))
    }

    @Test func keyExchangeRenamesViewModelKeysAtEveryLevel() {
        let item = ViewModel(["screenName": "ada", "text": "hi"])
        item[value: "author"] = .payload(ViewModel(["screenName": "bob"]))
        let json = item.exportJSON(options: JSONExportOptions(keys: .everything, keyExchange: ["screenName": "screen_name"]))
        #expect(json == ["screen_name": "ada", "text": "hi", "author": ["screen_name": "bob"]])
        // Members inside JSON values are data, not ViewModel keys.
        let raw = ViewModel(["user": ["screenName": "x"]])
        #expect(raw.exportJSON(options: JSONExportOptions(keyExchange: ["screenName": "s"])) == ["user": ["screenName": "x"]])
        // A collision keeps the first position with the later value.
        let clash = ViewModel(["a": 1, "b": 2])
        #expect(clash.exportJSON(options: JSONExportOptions(keyExchange: ["a": "b"])).objectValue?.keys == ["b"])
        #expect(clash.exportJSON(options: JSONExportOptions(keyExchange: ["a": "b"])) == ["b": 2])
    }

    struct Avatar: Sendable { var name: String }

    @Test func payloadClosureWritesOrSkipsUnknownPayloads() {
        let item = ViewModel(["id": 1])
        item[value: "avatar"] = .payload(Avatar(name: "ada.png"))
        item[value: "secret"] = .payload(Avatar(name: "hidden"))
        item[value: "link"] = .payload(URL(string: "https://example.com/a")!)
        // Without a closure: URLs become strings, others are left out.
        #expect(item.exportJSON() == ["id": 1, "link": "https://example.com/a"])
        let options = JSONExportOptions(payload: { key, payload in
            guard key == "avatar", let avatar = payload as? Avatar else { return .omit }
            return .json(.string(avatar.name))
        })
        #expect(item.exportJSON(options: options) == ["id": 1, "avatar": "ada.png"])
    }

    /// A converter that only knows its own payload type leaves the others
    /// to the standard rule: URLs still export as strings.
    @Test func payloadClosureFallsBackToTheStandardRule() {
        let item = ViewModel(["id": 1])
        item[value: "when"] = .payload(Date(timeIntervalSince1970: 0))
        item[value: "link"] = .payload(URL(string: "https://example.com/a")!)
        item[value: "secret"] = .payload(Avatar(name: "hidden"))
        item[value: "child"] = .payload(ViewModel(["c": 1]))   // nested: never offered to the converter
        var offered: [String] = []
        let options = JSONExportOptions(keys: .everything, payload: { key, payload in
            offered.append(key)
            guard let date = payload as? Date else { return .standard }
            return .json(.string(date.ISO8601Format()))
        })
        #expect(item.exportJSON(options: options)
                == ["id": 1, "when": "1970-01-01T00:00:00Z", "link": "https://example.com/a", "child": ["c": 1]])
        #expect(offered.sorted() == ["link", "secret", "when"])
    }

    /// A main-actor screen's own state, not `Sendable`, in the payload
    /// converter: the export runs where the ViewModels live.
    @MainActor final class ProfileScreen {
        final class ImageStore { var uploaded: [String: URL] = ["avatar": URL(string: "https://cdn.example/a.png")!] }
        let images = ImageStore()
        let profile = ViewModel(["id": 7])

        func requestBody() -> JSONValue {
            profile[value: "avatar"] = .payload(Avatar(name: "local.png"))
            return profile.exportJSON(options: JSONExportOptions(payload: { key, _ in
                self.images.uploaded[key].map { .json(.string($0.absoluteString)) } ?? .omit
            }))
        }
    }

    @Test @MainActor func payloadConverterUsesTheExportersOwnState() {
        #expect(ProfileScreen().requestBody() == ["id": 7, "avatar": "https://cdn.example/a.png"])
    }

    @Test func nestedSectionsManagersAndCyclesExportSafely() {
        let holder = ViewModel(["id": 1])
        let inner = Section(items: [ViewModel(["x": 1])])
        holder[value: "section"] = .payload(inner)
        holder[value: "manager"] = .payload(Manager(sections: [inner]))
        holder[value: "me"] = .payload(holder)
        inner.append(holder)  // section → holder → section
        let json = holder.exportJSON()
        #expect(json["me"] == nil)
        #expect(json["section"]?["items"]?.arrayValue?.count == 1)
        #expect(json["manager"]?["sections"]?[0]?["items"]?[0]?["x"] == 1)
    }

    /// A chain of nested ViewModels deeper than an export nests is cut
    /// there, not followed until the stack runs out.
    @Test func aVeryDeepChainIsCutAtTheNestingLimit() {
        func chain(_ levels: Int) -> ViewModel {
            let root = ViewModel(["level": 0])
            var current = root
            for level in 1 ..< levels {
                let next = ViewModel(["level": .int(Int64(level))])
                current[value: "child"] = .payload(next)
                current = next
            }
            return root
        }
        func depth(_ json: JSONValue) -> Int {
            var levels = 0
            var current: JSONValue? = json
            while let value = current {
                levels += 1
                current = value["child"]
            }
            return levels
        }
        let limit = 256
        #expect(depth(chain(limit).exportJSON(options: .everything)) == limit)
        let cut = chain(20_000).exportJSON(options: .everything)
        #expect(depth(cut) == limit)
        var last: JSONValue = cut
        while let child = last["child"] { last = child }
        #expect(last["level"] == .int(Int64(limit - 1)))

        // A section's or a manager's parts count as levels too: at the
        // limit they are left out, as nested ViewModels are.
        for levels in [limit - 3, limit - 2, limit - 1] {
            let root = chain(levels)
            var deepest = root
            while let next = deepest.payload(forKey: "child", as: ViewModel.self) { deepest = next }
            deepest.set("m", payload: Manager(sections: [Section(items: [ViewModel(["last": true])], header: ViewModel(["h": 1]))]))
            var json = root.exportJSON(options: .everything)
            while let child = json["child"] { json = child }
            // The manager is level `levels + 1`, its section + 2, its items + 3.
            let section = json["m"]?["sections"]?[0]
            #expect((section != nil) == (levels + 2 <= limit))
            #expect((section?["items"]?[0] != nil) == (levels + 3 <= limit))
            #expect((section?["header"] != nil) == (levels + 3 <= limit))
        }
    }

    // MARK: Import

    @Test func exportedManagerReadsBackIntoAnEqualManager() throws {
        let original = PersistenceFixtures.manager()
        let data = try original.exportJSONData(options: .everything)
        let back = try Manager(importingJSON: data)
        #expect(PersistenceFixtures.same(original, back))
        #expect(try back.exportJSONData(options: .everything) == data)
        // Nested ViewModels read back as the JSON objects they exported as.
        #expect(back[0][0]["author"] == ["name": "Ada", "handle": "@ada"])
        // A changed value is noticed by the equality the test relies on.
        back[0][1]["text"] = "changed"
        #expect(!PersistenceFixtures.same(original, back))
    }

    /// Items as deep as the parser accepts read back from a manager's
    /// export, which nests them four levels further.
    @Test func theDeepestParsedItemsReadBack() throws {
        let depth = JSONParser.Options().maximumDepth
        let document = String(repeating: #"{"a":"#, count: depth - 1) + "[]" + String(repeating: "}", count: depth - 1)
        let item = try #require(JSONValue(parsing: document).objectValue)
        let manager = Manager(sections: [Section(items: [ViewModel(item)])])
        let data = try manager.exportJSONData(options: .everything)
        // Four levels more than the item: three would not do.
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: data, options: .init(maximumDepth: depth + 3)) }
        _ = try JSONValue(parsing: data, options: .init(maximumDepth: depth + 4))
        let back = try Manager(importingJSON: data)
        #expect(PersistenceFixtures.same(manager, back))
        #expect(try Section(importingJSON: manager[0].exportJSONData(options: .everything)).count == 1)
    }

    @Test func sectionAndViewModelReadBack() throws {
        let section = PersistenceFixtures.manager()[0]
        let back = try Section(importingJSON: section.exportJSON(options: .everything))
        #expect(PersistenceFixtures.same(section, back))
        let item = ViewModel(["a": 1, "b": [1, 2]])
        #expect(PersistenceFixtures.same(item, try ViewModel(importingJSON: item.exportJSON())))
    }

    @Test func wrongShapesThrowWithTheirPath() {
        func message(_ json: JSONValue) -> String? {
            do { _ = try Manager(importingJSON: json); return nil } catch { return error.description }
        }
        #expect(message([1]) == "expected an object, found array")
        #expect(message(["sections": ["a"]]) == "sections[0]: expected an object, found string")
        #expect(message(["sections": [["items": [["id": 1], 7]]]]) == "sections[0].items[1]: expected an object, found int")
        #expect(message(["sections": [["rows": []]]])
            == #"sections[0]: unknown member "rows"; a section has header, footer, common, itemMerge, items"#)
        #expect(message(["common": "x"]) == "common: expected an object, found string")
        #expect(message(["sections": [:]]) == "sections: expected an array, found object")
        #expect(message(["extra": 1]) == #"unknown member "extra"; a manager has common, sections"#)
        // A hostile key stays one short line: escaped, its middle cut.
        let long = "a\n\"" + String(repeating: "x", count: 1_000_000) + "end"
        let text = message(.object(JSONObject([(long, 1)]))) ?? ""
        #expect(text.hasPrefix(#"unknown member "a\n\"xx"#) && text.contains(#"x…x"#))
        #expect(text.hasSuffix(#"xxend"; a manager has common, sections"#))
        #expect(text.count < 140 && !text.contains("\n"), "\(text)")
        #expect(throws: JSONImportError.self) { try Section(importingJSON: ["header": [1]]) }
        #expect(throws: JSONImportError.self) { try ViewModel(importingJSON: "text") }
        #expect(throws: JSONParseError.self) { try Manager(importingJSON: Data("{".utf8)) }
    }
}

extension JSONExportTests {
    /// A manager's `common` registrations narrow its own common ViewModel,
    /// and its footer registrations apply to the sections' footers.
    @Test func managerPartRegistrationsReachItsCommonAndEveryFooter() {
        let manager = PersistenceFixtures.manager()
        manager.common?["draft"] = true
        manager.addSerializableKeys(["screen"], for: .common)
        manager.addSerializableKeys(["title"], for: .header).addSerializableKeys(["note"], for: .footer)
        let json = manager.exportJSON()
        #expect(json["common"] == ["screen": "home"])
        #expect(json["sections"]?[0]?["header"] == ["title": "Articles"])
        #expect(json["sections"]?[0]?["footer"] == ["note": "end"])
    }

    /// A ViewModel recurring in a list of ViewModels or as a section part
    /// is left out there.
    @Test func aViewModelRecurringInAListOrASectionPartIsLeftOut() {
        let holder = ViewModel(["id": 1])
        holder[value: "list"] = .payload([ViewModel(["n": 2]), holder])
        holder[value: "section"] = .payload(Section(items: [], header: holder, footer: ViewModel(["f": 3])))
        let json = holder.exportJSON()
        #expect(json == ["id": 1, "list": [["n": 2]], "section": ["footer": ["f": 3], "items": []]])
    }

    /// A renamed key colliding with a later key keeps the first one's
    /// position with the later value.
    @Test func aKeyExchangeCollisionKeepsTheFirstPosition() {
        let item = ViewModel(["a": 1, "b": 2, "c": 3])
        let json = item.exportJSON(options: JSONExportOptions(keyExchange: ["a": "c"]))
        #expect(json.objectValue?.keys == ["c", "b"])
        #expect(json == ["c": 3, "b": 2])
    }

    /// A section without "items" and a manager without "sections" import
    /// as empty, as documented.
    @Test func missingItemsAndSectionsImportAsNone() throws {
        let section = try Section(importingJSON: ["header": ["title": "T"]])
        #expect(section.isEmpty)
        #expect(section.header?["title"] == "T")
        let manager = try Manager(importingJSON: ["common": ["screen": "home"]])
        #expect(manager.count == 0)
        #expect(manager.common?["screen"] == "home")
        #expect(try Manager(importingJSON: [:]).count == 0)
    }

    /// A ViewModel holding a nested ViewModel as deep as the parser
    /// accepts reads back from its exported text.
    @Test func aViewModelNestingTheDeepestParsedItemReadsBack() throws {
        let depth = JSONParser.Options().maximumDepth
        let document = String(repeating: #"{"a":"#, count: depth - 1) + "[]" + String(repeating: "}", count: depth - 1)
        let holder = ViewModel()
        holder[value: "child"] = .payload(ViewModel(try #require(JSONValue(parsing: document).objectValue)))
        let data = try holder.exportJSONData(options: .everything)
        let back = try ViewModel(importingJSON: data)
        #expect(PersistenceFixtures.same(holder, back))
    }
}

extension JSONExportTests {
    /// A list that holds a ViewModel containing it drops that element and
    /// keeps the others.
    @Test func aListHoldingItsOwnViewModelKeepsItsOtherElements() {
        let vm = ViewModel(["n": 1])
        vm.set("list", payload: [vm, ViewModel(["m": 2])])
        #expect(vm.exportJSON() == ["n": 1, "list": [["m": 2]]])
        vm.removeValue(forKey: "list")
    }
}

extension JSONExportTests {
    /// A manager and its common ViewModel holding each other: each is
    /// written once, whichever of them is exported.
    @Test func aManagerAndItsCommonViewModelHoldingEachOtherExportOnce() {
        let common = ViewModel(["screen": "home"])
        let manager = Manager(sections: [], common: common)
        common[value: "owner"] = .payload(manager)
        #expect(manager.exportJSON() == ["common": ["screen": "home"], "sections": []])
        #expect(common.exportJSON() == ["screen": "home", "owner": ["sections": []]])
        common.removeValue(forKey: "owner")
    }

    /// Shape errors inside a section name the part or the items member
    /// they are in.
    @Test func sectionShapeErrorsNameTheirMember() {
        func message(_ json: JSONValue) -> String? {
            do { _ = try Section(importingJSON: json); return nil } catch { return error.description }
        }
        #expect(message(["header": [1]]) == "header: expected an object, found array")
        #expect(message(["itemMerge": 2]) == "itemMerge: expected an object, found int")
        #expect(message(["items": "x"]) == "items: expected an array, found string")
        do {
            _ = try Manager(importingJSON: ["sections": [["items": [:]]]])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "sections[0].items: expected an array, found object")
        }
    }
}

extension JSONExportTests {
    /// A manager whose second item holds a payload the exporter cannot
    /// write, a URL, one the converter leaves out, and a list holding the
    /// item itself; its section's footer is the item too.
    static func managerWithPayloads() -> (manager: Manager, item: ViewModel) {
        let item = ViewModel(["id": 2])
        item[value: "thumbnail"] = .payload(Avatar(name: "t.png"))
        item[value: "link"] = .payload(URL(string: "https://example.com/2")!)
        item[value: "secret"] = .payload(Avatar(name: "hidden"))
        item[value: "related"] = .payload([ViewModel(["id": 3]), item])
        let section = Section(items: [ViewModel(["id": 1]), item], footer: nil)
        return (Manager(sections: [section]), item)
    }

    static func omittingSecrets(key: String, payload: Any) -> JSONExportOptions.PayloadConversion {
        key == "secret" ? .omit : .standard
    }

    @Test func payloadsLeftOutAreReportedWithTheirPathInTheExport() {
        let (manager, item) = Self.managerWithPayloads()
        var skipped: [SkippedPayload] = []
        let json = manager.exportJSON(options: JSONExportOptions(
            keys: .everything, payload: Self.omittingSecrets, skippedPayload: { skipped.append($0) }))
        #expect(skipped.map(\.description) == [
            "sections[0].items[1].thumbnail: skipped payload of type Avatar",
            "sections[0].items[1].related[1]: skipped ViewModel that contains itself",
        ])
        #expect(skipped.first?.reason == .unsupportedType("Avatar"))
        #expect(json["sections"]?[0]?["items"]?[1] == ["id": 2, "link": "https://example.com/2", "related": [["id": 3]]])
        item.removeValue(forKey: "related")
    }

    @Test func reportingSkippedPayloadsLeavesTheExportUnchanged() {
        let (manager, item) = Self.managerWithPayloads()
        var count = 0
        let reported = manager.exportJSON(options: JSONExportOptions(keys: .everything, skippedPayload: { _ in count += 1 }))
        #expect(reported == manager.exportJSON(options: .everything))
        #expect(count == 3)  // without the converter, the secret is reported too
        item.removeValue(forKey: "related")
    }

    @Test func sectionPartsAndSectionsThatRecurAreReportedWhereTheyRecur() {
        let holder = ViewModel(["id": 1])
        let section = Section(items: [holder], header: holder)
        holder[value: "section"] = .payload(section)
        let manager = Manager(sections: [section])
        manager.common = holder
        var skipped: [String] = []
        _ = holder.exportJSON(options: JSONExportOptions(skippedPayload: { skipped.append($0.description) }))
        #expect(skipped == [
            "section.header: skipped ViewModel that contains itself",
            "section.items[0]: skipped ViewModel that contains itself",
        ])
        skipped = []
        holder[value: "section"] = .payload(manager)
        _ = holder.exportJSON(options: JSONExportOptions(skippedPayload: { skipped.append($0.description) }))
        #expect(skipped == [
            "section.common: skipped ViewModel that contains itself",
            "section.sections[0].header: skipped ViewModel that contains itself",
            "section.sections[0].items[0]: skipped ViewModel that contains itself",
        ])
        holder.removeValue(forKey: "section")
    }

    /// The archive reports the same payloads at the same paths, and also
    /// the URL, which it cannot store and the export writes as a string.
    @Test func theArchiveReportsWhatTheExportReportsAtTheSamePaths() throws {
        let (manager, item) = Self.managerWithPayloads()
        var exported: [SkippedPayload] = []
        _ = manager.exportJSON(options: JSONExportOptions(keys: .everything, skippedPayload: { exported.append($0) }))
        let archived = try ArchiveEncoder(keys: .everything).encode(.manager(manager)).skippedPayloads
        let url = SkippedPayload(path: "sections[0].items[1].link", reason: .unsupportedType("URL"))
        #expect(Set(archived) == Set(exported + [url]))
        item.removeValue(forKey: "related")
    }
}
