import Dispatch
import Foundation
import Testing
@testable import AGViewModel

/// Several threads mutating and reading shared ViewModels, sections and a
/// manager at once, with dependent commands executed from every thread and
/// observers attached and detached meanwhile; the final state is checked
/// against what each thread did.
///
/// Fixed sizes (threads × rounds, seeded choices), so every run does the
/// same amount of work; only the interleaving varies. CI runs this suite
/// (with every suite whose name contains "Concurrency", "Stress" or "Threading") under
/// the thread sanitizer: `swift test --sanitize=thread --filter 'Concurrency|Stress|Threading'`.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    static let threads = 4
    static let rounds = 1_500
    static let itemCount = 64
    static let coreSections = 4

    /// What one thread did, to compare with the final state.
    struct Journal: Sendable {
        /// Last price and quantity this thread wrote to each item it owns.
        var prices: [Int: Int64] = [:]
        var quantities: [Int: Int64] = [:]
        /// How often it incremented its counter key on each item.
        var counters: [Int: Int64] = [:]
        /// Items it appended to the scratch section and did not remove.
        var scratchItems: [ObjectIdentifier] = []
        var appendedToScratch = 0
        var removedFromScratch = 0
        /// Sections it appended to the manager and did not remove.
        var sections: [ObjectIdentifier] = []
        var sectionsAppended = 0
        var sectionsRemoved = 0
    }

    /// A lock-protected box for results and recorded problems.
    final class Collector: @unchecked Sendable {
        private let lock = Lock()
        private var journals: [Int: Journal] = [:]
        private var problems: [String] = []
        func record(_ journal: Journal, for thread: Int) { lock.withLock { journals[thread] = journal } }
        func fail(_ problem: String) { lock.withLock { if problems.count < 20 { problems.append(problem) } } }
        var allJournals: [Int: Journal] { lock.withLock { journals } }
        var allProblems: [String] { lock.withLock { problems } }

        /// Every short-lived observation made, to check none fires later.
        final class ProbeList: @unchecked Sendable {
            private let lock = Lock()
            private var probes: [Probe] = []
            func add(_ probe: Probe) { lock.withLock { probes.append(probe) } }
            var all: [Probe] { lock.withLock { probes } }
        }
    }

    /// What a long-lived observer of one item saw, per key.
    final class Tally: @unchecked Sendable {
        private let lock = Lock()
        private var counts: [String: Int] = [:]
        private var lastValues: [String: JSONValue] = [:]
        func record(_ key: String, _ value: JSONValue?) {
            lock.withLock {
                counts[key, default: 0] += 1
                lastValues[key] = value
            }
        }
        func count(_ key: String) -> Int { lock.withLock { counts[key] ?? 0 } }
        func last(_ key: String) -> JSONValue? { lock.withLock { lastValues[key] } }
    }

    /// A short-lived observation: how often it was called.
    final class Probe: @unchecked Sendable {
        private let lock = Lock()
        private var count = 0
        func hit() { lock.withLock { count += 1 } }
        var calls: Int { lock.withLock { count } }
    }

    /// Runs `body(t)` on `count` threads at once and waits for all.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for t in 0 ..< count {
            DispatchQueue.global().async(group: group) { body(t) }
        }
        group.wait()
    }

    /// An item: price × quantity computed by a command, and a label derived
    /// from that result by a second command (a dependency on a derived key).
    static func makeItem(_ id: Int) -> ViewModel {
        let item = ViewModel(["id": .int(Int64(id)), "price": 1, "qty": 1])
        item.setCommand(Command(dependsOn: ["price", "qty"]) { vm -> Int64? in
            (vm.int(at: "price").map(Int64.init) ?? 0) * (vm.int(at: "qty").map(Int64.init) ?? 0)
        }, forKey: "total")
        item.setCommand(Command(dependsOn: ["total"]) { vm -> String? in
            "total=\(vm.int(at: "total") ?? -1)"
        }, forKey: "label")
        return item
    }

    static func int(_ value: JSONValue?) -> Int64? {
        if case .int(let i)? = value { return i }
        return nil
    }

    @Test func sharedViewModelsSectionsAndManagerUnderLoad() throws {
        let items = (0 ..< Self.itemCount).map(Self.makeItem)
        let core = (0 ..< Self.coreSections).map { s in
            Section(items: items.filter { Int(Self.int($0["id"])!) % Self.coreSections == s },
                    header: ViewModel(["section": .int(Int64(s))]))
        }
        let scratch = Section(header: ViewModel(["section": "scratch"]))
        let manager = Manager(sections: core + [scratch])
        let collector = Collector()
        // Observers attached for the whole run: every owner-only key's
        // changes, and a callback that writes back into the item.
        let tallies = items.map { _ in Tally() }
        let watched = ["price", "qty"] + (0 ..< Self.threads).map { "c\($0)" }
        let observations = items.enumerated().map { i, item in
            item.observe(watched) { vm, key, change in
                let value: JSONValue? = if case .json(let json)? = change.newValue { json } else { nil }
                tallies[i].record(key, value)
                if key == "price", let value { vm["priceSeen"] = value }
            }
        }
        let probes = Collector.ProbeList()

        Self.onThreads(Self.threads) { t in
            var random = SplitMix64(seed: UInt64(t) &+ 0xA5A5)
            var journal = Journal()
            var ownSections: [Section] = []
            var ownScratch: [ViewModel] = []
            for r in 0 ..< Self.rounds {
                let i = Int.random(in: 0 ..< Self.itemCount, using: &random)
                let item = items[i]
                switch Int.random(in: 0 ..< 13, using: &random) {
                case 0, 1:
                    // Only the owner writes an item's inputs, so the final
                    // inputs (and the command result) are known.
                    let owned = (i / Self.threads) * Self.threads + t
                    let value = Int64.random(in: 1 ... 1000, using: &random)
                    if r % 2 == 0 {
                        items[owned]["price"] = .int(value)
                        journal.prices[owned] = value
                    } else {
                        items[owned]["qty"] = .int(value)
                        journal.quantities[owned] = value
                    }
                case 2, 3:
                    // Anyone executes the commands, racing the owners' writes.
                    do {
                        let label = try item.executeCommandIfNeeded(forKey: "label")
                        guard case .json(.string(let text))? = label, text.hasPrefix("total=") else {
                            collector.fail("label of item \(i) is \(String(describing: label))"); break
                        }
                        _ = try item.executeCommandIfNeeded(forKey: "total")
                    } catch {
                        collector.fail("command failed: \(error)")
                    }
                case 4:
                    // A counter only this thread touches: no write may be lost.
                    let key = "c\(t)"
                    item[key] = .int((Self.int(item[key]) ?? 0) + 1)
                    journal.counters[i, default: 0] += 1
                case 5:
                    item["last"] = .int(Int64(t * 1_000_000 + r))
                    item.setWeakObject(scratch, forKey: "w\(t)")
                case 6:
                    if ownScratch.isEmpty || random.next() % 3 != 0 {
                        let added = ViewModel(["owner": .int(Int64(t)), "round": .int(Int64(r))])
                        scratch.append(added)
                        ownScratch.append(added)
                        journal.appendedToScratch += 1
                    } else {
                        let victim = ownScratch.remove(at: Int(random.next() % UInt64(ownScratch.count)))
                        if scratch.remove(victim) { journal.removedFromScratch += 1 } else {
                            collector.fail("own scratch item vanished")
                        }
                    }
                case 7:
                    if ownSections.isEmpty || random.next() % 2 == 0 {
                        let section = Section(items: [ViewModel(["owner": .int(Int64(t))])],
                                              header: ViewModel(["owner": .int(Int64(t))]))
                        manager.append(section)
                        ownSections.append(section)
                        journal.sectionsAppended += 1
                    } else {
                        let victim = ownSections.removeLast()
                        let before = manager.count
                        manager.removeAll { $0 === victim }
                        if manager.index(of: victim) != nil { collector.fail("removed section still there") }
                        _ = before
                        journal.sectionsRemoved += 1
                    }
                case 8:
                    // Core items never move: their index paths are fixed.
                    let s = i % Self.coreSections
                    if i % 5 == 0 { core[s].sort { (Self.int($0["id"]) ?? 0) < (Self.int($1["id"]) ?? 0) } }
                    let path = manager.indexPath(of: item)
                    if path != IndexPath(indexes: [s, i / Self.coreSections]) {
                        collector.fail("item \(i) at \(String(describing: path))")
                    }
                    if manager.item(at: IndexPath(indexes: [s, i / Self.coreSections])) !== item {
                        collector.fail("lookup of item \(i) gave another item")
                    }
                case 9:
                    // Whole-table reads while others mutate.
                    let indexed = manager.indexedItems
                    if indexed.count < Self.itemCount { collector.fail("only \(indexed.count) items indexed") }
                    let paths = indexed.map(\.indexPath)
                    if paths != paths.sorted() { collector.fail("index paths out of order") }
                    _ = manager.itemCount
                    _ = scratch.items.count
                case 10:
                    // Snapshots of live ViewModels and sections.
                    let copy = item.copy()
                    if Self.int(copy["id"]) != Int64(i) { collector.fail("copy lost its id") }
                    if Set(copy.keys).count != copy.keys.count { collector.fail("copy has duplicate keys") }
                    _ = item.debugDescription
                case 11:
                    // Observers attached and detached while others write:
                    // a change made on this thread is delivered before the
                    // setter returns; cancelled or ownerless, never again.
                    let probe = Probe()
                    probes.add(probe)
                    let stamp = JSONValue.int(Int64(-(t * 1_000_000 + r) - 1))
                    if r % 2 == 0 {
                        let token = item.observe("last") { _, _, change in
                            if case .json(stamp)? = change.newValue { probe.hit() }
                        }
                        item["last"] = stamp
                        token.cancel()
                    } else {
                        final class Owner: Sendable {}
                        let owner = Owner()
                        item.addObserver(owner, forKey: "last") { _, _, _, change in
                            if case .json(stamp)? = change.newValue { probe.hit() }
                        }
                        item["last"] = stamp
                        withExtendedLifetime(owner) {}
                    }
                    if probe.calls != 1 { collector.fail("own change delivered \(probe.calls) times to a new observer") }
                default:
                    do {
                        let archive = try ArchiveEncoder().encode(.viewModels(core[i % Self.coreSections].items)).data
                        guard case .viewModels(let restored) = try ArchiveDecoder().decode(archive),
                              restored.count == Self.itemCount / Self.coreSections else {
                            collector.fail("archive of a core section changed size"); break
                        }
                    } catch {
                        collector.fail("archiving a live section failed: \(error)")
                    }
                }
            }
            journal.scratchItems = ownScratch.map(ObjectIdentifier.init)
            journal.sections = ownSections.map(ObjectIdentifier.init)
            collector.record(journal, for: t)
        }

        #expect(collector.allProblems.isEmpty, "\(collector.allProblems)")
        let journals = collector.allJournals
        try #require(journals.count == Self.threads)

        // No lost final values: owners' last writes and every counter.
        for (i, item) in items.enumerated() {
            let owner = journals[i % Self.threads]!
            let price = owner.prices[i] ?? 1, qty = owner.quantities[i] ?? 1
            #expect(Self.int(item["price"]) == price, "item \(i) price")
            #expect(Self.int(item["qty"]) == qty, "item \(i) qty")
            for t in 0 ..< Self.threads {
                #expect(Self.int(item["c\(t)"]) == journals[t]!.counters[i], "item \(i) counter c\(t)")
            }
            if let last = Self.int(item["last"]) {
                // Written as t * 1_000_000 + r, or by an observer probe as -(that) - 1.
                let stamp = Int(last >= 0 ? last : -last - 1)
                #expect((0 ..< Self.threads).contains(stamp / 1_000_000) && stamp % 1_000_000 < Self.rounds, "item \(i) last \(last)")
            }
            // Commands are consistent with the final inputs: a result not
            // marked stale is current, and "if needed" gives the current one.
            if !item.needsExecuteCommand(forKey: "total") {
                #expect(Self.int(item["total"]) == price * qty, "item \(i): stale total not marked for execution")
            }
            _ = try item.executeCommandIfNeeded(forKey: "label")
            #expect(item["label"] == .string("total=\(price * qty)"), "item \(i) label")
            #expect(Self.int(item["total"]) == price * qty, "item \(i) total")
        }

        // Observers: the long-lived ones saw every change of the keys only
        // one thread writes, ending with the final value; the short-lived
        // ones, all cancelled or ownerless now, see nothing more.
        let before = probes.all.map(\.calls)
        for (i, item) in items.enumerated() {
            let owner = journals[i % Self.threads]!
            if let price = owner.prices[i], price != 1 {
                #expect(tallies[i].last("price") == .int(price), "item \(i): last price delivered")
                #expect(item["priceSeen"] == .int(price), "item \(i): write-back from the observer")
            }
            if let qty = owner.quantities[i], qty != 1 { #expect(tallies[i].last("qty") == .int(qty), "item \(i): last qty delivered") }
            for t in 0 ..< Self.threads {
                let increments = Int(journals[t]!.counters[i] ?? 0)
                #expect(tallies[i].count("c\(t)") == increments, "item \(i): deliveries of c\(t)")
            }
            item["last"] = .string("after the run")
        }
        #expect(probes.all.map(\.calls) == before, "a cancelled or ownerless observer was called")
        #expect(!probes.all.isEmpty)
        withExtendedLifetime(observations) {}

        // Counts: every append and removal accounted for.
        let scratchExpected = journals.values.reduce(0) { $0 + $1.appendedToScratch - $1.removedFromScratch }
        #expect(scratch.count == scratchExpected)
        #expect(Set(scratch.items.map(ObjectIdentifier.init)) == Set(journals.values.flatMap(\.scratchItems)))
        let sectionsExpected = journals.values.reduce(0) { $0 + $1.sectionsAppended - $1.sectionsRemoved }
        #expect(manager.count == Self.coreSections + 1 + sectionsExpected)
        #expect(Set(manager.sections.dropFirst(Self.coreSections + 1).map(ObjectIdentifier.init))
                == Set(journals.values.flatMap(\.sections)))
        #expect(Array(manager.sections.prefix(Self.coreSections + 1)).elementsEqual(core + [scratch], by: ===))
        for (s, section) in core.enumerated() {
            #expect(section.map { Self.int($0["id"])! } == (0 ..< Self.itemCount / Self.coreSections).map { Int64($0 * Self.coreSections + s) })
        }
        let all = manager.allItems.map(ObjectIdentifier.init)
        #expect(Set(all).count == all.count, "an item appears twice")
        #expect(manager.itemCount == Self.itemCount + scratchExpected + sectionsExpected)
    }

    /// Two writers change a command's inputs while two other threads keep
    /// executing it "if needed": when everyone stops, the command must not
    /// claim to be current with a result computed from older inputs.
    @Test func dependentCommandResultsMatchTheFinalInputs() throws {
        let scenarios = 24, writes = 300
        for scenario in 0 ..< scenarios {
            let vm = ViewModel(["a": 1, "b": 1])
            vm.setCommand(Command(dependsOn: ["a", "b"]) { vm -> Int64? in
                // Read the inputs with a pause between them, to widen the
                // window in which a write can overtake the execution.
                let a = Int64(vm.int(at: "a") ?? 0)
                sched_yield()
                return a * Int64(vm.int(at: "b") ?? 0)
            }, forKey: "product")
            vm.setCommand(Command(dependsOn: ["product"]) { vm -> Int64? in
                Int64(vm.int(at: "product") ?? 0) + 1
            }, forKey: "next")
            let finished = Collector()
            let writersDone = GroupingConcurrencyTests.Flag()
            let writers = DispatchGroup()
            for (w, key) in ["a", "b"].enumerated() {
                DispatchQueue.global().async(group: writers) {
                    var random = SplitMix64(seed: UInt64(scenario * 2 + w))
                    for _ in 0 ..< writes {
                        vm[key] = .int(Int64.random(in: 1 ... 1_000, using: &random))
                    }
                }
            }
            let executors = DispatchGroup()
            for _ in 0 ..< 2 {
                DispatchQueue.global().async(group: executors) {
                    repeat {
                        do { _ = try vm.executeCommandIfNeeded(forKey: "next") } catch { finished.fail("\(error)") }
                    } while !writersDone.isSet
                }
            }
            writers.wait()
            writersDone.set()
            executors.wait()
            #expect(finished.allProblems.isEmpty)

            let expected = Int64(vm.int(at: "a")!) * Int64(vm.int(at: "b")!)
            if !vm.needsExecuteCommand(forKey: "product") {
                #expect(Self.int(vm["product"]) == expected, "scenario \(scenario): stale product not marked for execution")
            }
            _ = try vm.executeCommandIfNeeded(forKey: "next")
            #expect(Self.int(vm["next"]) == expected + 1, "scenario \(scenario)")
            #expect(Self.int(vm["product"]) == expected, "scenario \(scenario)")
        }
    }

    /// The interleaving the test above hunts for, forced with semaphores:
    /// an execution reads the inputs, an input changes, a second execution
    /// stores the new result, then the first one stores its older result.
    /// The command must then still need execution.
    @Test func aResultFromOverwrittenInputsIsNotTakenAsCurrent() throws {
        let gate = Gate()
        let vm = ViewModel(["a": 1, "b": 2])
        vm.setCommand(Command(dependsOn: ["a", "b"]) { vm -> Int64? in
            let a = Int64(vm.int(at: "a") ?? 0), b = Int64(vm.int(at: "b") ?? 0)
            if gate.isFirstCall() {
                gate.started.signal()
                gate.proceed.wait()  // inputs read; hold the result back
            }
            return a * b
        }, forKey: "product")
        let slow = DispatchGroup()
        DispatchQueue.global().async(group: slow) { _ = try? vm.executeCommandIfNeeded(forKey: "product") }
        gate.started.wait()
        vm["a"] = 5
        #expect(Self.int(try vm.executeCommandIfNeeded(forKey: "product").flatMap {
            if case .json(let json) = $0 { json } else { nil }
        }) == 10)
        gate.proceed.signal()
        slow.wait()
        // The slow execution stored 1 × 2 last; that must not pass for current.
        if Self.int(vm["product"]) != 10 {
            #expect(vm.needsExecuteCommand(forKey: "product"))
        }
        _ = try vm.executeCommandIfNeeded(forKey: "product")
        #expect(Self.int(vm["product"]) == 10)
    }

    /// The same interleaving one level down: while a dependent command
    /// brings its input command up to date, the input's own input changes.
    /// Whatever the dependent computes then, it must stay marked until it
    /// has run on the current input.
    @Test func aDependentOfAnInputThatChangedMidRunStaysMarked() throws {
        let gate = Gate()
        let vm = ViewModel(["a": 1, "b": 2])
        vm.setCommand(Command(dependsOn: ["a", "b"]) { vm -> Int64? in
            let a = Int64(vm.int(at: "a") ?? 0), b = Int64(vm.int(at: "b") ?? 0)
            if gate.isFirstCall() {
                gate.started.signal()
                gate.proceed.wait()
            }
            return a * b
        }, forKey: "product")
        vm.setCommand(Command(dependsOn: ["product"]) { vm -> Int64? in
            Int64(vm.int(at: "product") ?? 0) + 1
        }, forKey: "next")
        let slow = DispatchGroup()
        DispatchQueue.global().async(group: slow) { _ = try? vm.executeCommandIfNeeded(forKey: "next") }
        gate.started.wait()
        vm["a"] = 5
        gate.proceed.signal()
        slow.wait()
        if Self.int(vm["next"]) != 11 {
            #expect(vm.needsExecuteCommand(forKey: "next"), "stale next = \(String(describing: vm["next"])) passes for current")
        }
        _ = try vm.executeCommandIfNeeded(forKey: "next")
        #expect(Self.int(vm["product"]) == 10)
        #expect(Self.int(vm["next"]) == 11)
    }

}

/// Holds the first run of a command between "inputs read" and "result
/// returned", so a test can change the inputs at exactly that moment.
private final class Gate: @unchecked Sendable {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var calls = 0
    func isFirstCall() -> Bool { lock.withLock { calls += 1; return calls == 1 } }
}
