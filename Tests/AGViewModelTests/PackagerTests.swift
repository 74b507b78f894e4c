import Testing
import AGViewModel

@Suite("Packagers")
struct PackagerTests {
    struct UserPackager: ViewModelPackager {
        struct Missing: Error, CustomStringConvertible { var description: String { "no name" } }
        func package(_ user: JSONObject, context: (any Sendable)?) throws -> ViewModel {
            guard let name = user.string(at: "name") else { throw Missing() }
            let viewModel = ViewModel()
            viewModel["name"] = .string(name)
            viewModel["followers"] = .int(Int64(user.int(at: "stats.followers", default: 0)))
            if let suffix = context as? String { viewModel["title"] = .string(name + suffix) }
            return viewModel
        }
    }

    @Test func aPackagerTurnsAnObjectIntoAViewModelWithContext() throws {
        let user: JSONObject = ["name": "Ada", "stats": ["followers": "12"]]
        let viewModel = try UserPackager().package(user)
        #expect(viewModel.keys == ["name", "followers"])
        #expect(viewModel["followers"] == 12)
        let titled = try UserPackager().package(user, context: " (admin)")
        #expect(titled["title"] == "Ada (admin)")
    }

    @Test func packagingAnArraySkipsAndReportsBadElements() {
        let elements: [JSONValue] = [["name": "a"], "oops", ["id": 3], ["name": "d", "stats": ["followers": 4]]]
        let result = UserPackager().package(elements)
        #expect(result.items.map { $0["name"] } == ["a", "d"])
        #expect(result.items[1]["followers"] == 4)
        #expect(result.header == nil)
        #expect(result.skipped.map(\.description) == ["item 1: expected an object, found string", "item 2: no name"])
        #expect(result.skipped.map(\.location) == [.item(1), .item(2)])
    }

    @Test func closurePackagerFillsAFreshViewModel() throws {
        let packager = ClosurePackager { viewModel, object, context in
            viewModel["upper"] = .string(object.string(at: "name", default: "").uppercased())
            viewModel["context"] = .string(context as? String ?? "none")
        }
        let a = try packager.package(["name": "ada"])
        let b = try packager.package(["name": "bob"], context: "x")
        #expect(a !== b)
        #expect(a["upper"] == "ADA")
        #expect(a["context"] == "none")
        #expect(b["context"] == "x")
    }

    @Test func sharedPackagerBuildsOneViewModelMergedWithACommonOne() {
        let common = ViewModel(["style": "compact", "title": "default"])
        let viewModel = Packager.viewModel(merging: common) { viewModel in
            viewModel["title"] = "Timeline"
            viewModel["count"] = 3
        }
        #expect(viewModel.keys == ["style", "title", "count"])
        #expect(viewModel["title"] == "Timeline")
        #expect(viewModel["style"] == "compact")
        // The common ViewModel is not changed and not shared.
        #expect(common["title"] == "default")
        #expect(common.keys == ["style", "title"])
        let plain = Packager.viewModel { $0["a"] = 1 }
        #expect(plain.keys == ["a"])
    }

    @Test func sharedPackagerBuildsOneViewModelPerElement() {
        let common = ViewModel(["style": "row"])
        let statuses: [JSONValue] = [["text": "one"], ["text": "two"]]
        let rows = Packager.viewModels(from: statuses.enumerated(), merging: common) { viewModel, element in
            viewModel["text"] = element.element["text"]
            viewModel["index"] = .int(Int64(element.offset))
        }
        #expect(rows.count == 2)
        #expect(rows[0] !== rows[1])
        #expect(rows.map { $0["text"] } == ["one", "two"])
        #expect(rows.map { $0["index"] } == [0, 1])
        #expect(rows.allSatisfy { $0["style"] == "row" && $0.keys.first == "style" })
    }

    @Test func sharedPackagerRunsPackagersOnTopOfACommonViewModel() throws {
        let common = ViewModel(["style": "card", "followers": -1])
        let one = try Packager.viewModel(from: ["name": "Ada"], using: UserPackager(), merging: common)
        #expect(one.keys == ["style", "followers", "name"])
        #expect(one["followers"] == 0)  // the packager's value wins
        let many = Packager.viewModels(from: [["name": "a"], [:]], using: UserPackager(), merging: common)
        #expect(many.items.count == 1)
        #expect(many.items[0]["style"] == "card")
        #expect(many.skipped.count == 1)
    }

    @Test func closuresCanThrowAndTheErrorPropagates() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            _ = try Packager.viewModels(from: [1, 2, 3]) { _, n in if n == 2 { throw Stop() } }
        }
    }
}
