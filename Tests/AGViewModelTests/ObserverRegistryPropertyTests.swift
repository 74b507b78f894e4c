import Testing
@testable import AGViewModel

/// The observer registry under random adds, re-adds, removals, cancels and
/// freed observers, checked against a plain model: each change reaches
/// exactly the live observers of its key, in the order they were (last)
/// added; a key's list stays within about twice its live observers.
@Suite("Observer registry against a model")
struct ObserverRegistryPropertyTests {
    /// An observer's identity in the model: an object's index, or a token's.
    enum Observer: Hashable {
        case object(Int)
        case token(Int)
    }

    final class Log {
        var heard: [Observer] = []
    }

    @Test func randomAddsAndRemovalsMatchTheModel() {
        let keys = ["a", "b", "c"]
        for seed in UInt64(1)...40 {
            var random = SplitMix64(seed: seed)
            let vm = ViewModel()
            let log = Log()
            var objects: [Int: TestObserver] = [:]      // alive objects
            var tokens: [Int: KeyObservation] = [:]     // held tokens
            var model: [String: [Observer]] = [:]       // live observers, in delivery order
            var nextToken = 0
            let stranger = ViewModel()
            let strangerObservation = stranger.observe(keys) { _, _, _ in }
            var value: Int64 = 0
            var mostLive: [String: Int] = [:]

            func forget(_ observer: Observer) {
                for key in keys { model[key]?.removeAll { $0 == observer } }
            }
            for step in 0..<400 {
                let key = keys[Int(random.next() % 3)]
                let object = Int(random.next() % 12)
                switch random.next() % 9 {
                case 0, 1:   // add or re-add an object: it moves to the end
                    let observer = objects[object] ?? TestObserver("\(object)")
                    objects[object] = observer
                    vm.addObserver(observer, forKey: key) { _, _, _, _ in log.heard.append(.object(object)) }
                    model[key, default: []].removeAll { $0 == .object(object) }
                    model[key, default: []].append(.object(object))
                case 2:      // a token, of one key or two
                    let id = nextToken
                    nextToken += 1
                    let observed = random.next() % 2 == 0 ? [key] : [key, keys.first { $0 != key }!]
                    tokens[id] = vm.observe(observed) { _, _, _ in log.heard.append(.token(id)) }
                    for observedKey in observed { model[observedKey, default: []].append(.token(id)) }
                case 3:      // remove an object from one key
                    if let observer = objects[object] { vm.removeObserver(observer, forKey: key) }
                    model[key]?.removeAll { $0 == .object(object) }
                case 4:      // remove an object from every key
                    if let observer = objects[object] { vm.removeObserver(observer) }
                    forget(.object(object))
                case 5:      // end a token's observations, the oldest or one at random
                    if let id = random.next() % 2 == 0 ? tokens.keys.min() : tokens.keys.randomElement(using: &random) {
                        switch random.next() % 4 {
                        case 0:
                            tokens.removeValue(forKey: id)?.cancel()
                            forget(.token(id))
                        case 1:
                            vm.removeObserver(tokens[id]!)
                            forget(.token(id))
                        case 2:
                            vm.removeObserver(tokens[id]!, forKey: key)
                            model[key]?.removeAll { $0 == .token(id) }
                        default:
                            stranger.removeObserver(tokens[id]!)   // another ViewModel's: nothing
                            stranger.removeObserver(tokens[id]!, forKey: key)
                        }
                    }
                case 6:      // free an object without removing it
                    if objects.removeValue(forKey: object) != nil { forget(.object(object)) }
                default:     // a change
                    log.heard = []
                    value += 1
                    vm[key] = .int(value)
                    #expect(log.heard == model[key, default: []], "seed \(seed), step \(step), key \(key)")
                }
                let live = model[key, default: []].count
                #expect(vm.observerCount(forKey: key) == live, "seed \(seed), step \(step)")
                let listed = vm.observationCenter?.observers[key]?.count ?? 0
                mostLive[key] = max(mostLive[key, default: 0], live)
                #expect(listed <= 2 * mostLive[key]! + 1, "seed \(seed), step \(step): \(listed) listed, \(live) live, most \(mostLive[key]!)")
            }
            withExtendedLifetime((tokens, strangerObservation)) {}
        }
    }

