import Observation
import Testing
import AGViewModel

/// How one change's round of automatic commands ends: how often each
/// command runs, and that none is left stale by the rules that end it.
@Suite("Automatic commands: rounds")
struct AutomaticCommandRoundTests {
    /// A cycle feeding many commands: each command of the cycle runs once
    /// for the change, not again for every command that reads it.
    @Test func aCycleFeedingManyCommandsRunsOncePerChange() {
        for trial in 0..<8 {
            let log = CallLog()
            let a = "a\(trial)", b = "b\(trial)"
            let vm = ViewModel(["seed": 0])
            vm.setCommand(forKey: a, dependsOn: ["seed", b], execution: .automatic) { vm in
                log.append("a")
                return vm.int(at: "seed", default: 0) + vm.int(at: b, default: 0) % 7
            }
            vm.setCommand(forKey: b, dependsOn: [a], execution: .automatic) { vm in
                log.append("b")
                return vm.int(at: a, default: 0) + 1
            }
            let readers = (0..<20).map { "reader\(trial)_\($0)" }
            for reader in readers {
                vm.setCommand(forKey: reader, dependsOn: [a, b], execution: .automatic) { vm in
                    log.append("reader")
                    return vm.int(at: a, default: 0) + vm.int(at: b, default: 0)
                }
            }
            let before = (a: log.count("a"), b: log.count("b"), readers: log.count("reader"))
            vm["seed"] = 1
            #expect(log.count("a") - before.a == 1, "trial \(trial)")
            #expect(log.count("b") - before.b == 1, "trial \(trial)")
            #expect(log.count("reader") - before.readers <= 2 * readers.count, "trial \(trial)")
        }
    }

    /// A ladder of undeclared writes: step `i` writes `a_i` and `c_i`,
    /// `h_i` reads `c_i` and writes `d_i`, step `i + 1` reads `a_i` and
    /// `d_i`, and a total reads every `a_i` and writes `u`, and a second
    /// sink reads every `a_i` and `u`. No command depends on another
    /// command's key, so only the marks order them, and both sinks are
    /// marked more often than there are automatic commands. The graph has
    /// no cycle, so after each change every key holds what computing it in
    /// order gives.
    @Test(arguments: [2, 4, 6, 9])
    func aLadderOfUndeclaredWritesEndsCurrent(steps: Int) {
        func expected(x: Int) -> (total: Int, last: Int) {
            var a = 0, d = 0, total = 0
            for step in 0..<steps {
                a = step == 0 ? x : a + d + 1
                d = a * 2 + 1
                total += a
            }
            return (total, a)
        }
        for trial in 0..<8 {
            let vm = ViewModel(["x": 1])
            let name = { (letter: String, step: Int) in "\(letter)\(trial)_\(step)" }
            for step in 0..<steps {
                let a = name("a", step), c = name("c", step), d = name("d", step)
                let inputs = step == 0 ? ["x"] : [name("a", step - 1), name("d", step - 1)]
                vm.setCommand(forKey: name("step", step), dependsOn: inputs, execution: .automatic) { vm in
                    let value = step == 0
                        ? vm.int(at: "x", default: 0)
                        : vm.int(at: inputs[0], default: 0) + vm.int(at: inputs[1], default: 0) + 1
                    vm[a] = .int(Int64(value))
                    vm[c] = .int(Int64(value * 2))
                    return value
                }
                vm.setCommand(forKey: name("h", step), dependsOn: [c], execution: .automatic) { vm in
                    vm[d] = .int(Int64(vm.int(at: c, default: 0) + 1))
                    return 0
                }
            }
            let total = "total\(trial)", sink = "sink\(trial)"
            let all = (0..<steps).map { name("a", $0) }
            vm.setCommand(forKey: total, dependsOn: all, execution: .automatic) { vm in
                let sum = all.reduce(0) { $0 + vm.int(at: $1, default: 0) }
                vm["u"] = .int(Int64(sum))
                return sum
            }
            vm.setCommand(forKey: sink, dependsOn: all + ["u"], execution: .automatic) { vm in
                (all + ["u"]).reduce(0) { $0 + vm.int(at: $1, default: 0) }
            }
            for x in [3, 10, 4] {
                vm["x"] = .int(Int64(x))
                #expect(vm.int(at: name("a", steps - 1)) == expected(x: x).last, "trial \(trial), x = \(x)")
                #expect(vm.int(at: total) == expected(x: x).total, "trial \(trial), x = \(x)")
                #expect(vm.int(at: sink) == 2 * expected(x: x).total, "trial \(trial), x = \(x)")
                #expect(!vm.needsExecuteCommand(forKey: total), "trial \(trial), x = \(x)")
                #expect(!vm.needsExecuteCommand(forKey: sink), "trial \(trial), x = \(x)")
            }
        }
    }

