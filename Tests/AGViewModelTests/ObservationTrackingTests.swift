import Foundation
#if os(Linux)
@_spi(SwiftUI) import Observation  // the `didSet` form of tracking, as SwiftUI uses it
#else
import Observation
#endif
import Testing
@testable import AGViewModel

/// Swift Observation: `withObservationTracking` is told about the keys it
/// read, and only those.
@Suite("Swift Observation tracking", .timeLimit(.minutes(1)))
struct ObservationTrackingTests {
    /// Tracks `read` and counts `onChange` calls.
    private func track(_ read: () -> Void) -> Recorder<Bool> {
        let fired = Recorder<Bool>()
        withObservationTracking(read) { fired.append(true) }
        return fired
    }

    @Test func firesWhenTheReadKeyChanges() {
        let vm = ViewModel(["title": "A", "subtitle": "B"])
        let fired = track { _ = vm["title"] }
        vm["subtitle"] = "changed"
        #expect(fired.count == 0, "another key changing must not fire")
        vm["title"] = "A"
        #expect(fired.count == 0, "an equal value is not a change")
        vm["title"] = "changed"
        #expect(fired.count == 1)
        vm["title"] = "again"
        #expect(fired.count == 1, "onChange is one-shot")
    }

    /// A snapshot or an export made under tracking hears of any change to
    /// the ViewModel's keys: a changed value, an added or removed key.
    @Test func snapshotsAndExportsAreTracked() {
        for change in [{ (vm: ViewModel) in vm["title"] = "B" },
                       { vm in vm["pages"] = 3 },
                       { vm in vm["cover"] = nil }] {
            let vm = ViewModel(["title": "A", "cover": "c.png"])
            let snapshot = track { _ = vm.snapshot }
            let export = track { _ = vm.exportJSON(options: .everything) }
            change(vm)
            #expect(snapshot.count == 1 && export.count == 1)
        }
        let vm = ViewModel(["title": "A"])
        let snapshot = track { _ = vm.snapshot }
        vm["title"] = "A"
        #expect(snapshot.count == 0, "an equal value is not a change")
    }

    /// A list showing a manager's sections hears "load more" (items
    /// appended to a section) and new sections, not unrelated changes.
    @Test func sectionsAndManagersAreObservable() {
        let section = Section(items: [ViewModel(["title": "A"])], header: ViewModel(["title": "Books"]))
        let manager = Manager(sections: [section])

        let list = track { _ = manager[0].map { $0["title"] } }
        section.header = ViewModel(["title": "More books"])
        #expect(list.count == 0, "the header was not read")
        section.append(contentsOf: [ViewModel(["title": "B"]), ViewModel(["title": "C"])])
        #expect(list.count == 1)

        let counts = track { _ = manager.count; _ = manager[0].count }
        manager.append(Section())
        #expect(counts.count == 1)
        let itemCount = track { _ = manager[0].count }
        manager[0].removeLast()
        #expect(itemCount.count == 1)

        let header = track { _ = section.header?["title"] }
        section.append(ViewModel(["title": "D"]))
        #expect(header.count == 0, "the items were not read")
        section.header = nil
        #expect(header.count == 1)

        let common = track { _ = manager.common }
        manager.common = ViewModel(["style": "plain"])
        #expect(common.count == 1)
        // indexPath(of:) is not tracked, whether or not its table is cached.
        let first = manager[0][0]
        for _ in 0..<2 {
            let lookup = track { _ = manager.indexPath(of: first) }
            manager[0].append(ViewModel(["title": "E"]))
            #expect(lookup.count == 0)
        }
        let byPath = track { _ = manager[IndexPath(item: 0, section: 0)]["title"] }
        manager[0].replaceItem(at: 0, with: ViewModel(["title": "Z"]))
        #expect(byPath.count == 1)
    }

    /// An empty "load more" (or "load newer") page changes nothing: a list
    /// reading the items or the sections is not re-rendered.
    @Test func appendingOrMergingNothingIsNoChange() {
        let section = Section(items: [ViewModel(["id": 1])])
        let manager = Manager(sections: [section])
        let items = track { _ = section.items }
        section.merge(Section())
        section.append(contentsOf: [])
        section.appendItems(packaging: [JSONValue](), using: MemberCopyingPackager())
        section.insert(contentsOf: [], at: 0)
        section.insertItems(packaging: [JSONValue](), at: 1, using: MemberCopyingPackager())
        #expect(items.count == 0)
        let sections = track { _ = manager.sections }
        manager.merge(Manager())
        manager.append(contentsOf: [])
        manager.insert(contentsOf: [], at: 1)
        #expect(sections.count == 0)
        section.append(ViewModel(["id": 2]))
        manager.append(Section())
        #expect(items.count == 1)
        #expect(sections.count == 1)

        // Emptying what is empty is no change either.
        let empty = Section(), emptyManager = Manager()
        let emptyItems = track { _ = empty.items }
        let noSections = track { _ = emptyManager.sections }
        empty.removeAll()
        emptyManager.removeAll()
        #expect(emptyItems.count == 0)
        #expect(noSections.count == 0)
        section.removeAll()
        #expect(section.isEmpty)
    }

