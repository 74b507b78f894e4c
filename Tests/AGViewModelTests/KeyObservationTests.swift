import Testing
@testable import AGViewModel

@Suite("Key observation")
struct KeyObservationTests {
    @Test func deliversOldAndNewValuesOfTheObservedKey() {
        let vm = ViewModel(["title": "Old", "other": 1])
        let seen = Recorder<String>()
        let observation = vm.observe("title") { observed, key, change in
            #expect(observed === vm)
            #expect(key == change.key)
            seen.append(describe(change))
        }
        vm["title"] = "New"
        vm["other"] = 2
        vm["title"] = nil
        #expect(seen.items == [#"title: "Old" -> "New""#, #"title: "New" -> nil"#])
        withExtendedLifetime(observation) {}
    }

    /// A token's deallocation never touches its ViewModel, since it may
    /// happen on any thread: the registration stays until the ViewModel,
    /// in its own domain, meets it orphaned at the key's next change.
    @Test func aFreedTokenLeavesItsRegistrationForTheViewModelToDrop() {
        let book = ViewModel(["title": "Dune"])
        let calls = Recorder<String>()
        var token: KeyObservation? = book.observe("title") { _, _, _ in calls.append("called") }
        #expect(token != nil)
        token = nil
        #expect(book.observationCenter?.observers["title"]?.count == 1)
        #expect(book.observerCount(forKey: "title") == 0)
        book["title"] = "Emma"
        #expect(calls.count == 0)
        #expect(book.observationCenter?.observers["title"] == nil)
        // cancel() drops it at once.
        let kept = book.observe("title") { _, _, _ in calls.append("called") }
        kept.cancel()
        #expect(book.observationCenter?.observers["title"] == nil && kept.isCancelled)
    }

    /// The token owns the handler: a handler that captures the ViewModel
    /// it observes does not keep it alive once the token is gone.
    @Test func aHandlerCapturingItsViewModelGoesWithTheToken() {
        weak var watched: ViewModel?
        var token: KeyObservation?
        do {
            let vm = ViewModel(["title": "A"])
            watched = vm
            token = vm.observe("title") { _, _, _ in _ = vm["title"] }
        }
        #expect(watched != nil, "the token's handler holds it")
        #expect(token != nil)
        token = nil
        #expect(watched == nil)
    }

    /// A list of ViewModels set again with the same objects is not a change,
    /// as one ViewModel set again is not.
    @Test func theSameListOfViewModelsIsNotAChange() {
        let reply = ViewModel(["text": "hi"])
        let vm = ViewModel().set("replies", payload: [reply]).set("none", payload: [ViewModel]())
        var changes: [String] = []
        let observation = vm.observe(["replies", "none"]) { _, key, _ in changes.append(key) }
        vm.set("replies", payload: [reply])
        vm.set("none", payload: [ViewModel]())
        #expect(changes.isEmpty)
        vm.set("replies", payload: [reply, ViewModel()])
        vm.set("replies", payload: [ViewModel(["text": "hi"])])
        #expect(changes == ["replies", "replies"])
        withExtendedLifetime(observation) {}
    }