    /// A cycle feeding a chain: each step reads the step before and a
    /// member of the cycle. The cycle stays marked, as cycles do; the chain
    /// runs once per change, reads the cycle's values as they stand, and
    /// is not left marked.
    @Test func aCycleFeedingAChainRunsTheChainOnce() {
        let steps = 100
        let log = CallLog()
        let vm = ViewModel(["x": 0])
        vm.setCommand(forKey: "p", dependsOn: ["x", "q"], execution: .automatic) { vm in
            vm.int(at: "x", default: 0) + vm.int(at: "q", default: 0) % 3
        }
        vm.setCommand(forKey: "q", dependsOn: ["p"], execution: .automatic) { vm in
            vm.int(at: "p", default: 0) % 5
        }
        for step in 0..<steps {
            let input = step == 0 ? "p" : "k\(step - 1)"
            vm.setCommand(forKey: "k\(step)", dependsOn: [input, "q"], execution: .automatic) { vm in
                log.append("chain")
                return vm.int(at: input, default: 0) + vm.int(at: "q", default: 0)
            }
        }
        for x in [7, 20] {
            let before = log.count("chain")
            vm["x"] = .int(Int64(x))
            #expect(log.count("chain") - before <= 2 * steps, "x = \(x)")
            let p = vm.int(at: "p", default: 0), q = vm.int(at: "q", default: 0)
            #expect(vm.int(at: "k\(steps - 1)") == p + steps * q, "x = \(x)")
            #expect(!vm.needsExecuteCommand(forKey: "k\(steps - 1)"), "x = \(x)")
        }
    }

    /// A body that asks for an on-demand value twice, changing its input in
    /// between: the second call runs the commands it depends on again,
    /// though they already ran in this round.
    @Test func anExplicitCallInsideARoundBringsItsDependenciesUpToDate() {
        let vm = ViewModel(["x": 1, "y": 0])
        vm.setCommand(forKey: "e", dependsOn: ["y"]) { vm in vm.int(at: "y", default: 0) + 1 }
        vm.setCommand(forKey: "d", dependsOn: ["e"]) { vm in vm.int(at: "e", default: 0) * 10 }
        vm.setCommand(forKey: "a", dependsOn: ["x"], execution: .automatic) { vm in
            let x = vm.int(at: "x", default: 0)
            vm["y"] = .int(Int64(x))
            _ = try? vm.executeCommandIfNeeded(forKey: "d")
            vm["y"] = .int(Int64(x * 2))
            let d = try? vm.executeCommandIfNeeded(for: ViewModel.Key<Int>("d"))
            return (d ?? nil) ?? -1
        }
        vm["x"] = 5
        #expect(vm.int(at: "a") == 110)
        #expect(vm.int(at: "e") == 11)
    }

    /// A long chain that a change runs twice in one round (a body reading
    /// its end sets its second input) ends current.
    @Test func aLongChainReachedTwiceEndsCurrent() {
        let steps = 3_000
        for trial in 0..<2 {
            let vm = ViewModel(["t": 0, "y": 0])
            let writer = "writer\(trial)"
            let name = { (step: Int) in "s\(trial)_\(step)" }
            for step in 0..<steps {
                let inputs = step == 0 ? ["t", "y"] : [name(step - 1)]
                vm.setCommand(forKey: name(step), dependsOn: inputs, execution: .automatic) { vm in
                    step == 0
                        ? vm.int(at: "t", default: 0) + vm.int(at: "y", default: 0)
                        : vm.int(at: inputs[0], default: 0) + 1
                }
            }
            vm.setCommand(forKey: writer, dependsOn: [name(steps - 1)], execution: .automatic) { vm in
                vm["y"] = .int(Int64(vm.int(at: "t", default: 0) * 10))
                return 0
            }
            vm["t"] = 2
            #expect(vm.int(at: name(steps - 1)) == 22 + steps - 1, "trial \(trial)")
            #expect(!vm.needsExecuteCommand(forKey: name(steps - 1)))
        }
    }

