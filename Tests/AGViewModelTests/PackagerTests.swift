import Foundation
import Testing
import AGViewModel
import Synchronization

/// Packagers an app defines once and uses from any task: this compiles only
/// when they are `Sendable`.
enum SharedPackagers {
    static let status = ClosurePackager { (viewModel, status: JSONObject) in viewModel["id"] = status["id"] }
    static let members = MemberCopyingPackager()
}

@Suite("Packagers")
struct PackagerTests {
    @Test func closurePackagersAreSharedAcrossTasks() async throws {
        let row: JSONObject = ["id": 7, "text": "hi"]
        let ids = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            for _ in 0..<4 { group.addTask { try SharedPackagers.status.package(row)["id"] } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ids == Array(repeating: 7, count: 4))
        let copied = await Task.detached { SharedPackagers.members.package(row).keys }.value
        #expect(copied == ["id", "text"])
    }

    /// A stateful packager: an ordinary class, not `Sendable`, with its
    /// context as a stored property and a record of what it built.
    final class UserPackager: ViewModelPackager {
        struct Missing: Error, Equatable, CustomStringConvertible { var description: String { "no name" } }
        let titleSuffix: String?
        private(set) var calls = 0
        private(set) var built: [ObjectIdentifier] = []

        init(titleSuffix: String? = nil) {
            self.titleSuffix = titleSuffix
        }

        func package(_ user: JSONObject) throws -> sending ViewModel {
            calls += 1
            guard let name = user.string(at: "name") else { throw Missing() }
            let viewModel = ViewModel()
            viewModel["name"] = .string(name)
            viewModel["followers"] = .int(Int64(user.int(at: "stats.followers", default: 0)))
            if let titleSuffix { viewModel["title"] = .string(name + titleSuffix) }
            built.append(ObjectIdentifier(viewModel))
            return viewModel
        }
    }

    @Test func aPackagerTurnsAnObjectIntoAViewModelWithItsOwnContext() throws {
        let user: JSONObject = ["name": "Ada", "stats": ["followers": "12"]]
        let viewModel = try UserPackager().package(user)
        #expect(viewModel.keys == ["name", "followers"])
        #expect(viewModel["followers"] == 12)
        let titled = try UserPackager(titleSuffix: " (admin)").package(user)
        #expect(titled["title"] == "Ada (admin)")
    }