    @Test func observesSeveralKeysWithOneHandler() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let observation = vm.observe(["a", "b", "a"]) { _, key, _ in seen.append(key) }
        vm["a"] = 1
        vm["c"] = 1
        vm["b"] = 1
        #expect(seen.items == ["a", "b"])
        #expect(vm.observerCount(forKey: "a") == 1)
        withExtendedLifetime(observation) {}
    }

    @Test func optionsChooseTheValuesDelivered() {
        let vm = ViewModel(["k": 1])
        let onlyNew = Recorder<String>(), onlyOld = Recorder<String>()
        let a = vm.observe("k", options: .new) { _, _, change in onlyNew.append(describe(change)) }
        let b = vm.observe("k", options: .old) { _, _, change in onlyOld.append(describe(change)) }
        vm["k"] = 2
        #expect(onlyNew.items == ["k: nil -> 2"])
        #expect(onlyOld.items == ["k: 1 -> nil"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func initialDeliversTheCurrentValueAtOnce() {
        let vm = ViewModel(["k": 1])
        let seen = Recorder<String>()
        let observation = vm.observe(["k", "absent"], options: [.initial, .old, .new]) { _, _, change in
            seen.append(describe(change))
        }
        #expect(seen.items == ["initial k: nil -> 1", "initial absent: nil -> nil"])
        vm["k"] = 2
        #expect(seen.items.last == "k: 1 -> 2")
        withExtendedLifetime(observation) {}
    }

    @Test func priorComesBeforeTheChangeWhileTheOldValueIsStored() {
        let vm = ViewModel(["k": 1])
        let seen = Recorder<String>()
        let observation = vm.observe("k", options: [.prior, .old, .new]) { vm, _, change in
            seen.append(describe(change) + " stored " + render(vm[value: "k"]))
        }
        vm["k"] = 2
        #expect(seen.items == ["prior k: 1 -> nil stored 1", "k: 1 -> 2 stored 2"])
        vm["k"] = 2
        #expect(seen.count == 2, "an equal value announces nothing")
        withExtendedLifetime(observation) {}
    }

    /// Only observations that ask for `.prior` hear before the change.
    @Test func priorGoesOnlyToTheObservationsThatAskForIt() {
        let vm = ViewModel(["k": 1])
        let withPrior = Recorder<String>(), without = Recorder<String>()
        let a = vm.observe("k", options: [.prior, .old, .new]) { _, _, change in withPrior.append(describe(change)) }
        let b = vm.observe("k") { _, _, change in without.append(describe(change)) }
        vm["k"] = 2
        vm.performBatchUpdates { vm["k"] = 3 }
        #expect(withPrior.items == ["prior k: 1 -> nil", "k: 1 -> 2", "prior k: 2 -> nil", "k: 2 -> 3"])
        #expect(without.items == ["k: 1 -> 2", "k: 2 -> 3"])
        withExtendedLifetime((a, b)) {}
    }

    /// With `.includeEqualValues`, an equal-value set is a change like any
    /// other: `.prior` comes before it, in a batch too; observations that
    /// do not include equal values hear neither.
    @Test func priorComesBeforeAnEqualValueChangeItDelivers() {
        let vm = ViewModel(["k": 0])
        let both = Recorder<String>(), equalOnly = Recorder<String>(), priorOnly = Recorder<String>()
        let a = vm.observe("k", options: [.prior, .old, .new, .includeEqualValues]) { _, _, change in both.append(describe(change)) }
        let b = vm.observe("k", options: [.old, .new, .includeEqualValues]) { _, _, change in equalOnly.append(describe(change)) }
        let c = vm.observe("k", options: [.prior, .old, .new]) { _, _, change in priorOnly.append(describe(change)) }
        vm["k"] = 0
        vm.performBatchUpdates { vm["k"] = 0 }
        #expect(both.items == ["prior k: 0 -> nil", "k: 0 -> 0", "prior k: 0 -> nil", "k: 0 -> 0"])
        #expect(equalOnly.items == ["k: 0 -> 0", "k: 0 -> 0"])
        #expect(priorOnly.items.isEmpty)
        withExtendedLifetime((a, b, c)) {}
    }

    /// A merge is one update for key observers: a handler of one member
    /// that reads another sees the whole update, never half of it, and
    /// each changed key is heard once, in the merge's order.
    @Test func observersHearOfAMergeOnceItIsComplete() {
        let vm = ViewModel(["price": 5, "currency": "EUR"])
        let seen = Recorder<String>()
        let observation = vm.observe(["price", "currency"]) { vm, key, _ in
            seen.append("\(key): \(render(vm[value: "price"])) \(render(vm[value: "currency"]))")
        }
        vm.merge(["price": 10, "currency": "USD"])
        vm.merge(ViewModel(["price": 11, "currency": "GBP"]))
        vm.deepMerge(["price": 12, "currency": "JPY"])
        #expect(seen.items == [
            "price: 10 \"USD\"", "currency: 10 \"USD\"",
            "price: 11 \"GBP\"", "currency: 11 \"GBP\"",
            "price: 12 \"JPY\"", "currency: 12 \"JPY\""])
        withExtendedLifetime(observation) {}
    }

    /// A deep merge of a ViewModel holding a nested ViewModel is one update
    /// for the nested ViewModel's observers too.
    @Test func aNestedViewModelsObserversHearOfADeepMergeOnceItIsComplete() {
        let user = ViewModel(["price": 5, "currency": "EUR"])
        let vm = ViewModel()
        vm[value: "user"] = .payload(user)
        let seen = Recorder<String>()
        let observation = user.observe(["price", "currency"]) { user, key, _ in
            seen.append("\(key): \(render(user[value: "price"])) \(render(user[value: "currency"]))")
        }
        let incoming = ViewModel()
        incoming[value: "user"] = .payload(ViewModel(["price": 10, "currency": "USD"]))
        vm.deepMerge(incoming)
        #expect(seen.items == ["price: 10 \"USD\"", "currency: 10 \"USD\""])
        withExtendedLifetime(observation) {}
    }

    @Test func settingAnEqualValueSendsNoChange() {
        let vm = ViewModel(["k": ["a": 1, "b": 2]])
        let seen = Recorder<String>()
        let forced = Recorder<String>()
        let a = vm.observe("k") { _, _, change in seen.append(describe(change)) }
        let b = vm.observe("k", options: [.old, .new, .includeEqualValues]) { _, _, change in
            forced.append(describe(change))
        }
        vm["k"] = ["a": 1, "b": 2]      // the same JSON, in the same form
        vm["absent"] = nil               // removing an absent key
        #expect(seen.items.isEmpty)
        #expect(forced.count == 1)
        vm["k"] = 3
        #expect(seen.count == 1)
        #expect(forced.count == 2)
        withExtendedLifetime((a, b)) {}
    }

    /// Pairs of values that are `==` (but one pair) yet written differently.
    static let differentlyWritten: [(JSONValue, JSONValue)] = [
        (.double(10), .int(10)),
        (.int(0), .double(-0.0)),
        (.double(1e20), .bigInteger("100000000000000000000")),
        (.object(["a": 1, "b": 2]), .object(["b": 2, "a": 1])),
        (.array([1, .object(["x": 1.5])]), .array([1, .object(["x": 1.50])])),
        (.array([1, .object(["x": 1.0])]), .array([1, .object(["x": 1])])),
    ]

    /// A value `==` to the stored one but written differently (another
    /// number case, the sign of zero, members in another order) is stored
    /// and is a change: what a view derives from it changes.
    @Test(arguments: differentlyWritten)
    func aValueWrittenDifferentlyIsAChange(old: JSONValue, new: JSONValue) throws {
        let vm = ViewModel(["k": old])
        let seen = Recorder<String>()
        let observation = vm.observe("k") { _, _, change in seen.append(describe(change)) }
        vm.setCommand(forKey: "text", dependsOn: ["k"]) { (vm: ViewModel) -> String? in
            try? vm.value(at: "k")?.jsonString()
        }
        let oldText = try old.jsonString(), newText = try new.jsonString()
        #expect(try vm.executeCommandIfNeeded(forKey: "text")?.json == .string(oldText))
        vm["k"] = new
        let changed = oldText != newText
        #expect(old == new)
        #expect(seen.count == (changed ? 1 : 0), "\(old) -> \(new)")
        #expect(vm.needsExecuteCommand(forKey: "text") == changed)
        #expect(try vm.executeCommandIfNeeded(forKey: "text")?.json == .string(newText))
        #expect(try vm.value(at: "k")?.jsonString() == newText)
        withExtendedLifetime(observation) {}
    }

    @Test func payloadsCompareByIdentityOrEquality() {
        final class Box: Sendable {}
        let box = Box()
        let vm = ViewModel()
        vm[value: "box"] = .payload(box)
        vm[value: "n"] = .payload(42)
        let seen = Recorder<String>()
        let observation = vm.observe(["box", "n"]) { _, key, _ in seen.append(key) }
        vm[value: "box"] = .payload(box)
        vm[value: "n"] = .payload(42)
        #expect(seen.items.isEmpty)
        vm[value: "box"] = .payload(Box())
        vm[value: "n"] = .payload(43)
        #expect(seen.items == ["box", "n"])
        withExtendedLifetime(observation) {}
    }

    @Test func cancellingOrReleasingTheTokenStops() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let observation = vm.observe("k") { _, key, _ in seen.append("kept") }
        var released: KeyObservation? = vm.observe("k") { _, key, _ in seen.append("released") }
        vm["k"] = 1
        #expect(seen.items == ["kept", "released"])
        released = nil
        vm["k"] = 2
        #expect(seen.items == ["kept", "released", "kept"])
        #expect(!observation.isCancelled)
        observation.cancel()
        observation.cancel()
        #expect(observation.isCancelled)
        vm["k"] = 3
        #expect(seen.count == 3)
        #expect(vm.observerCount(forKey: "k") == 0)
        _ = released
        // Removing the token as an observer ends its observation too.
        let removed = vm.observe(["k", "j"]) { _, key, _ in seen.append("removed") }
        vm.removeObserver(removed)
        vm["k"] = 4
        #expect(seen.count == 3 && removed.isCancelled)
    }

    /// Cancelling again does nothing, not even to the other observations
    /// of the key.
    @Test func cancellingTwiceLeavesTheOtherObservationsAsTheyWere() {
        let vm = ViewModel(["k": 1])
        let seen = Recorder<String>()
        let first = vm.observe("k", options: [.prior, .old]) { _, _, _ in }
        let second = vm.observe("k", options: [.prior, .old]) { _, _, change in seen.append(describe(change)) }
        first.cancel()
        first.cancel()
        vm["k"] = 2
        #expect(seen.items == ["prior k: 1 -> nil", "k: 1 -> nil"])
        #expect(first.isCancelled && !second.isCancelled)
    }

    /// A token of several keys stays active while any of them is still
    /// observed.
    @Test func aTokenRemovedForSomeOfItsKeysIsNotCancelled() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let token = vm.observe(["a", "b"]) { _, key, _ in seen.append(key) }
        vm.removeObserver(token, forKey: "a")
        #expect(!token.isCancelled)
        vm["a"] = 1
        vm["b"] = 1
        #expect(seen.items == ["b"])
        vm.removeObserver(token, forKey: "b")
        #expect(token.isCancelled)
    }

    /// `isInitial` and `isPrior` tell the three kinds of delivery apart.
    @Test func eachChangeSaysWhyItIsDelivered() {
        let vm = ViewModel(["k": 1])
        let kinds = Recorder<String>()
        let observation = vm.observe("k", options: [.initial, .prior, .new]) { _, _, change in
            kinds.append("initial \(change.isInitial) prior \(change.isPrior)")
        }
        vm["k"] = 2
        #expect(kinds.items == ["initial true prior false", "initial false prior true", "initial false prior false"])
        withExtendedLifetime(observation) {}
    }

    @Test func tokenAndHandlerDoNotKeepTheViewModelAlive() {
        weak var weakVM: ViewModel?
        var observation: KeyObservation?
        do {
            let vm = ViewModel()
            weakVM = vm
            observation = vm.observe("k") { vm, _, _ in _ = vm.count }
        }
        #expect(weakVM == nil)
        #expect(observation?.isCancelled == true)
        observation?.cancel()
    }

    @Test func observerObjectIsHeldWeaklyAndEndsItsObservations() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        weak var weakObserver: TestObserver?
        do {
            let observer = TestObserver("cell")
            weakObserver = observer
            vm.addObserver(observer, forKeys: ["a", "b"]) { observer, _, key, _ in
                seen.append("\(observer.name) \(key)")
            }
            vm["a"] = 1
            #expect(vm.observerCount(forKey: "a") == 1)
        }
        #expect(weakObserver == nil, "the ViewModel must not retain its observers")
        #expect(vm.observerCount(forKey: "a") == 0)
        vm["a"] = 2
        vm["b"] = 2
        #expect(seen.items == ["cell a"])
        #expect(vm.observationCenter?.observers["a"] == nil, "the orphan was purged on delivery")
    }

    @Test func readdingReplacesTheEarlierRegistration() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let observer = TestObserver()
        vm.addObserver(observer, forKeys: ["a", "b"]) { _, _, key, _ in seen.append("first \(key)") }
        vm.addObserver(observer, forKey: "a") { _, _, key, _ in seen.append("second \(key)") }
        #expect(vm.observerCount(forKey: "a") == 1)
        vm["a"] = 1
        vm["b"] = 1
        #expect(seen.items == ["second a", "first b"])
        let other = TestObserver()
        vm.addObserver(other, forKey: "a") { _, _, key, _ in seen.append("other \(key)") }
        #expect(vm.observerCount(forKey: "a") == 2, "another object stacks")
    }

    /// Cells freed without removing themselves leave registrations whose
    /// handlers hold what they captured: observers added afterwards sweep
    /// them out a few at a time, before the key ever changes.
    @Test func handlersOfFreedObserversAreReleasedAsOthersAreAdded() {
        final class Artwork {}
        let vm = ViewModel(["likes": 0])
        weak var lastArtwork: Artwork?
        var cells = (0..<10).map { _ in TestObserver() }   // a screen's visible cells
        for cell in cells {
            let artwork = Artwork()
            lastArtwork = artwork
            vm.addObserver(cell, forKey: "likes") { _, _, _, _ in _ = artwork }
        }
        #expect(vm.observerCount(forKey: "likes") == 10)
        cells = []                                          // the screen closes
        #expect(vm.observerCount(forKey: "likes") == 0)
        #expect(lastArtwork != nil, "kept by its freed cell's registration")
        for _ in 0..<5 { _ = vm.observe("likes") { _, _, _ in } }
        #expect(lastArtwork == nil)
        for _ in 0..<5 { _ = vm.observe("likes") { _, _, _ in } }
        #expect((vm.observationCenter?.observers["likes"]?.count ?? 0) <= 2)
    }

    /// A re-add is found however many other observers the key has, and
    /// wherever the earlier registration sits among them.
    @Test func readdingAmongManyObserversReplacesOnlyThatObserver() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let first = TestObserver("first")
        vm.addObserver(first, forKey: "a") { observer, _, _, _ in seen.append("old \(observer.name)") }
        let others = (0..<300).map { TestObserver("other \($0)") }
        for other in others {
            vm.addObserver(other, forKey: "a") { _, _, _, _ in }
        }
        let last = TestObserver("last")
        vm.addObserver(last, forKey: "a") { observer, _, _, _ in seen.append("old \(observer.name)") }
        for other in others.prefix(10) {
            vm.addObserver(other, forKey: "a") { _, _, _, _ in }
        }
        vm.addObserver(first, forKey: "a") { observer, _, _, _ in seen.append("new \(observer.name)") }
        vm.addObserver(last, forKey: "a") { observer, _, _, _ in seen.append("new \(observer.name)") }
        #expect(vm.observerCount(forKey: "a") == 302)
        #expect(vm.observationCenter?.observers["a"]?.count(where: { !$0.isRemoved }) == 302,
                "each object is registered once")
        #expect((vm.observationCenter?.observers["a"]?.count ?? 0) <= 2 * 302 + 1, "removed ones do not pile up")
        vm["a"] = 1
        #expect(seen.items.sorted() == ["new first", "new last"])
    }

    /// Observers that go without being removed (tokens dropped, objects
    /// freed) are swept out while others are added, before the key changes:
    /// the key's registrations stay within about twice its live ones.
    @Test func registrationsOfGoneObserversDoNotPileUpWhileAdding() {
        let vm = ViewModel()
        let kept = (0..<10).map { _ in vm.observe("a") { _, _, _ in } }
        var longest = 0
        for round in 0..<2_000 {
            if round.isMultiple(of: 2) {
                _ = vm.observe("a") { _, _, _ in }
            } else {
                vm.addObserver(TestObserver(), forKey: "a") { _, _, _, _ in }
            }
            longest = max(longest, vm.observationCenter?.observers["a"]?.count ?? 0)
        }
        #expect(vm.observerCount(forKey: "a") == 10)
        #expect(longest <= 2 * kept.count + 1)
        // With no live observation left, at most the last one waits.
        for token in kept { token.cancel() }
        for _ in 0..<5 { _ = vm.observe("a") { _, _, _ in } }
        #expect((vm.observationCenter?.observers["a"]?.count ?? 0) <= 1)
    }
    @Test func removesByKeyByKeysByObserverAndAll() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let one = TestObserver("one"), two = TestObserver("two")
        for observer in [one, two] {
            vm.addObserver(observer, forKeys: ["a", "b", "c"]) { observer, _, key, _ in
                seen.append("\(observer.name) \(key)")
            }
        }
        let token = vm.observe(["a", "d"]) { _, key, _ in seen.append("token \(key)") }

        vm.removeObserver(one, forKey: "a")
        vm.removeObserver(one, forKey: "a")                  // twice: harmless
        vm.removeObserver(TestObserver(), forKey: "a")       // never added: harmless
        vm["a"] = 1
        #expect(seen.items == ["two a", "token a"])

        vm.removeObserver(two, forKeys: ["a", "b"])
        vm["b"] = 1
        #expect(seen.items.suffix(1) == ["one b"])

        vm.removeObserver(one)
        vm["c"] = 1
        #expect(seen.items.suffix(1) == ["two c"])

        vm.removeObservers(forKey: "d")
        vm["d"] = 1
        #expect(!seen.items.contains("token d"))

        vm.removeAllObservers()
        vm.removeAllObservers()
        let before = seen.count
        for key in ["a", "b", "c", "d"] { vm[key] = 2 }
        #expect(seen.count == before)
        token.cancel()
        ViewModel().removeAllObservers()                      // nothing to remove
    }

    @Test func removingTheObserversOfSeveralKeysStopsEachOfThem() {
        let vm = ViewModel()
        let seen = Recorder<String>()
        let observer = TestObserver()
        vm.addObserver(observer, forKeys: ["a", "b", "c"]) { _, _, key, _ in seen.append(key) }
        let token = vm.observe(["a", "b", "c"]) { _, key, _ in seen.append("token \(key)") }
        vm.removeObservers(forKeys: ["a", "b"])
        for key in ["a", "b", "c"] { vm[key] = 1 }
        #expect(seen.items == ["c", "token c"])
        #expect(vm.observerCount(forKey: "a") == 0 && vm.observerCount(forKey: "b") == 0)
        withExtendedLifetime(token) {}
    }

    @Test func unobservedViewModelStaysOnTheFastPath() {
        // Writes, removals of observers and the bulk reads of a section or
        // manager allocate nothing for observation in its ViewModels (a
        // tracked read, as a ViewModel's own snapshot or export makes, gives
        // the ViewModel its registrar).
        let vm = ViewModel(["k": 1])
        vm["k"] = 2
        let section = Section(items: [vm], header: ViewModel(["h": 1]))
        _ = section.exportJSON(options: .everything)
        _ = section.snapshot
        _ = Manager(sections: [section]).exportJSON(options: .everything)
        vm.removeObserver(TestObserver())
        vm.removeAllObservers()
        #expect(vm.observationCenter == nil)
    }
}