    /// Removing nothing, or leaving every item or section where it is, is
    /// no change either; a real reorder still is.
    @Test func reorderingInPlaceOrRemovingNothingIsNoChange() {
        let (a, b) = (ViewModel(["id": 1]), ViewModel(["id": 2]))
        let section = Section(items: [a, b]), empty = Section()
        let manager = Manager(sections: [section, Section()]), noSections = Manager()
        let items = track { _ = section.items; _ = empty.items }
        let sections = track { _ = manager.sections; _ = noSections.sections }
        #expect(empty.popLast() == nil && noSections.popLast() == nil)
        section.swapAt(1, 1)
        section.move(from: 0, to: 0)
        section.sort { $0.int(at: "id")! < $1.int(at: "id")! }
        section.removeAll { _ in false }
        manager.swapAt(0, 0)
        manager.move(from: 1, to: 1)
        manager.removeAll { _ in false }
        manager.updateSections { $0 }
        #expect(items.count == 0)
        #expect(sections.count == 0)
        section.swapAt(0, 1)
        manager.move(from: 1, to: 0)
        #expect(items.count == 1 && section.items.elementsEqual([b, a], by: ===))
        #expect(sections.count == 1 && manager[1] === section)
    }

    /// Code that reads many absent keys (`contains` on ids) keeps a key
    /// path for a bounded number of them, and a tracking scope that read
    /// one past the bound still hears when it is added.
    @Test func readsOfManyAbsentKeysKeepBoundedStateAndStillTrack() {
        let vm = ViewModel(["selected-0": true])
        for i in 1 ... 10_000 { _ = vm.contains("selected-\(i)") }
        #expect((vm.observationCenter?.absentKeyPaths.count ?? 0) <= ViewModel.absentKeyPathLimit)
        let late = track { _ = vm.contains("selected-9000") }
        let early = track { _ = vm.contains("selected-1") }
        vm["selected-9000"] = true
        #expect(late.count == 1)
        vm["selected-1"] = true
        #expect(early.count == 1)
    }

    @Test func onChangeRunsBeforeTheValueIsStored() {
        let vm = ViewModel(["title": "A"])
        let seen = Recorder<String>()
        // `onChange` must be `@Sendable`, but it runs synchronously inside
        // the write below, on this test's thread.
        nonisolated(unsafe) let observed = vm
        withObservationTracking { _ = vm["title"] } onChange: { seen.append(render(observed[value: "title"])) }
        vm["title"] = "B"
        #expect(seen.items == [#""A""#], "willSet semantics, as for @Observable properties")
    }

