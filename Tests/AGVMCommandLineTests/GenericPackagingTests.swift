import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("agvm convert: generic packaging without a spec")
struct GenericPackagingTests {
    func package(_ json: String) throws -> (Manager, [SkippedElement]) {
        try GenericPackaging.package(try JSONValue(parsing: json))
    }

    @Test func anArrayOfObjectsIsOneSectionWithoutHeader() throws {
        let (manager, skipped) = try package(#"[{"id": 1, "name": "a"}, {"id": 2}]"#)
        #expect(skipped.isEmpty)
        #expect(manager.count == 1)
        #expect(manager.common == nil)
        let section = try #require(manager.first)
        #expect(section.header == nil)
        #expect(section.count == 2)
        #expect(section[0].keys == ["id", "name"])
        #expect(section[1]["id"] == 2)
    }

    @Test func nonObjectElementsOfATopLevelArrayAreSkippedAndReported() throws {
        let (manager, skipped) = try package(#"[{"id": 1}, "oops", null, {"id": 4}]"#)
        #expect(manager.itemCount == 2)
        #expect(skipped.map(\.description) == ["item 1: expected an object, found string",
                                                "item 2: expected an object, found null"])
    }

    @Test func eachListMemberBecomesASectionTitledWithItsKey() throws {
        let (manager, _) = try package(#"""
            {"page": 2, "books": [{"id": 1}], "authors": [{"name": "a"}, {"name": "b"}], "tags": ["x"], "empty": []}
            """#)
        #expect(manager.count == 2)
        #expect(manager.headers.map { $0?["title"] } == ["books", "authors"])
        #expect(manager.sections.map(\.count) == [1, 2])
        // Everything else is kept, in order, in the common ViewModel.
        let common = try #require(manager.common)
        #expect(common.keys == ["page", "tags", "empty"])
        #expect(common["tags"] == ["x"])
    }

    @Test func listsAreSearchedOneLevelDownOnlyWhenTheTopHasNone() throws {
        let (manager, _) = try package(#"""
            {"query": "q", "groups": {"articles": [{"id": "a"}], "total": 3, "videos": [{"id": "v"}]}}
            """#)
        #expect(manager.headers.map { $0?["title"] } == ["articles", "videos"])
        #expect(manager.common?.keys == ["query", "groups.total"])
        #expect(manager.common?["groups.total"] == 3)

        // A top-level list wins: nested lists stay data.
        let (top, _) = try package(#"{"items": [{"id": 1}], "groups": {"more": [{"id": 2}]}}"#)
        #expect(top.count == 1)
        #expect(top.common?.keys == ["groups"])
    }

    @Test func aNestedLeftoverNeverTakesAMembersName() throws {
        // "a" → "b" would be "a.b", which a member already is; and "a" → "c.d"
        // and "a.c" → "d" would both be "a.c.d".
        let (manager, _) = try package(#"""
            {"a": {"list": [{"x": 1}], "b": 1, "c.d": 3}, "a.b": 2, "a.c": {"more": [{"y": 2}], "d": 4}}
            """#)
        let common = try #require(manager.common)
        #expect(common.keys == ["a.b~2", "a.c.d", "a.b", "a.c.d~2"])
        #expect(common["a.b"] == 2)
        #expect(common["a.b~2"] == 1)
        #expect(common["a.c.d"] == 3)
        #expect(common["a.c.d~2"] == 4)
    }

    @Test func anObjectWithoutListsIsOneItem() throws {
        let (manager, skipped) = try package(#"{"name": "Yuki", "tags": [], "mixed": [{"a": 1}, 2]}"#)
        #expect(skipped.isEmpty)
        #expect(manager.count == 1)
        #expect(manager.common == nil)
        #expect(manager[0].count == 1)
        #expect(manager[0][0].keys == ["name", "tags", "mixed"])
    }

    @Test func scalarsAreNotPackageable() {
        for document in ["42", "\"text\"", "null", "true"] {
            #expect(throws: PackagingError.self) { try package(document) }
        }
    }

    @Test func theBundledFixturesPackageWithoutLosingMembers() throws {
        for name in ["books", "feed", "products", "profile", "search"] {
            let document = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: fixture("\(name).json"))))
            let (manager, skipped) = try GenericPackaging.package(document)
            #expect(skipped.isEmpty, "\(name)")
            #expect(manager.itemCount > 1, "\(name): found its lists")
            // Every top-level member is either a section or in common.
            let top = try #require(document.objectValue)
            let titles = Set(manager.headers.compactMap { header -> String? in
                if case .string(let title)? = header?["title"] { return title }
                return nil
            })
            let common = Set(manager.common?.keys ?? [])
            for key in top.keys {
                let kept = titles.contains(key) || common.contains(key) || common.contains { $0.hasPrefix(key + ".") }
                    || (top[key]?.objectValue?.keys.contains { titles.contains($0) } ?? false)
                #expect(kept, "\(name): \(key)")
            }
        }
    }

    @Test func noCommonViewModelWhenEveryMemberIsAList() throws {
        let (manager, _) = try package(#"{"books": [{"id": 1}], "authors": [{"name": "a"}]}"#)
        #expect(manager.count == 2)
        #expect(manager.common == nil)
    }

    @Test func onlyScalarElementsGetTheScalarKeyHint() {
        let arrays = CapturedIO(files: ["arrays.json": Data(#"[{"a": 1}, [1], [2], null]"#.utf8)])
        #expect(arrays.run("convert", "arrays.json", "--to", "json") == 0)
        #expect(arrays.error == "arrays.json: warning: 3 elements skipped: 2 arrays, 1 null, not objects\n")
        let numbers = CapturedIO(files: ["numbers.json": Data(#"[{"a": 1}, 1, 2]"#.utf8)])
        #expect(numbers.run("convert", "numbers.json", "--to", "json") == 0)
        #expect(numbers.error == "numbers.json: warning: 2 elements skipped: numbers, not objects (a spec with \"scalarKey\" packages them)\n")
    }
}