    /// A long cycle of on-demand commands read by an automatic command:
    /// the round brings the cycle up to date as an explicit call outside
    /// a round does (each member runs once, the values and marks match),
    /// in time linear in its length. Clearing each member's mark as it ran
    /// walked the whole cycle at every run: 3,000 members took seconds.
    @Test func aLongOnDemandCycleReadInARoundRunsAsOutsideOne() {
        let members = 3_000
        let log = CallLog()
        func makeCycle(automaticReader: Bool) -> ViewModel {
            let vm = ViewModel(["x": 0])
            for member in 0..<members {
                let input = "y\((member + 1) % members)"
                vm.setCommand(forKey: "y\(member)", dependsOn: [input, "x"]) { vm in
                    log.append("member")
                    return vm.int(at: input, default: 0) % 7 + vm.int(at: "x", default: 0)
                }
            }
            if automaticReader {
                vm.setCommand(forKey: "reader", dependsOn: ["y0"], execution: .automatic) { vm in
                    vm.int(at: "y0", default: 0) * 2
                }
            }
            return vm
        }
        let inRound = makeCycle(automaticReader: true)
        let outside = makeCycle(automaticReader: false)
        _ = try? outside.executeCommandIfNeeded(forKey: "y0")
        for x in [1, 5] {
            let before = log.count("member")
            inRound["x"] = .int(Int64(x))
            #expect(log.count("member") - before == members, "x = \(x)")
            outside["x"] = .int(Int64(x))
            _ = try? outside.executeCommandIfNeeded(forKey: "y0")
            #expect(inRound.int(at: "reader") == 2 * outside.int(at: "y0", default: 0), "x = \(x)")
            let differing = (0..<members).filter { member in
                inRound.int(at: "y\(member)") != outside.int(at: "y\(member)")
                    || inRound.needsExecuteCommand(forKey: "y\(member)")
                        != outside.needsExecuteCommand(forKey: "y\(member)")
            }
            #expect(differing.isEmpty, "x = \(x)")
        }
    }

    /// A Swift Observation `onChange` that sets an input while a derived
    /// value is being stored: the command runs again for it.
    @Test func anInputSetWhileTheResultIsStoredRunsTheCommandAgain() {
        for trial in 0..<8 {
            let sum = "sum\(trial)"
            let vm = ViewModel(["x": 1, "y": 0])
            vm.setCommand(forKey: sum, dependsOn: ["x", "y"], execution: .automatic) { vm in
                vm.int(at: "x", default: 0) + vm.int(at: "y", default: 0)
            }
            nonisolated(unsafe) let observed = vm   // onChange runs inside the store, on this thread
            withObservationTracking { _ = vm[sum] } onChange: { observed["y"] = 100 }
            vm["x"] = 2
            #expect(vm.int(at: "y") == 100)
            #expect(vm.int(at: sum) == 102, "trial \(trial)")
            #expect(!vm.needsExecuteCommand(forKey: sum))
        }
    }

    /// A body that replaces its own command: the new command runs for the
    /// change, as setting it anywhere else would.
    @Test func aBodyThatReplacesItsOwnCommandLeavesTheNewResult() {
        let log = CallLog()
        let vm = ViewModel(["x": 1])
        vm.setCommand(forKey: "k", dependsOn: ["x"], execution: .automatic) { vm in
            let x = vm.int(at: "x", default: 0)
            if x == 2 {
                vm.setCommand(forKey: "k", dependsOn: ["x"], execution: .automatic) { vm in
                    log.append("new")
                    return vm.int(at: "x", default: 0) * 100
                }
            }
            return x
        }
        #expect(vm.int(at: "k") == 1)
        vm["x"] = 2
        #expect(vm.int(at: "k") == 200)
        #expect(!vm.needsExecuteCommand(forKey: "k"))
        vm["x"] = 3
        #expect(vm.int(at: "k") == 300)
        #expect(log.count("new") == 2)
    }
}
