import Testing
@testable import AGViewModel

/// Callbacks that change the ViewModels they observe, and the delivery
/// order they get: changes made inside a callback are queued per ViewModel and
/// delivered after the current delivery finishes, first made first delivered.
@Suite("Observation re-entrancy")
struct ObservationReentrancyTests {
    @Test func changeInsideACallbackIsDeliveredAfterTheCurrentDelivery() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let first = vm.observe("a") { vm, _, change in
            log.append("first " + describe(change))
            vm["b"] = 1
            // The value is stored at once; only its notification waits.
            log.append("b is " + render(vm[value: "b"]))
        }
        let second = vm.observe("a") { _, _, change in log.append("second " + describe(change)) }
        let third = vm.observe("b") { _, _, change in log.append("third " + describe(change)) }
        vm["a"] = 1
        #expect(log.items == [
            "first a: nil -> 1",
            "b is 1",
            "second a: nil -> 1",
            "third b: nil -> 1",
        ])
        withExtendedLifetime((first, second, third)) {}
    }

    @Test func settingTheSameKeyFromItsCallbackDeliversEveryChangeInOrder() {
        let vm = ViewModel(["n": 0])
        let log = Recorder<String>()
        let observation = vm.observe("n") { vm, _, change in
            log.append(describe(change))
            if case .json(.int(let n))? = change.newValue, n < 3 {
                vm["n"] = .int(n + 1)
                vm["n"] = .int(n + 1)    // equal: no change
            }
        }
        vm["n"] = 1
        #expect(log.items == ["n: 0 -> 1", "n: 1 -> 2", "n: 2 -> 3"])
        #expect(vm["n"] == 3)
        withExtendedLifetime(observation) {}
    }

    @Test func changesMadeInOneCallbackAreFirstInFirstOut() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let trigger = vm.observe("go") { vm, _, _ in
            vm["x"] = 1
            vm["y"] = 1
            vm["x"] = 2
        }
        let watcher = vm.observe(["x", "y"]) { _, _, change in log.append(describe(change)) }
        vm["go"] = true
        #expect(log.items == ["x: nil -> 1", "y: nil -> 1", "x: 1 -> 2"])
        withExtendedLifetime((trigger, watcher)) {}
    }

    @Test func callbackMaySetKeysOfAnotherViewModel() {
        let source = ViewModel(), mirror = ViewModel()
        let log = Recorder<String>()
        let forward = source.observe("title") { _, _, change in
            mirror[value: "title"] = change.newValue
            log.append("forwarded")
        }
        let back = mirror.observe("title") { _, _, change in
            log.append("mirror " + describe(change))
            // A cycle back to the source ends because equal values send nothing.
            source[value: "title"] = change.newValue
        }
        source["title"] = "Hello"
        // Each ViewModel has its own delivery queue: the mirror's change is
        // delivered when it is made, inside the source's callback.
        #expect(log.items == [#"mirror title: nil -> "Hello""#, "forwarded"])
        #expect(mirror["title"] == "Hello")
        withExtendedLifetime((forward, back)) {}
    }

    @Test func callbackMayAddObserversWhichSeeLaterChangesOnly() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let added = Recorder<KeyObservation>()
        let adder = vm.observe("k") { vm, _, change in
            log.append("adder " + describe(change))
            if added.count == 0 {
                added.append(vm.observe("k", options: [.initial, .new]) { _, _, change in
                    log.append("added " + describe(change))
                })
            }
        }
        vm["k"] = 1
        vm["k"] = 2
        #expect(log.items == [
            "adder k: nil -> 1",
            "added initial k: nil -> 1",
            "adder k: 1 -> 2",
            "added k: nil -> 2",
        ])
        withExtendedLifetime((adder, added)) {}
    }

    @Test func callbackMayRemoveItselfAndOthersAtOnce() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let late = TestObserver("late")
        let selfRemover = TestObserver("self")
        vm.addObserver(selfRemover, forKey: "k") { observer, vm, _, _ in
            log.append("self")
            vm.removeObserver(observer)
            vm.removeObserver(late)
        }
        vm.addObserver(late, forKey: "k") { _, _, _, _ in log.append("late") }
        let token = vm.observe("k") { _, _, _ in log.append("token") }
        vm["k"] = 1
        vm["k"] = 2
        #expect(log.items == ["self", "token", "token"], "a removed observer is skipped even mid-delivery")
        withExtendedLifetime((late, selfRemover, token)) {}
    }

    @Test func callbackMayCancelItsOwnTokenAndRemoveEverything() {
        let vm = ViewModel()
        let log = Recorder<String>()
        let holder = Recorder<KeyObservation>()
        // Weakly: the holder keeps the token, whose handler this is.
        holder.append(vm.observe("k") { [weak holder] vm, _, _ in
            log.append("once")
            holder?.items.first?.cancel()
            vm.removeAllObservers()
            vm["k"] = 99                      // nobody left to tell
        })
        let other = vm.observe("k") { _, _, _ in log.append("other") }
        vm["k"] = 1
        vm["k"] = 2
        #expect(log.items == ["once"])
        #expect(vm["k"] == 2)
        withExtendedLifetime(other) {}
    }

    /// A cell that reconfigures itself inside a callback adds itself again:
    /// it never stopped observing, so a change queued before the re-add
    /// reaches it, through its new handler, once.
    @Test func reAddingInsideACallbackKeepsTheChangesQueuedForTheObserver() {
        let vm = ViewModel(["a": 0, "b": 0])
        let cell = TestObserver("cell")
        let log = Recorder<String>()
        var generation = 0
        func show() {
            generation += 1
            let seen = generation
            vm.addObserver(cell, forKey: "b") { _, _, _, change in log.append("\(seen) " + describe(change)) }
        }
        show()
        let token = vm.observe("a") { vm, _, _ in
            vm["b"] = 1      // queued for the cell's registration of now
            show()           // the cell shows the row again
            show()           // twice: the newest handler takes it
        }
        vm["a"] = 1
        #expect(log.items == ["3 b: 0 -> 1"])
        vm["b"] = 2
        #expect(log.items == ["3 b: 0 -> 1", "3 b: 1 -> 2"])
        #expect(vm.observerCount(forKey: "b") == 1)
        withExtendedLifetime((token, cell)) {}
    }

    /// What a cell observing `b` hears through a second registration made
    /// by `addAgain`, inside a callback that has just set `b` to 1 (a change
    /// queued for the first), and then when `b` is set to 2.
    private static func secondRegistrationHears(
        addAgain: @escaping (ViewModel, TestObserver, @escaping (ViewModel, String, KeyChange) -> Void) -> Void
    ) -> [String] {
        let vm = ViewModel(["a": 0, "b": 0])
        let cell = TestObserver("cell")
        let log = Recorder<String>()
        vm.addObserver(cell, forKey: "b") { _, _, _, change in log.append("first " + describe(change)) }
        let token = vm.observe("a") { vm, _, _ in
            vm["b"] = 1
            addAgain(vm, cell) { _, _, change in log.append("second " + describe(change)) }
        }
        vm["a"] = 1
        vm["b"] = 2
        withExtendedLifetime((token, cell)) {}
        return log.items
    }

    /// A re-add asking for `.initial` gets the current value, which holds
    /// the queued change, instead of that change: a cell that sets itself
    /// up from its initial value never hears a change before it.
    @Test func aReAddAskingForItsInitialValueGetsItInsteadOfTheQueuedChanges() {
        let heard = Self.secondRegistrationHears { vm, cell, handler in
            vm.addObserver(cell, forKey: "b", options: [.initial, .old, .new]) { _, vm, key, change in handler(vm, key, change) }
        }
        #expect(heard == ["second initial b: nil -> 1", "second b: 1 -> 2"])
    }

    /// A cell configured twice leaves its replaced registrations in the
    /// key's list; when a callback earlier in the delivery adds it again,
    /// the change reaches its newest handler once, not once per replaced one.
    @Test func aReAddedObserverHearsAQueuedChangeOnce() {
        let vm = ViewModel(["b": 0])
        let cell = TestObserver("cell")
        let log = Recorder<String>()
        var readded = false
        let first = vm.observe("b") { vm, _, _ in
            guard !readded else { return }
            readded = true
            vm.addObserver(cell, forKey: "b") { _, _, _, change in log.append("new " + describe(change)) }
        }
        let others = (0 ..< 6).map { _ in vm.observe("b") { _, _, _ in } }
        for _ in 0 ..< 3 { vm.addObserver(cell, forKey: "b") { _, _, _, change in log.append("old " + describe(change)) } }
        vm["b"] = 1
        #expect(log.items == ["new b: 0 -> 1"])
        withExtendedLifetime((first, others, cell)) {}
    }

    /// An observer gone before a new object took its address: the new one
    /// is a new observer, not a re-add, and hears later changes only.
    @Test func aNewObserverAtAGoneObserversAddressIsNoReAdd() {
        let vm = ViewModel(["a": 0, "b": 0])
        let log = Recorder<String>()
        var gone: TestObserver? = TestObserver("gone")
        let goneAddress = ObjectIdentifier(gone!)
        vm.addObserver(gone!, forKey: "b") { _, _, _, change in log.append("gone " + describe(change)) }
        var newcomer: TestObserver?
        let token = vm.observe("a") { vm, _, _ in
            vm["b"] = 1           // queued for the observer about to go
            gone = nil
            // The allocator hands the freed block out again, most often at once.
            var tries: [TestObserver] = []
            for _ in 0 ..< 1000 {
                let candidate = TestObserver("new")
                if ObjectIdentifier(candidate) == goneAddress { newcomer = candidate; break }
                tries.append(candidate)
            }
            if let newcomer {
                vm.addObserver(newcomer, forKey: "b") { _, _, _, change in log.append("new " + describe(change)) }
            }
        }
        vm["a"] = 1
        if newcomer != nil { #expect(log.items.isEmpty, "\(log.items)") }
        vm["b"] = 2
        if newcomer != nil { #expect(log.items == ["new b: 1 -> 2"]) }
        withExtendedLifetime((token, newcomer)) {}
    }

    /// Removing and then adding is not a re-add: the new registration sees
    /// later changes only, as any new observer does.
    @Test func removingThenAddingInsideACallbackSeesLaterChangesOnly() {
        let heard = Self.secondRegistrationHears { vm, cell, handler in
            vm.removeObserver(cell, forKey: "b")
            vm.addObserver(cell, forKey: "b") { _, vm, key, change in handler(vm, key, change) }
        }
        #expect(heard == ["second b: 1 -> 2"])
    }

    /// A controller that drops its ViewModel inside the ViewModel's own
    /// callback, with a change still queued: the queued change is
    /// delivered, then the ViewModel goes.
    @Test func droppingTheViewModelInsideItsOwnCallbackIsSafe() {
        final class Owner {
            var viewModel: ViewModel?
            var token: KeyObservation?
            var log: [String] = []
        }
        let owner = Owner()
        owner.viewModel = ViewModel(["k": 0, "j": 0])
        weak let weakViewModel = owner.viewModel
        owner.token = owner.viewModel!.observe(["k", "j"]) { [unowned owner] vm, key, change in
            owner.log.append(describe(change))
            if key == "k" {
                vm["j"] = 5                    // queued
                owner.viewModel = nil          // the last strong reference but the callback's
            }
        }
        owner.viewModel?["k"] = 1
        #expect(owner.log == ["k: 0 -> 1", "j: 0 -> 5"])
        #expect(weakViewModel == nil)
    }

    @Test func releasingTheLastReferenceInsideACallbackIsSafe() {
        var vm: ViewModel? = ViewModel()
        let log = Recorder<String>()
        let holder = Recorder<KeyObservation>()
        holder.append(vm!.observe("k") { vm, _, _ in
            log.append("called")
            vm["k"] = 2                        // queued, delivered after this returns
        })
        vm!["k"] = 1
        weak let weakVM = vm
        vm = nil
        #expect(log.items == ["called", "called"])
        #expect(weakVM == nil)
    }
}