    @Test func packagingAnArraySkipsAndReportsBadElements() {
        let elements: [JSONValue] = [["name": "a"], "oops", ["id": 3], ["name": "d", "stats": ["followers": 4]]]
        let result = UserPackager().package(elements)
        #expect(result.items.map { $0["name"] } == ["a", "d"])
        #expect(result.items[1]["followers"] == 4)
        #expect(result.header == nil)
        #expect(result.skipped.map(\.description) == [
            "item 1: expected an object, found string", "item 2: the packager failed: no name",
        ])
        #expect(result.skipped.map(\.location) == [.item(1), .item(2)])
        // The thrown error is kept whole, not turned into text.
        guard case .packagerFailed(let error) = result.skipped[1].reason else {
            Issue.record("expected packagerFailed, got \(result.skipped[1].reason)")
            return
        }
        #expect(error as? UserPackager.Missing == UserPackager.Missing())
        #expect(result.skipped[1].reason == .packagerFailed(UserPackager.Missing()))
        // Errors that are not Equatable never compare equal.
        struct Opaque: Error {}
        #expect(PackagingError.Reason.packagerFailed(Opaque()) != .packagerFailed(Opaque()))
    }

    @Test func skippedElementsSayWhereWhichKeyAndWhy() {
        let packager = ClosurePackager { (viewModel, status: JSONObject) in
            viewModel["id"] = .string(try status.read(String.self, at: "id_str"))
            viewModel["text"] = .string(status.string(at: "text", default: ""))
        }
        let result = packager.package([["id_str": "1"], ["text": "no id"], ["id_str": ["x"]]])
        #expect(result.items.map { $0["id"] } == ["1"])
        #expect(result.skipped.map(\.location) == [.item(1), .item(2)])
        #expect(result.skipped.map(\.key) == ["id_str", "id_str"])
        guard case .unreadableValue(let missing) = result.skipped[0].reason,
              case .unreadableValue(let mismatch) = result.skipped[1].reason else {
            Issue.record("expected read errors, got \(result.skipped)")
            return
        }
        #expect(missing.reason == .missing)
        #expect(mismatch.reason == .typeMismatch(expected: "a string", found: .array, value: "[1 element]"))
        #expect(result.skipped[0].description == "item 1: id_str: missing")
    }

    @Test func strictPackagingThrowsTheFirstProblemTyped() {
        let packager = UserPackager()
        let elements: [JSONValue] = [["name": "a"], ["id": 3], "oops", ["name": "d"]]
        #expect(throws: PackagingError(location: .item(1), reason: .packagerFailed(UserPackager.Missing()))) {
            _ = try packager.package(elements, policy: .strict)
        }
        // It stopped at the first problem: elements 2 and 3 were not packaged.
        #expect(packager.calls == 2)
        do {
            _ = try packager.package(["oops"], policy: .strict)
            Issue.record("expected an error")
        } catch {
            // `error` is a PackagingError, statically.
            #expect(error.location == .item(0))
            #expect(error.reason == .notAnObject(found: .string))
        }
        // Nothing wrong: strict packaging returns everything.
        let fine = try? packager.package([["name": "x"]] as [JSONValue], policy: .strict)
        #expect(fine?.items.count == 1 && fine?.skipped.isEmpty == true)
    }

    @Test func aStrictErrorSaysWhereAndWhy() {
        do {
            _ = try UserPackager().package([["name": "a"], 7] as [JSONValue], policy: .strict)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "item 1: expected an object, found int")
        }
        // Without a location, the reason alone.
        #expect(PackagingError(reason: .notAnObject(found: .null)).description == "expected an object, found null")
    }

    @Test func missingValueReasonsAreEqualOnlyWithTheSameCause() {
        func missing(_ reason: JSONAccessError.Reason) -> PackagingError.Reason {
            .missingRequiredValue(key: "id", source: "path id", cause: JSONAccessError(path: JSONPath(parsing: "id")!, reason: reason))
        }
        #expect(missing(.missing) == missing(.missing))
        #expect(missing(.missing) != missing(.null))
        #expect(SkippedElement(location: .item(0), reason: missing(.null)) != SkippedElement(location: .item(0), reason: missing(.missing)))
    }

    @Test func closurePackagerFillsAFreshViewModelForAnyElementType() throws {
        let packager = ClosurePackager { (viewModel, object: JSONObject) in
            viewModel["upper"] = .string(object.string(at: "name", default: "").uppercased())
        }
        let a = try packager.package(["name": "ada"])
        let b = try packager.package(["name": "bob"])
        #expect(a !== b)
        #expect(a["upper"] == "ADA" && b["upper"] == "BOB")
        let numbers = ClosurePackager { (viewModel, n: Int) in viewModel["n"] = .int(Int64(n)) }
        let result = numbers.package(1 ... 3)
        #expect(result.items.map { $0["n"] } == [1, 2, 3])
        // Elements of any type that the packager throws for are located by their index.
        struct Odd: Error {}
        let evens = ClosurePackager { (viewModel, n: Int) in
            if n % 2 != 0 { throw Odd() }
            viewModel["n"] = .int(Int64(n))
        }
        let skipping = evens.package([1, 2, 3, 4])
        #expect(skipping.items.map { $0["n"] } == [2, 4])
        #expect(skipping.skipped.map(\.location) == [.item(0), .item(2)])
    }

    /// The one merge rule: the element's values win, defaults fill the keys
    /// it did not set, after its own keys; the defaults are not changed.
    @Test func mergePrecedenceTheElementWinsOverDefaults() {
        let defaults = ViewModel(["style": "card", "followers": -1])
        let result = UserPackager().package([["name": "a"], ["name": "b", "stats": ["followers": 7]]] as [JSONValue], defaults: defaults)
        #expect(result.items.map { $0.keys } == [["name", "followers", "style"], ["name", "followers", "style"]])
        #expect(result.items.map { $0["followers"] } == [0, 7])   // the packager's value wins
        #expect(result.items.map { $0["style"] } == ["card", "card"])
        #expect(defaults.keys == ["style", "followers"] && defaults["followers"] == -1)

        // The same rule for a section's item merge, both ways of using it.
        let section = Section(itemMerge: defaults)
        section.appendItems(packaging: [["name": "c"]], using: UserPackager())
        #expect(section[0]["followers"] == 0 && section[0]["style"] == "card")
        let wrapped = Section(packaged: UserPackager().package([["name": "d"]] as [JSONValue]), itemMerge: defaults)
        #expect(wrapped[0]["followers"] == 0 && wrapped[0]["style"] == "card")
        #expect(wrapped[0].keys == section[0].keys)
    }

    /// Only the JSON values of the defaults are added: a payload stays with
    /// the defaults and is not shared between items.
    @Test func defaultsAddTheirJSONValuesOnly() {
        final class Image {}
        let defaults = ViewModel(["style": "card"]).set("image", payload: Image())
        let result = UserPackager().package([["name": "a"]] as [JSONValue], defaults: defaults)
        #expect(result.items.map(\.keys) == [["name", "followers", "style"]])
        #expect(result.items[0].payload(forKey: "image", as: Image.self) == nil)
    }

    /// Each element becomes a ViewModel once: the items handed back are the
    /// very ViewModels the packager built, merged in place.
    @Test func eachElementIsBuiltOnce() {
        let elements: [JSONValue] = [["name": "a"], ["name": "b"], ["x": 1]]
        let defaults = ViewModel(["style": "card"])

        let packager = UserPackager()
        let result = packager.package(elements, defaults: defaults)
        #expect(packager.calls == 3)
        #expect(result.items.map(ObjectIdentifier.init) == packager.built)

        let sectionPackager = UserPackager()
        let section = Section(itemMerge: defaults)
        section.appendItems(packaging: elements, using: sectionPackager)
        #expect(sectionPackager.calls == 3)
        #expect(section.items.map(ObjectIdentifier.init) == sectionPackager.built)

        let wrapPackager = UserPackager()
        let wrapped = Section(packaged: wrapPackager.package(elements), itemMerge: defaults)
        #expect(wrapPackager.calls == 3)
        #expect(wrapped.items.map(ObjectIdentifier.init) == wrapPackager.built)

        let managerPackager = UserPackager()
        let manager = Manager()
        manager.appendSections(packaging: [elements, elements], using: managerPackager)
        #expect(managerPackager.calls == 6)
        #expect(manager.sections.flatMap(\.items).map(ObjectIdentifier.init) == managerPackager.built)
    }
}

