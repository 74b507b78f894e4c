import Foundation
import Observation
import Testing
@testable import AGViewModel

/// Packages a list off the main actor and hands it over: the pattern app
/// code uses, compiled here in Swift 6 mode.
@concurrent
nonisolated func loadBooks(_ data: Data) async throws -> sending Manager {
    let books = try JSONValue(parsing: data).arrayValue ?? []
    let section = Section(header: ViewModel(["title": "Books"]))
    for case .object(let book) in books {
        let item = ViewModel(book)
        item.setCommand(forKey: "priceText", dependsOn: ["price"]) { vm in
            "€\(vm.double(at: "price", default: 0))"
        }
        section.append(item)
    }
    return Manager(sections: [section])
}

/// A main-actor cell observing its ViewModel: the handler touches the
/// cell's state directly, without `@Sendable` or `assumeIsolated`.
@MainActor
final class IsolatedBookCell {
    var titleText = ""
    var updates = 0

    func show(_ book: ViewModel) {
        titleText = book.string(at: "title", default: "")
        book.addObserver(self, forKeys: ["title"]) { cell, book, key, change in
            cell.titleText = book.string(at: "title", default: "")
            cell.updates += 1
        }
    }
}

/// A main-actor controller owning the manager it loads in the background.
@MainActor
final class IsolatedBooksController {
    var manager = Manager()
    var reloads = 0

    func load(_ data: Data) async throws {
        manager = try await loadBooks(data)
        reloads += 1
    }
}

/// A background owner of ViewModels, to send them to and back.
actor BookStore {
    private var books: [ViewModel] = []

    func adopt(_ book: sending ViewModel) {
        books.append(book)
    }

    func markAllRead() -> Int {
        for book in books { book["read"] = true }
        return books.count(where: { $0["read"] == true })
    }

    /// What the store holds, as a `Sendable` copy.
    func snapshots() -> [ViewModel.Snapshot] {
        books.map(\.snapshot)
    }
}

/// A main-actor object that keeps a key observation token, as a view
/// controller does; its last reference may go on another thread.
@MainActor
final class TitleWatcher {
    nonisolated let name = "watcher"
    var title = ""
    private var observation: KeyObservation?

    init(_ book: ViewModel) {
        observation = book.observe("title") { [weak self] book, _, _ in
            self?.title = book.string(at: "title", default: "")
        }
    }
}

