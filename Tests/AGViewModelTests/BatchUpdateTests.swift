import Testing
@testable import AGViewModel

@Suite("Batch updates")
struct BatchUpdateTests {
    @Test func deliversOneChangePerKeyWithFirstOldAndLastNew() {
        let vm = ViewModel(["title": "Old", "count": 1])
        let log = Recorder<String>()
        let observation = vm.observe(["title", "count", "added"]) { vm, _, change in
            log.append(describe(change))
        }
        vm.performBatchUpdates {
            vm["count"] = 2
            vm["title"] = "Draft"
            #expect(vm["title"] == "Draft", "values are stored at once")
            vm["title"] = "Final"
            vm["count"] = 3
            vm["added"] = true
            #expect(log.items.isEmpty, "nothing is delivered inside the batch")
        }
        #expect(log.items == ["count: 1 -> 3", #"title: "Old" -> "Final""#, "added: nil -> true"])
        withExtendedLifetime(observation) {}
    }

    @Test func keysRestoredToTheirOldValueDeliverNothing() {
        let vm = ViewModel(["title": "Same"])
        let log = Recorder<String>()
        let forced = Recorder<String>()
        let observation = vm.observe(["title", "temp"]) { _, _, change in log.append(describe(change)) }
        let forcing = vm.observe("title", options: [.old, .new, .includeEqualValues]) { _, _, change in
            forced.append(describe(change))
        }
        vm.performBatchUpdates {
            vm["title"] = "Changed"
            vm["title"] = "Same"
            vm["temp"] = 1
            vm["temp"] = nil
        }
        #expect(log.items.isEmpty)
        #expect(forced.items == [#"title: "Same" -> "Same""#])
        withExtendedLifetime((observation, forcing)) {}
    }