    /// Removing many observers of one key, oldest first, newest first or
    /// by cancelling tokens, leaves exactly the others, which still hear
    /// changes in order.
    @Test func manyRemovalsInEveryOrderLeaveTheRest() {
        let count = 3_000
        for order in ["oldest first", "newest first", "tokens oldest first"] {
            let vm = ViewModel()
            let log = Log()
            var objects = (0..<count).map { TestObserver("\($0)") }
            var tokens: [KeyObservation] = []
            for (index, observer) in objects.enumerated() {
                if order.hasPrefix("tokens") {
                    tokens.append(vm.observe("k") { _, _, _ in log.heard.append(.token(index)) })
                } else {
                    vm.addObserver(observer, forKey: "k") { _, _, _, _ in log.heard.append(.object(index)) }
                }
            }
            // Remove all but every hundredth.
            let kept = Set(stride(from: 0, to: count, by: 100))
            let removal = order == "newest first" ? Array((0..<count).reversed()) : Array(0..<count)
            for index in removal where !kept.contains(index) {
                if order.hasPrefix("tokens") { tokens[index].cancel() } else { vm.removeObserver(objects[index], forKey: "k") }
            }
            vm["k"] = 1
            let expected: [Observer] = kept.sorted().map { order.hasPrefix("tokens") ? .token($0) : .object($0) }
            #expect(log.heard == expected, "\(order)")
            #expect(vm.observerCount(forKey: "k") == kept.count)
            #expect((vm.observationCenter?.observers["k"]?.count ?? 0) <= 2 * kept.count + 1, "\(order)")
            objects.removeAll()
            withExtendedLifetime(tokens) {}
        }
    }

    /// A screen of observers goes away (objects freed, tokens released)
    /// and the next screen's observe the same key: exactly the new ones
    /// hear the change, in order, and the list stays bounded while the
    /// gone ones are swept out a few per add.
    @Test func observersAddedAfterManyWereFreedAreTheOnlyOnesHeard() {
        let count = 3_000
        for kind in ["objects", "tokens"] {
            let vm = ViewModel()
            let log = Log()
            var objects = (0..<count).map { TestObserver("\($0)") }
            var tokens: [KeyObservation] = []
            func add(_ index: Int) {
                if kind == "tokens" {
                    tokens.append(vm.observe("k") { _, _, _ in log.heard.append(.token(index)) })
                } else {
                    vm.addObserver(objects[index], forKey: "k") { _, _, _, _ in log.heard.append(.object(index)) }
                }
            }
            for index in 0..<count { add(index) }
            objects = (0..<count).map { TestObserver("\($0)") }
            tokens = []
            for index in 0..<count {
                add(index)
                #expect((vm.observationCenter?.observers["k"]?.count ?? 0) <= 2 * count + 1)
            }
            vm["k"] = 1
            #expect(log.heard == (0..<count).map { kind == "tokens" ? .token($0) : .object($0) }, "\(kind)")
            #expect(vm.observerCount(forKey: "k") == count)
            withExtendedLifetime((objects, tokens)) {}
        }
    }

    /// A token that outlives its ViewModel removes nothing from another
    /// one, also when the other's registry sits where the first one's was
    /// (freed memory is reused at once, so some of the tries land there).
    @Test func aTokenOfAFreedViewModelRemovesNothingElsewhere() {
        for attempt in 0..<50 {
            var first: ViewModel? = ViewModel()
            var ended = 0
            let stale = first!.observe(["k", "other"]) { _, _, _ in }
            _ = first!.changes(for: ["k"])   // a stream, ended when its ViewModel goes
            first = nil
            let second = ViewModel()
            var heard = 0
            let live = second.observe("k") { _, _, _ in heard += 1 }
            let stream = second.observe("other") { _, _, _ in ended += 1 }
            second.removeObserver(stale)
            second.removeObserver(stale, forKey: "k")
            stale.cancel()
            second["k"] = .int(Int64(attempt))
            second["other"] = .int(1)
            #expect(heard == 1 && ended == 1, "attempt \(attempt)")
            #expect(second.observerCount(forKey: "k") == 1 && second.observerCount(forKey: "other") == 1)
            withExtendedLifetime((live, stream)) {}
        }
    }
}