/// A packager that calls `try Task.checkCancellation()` stops a list at the
/// element where it throws.
@Suite("Packaging and cancellation")
struct PackagingCancellationTests {
    final class Calls: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Packages integers, counting its calls, and throws `CancellationError`
    /// from `stop` on, as a packager checking a cancelled task would.
    static func packager(stoppingAt stop: Int, calls: Calls) -> ClosurePackager<Int> {
        ClosurePackager { viewModel, n in
            calls.add()
            if n >= stop { throw CancellationError() }
            viewModel["n"] = .int(Int64(n))
        }
    }

    /// Whether `reason` is the packager's `CancellationError`.
    static func isCancellation(_ reason: PackagingError.Reason?) -> Bool {
        guard case .packagerFailed(let error)? = reason else { return false }
        return error is CancellationError
    }

    @Test func aPackagerThrowingCancellationStopsTheList() {
        let calls = Calls()
        let result = Self.packager(stoppingAt: 3, calls: calls).package(0 ..< 100)
        #expect(result.items.map { $0["n"] } == [0, 1, 2])
        #expect(result.skipped.map(\.location) == [.item(3)])
        #expect(Self.isCancellation(result.skipped.first?.reason))
        #expect(calls.value == 4)
    }

    @Test func theStrictPolicyThrowsItAtItsElement() {
        let calls = Calls()
        let error = #expect(throws: PackagingError.self) {
            try Self.packager(stoppingAt: 3, calls: calls).package(0 ..< 100, policy: .strict)
        }
        #expect(error?.location == .item(3))
        #expect(Self.isCancellation(error?.reason))
        #expect(calls.value == 4)
    }

    @Test func jsonListsSectionsAndManagersStopToo() {
        let calls = Calls()
        let packager = ClosurePackager { (viewModel, object: JSONObject) in
            calls.add()
            if object["stop"] != nil { throw CancellationError() }
            viewModel["id"] = object["id"]
        }
        let section = Section()
        let result = section.appendItems(packaging: [["id": 1], ["stop": true], ["id": 3]], using: packager)
        #expect(section.map { $0["id"] } == [1])
        #expect(result.skipped.map(\.location) == [.item(1)])

        let manager = Manager()
        let added = manager.appendSections(packaging: [[["id": 1]], [["id": 2], ["stop": true], ["id": 4]], [["id": 5]]], using: packager)
        #expect(manager.sections.map { $0.map { $0["id"] } } == [[1], [2]])
        #expect(added.skipped.map(\.location) == [.section(1, .item(1))])
        #expect(calls.value == 2 + 3)
    }

    @Test func packagingInACancelledTaskStopsAtTheFirstCheck() async {
        let task = Task.detached { () -> [Int] in
            while !Task.isCancelled { await Task.yield() }
            let result = ClosurePackager { (viewModel, n: Int) in
                try Task.checkCancellation()
                viewModel["n"] = .int(Int64(n))
            }.package(0 ..< 1_000)
            return [result.items.count, result.skipped.count]
        }
        task.cancel()
        #expect(await task.value == [0, 1])
    }
}
