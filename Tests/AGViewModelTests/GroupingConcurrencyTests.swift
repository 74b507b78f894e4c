import Dispatch
import Foundation
import Testing
@testable import AGViewModel

/// Sections and managers mutated and read from several threads at once.
/// Run under `swift test --sanitize=thread --filter GroupingConcurrency`:
/// the thread sanitizer must report nothing.
@Suite("Grouping concurrency")
struct GroupingConcurrencyTests {
    /// A flag other threads can poll.
    final class Flag: @unchecked Sendable {
        private let lock = Lock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// Runs `workers` closures on their own threads plus `chaos` looping
    /// until they are done.
    private func run(workers: Int, _ work: @escaping @Sendable (Int) -> Void, chaos: @escaping @Sendable () -> Void) {
        let done = Flag()
        let group = DispatchGroup()
        for w in 0..<workers {
            DispatchQueue.global().async(group: group) { work(w) }
        }
        let chaosGroup = DispatchGroup()
        DispatchQueue.global().async(group: chaosGroup) {
            repeat { chaos() } while !done.isSet
        }
        group.wait()
        done.set()
        chaosGroup.wait()
    }

    @Test func concurrentMutationAndLookupStayConsistent() {
        let workers = 4, perWorker = 300
        let own = (0..<workers).map { w in Section(header: ViewModel(["id": .int(Int64(w))])) }
        let shared = Section(header: ViewModel(["id": "shared"]))
        let manager = Manager(sections: own + [shared])
        let wrongPaths = Flag()

        run(workers: workers, { w in
            let section = own[w]
            for j in 0..<perWorker {
                let item = ViewModel(["w": .int(Int64(w)), "j": .int(Int64(j))])
                section.append(item)
                shared.append(ViewModel(["w": .int(Int64(w)), "j": .int(Int64(j))]))
                // Only this thread touches `section`'s items, so the item
                // index is known even while sections are swapped around.
                if manager.indexPath(of: item)?.item != j { wrongPaths.set() }
                if j % 10 == 0 {
                    // Atomic predicate removal racing with the others' appends.
                    shared.removeAll { $0["w"] == .int(Int64(w)) && (GroupingFixtures.int($0["j"]) ?? 0) % 2 == 1 }
                }
            }
            shared.removeAll { $0["w"] == .int(Int64(w)) && (GroupingFixtures.int($0["j"]) ?? 0) % 2 == 1 }
        }, chaos: {
            manager.swapAt(0, manager.count - 1)
            manager.move(from: 1, to: 2)
            var seen = 0
            for section in manager { for _ in section { seen += 1 } }
            _ = manager.indexedItems
            _ = ChangeSet(from: manager, to: Manager(sections: manager.sections.reversed()))
            _ = seen
        })

        #expect(!wrongPaths.isSet)
        for (w, section) in own.enumerated() {
            #expect(section.map { GroupingFixtures.int($0["j"]) } == (0..<perWorker).map { Int64($0) }, "worker \(w)")
        }
        #expect(shared.count == workers * perWorker / 2)
        #expect(shared.allSatisfy { (GroupingFixtures.int($0["j"]) ?? 1) % 2 == 0 })
        #expect(manager.count == workers + 1)
        // The lookup table agrees with a full scan after the dust settles.
        var agree = true
        manager.forEachItem { path, item in if manager.indexPath(of: item) != path { agree = false } }
        #expect(agree)
    }

    @Test func concurrentManagerEditsKeepEverySection() {
        let manager = Manager()
        let workers = 4, perWorker = 200
        run(workers: workers, { w in
            for j in 0..<perWorker {
                let section = Section(items: [ViewModel(["w": .int(Int64(w)), "j": .int(Int64(j))])])
                if j % 2 == 0 { manager.append(section) } else { manager.insert(section, at: 0) }
                if j % 25 == 0 {
                    manager.updateSections { $0.sorted { ($0.first?["j"].flatMap(GroupingFixtures.int) ?? 0) < ($1.first?["j"].flatMap(GroupingFixtures.int) ?? 0) } }
                }
            }
        }, chaos: {
            if let last = manager.last { _ = manager.indexPath(of: last.first ?? ViewModel()) }
            _ = manager.headers
            manager.removeAll { $0.isEmpty }  // never true: exercises the optimistic retry
        })
        #expect(manager.count == workers * perWorker)
        let tags = Set(manager.allItems.map { "\($0["w"] ?? .null)-\($0["j"] ?? .null)" })
        #expect(tags.count == workers * perWorker)
    }
}