    @Test func nestedBatchesFlattenIntoTheOutermost() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let observation = vm.observe("k") { _, _, change in log.append(describe(change)) }
        let result = vm.performBatchUpdates {
            vm["k"] = 1
            vm.performBatchUpdates { vm["k"] = 2 }
            #expect(log.items.isEmpty, "the inner batch delivers nothing")
            vm["k"] = 3
            return "done"
        }
        #expect(result == "done")
        #expect(log.items == ["k: nil -> 3"])
        withExtendedLifetime(observation) {}
    }

    @Test func throwingBatchStillDeliversItsChanges() {
        struct Failure: Error {}
        let vm = ViewModel()
        let log = Recorder<String>()
        let observation = vm.observe("k") { _, _, change in log.append(describe(change)) }
        #expect(throws: Failure.self) {
            try vm.performBatchUpdates { () throws(Failure) in
                vm["k"] = 1
                throw Failure()
            }
        }
        #expect(log.items == ["k: nil -> 1"])
        vm["k"] = 2
        #expect(log.count == 2, "the batch is closed after the throw")
        withExtendedLifetime(observation) {}
    }

    @Test func priorNotificationsComeRightBeforeTheirChange() {
        let vm = ViewModel(["a": 1, "b": 1])
        let log = Recorder<String>()
        let observation = vm.observe(["a", "b"], options: [.prior, .old, .new]) { _, _, change in
            log.append(describe(change))
        }
        vm.performBatchUpdates {
            vm["b"] = 2
            vm["a"] = 2
            vm["b"] = 3
        }
        #expect(log.items == ["prior b: 1 -> nil", "b: 1 -> 3", "prior a: 1 -> nil", "a: 1 -> 2"])
        withExtendedLifetime(observation) {}
    }

    @Test func changesMadeByBatchCallbacksComeAfterTheWholeBatch() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let reactor = vm.observe("a") { vm, _, _ in vm["c"] = 1 }
        let watcher = vm.observe(["a", "b", "c"]) { _, key, _ in log.append(key) }
        vm.performBatchUpdates {
            vm["a"] = 1
            vm["b"] = 1
        }
        #expect(log.items == ["a", "b", "c"])
        withExtendedLifetime((reactor, watcher)) {}
    }

    @Test func batchInsideACallbackJoinsTheQueue() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let trigger = vm.observe("go") { vm, _, _ in
            vm.performBatchUpdates {
                vm["x"] = 1
                vm["x"] = 2
            }
            log.append("callback done")
        }
        let watcher = vm.observe("x") { _, _, change in log.append(describe(change)) }
        vm["go"] = 1
        #expect(log.items == ["callback done", "x: nil -> 2"])
        withExtendedLifetime((trigger, watcher)) {}
    }

    @Test func onlyTheBatchedViewModelWaits() {
        let batched = ViewModel(), other = ViewModel()
        let log = Recorder<String>()
        let a = batched.observe("k") { _, _, _ in log.append("batched") }
        let b = other.observe("k") { _, _, _ in log.append("other") }
        batched.performBatchUpdates {
            batched["k"] = 1
            other["k"] = 1
            #expect(log.items == ["other"])
        }
        #expect(log.items == ["other", "batched"])
        withExtendedLifetime((a, b)) {}
    }

    /// Commands are marked at each set, inside a batch as outside, so a
    /// command run inside the batch is never stale; observers still hear
    /// once, after the marking.
    @Test func dependentCommandsAreMarkedAtEachSetBeforeObserversHear() throws {
        let vm = ViewModel(["price": 1])
        vm.setCommand(forKey: "label", dependsOn: ["price"]) { vm in "\(vm.int(at: "price", default: 0)) EUR" }
        _ = try vm.executeCommand(forKey: "label")
        #expect(!vm.needsExecuteCommand(forKey: "label"))

        vm["price"] = 1                                   // equal value: not a change
        #expect(!vm.needsExecuteCommand(forKey: "label"))

        vm.performBatchUpdates {
            vm["price"] = 2
            #expect(vm.needsExecuteCommand(forKey: "label"), "marked at the set")
            #expect((try? vm.executeCommandIfNeeded(forKey: "label"))??.json == "2 EUR")
            vm["price"] = 1                               // restored: marked again
        }
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "1 EUR")

        let markedWhenDelivered = Recorder<Bool>()
        let observation = vm.observe("price") { vm, _, _ in
            markedWhenDelivered.append(vm.needsExecuteCommand(forKey: "label"))
        }
        vm.performBatchUpdates {
            vm["price"] = 3
            #expect(vm.needsExecuteCommand(forKey: "label"))
            vm["price"] = 4
        }
        #expect(vm.needsExecuteCommand(forKey: "label"))
        #expect(markedWhenDelivered.items == [true], "commands are marked before observers hear")
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "4 EUR")
        withExtendedLifetime(observation) {}
    }

    /// A key set to the value it already holds is not a change inside a
    /// batch either: the commands depending on it stay as they were.
    @Test func anEqualValueInsideABatchMarksNoCommand() throws {
        let vm = ViewModel(["price": 2])
        vm.setCommand(forKey: "label", dependsOn: ["price"]) { vm in "\(vm.int(at: "price", default: 0)) EUR" }
        _ = try vm.executeCommand(forKey: "label")
        vm.performBatchUpdates {
            vm["price"] = 2
            #expect(!vm.needsExecuteCommand(forKey: "label"))
        }
        #expect(!vm.needsExecuteCommand(forKey: "label"))
    }

    /// The batch is delivered when it ends, to the observers of its keys
    /// then, whether or not anything had read or observed a key when it
    /// was set.
    @Test func anObserverAddedInsideABatchHearsItsChanges() {
        let vm = ViewModel(["title": "Old", "likes": 1])
        let seen = Recorder<String>()
        var observation: KeyObservation?
        vm.performBatchUpdates {
            vm["title"] = "New"
            observation = vm.observe(["title", "likes"]) { _, _, change in seen.append(describe(change)) }
            vm["likes"] = 2
            #expect(seen.count == 0)
        }
        #expect(seen.items == [#"title: "Old" -> "New""#, "likes: 1 -> 2"])
        withExtendedLifetime(observation) {}
    }
}