@Suite("Typed key observation")
struct TypedKeyObservationTests {
    final class Box: @unchecked Sendable { var keys: [String] = [] }

    @Test func observeByTypedKey() {
        let vm = ViewModel()
        let box = Box()
        let token = vm.observe(.typedObservedTitle) { _, old, new in box.keys.append("\(old ?? "-") -> \(new ?? "-")") }
        vm[.typedObservedTitle] = "a"
        vm["other"] = 1
        vm["title"] = 7                          // read leniently as "7"
        #expect(box.keys == ["- -> a", "a -> 7"])
        token.cancel()
        vm[.typedObservedTitle] = "b"
        #expect(box.keys.count == 2)
    }

    @MainActor final class TitleCell {
        var titleText = ""
    }

    @Test @MainActor func aMainActorCellObservesATypedKey() {
        let book = ViewModel(["title": "Dune"])
        let cell = TitleCell()
        book.addObserver(cell, for: .typedObservedTitle, options: [.initial, .new]) { cell, _, _, new in
            cell.titleText = new ?? ""
        }
        #expect(cell.titleText == "Dune")
        book[.typedObservedTitle] = "Emma"
        #expect(cell.titleText == "Emma")
        book.removeObserver(cell, for: .typedObservedTitle)
        book[.typedObservedTitle] = "Zola"
        #expect(cell.titleText == "Emma")
    }