    /// An `onChange` that writes the key itself, before the write that
    /// fired it stores: the write after it changes nothing, and is no
    /// change for observers or commands.
    @Test func anOnChangeThatWritesTheKeyLeavesTheOuterWriteNoChange() {
        for (newValue, expected) in [(JSONValue("B") as JSONValue?, #""A" -> "B""#), (nil, #""A" -> nil"#)] {
            let vm = ViewModel(["title": "A"])
            let seen = Recorder<String>()
            let token = vm.observe("title") { _, _, change in
                seen.append("\(render(change.oldValue)) -> \(render(change.newValue))")
            }
            nonisolated(unsafe) var runs = 0
            vm.setCommand(forKey: "upper", dependsOn: ["title"], execution: .automatic) { vm in
                runs += 1
                return vm.string(at: "title", default: "").uppercased()
            }
            runs = 0
            nonisolated(unsafe) let observed = vm
            withObservationTracking { _ = vm["title"] } onChange: { observed["title"] = newValue }
            vm["title"] = newValue
            #expect(seen.items == [expected])
            #expect(runs == 1, "\(expected)")
            withExtendedLifetime(token) {}
        }
    }

    @Test func everyReadPathAndRemovalIsTracked() {
        let vm = ViewModel(["a": 1])
        let payload = track { _ = vm[value: "p"] }
        let removal = track { _ = vm["a"] }
        let absent = track { _ = vm["later"] }
        vm[value: "p"] = .payload(7)
        vm["a"] = nil
        vm["later"] = 1
        #expect(payload.count == 1)
        #expect(removal.count == 1)
        #expect(absent.count == 1)
    }

    @Test func tracksSeveralKeysAndViewModels() {
        let first = ViewModel(["x": 1]), second = ViewModel(["y": 1])
        let fired = track {
            _ = first["x"]
            _ = second["y"]
        }
        first["y"] = 5
        second["x"] = 5
        #expect(fired.count == 0)
        second["y"] = 2
        #expect(fired.count == 1)
    }

    @Test func worksAlongsideKeyObserversAndBatches() {
        let vm = ViewModel(["k": 1])
        let log = Recorder<String>()
        let observation = vm.observe("k") { _, _, change in log.append(describe(change)) }
        let fired = track { _ = vm["k"] }
        vm.performBatchUpdates {
            vm["k"] = 2
            #expect(fired.count == 1, "Observation is told at each set, even in a batch")
            vm["k"] = 3
        }
        #expect(log.items == ["k: 1 -> 3"])
        withExtendedLifetime(observation) {}
    }

    @Test func keyPathsAreBuiltOncePerKeyAndCarryTheKey() throws {
        let vm = ViewModel(["k": 1, "j": 2])
        #expect(vm.observationCenter == nil, "an unread ViewModel pays nothing for observation")
        _ = vm["k"]
        let first = try #require(vm.storage["k"]?.keyPath)
        _ = track { _ = vm["k"] }
        #expect(vm.storage["k"]?.keyPath === first, "cached per key")
        #expect(vm.storage["j"]?.keyPath == nil, "only read keys get one")
        vm["k"] = 5
        #expect(vm.storage["k"]?.keyPath === first, "kept while the key is stored")
        // Two keys are two properties by the key path's own equality.
        #expect(first == ViewModel.observedKeyPath("k"))
        #expect(first != ViewModel.observedKeyPath("j"))
    }

    @Test func everyViewModelSharesOneKeyPathPerKey() throws {
        // Built once for all instances (on this thread): a new ViewModel's
        // first read finds it. On a new thread, whose cache other tests
        // have not filled.
        let shared = onSmallStackThread(stackSize: 1 << 22) { () -> Bool in
            let a = ViewModel(["title": "A"]), b = ViewModel(["title": "B"])
            _ = a["title"]
            _ = b["title"]
            return a.storage["title"]?.keyPath != nil && b.storage["title"]?.keyPath === a.storage["title"]?.keyPath
        }
        #expect(shared == true)
        let a = ViewModel(["title": "A"]), b = ViewModel(["title": "B"])
        // A tracked read of one instance still fires for that instance only.
        let fired = track { _ = b["title"] }
        a["title"] = "A2"
        #expect(fired.count == 0)
        b["title"] = "B2"
        #expect(fired.count == 1)
    }

    @Test func specPackagedViewModelsCarryTheirKeyPathsFromTheStart() throws {
        let spec = try PackagingSpec(json: ["fields": [
            ["key": "title", "path": "t", "type": "string"], ["key": "likes", "path": "n", "type": "int"],
        ]])
        let items = SpecPackager(spec: spec).package([["t": "A", "n": 1], ["t": "B"]]).items
        #expect(items.count == 2)
        for item in items {
            // Stored with a key path for the key, but not yet read.
            #expect(item.storage["title"]?.keyPath == ViewModel.observedKeyPath("title"))
            #expect(item.storage["title"]?.isReadSinceChange == false)
            #expect(item.observationCenter == nil)
        }
        // The shared one, on a new thread, whose cache other tests have not
        // filled.
        let shared = onSmallStackThread(stackSize: 1 << 22) { () -> Bool in
            let items = SpecPackager(spec: spec).package([["t": "A", "n": 1], ["t": "B"]]).items
            return items.allSatisfy { $0.storage["title"]?.keyPath === ViewModel.observedKeyPath("title") }
        }
        #expect(shared == true)
        let fired = track { _ = items[1]["title"] }
        items[1]["likes"] = 3
        items[0]["title"] = "changed elsewhere"
        #expect(fired.count == 0)
        items[1]["title"] = "B2"
        #expect(fired.count == 1)
    }

    @Test func theKeyPathCacheStopsGrowingAtItsCapacity() {
        let cache = ObservedKeyPaths(capacity: 2)
        let first = cache.keyPath(forKey: "a")
        _ = cache.keyPath(forKey: "b")
        let overflow = cache.keyPath(forKey: "c")
        #expect(cache.count == 2)
        #expect(cache.keyPath(forKey: "a") === first)
        // Past the capacity a key path is built each time: equal, not cached.
        #expect(cache.keyPath(forKey: "c") == overflow)
        #expect(cache.keyPath(forKey: "c") !== overflow)
        #expect(overflow == ViewModel.observedKeyPath("c"))
        // A key read while absent is not cached.
        let probe = ObservedKeyPaths(capacity: 10)
        let absent = probe.keyPath(forKey: "id_1", caching: false)
        #expect(probe.count == 0)
        #expect(absent == probe.keyPath(forKey: "id_1"))
        #expect(probe.count == 1)
    }

    @Test func readingOneKeyAndChangingAnotherNeverFires() {
        let vm = ViewModel(["a": 1, "b": 1])
        let fired = track { _ = vm["a"] }
        for value in 2...50 { vm["b"] = .int(Int64(value)) }
        vm["c"] = 1
        vm["b"] = nil
        #expect(fired.count == 0)
        vm["a"] = 2
        vm["a"] = 3
        #expect(fired.count == 1)
    }

    /// Removing everything inside a tracked scope (a SwiftUI body, an
    /// `onChange`) writes; it does not subscribe the scope to the key set.
    @Test func removeAllIsNoReadOfTheKeys() {
        for vm in [ViewModel(), ViewModel(["a": 1, "b": 2])] {
            let fired = track { vm.removeAll() }
            vm["c"] = 1
            vm["c"] = nil
            #expect(fired.count == 0)
        }
    }

    @Test func nestedTrackingMergesIntoTheOuterOne() {
        let vm = ViewModel(["outer": 1, "inner": 1])
        let innerFired = Recorder<Bool>()
        let outer = track {
            _ = vm["outer"]
            withObservationTracking { _ = vm["inner"] } onChange: { innerFired.append(true) }
        }
        vm["inner"] = 2
        #expect(innerFired.count == 1)
        #expect(outer.count == 1)
    }

    @Test func observationsSequenceFollowsAKey() async {
        let vm = ViewModel(["title": "A", "other": 0])
        nonisolated(unsafe) let observed = vm   // read only on this task
        var titles = Observations { observed["title"] }.makeAsyncIterator()
        #expect(await titles.next() == "A")
        vm["other"] = 1
        vm["title"] = "B"
        #expect(await titles.next() == "B")
    }

    #if os(Linux)
    /// Tracking that asks to hear after the change (SwiftUI does) hears it
    /// once the new value is stored, for a changed, added or removed key.
    @Test func didSetTrackingHearsTheChangeOnceStored() {
        for (key, expected) in [("title", #""B""#), ("pages", "3"), ("cover", "nil")] {
            let vm = ViewModel(["title": "A", "cover": "c.png"])
            nonisolated(unsafe) let observed = vm   // didSet runs inside the write, on this thread
            let seen = Recorder<String>()
            withObservationTracking({ _ = vm[key] }, didSet: { _ in seen.append(render(observed[value: key])) })
            switch key {
            case "title": vm["title"] = "B"
            case "pages": vm["pages"] = 3
            default: vm["cover"] = nil
            }
            #expect(seen.items == [expected])
        }
    }
    #endif

    @Test func aChangeIsReportedOnceAfterEachRead() {
        let vm = ViewModel(["title": "A"])
        let first = track { _ = vm["title"] }
        vm["title"] = "B"
        vm["title"] = "C"
        #expect(first.count == 1)
        #expect(vm.storage["title"]?.isReadSinceChange == false, "writes with no read in between skip Observation")
        let second = track { _ = vm["title"] }
        #expect(vm.storage["title"]?.isReadSinceChange == true)
        vm["title"] = "D"
        #expect(second.count == 1, "a new tracking reads the key again and hears the next change")
        #expect(first.count == 1)
    }

    @Test func everyTrackingThatReadTheKeyHearsTheChange() {
        let vm = ViewModel(["title": "A"])
        let one = track { _ = vm["title"] }
        let two = track { _ = vm["title"] }
        vm["title"] = "B"
        #expect(one.count == 1)
        #expect(two.count == 1)
    }

    @Test func trackingAgainInsideOnChangeHearsTheNextChange() {
        let vm = ViewModel(["title": "A"])
        let again = Recorder<Bool>()
        nonisolated(unsafe) let observed = vm   // onChange runs inside the write, on this thread
        withObservationTracking { _ = vm["title"] } onChange: {
            withObservationTracking { _ = observed["title"] } onChange: { again.append(true) }
        }
        vm["title"] = "B"
        #expect(again.count == 0)
        vm["title"] = "C"
        #expect(again.count == 1, "the read made while the change was reported re-arms the key")
    }

    /// The same when the change adds the key, or removes it: the read
    /// made inside `onChange` moves with the key between the store and
    /// the absent keys.
    @Test func trackingAgainInsideOnChangeHearsTheNextChangeWhenTheKeyComesAndGoes() {
        let vm = ViewModel(["a": 1])
        let fired = Recorder<Int>()
        nonisolated(unsafe) let observed = vm
        @Sendable func track(_ n: Int) {
            withObservationTracking { _ = observed["x"] } onChange: {
                fired.append(n)
                track(n + 1)
            }
        }
        track(1)
        vm["x"] = 1        // added
        vm["x"] = 2
        vm["x"] = nil      // removed
        vm["x"] = 3        // added again
        #expect(fired.count == 4)
    }

    /// The reads of the set of keys: `keys`, `count` and a whole-store read.
    private static let keySetReads: [(String, @Sendable (ViewModel) -> Void)] = [
        ("keys", { _ = $0.keys }),
        ("count", { _ = $0.count }),
        ("jsonSnapshot", { _ = $0.jsonSnapshot() }),
    ]

    /// `keys`, `count` and whole-store reads hear keys come and go, and
    /// not changes of a value.
    @Test func readingTheKeysHearsKeysAddedAndRemoved() {
        for (name, read) in Self.keySetReads {
            let vm = ViewModel(["title": "A"])
            #expect(track { read(vm) }.count == 0)
            let added = track { read(vm) }
            vm["title"] = "B"
            vm["title"] = "B"
            let changedValueFired = added.count
            vm["new"] = 1
            #expect(added.count == 1, "\(name): adding a key")
            let removed = track { read(vm) }
            vm["new"] = nil
            #expect(removed.count == 1, "\(name): removing a key")
            let untouched = track { read(vm) }
            vm["missing"] = nil      // removing an absent key changes nothing
            #expect(untouched.count == 0, "\(name)")
            if name != "jsonSnapshot" {  // a snapshot reads the values too
                #expect(changedValueFired == 0, "\(name): changing a value is not a change of the keys")
            }
        }
    }

    /// A `.prior` observer that starts tracking the key it is told about:
    /// the scope read the old value, so it hears the change being made.
    @Test func aScopeStartedByAPriorObserverHearsTheChange() {
        for (start, next) in [(ViewModelValue?.some(.json(1)), ViewModelValue?.some(.json(2))),
                              (nil, .json(1)), (.json(1), nil)] {
            let vm = ViewModel()
            vm[value: "x"] = start
            let fired = Recorder<Int>()
            let token = vm.observe("x", options: [.prior, .old, .new]) { vm, _, change in
                guard change.isPrior else { return }
                withObservationTracking { _ = vm["x"] } onChange: { fired.append(1) }
            }
            vm[value: "x"] = next
            #expect(fired.count == 1, "\(render(start)) -> \(render(next))")
            withExtendedLifetime(token) {}
        }
    }

    /// A scope that reads the key set and, told a key comes or goes,
    /// tracks that key: it hears the key's next change.
    @Test func aScopeStartedWhenAKeyComesOrGoesHearsThatKeyChange() {
        for (name, read) in Self.keySetReads {
            for (initial, first, second) in [(nil, 1, 2), (1, nil, 5)] as [(Int?, Int?, Int?)] {
                let vm = ViewModel(["a": 1])
                if let initial { vm["x"] = .int(Int64(initial)) }
                let log = Recorder<String>()
                nonisolated(unsafe) let observed = vm
                withObservationTracking { read(vm) } onChange: {
                    log.append("keys")
                    withObservationTracking { _ = observed["x"] } onChange: { log.append("x") }
                }
                vm["x"] = first.map { .int(Int64($0)) }
                vm["x"] = second.map { .int(Int64($0)) }
                #expect(log.items == ["keys", "x"], "\(name): \(String(describing: initial)) -> \(String(describing: first))")
            }
        }
    }

    @Test func writesAfterAnUntrackedReadStillReachALaterTracking() {
        let vm = ViewModel(["count": 1])
        _ = vm["count"]
        vm["count"] = 2
        let fired = track { _ = vm["count"] }
        vm["count"] = 3
        #expect(fired.count == 1)
        #expect(vm["count"] == 3)
    }
}