/// Cross-domain hand-off: values built in one isolation domain and sent
/// to another, several instances on several tasks. Run also under the
/// thread sanitizer (`--filter Concurrency`).
@Suite("Isolation hand-off concurrency", .timeLimit(.minutes(1)))
struct IsolationConcurrencyTests {
    static let booksJSON = Data(#"[{"title": "Dune", "price": 9.5}, {"title": "Emma", "price": 4}]"#.utf8)

    @Test @MainActor func packagedOffTheMainActorAndSentToAController() async throws {
        let controller = IsolatedBooksController()
        try await controller.load(Self.booksJSON)
        #expect(controller.reloads == 1)
        let manager = controller.manager
        #expect(manager.itemCount == 2)
        let dune = try #require(manager[0].first)
        #expect(try dune.executeCommandIfNeeded(forKey: "priceText")?.json == .string("€9.5"))

        // Mutate and observe on the receiving actor.
        let cell = IsolatedBookCell()
        cell.show(dune)
        #expect(cell.titleText == "Dune")
        dune["title"] = "Dune Messiah"
        dune["price"] = 11
        #expect(cell.titleText == "Dune Messiah")
        #expect(cell.updates == 1)
        #expect(dune.needsExecuteCommand(forKey: "priceText"))
        #expect(manager.indexPath(of: dune) == IndexPath(item: 0, section: 0))
    }

    /// A token freed on another thread while the main actor writes the
    /// key it observes never touches the ViewModel there (it removed its
    /// registrations, racing with the writes).
    @Test @MainActor func observationTokensFreedOnAnotherThread() async {
        let book = ViewModel(["title": "Dune"])
        var tasks: [Task<Void, Never>] = []
        for round in 0..<100 {
            let watcher = TitleWatcher(book)
            book["title"] = .string("Dune \(round)")
            #expect(watcher.title == "Dune \(round)")
            tasks.append(Task.detached {
                try? await Task.sleep(for: .microseconds(200))
                _ = watcher.name   // the last reference, dropped on this thread
            })
            for i in 0..<300 { book["title"] = .string("Dune \(round).\(i)") }
            await Task.yield()
        }
        for task in tasks { await task.value }
        book["title"] = "Last"
        #expect(book.observerCount(forKey: "title") == 0)
        #expect(book.observationCenter?.observers["title"] == nil, "the orphaned registrations were dropped")
    }

    /// Change streams read on other threads and cancelled there while the
    /// main actor writes their key: the consumer's end only marks the
    /// registrations, which the main actor drops.
    @Test @MainActor func changeStreamsCancelledOnAnotherThread() async {
        let book = ViewModel(["title": "Dune"])
        var consumers: [Task<Void, Never>] = []
        for round in 0..<100 {
            let stream = book.changes(for: "title")
            let consumer = Task.detached { for await _ in stream {} }
            consumers.append(consumer)
            Task.detached {
                try? await Task.sleep(for: .microseconds(200))
                consumer.cancel()
            }
            for i in 0..<300 { book["title"] = .string("Dune \(round).\(i)") }
            await Task.yield()
        }
        for consumer in consumers { await consumer.value }
        #expect(book.observerCount(forKey: "title") == 0)
        book["title"] = "Last"
        #expect(book.observationCenter?.observers["title"] == nil, "the abandoned registrations were dropped")
    }

    @Test @MainActor func aViewModelSentToAnActorAndItsSnapshotBack() async {
        let store = BookStore()
        for title in ["A", "B", "C"] {
            let book = ViewModel(["title": .string(title)])
            await store.adopt(book)          // `book` is not used here again
        }
        #expect(await store.markAllRead() == 3)
        let copies = await store.snapshots()
        #expect(copies.map { $0["title"] } == ["A", "B", "C"])
        #expect(copies.allSatisfy { $0["read"] == true })
        // A snapshot becomes a ViewModel of the main actor again.
        let again = copies[0].makeViewModel()
        again["title"] = "A2"
        #expect(copies[0]["title"] == "A")
    }

    @Test func severalInstancesOnSeveralTasks() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, Int, [String]).self) { group in
            for task in 0..<8 {
                group.addTask {
                    let manager = try await loadBooks(Self.booksJSON)
                    let section = manager[0]
                    var log: [String] = []
                    let observation = section[0].observe("title") { _, key, change in
                        log.append("\(key): \(change.newValue?.json.flatMap { try? $0.jsonString() } ?? "-")")
                    }
                    for round in 0..<200 {
                        let item = ViewModel(["title": .string("t\(task)-\(round)"), "price": .int(Int64(round))])
                        section.append(item)
                        if round % 3 == 0 { section.remove(at: 1) }
                        section[0]["title"] = .string("first \(round % 2)")
                    }
                    observation.cancel()
                    // Every index path the manager reports is right.
                    for (indexPath, item) in manager.indexedItems where manager.indexPath(of: item) != indexPath {
                        Issue.record("stale index path for \(indexPath)")
                    }
                    return (task, section.count, log)
                }
            }
            var all: [(Int, Int, [String])] = []
            for try await result in group { all.append(result) }
            return all.sorted { $0.0 < $1.0 }
        }
        #expect(results.count == 8)
        for (_, count, log) in results {
            #expect(count == 2 + 200 - 67)
            #expect(log.count == 200, "one change per real change, in order")
            #expect(log.first == #"title: "first 0""#)
            #expect(log.last == #"title: "first 1""#)
        }
    }

    @Test func firstReadsOnSeveralTasksAtOnce() async {
        // Every task's ViewModels read common keys (their key paths from
        // each thread's cache) and keys of their own, tracked and untracked.
        let counts = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let fired = Recorder<Int>()
                    for round in 0..<300 {
                        let item = ViewModel(["id": .int(Int64(round)), "title": "t", "own\(task)-\(round % 50)": 1])
                        _ = item["id"]
                        withObservationTracking {
                            _ = item["title"]
                            _ = item["own\(task)-\(round % 50)"]
                        } onChange: {
                            fired.append(round)
                        }
                        item["id"] = 0
                        item["title"] = "changed"
                    }
                    return fired.count
                }
            }
            var all: [Int] = []
            for await count in group { all.append(count) }
            return all
        }
        #expect(counts == Array(repeating: 300, count: 8))
    }

    @Test func aManagerDiffedAndExportedOnAnotherTask() async throws {
        let before = try await loadBooks(Self.booksJSON)
        let after = try await loadBooks(Self.booksJSON)
        after[0].remove(at: 0)
        after[0].append(ViewModel(["title": "Zola", "price": 1]))
        let (old, new) = (before.snapshot, after.snapshot)
        let (changes, json) = await Task.detached {
            let oldManager = old.makeManager(), newManager = new.makeManager()
            let changes = ChangeSet(from: oldManager, to: newManager, identity: .key("title"))
            return (changes, try? newManager.exportJSON(options: .everything).jsonString())
        }.value
        #expect(changes.deletedItems == [IndexPath(item: 0, section: 0)])
        #expect(changes.insertedItems == [IndexPath(item: 1, section: 0)])
        #expect(json?.contains("Zola") == true)
    }
}