    @Test func anObserverObjectOfATypedKeyGetsBothValues() {
        let book = ViewModel(["title": "Dune"])
        let observer = TestObserver()
        let box = Box()
        book.addObserver(observer, for: .typedObservedTitle) { _, _, old, new in
            box.keys.append("\(old ?? "-") -> \(new ?? "-")")
        }
        book[.typedObservedTitle] = "Emma"
        book["title"] = nil
        #expect(box.keys == ["Dune -> Emma", "Emma -> -"])
    }

    @Test func typedChangeStreamsCarryTypedValues() async {
        let book = ViewModel()
        let stream = book.changes(for: .typedObservedTitle)
        book[.typedObservedTitle] = "a"
        book["title"] = nil
        book["title"] = 5
        var seen: [String?] = []
        for await title in stream {
            seen.append(title)
            if seen.count == 3 { break }
        }
        #expect(seen == ["a", nil, "5"])
    }

    @Test func aTypedChangeStreamCanKeepTheNewestValueOnly() async {
        let book = ViewModel()
        let stream = book.changes(for: .typedObservedTitle, bufferingPolicy: .bufferingNewest(1))
        for title in ["a", "b", "c"] { book[.typedObservedTitle] = title }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == "c")
        book[.typedObservedTitle] = "d"
        #expect(await iterator.next() == "d")
    }
}

