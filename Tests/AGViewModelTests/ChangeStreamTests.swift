import Testing
@testable import AGViewModel

@Suite("Change streams", .timeLimit(.minutes(1)))
struct ChangeStreamTests {
    @Test func yieldsChangesInOrderAndEndsWhenTheViewModelIsDeallocated() async {
        var vm: ViewModel? = ViewModel(["a": 0])
        let stream = vm!.changes(for: ["a", "b"])
        vm!["a"] = 1
        vm!["ignored"] = 1
        vm!["b"] = 1
        vm!["a"] = 1                                   // equal: not a change
        vm!.performBatchUpdates {
            vm!["a"] = 2
            vm!["a"] = 3
        }
        weak let weakVM = vm
        vm = nil
        #expect(weakVM == nil, "the stream must not keep the ViewModel alive")
        var seen: [String] = []
        for await change in stream { seen.append(describe(change)) }   // must end
        #expect(seen == ["a: 0 -> 1", "b: nil -> 1", "a: 1 -> 3"])
    }

    @Test func endsWhenTheConsumingTaskIsCancelled() async {
        let vm = ViewModel()
        let stream = vm.changes(for: "k")
        let (received, receivedContinuation) = AsyncStream.makeStream(of: String.self)
        let consumer = Task {
            var count = 0
            for await change in stream {
                count += 1
                receivedContinuation.yield(describe(change))
            }
            return count
        }
        vm["k"] = 1
        var iterator = received.makeAsyncIterator()
        #expect(await iterator.next() == "k: nil -> 1")
        #expect(vm.observerCount(forKey: "k") == 1)
        consumer.cancel()
        #expect(await consumer.value == 1)
        vm["k"] = 2                                    // nobody listening: harmless
        #expect(vm.observerCount(forKey: "k") == 0, "cancellation removes the observation at the next change")
    }

    /// A screen that opens a stream each time it appears, over a key that
    /// rarely changes: the streams its earlier visits left are dropped when
    /// the next one registers, not kept until the key changes.
    @Test func streamsWhoseConsumersStoppedDoNotPileUp() async {
        let vm = ViewModel(["title": "a"])
        for _ in 0..<50 {
            let stream = vm.changes(for: ["title", "likes"])
            let consumer = Task { for await _ in stream {} }
            consumer.cancel()
            await consumer.value
        }
        #expect(vm.observerCount(forKey: "title") == 0)
        let registered = { vm.observationCenter?.observers["title"]?.count ?? 0 }
        #expect(registered() <= 1, "one stream's registration may wait for the next change")
        #expect((vm.observationCenter?.observers["likes"]?.count ?? 0) <= 1)
        let live = vm.changes(for: "title")
        #expect(registered() == 1 && vm.observerCount(forKey: "title") == 1)
        vm["title"] = "b"
        var iterator = live.makeAsyncIterator()
        #expect(await iterator.next()?.newValue?.json == "b")

        // Typed streams too; and a cancelled token takes them with it.
        for _ in 0..<20 {
            let typed = vm.changes(for: ViewModel.Key<String>("subtitle"))
            let consumer = Task { for await _ in typed {} }
            consumer.cancel()
            await consumer.value
        }
        #expect(vm.observerCount(forKey: "subtitle") == 0)
        #expect((vm.observationCenter?.observers["subtitle"]?.count ?? 0) <= 1)
        vm.observe("subtitle") { _, _, _ in }.cancel()
        #expect(vm.observationCenter?.observers["subtitle"] == nil)
    }

    @Test func droppingTheStreamRemovesItsObservation() {
        let vm = ViewModel()
        do {
            let stream = vm.changes(for: "k")
            #expect(vm.observerCount(forKey: "k") == 1)
            _ = stream
        }
        vm["k"] = 1
        #expect(vm.observerCount(forKey: "k") == 0)
    }

    @Test func removingTheObserversFinishesTheStream() async {
        let vm = ViewModel()
        let stream = vm.changes(for: "k")
        vm["k"] = 1
        vm.removeObservers(forKey: "k")
        vm["k"] = 2
        var seen: [String] = []
        for await change in stream { seen.append(describe(change)) }
        #expect(seen == ["k: nil -> 1"])
    }

    @Test func removingTheObserversOfOneOfItsKeysFinishesAStreamOfSeveral() async {
        // Removing "a" drops the stream's token, which removes "b" too,
        // whose removal runs inside the first: no overlapping access.
        let vm = ViewModel(["a": 1, "b": 2])
        let stream = vm.changes(for: ["a", "b"])
        vm["b"] = 3
        vm.removeObservers(forKey: "a")
        #expect(vm.observerCount(forKey: "b") == 0)
        vm["b"] = 4
        var seen: [String] = []
        for await change in stream { seen.append(describe(change)) }
        #expect(seen == ["b: 2 -> 3"])
    }

    @Test func anotherTaskReadsTheChangesAsSendableCopies() async {
        let vm = ViewModel()
        let stream = vm.changes(for: ["k", "child"])
        let consumer = Task.detached {
            var seen: [String] = []
            for await change in stream {
                seen.append(describe(change))
                if seen.count == 5 { break }
            }
            return seen
        }
        for i in 1...4 { vm["k"] = .int(Int64(i)) }
        vm[value: "child"] = .payload(ViewModel(["name": "nested"]))
        #expect(await consumer.value == [
            "k: nil -> 1", "k: 1 -> 2", "k: 2 -> 3", "k: 3 -> 4", "child: nil -> viewModel([\"name\"])",
        ])
    }

    /// A `Sendable` copy keeps the key, both values and the kind of the change.
    @Test func aSnapshotCopiesEveryPartOfAChange() {
        for kind in [KeyChange.Kind.initial, .prior, .change] {
            let copy = KeyChange.Snapshot(KeyChange(key: "k", oldValue: .json(.int(1)), newValue: .json(.int(2)), kind: kind))
            #expect(copy.key == "k" && copy.kind == kind)
            #expect(render(copy.oldValue) == "1" && render(copy.newValue) == "2")
        }
    }

    /// Once its observation is removed, a stream lets go of what it held.
    @Test func aRemovedStreamReleasesWhatItHeld() {
        final class Sentinel {}
        let vm = ViewModel()
        weak var watched: Sentinel?
        var stream: AsyncStream<Int>?
        do {
            let sentinel = Sentinel()
            watched = sentinel
            stream = vm.changeStream(of: ["k"], options: [.new], bufferingPolicy: .unbounded) { _ in
                withExtendedLifetime(sentinel) { 0 }
            }
        }
        #expect(watched != nil)
        vm.removeObservers(forKey: "k")
        #expect(watched == nil)
        _ = stream
    }

    /// A stream of no keys has nothing to wait for: it ends at once and
    /// holds nothing.
    @Test func aStreamOfNoKeysEndsAtOnce() async {
        final class Sentinel {}
        let vm = ViewModel(["x": 1])
        weak var watched: Sentinel?
        var stream: AsyncStream<Int>?
        do {
            let sentinel = Sentinel()
            watched = sentinel
            stream = vm.changeStream(of: [String](), options: [.new], bufferingPolicy: .unbounded) { _ in
                withExtendedLifetime(sentinel) { 0 }
            }
        }
        #expect(watched == nil)
        vm["x"] = 2
        var count = 0
        for await _ in stream! { count += 1 }   // must end
        for await _ in vm.changes(for: [String]()) { count += 1 }
        #expect(count == 0)
    }
}