extension ViewModel.Key where Value == String {
    fileprivate static var typedObservedTitle: Self { "title" }
}

/// An actor that owns a ViewModel and observes it: its handlers run
/// isolated to it and it is held weakly.
actor CartStore {
    let cart = ViewModel(["count": 0])
    var badge = 0
    var totals: [String] = []

    func start() {
        cart.addObserver(actor: self, forKey: "count") { store, cart, _, _ in
            store.badge = cart.int(at: "count", default: 0)
        }
        cart.addObserver(actor: self, for: ViewModel.Key<Double>("total")) { store, _, old, new in
            store.totals.append("\(old ?? 0) -> \(new ?? 0)")
        }
    }

    func add(_ count: Int, costing price: Double) {
        cart.performBatchUpdates {
            cart["count"] = .int(Int64(cart.int(at: "count", default: 0) + count))
            cart["total"] = .double(cart.double(at: "total", default: 0) + Double(count) * price)
        }
    }

    func stop() { cart.removeObserver(self) }

    var count: Int { cart.int(at: "count", default: 0) }

    var state: (badge: Int, totals: [String]) { (badge, totals) }
}

@Suite("Actor observation")
struct ActorObservationTests {
    /// The object form still takes an actor from outside it (the handler
    /// then reaches the actor asynchronously).
    @Test @MainActor func anActorPassedFromOutsideUsesTheObjectForm() async {
        let store = CartStore()
        let screen = ViewModel(["count": 0])
        let seen = Recorder<Int>()
        screen.addObserver(store, forKey: "count") { store, screen, _, _ in
            let count = screen.int(at: "count", default: 0)
            Task { await store.add(count, costing: 0); seen.append(count) }
        }
        #expect(screen.observerCount(forKey: "count") == 1)
        screen["count"] = 2
        while seen.count == 0 { await Task.yield() }
        #expect(await store.state.badge == 0, "not started: the store's own observer is not there")
        #expect(await store.count == 2)
    }

    @Test func anActorObservesItsOwnViewModelWithoutKeepingItselfAlive() async {
        weak var released: CartStore?
        do {
            let store = CartStore()
            released = store
            await store.start()
            await store.add(2, costing: 1.5)
            await store.add(1, costing: 4)
            let state = await store.state
            #expect(state.badge == 3)
            #expect(state.totals == ["0.0 -> 3.0", "3.0 -> 7.0"])
            await store.stop()
            await store.add(1, costing: 1)
            #expect(await store.state.badge == 3, "removed")
        }
        #expect(released == nil, "the observation holds the actor weakly")
    }
}
