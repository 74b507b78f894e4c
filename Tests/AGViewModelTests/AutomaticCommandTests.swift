import Observation
import Testing
import AGViewModel

@Suite("Automatic commands")
struct AutomaticCommandTests {
    /// A formatted price kept current from `price` and `currency`.
    func priceViewModel(log: CallLog) -> ViewModel {
        ViewModel(["price": 12.5, "currency": "EUR"])
            .setCommand(for: .bookPriceText, dependsOn: .bookPrice, .bookCurrency, execution: .automatic) { vm in
                log.append("format")
                return "\(vm[.bookPrice] ?? 0) \(vm[.bookCurrency] ?? "")"
            }
    }

    @Test func runsWhenSetAndWhenAnInputChanges() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        #expect(vm[.bookPriceText] == "12.5 EUR")
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))
        #expect(log.count("format") == 1)

        vm[.bookPrice] = 35
        #expect(vm[.bookPriceText] == "35.0 EUR")
        vm.removeValue(for: .bookCurrency)
        #expect(vm[.bookPriceText] == "35.0 ")
        vm.merge(["currency": "USD", "title": "T"])
        #expect(vm[.bookPriceText] == "35.0 USD")
        #expect(log.count("format") == 4)

        vm["title"] = "Other"                 // not an input
        vm[.bookPrice] = 35                    // the same value: not a change
        #expect(log.count("format") == 4)
        // Asking still works, and runs nothing: the value is current.
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "35.0 USD")
        #expect(log.count("format") == 4)
    }

    /// A merge changes key by key, and the value is current at each; key
    /// observers hear of the merge once it is complete, so an observer of
    /// an input reads the value derived from the whole update. Removing
    /// every key leaves the result for no inputs.
    @Test func mergesAndRemovalsKeepItCurrentAtEachKey() {
        let vm = priceViewModel(log: CallLog())
        var seen: [String] = []
        let token = vm.observe(.bookPrice) { vm, _, _ in seen.append(vm[.bookPriceText] ?? "-") }
        vm.merge(["price": 1, "currency": "USD"])
        #expect(vm[.bookPriceText] == "1.0 USD")
        vm.deepMerge(["price": 2, "currency": "GBP"])
        #expect(vm[.bookPriceText] == "2.0 GBP")
        #expect(seen == ["1.0 USD", "2.0 GBP"])     // never half an update

        vm.removeAll()
        #expect(vm.keys == ["priceText"])
        #expect(vm[.bookPriceText] == "0.0 ")
        _ = token
    }

    @Test func onDemandCommandsStillWaitToBeAsked() {
        let log = CallLog()
        let vm = ViewModel(["price": 1])
            .setCommand(for: .bookPriceText, dependsOn: .bookPrice) { vm in
                log.append("format")
                return "\(vm[.bookPrice] ?? 0)"
            }
        vm[.bookPrice] = 2
        #expect(vm[.bookPriceText] == nil)
        #expect(log.all.isEmpty)
        #expect(vm.command(forKey: "priceText")?.execution == .onDemand)
    }

    /// An observer of the input reads the derived value current; the
    /// derived key's observers hear its change.
    @Test func observersOfTheInputSeeTheDerivedValueCurrent() {
        let vm = priceViewModel(log: CallLog())
        var seen: [String] = []
        let input = vm.observe(.bookPrice) { vm, _, new in
            seen.append("price \(new ?? 0): \(vm[.bookPriceText] ?? "")")
        }
        let derived = vm.observe(.bookPriceText) { _, old, new in
            seen.append("priceText \(old ?? "") -> \(new ?? "")")
        }
        vm[.bookPrice] = 20
        #expect(seen == ["priceText 12.5 EUR -> 20.0 EUR", "price 20.0: 20.0 EUR"])
        _ = (input, derived)
    }

    /// What a SwiftUI view relies on: a body reading the derived key is
    /// told when an input changes.
    @Test func observationTrackingHearsTheDerivedKeyChange() {
        let vm = priceViewModel(log: CallLog())
        let fired = Recorder<Bool>()
        withObservationTracking { _ = vm[.bookPriceText] } onChange: { fired.append(true) }
        vm[.bookCurrency] = "GBP"
        #expect(fired.count == 1)
        #expect(vm[.bookPriceText] == "12.5 GBP")
    }

    /// Inside a batch the value is current at each set; observers hear one
    /// change of it when the batch ends.
    @Test func insideABatchTheValueIsCurrentAtEachSet() {
        let vm = priceViewModel(log: CallLog())
        var changes: [String] = []
        let token = vm.observe(.bookPriceText) { _, old, new in changes.append("\(old ?? "") -> \(new ?? "")") }
        vm.performBatchUpdates {
            vm[.bookPrice] = 1
            #expect(vm[.bookPriceText] == "1.0 EUR")
            vm[.bookCurrency] = "USD"
            #expect(vm[.bookPriceText] == "1.0 USD")
            #expect(changes.isEmpty)
        }
        #expect(changes == ["12.5 EUR -> 1.0 USD"])
        _ = token
    }

    /// Running balances, each an automatic command on the one before: one
    /// change brings the whole ledger up to date, each step once, in a
    /// loop (a chain this long would overflow the stack if each store ran
    /// the next step inside it).
    @Test func aLongChainOfDerivedValuesRunsEachStepOnce() {
        let count = 5_000
        let log = CallLog()
        let ledger = ViewModel(["amount0": 1])
        for index in 1..<count {
            ledger["amount\(index)"] = 1
        }
        ledger.setCommand(forKey: "balance0", dependsOn: ["amount0"], execution: .automatic) { vm in
            vm.int(at: "amount0", default: 0)
        }
        for index in 1..<count {
            ledger.setCommand(forKey: "balance\(index)", dependsOn: ["balance\(index - 1)", "amount\(index)"],
                              execution: .automatic) { vm in
                if index == count - 1 { log.append("last") }
                return vm.int(at: "balance\(index - 1)", default: 0) + vm.int(at: "amount\(index)", default: 0)
            }
        }
        #expect(ledger.int(at: "balance\(count - 1)", default: 0) == count)
        #expect(log.count("last") == 1)

        ledger["amount0"] = 101
        #expect(ledger.int(at: "balance\(count - 1)", default: 0) == count + 100)
        #expect(log.count("last") == 2)
        #expect(!ledger.needsExecuteCommand(forKey: "balance\(count - 1)"))
    }

    /// An automatic command built on an on-demand one brings it up to date
    /// first.
    @Test func anOnDemandInputIsBroughtUpToDateFirst() {
        let vm = ViewModel(["price": 10, "rate": 2])
        vm.setCommand(forKey: "net", dependsOn: ["price", "rate"]) { vm in
            vm.double(at: "price", default: 0) * vm.double(at: "rate", default: 0)
        }
        vm.setCommand(forKey: "label", dependsOn: ["net"], execution: .automatic) { vm in
            "net \(vm.double(at: "net", default: -1))"
        }
        #expect(vm.string(at: "label") == "net 20.0")
        vm["rate"] = 3
        #expect(vm.string(at: "label") == "net 30.0")
        #expect(!vm.needsExecuteCommand(forKey: "net"))
    }

    /// Commands that depend on each other in a cycle, with a result that
    /// changes every run, run once per change and stay marked: the change
    /// ends.
    @Test func aCycleRunsOncePerChange() {
        let log = CallLog()
        let vm = ViewModel(["seed": 0])
        vm.setCommand(forKey: "a", dependsOn: ["seed", "b"], execution: .automatic) { vm in
            log.append("a")
            return vm.int(at: "b", default: 0) + 1
        }
        vm.setCommand(forKey: "b", dependsOn: ["a"], execution: .automatic) { vm in
            log.append("b")
            return vm.int(at: "a", default: 0) + 1
        }
        let before = log.all.count
        vm["seed"] = 1
        let runs = log.all.count - before
        #expect(runs == 2)                 // each once
        #expect(vm.needsExecuteCommand(forKey: "a") || vm.needsExecuteCommand(forKey: "b"))
    }

    /// A body that changes one of its own inputs runs once per change.
    @Test func aBodyChangingItsOwnInputRunsOncePerChange() {
        let log = CallLog()
        let vm = ViewModel(["count": 0])
        vm.setCommand(forKey: "counted", dependsOn: ["count"], execution: .automatic) { vm in
            log.append("run")
            vm["count"] = vm.int(at: "count", default: 0) + 1
            return vm.int(at: "count", default: 0)
        }
        #expect(log.count("run") == 1)
        vm["count"] = 10
        #expect(log.count("run") == 2)
        #expect(vm.int(at: "count", default: 0) == 11)
    }

    @Test func aCommandThatIsNotExecutableStaysMarked() throws {
        let command = Command(dependsOn: ["price"], isExecutable: false, execution: .automatic) { vm in
            "\(vm.double(at: "price", default: 0))"
        }
        let vm = ViewModel(["price": 1]).setCommand(command, forKey: "priceText")
        vm["price"] = 2
        #expect(vm["priceText"] == nil)
        #expect(vm.needsExecuteCommand(forKey: "priceText"))

        command.isExecutable = true
        #expect(try vm.executeCommandIfNeeded(forKey: "priceText")?.json == "2.0")
        vm["price"] = 3                           // runs again, now it can
        #expect(vm.string(at: "priceText") == "3.0")
    }

    /// Left marked behind commands run on demand, it still runs at the
    /// next change of an input further up, once it can.
    @Test func aCommandLeftMarkedBehindOnDemandOnesRunsAtTheNextChange() {
        for onDemandSteps in 1...2 {
            let vm = ViewModel(["x": 1])
            vm.setCommand(forKey: "a", dependsOn: ["x"]) { (vm: ViewModel) -> Int? in vm.int(at: "x", default: 0) * 10 }
            if onDemandSteps == 2 {
                vm.setCommand(forKey: "a2", dependsOn: ["a"]) { (vm: ViewModel) -> Int? in vm.int(at: "a") }
            }
            let input = onDemandSteps == 2 ? "a2" : "a"
            let command = Command(dependsOn: [input], isExecutable: false, execution: .automatic) { vm in
                .json(.int(Int64(vm.int(at: input, default: -1) + 1)))
            }
            vm.setCommand(command, forKey: "b")
            vm["x"] = 2
            #expect(vm["b"] == nil)
            command.isExecutable = true
            vm["x"] = 3
            #expect(vm.int(at: "b") == 31, "\(onDemandSteps) on-demand steps")
            vm["x"] = 4
            #expect(vm.int(at: "b") == 41, "\(onDemandSteps) on-demand steps")
        }
    }

    /// In one round: a command left marked by its own body (it changed its
    /// own input) still runs again when another body changes an input of
    /// it, whether directly or through a command run on demand.
    @Test(arguments: [false, true])
    func aCommandItsOwnBodyLeftMarkedRunsAgainInTheSameRound(throughOnDemand: Bool) {
        let vm = ViewModel(["x": 0, "y": 0, "z": 0])
        if throughOnDemand {
            vm.setCommand(forKey: "o", dependsOn: ["y", "z"]) { (vm: ViewModel) -> Int? in
                vm.int(at: "y", default: 0) + vm.int(at: "z", default: 0)
            }
        }
        let inputs = throughOnDemand ? ["o", "x"] : ["y", "z", "x"]
        vm.setCommand(forKey: "a", dependsOn: inputs, execution: .automatic) { (vm: ViewModel) -> Int? in
            let x = vm.int(at: "x", default: 0)
            vm["z"] = .int(Int64(x))          // its own input
            vm["w"] = .int(Int64(x))          // queues b after it
            let sum = throughOnDemand ? vm.int(at: "o", default: 0) : vm.int(at: "y", default: 0) + vm.int(at: "z", default: 0)
            return sum * 100 + x
        }
        vm.setCommand(forKey: "b", dependsOn: ["w"], execution: .automatic) { (vm: ViewModel) -> Int? in
            let w = vm.int(at: "w", default: 0)
            vm["y"] = .int(Int64(w * 10))
            return w
        }
        vm["x"] = 1
        #expect(vm.int(at: "a") == 1101)
        #expect(!vm.needsExecuteCommand(forKey: "a"))
    }

    /// Marking by hand runs it too; a copy keeps its own values current.
    @Test func markingByHandAndCopies() {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        vm.setNeedsExecuteCommand(for: .bookPriceText)
        #expect(log.count("format") == 2)
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))

        let copy = vm.copy()
        copy[.bookPrice] = 99
        #expect(copy[.bookPriceText] == "99.0 EUR")
        #expect(vm[.bookPriceText] == "12.5 EUR")
    }

    /// Two automatic commands share an input; one body also sets the
    /// other's second input. Whichever runs first (the order of a set, so
    /// several key names), the other ends current: a command whose input
    /// changes after it ran runs again.
    @Test func aCommandWhoseInputAnotherBodySetsRunsAgain() {
        for trial in 0..<16 {
            let total = "total\(trial)", doubled = "doubled\(trial)"
            let vm = ViewModel(["x": 1, "y": 0])
            vm.setCommand(forKey: doubled, dependsOn: ["x"], execution: .automatic) { vm in
                let value = vm.int(at: "x", default: 0) * 2
                vm["y"] = value
                return value
            }
            vm.setCommand(forKey: total, dependsOn: ["x", "y"], execution: .automatic) { vm in
                vm.int(at: "x", default: 0) + vm.int(at: "y", default: 0)
            }
            for x in [3, 7, 10] {
                vm["x"] = x
                #expect(vm.int(at: doubled) == 2 * x)
                #expect(vm.int(at: total) == 3 * x, "trial \(trial), x = \(x)")
                #expect(!vm.needsExecuteCommand(forKey: total))
            }
        }
    }

    /// The observers of a key a round changes hear of it when every
    /// automatic command has run: an observer of one derived key reads
    /// another current, and one that sets an input starts a round of its
    /// own, whose value its observers read current too.
    @Test func observersOfDerivedKeysReadEveryDerivedValueCurrent() {
        for trial in 0..<16 {
            let label = "label\(trial)", double = "double\(trial)", sum = "sum\(trial)"
            let vm = ViewModel(["x": 1, "offset": 0])
            vm.setCommand(forKey: double, dependsOn: ["x"], execution: .automatic) { vm in
                vm.int(at: "x", default: 0) * 2
            }
            vm.setCommand(forKey: label, dependsOn: ["x"], execution: .automatic) { vm in
                "x = \(vm.int(at: "x", default: 0))"
            }
            vm.setCommand(forKey: sum, dependsOn: ["x", "offset"], execution: .automatic) { vm in
                vm.int(at: "x", default: 0) + vm.int(at: "offset", default: 0)
            }
            var seen: [String] = []
            let onDouble = vm.observe(ViewModel.Key<Int>(double)) { vm, _, new in
                seen.append("\(new ?? -1): \(vm.string(at: label) ?? "-")")
                vm["offset"] = new ?? 0
            }
            let onSum = vm.observe(ViewModel.Key<Int>(sum)) { vm, _, new in
                let current = vm.int(at: "x", default: 0) + vm.int(at: "offset", default: 0)
                #expect(vm.int(at: sum) == current)
                seen.append("sum \(new ?? -1)")
            }
            vm["x"] = 5
            #expect(vm.int(at: sum) == 15)
            #expect(seen.contains("10: x = 5"), "trial \(trial)")
            #expect(seen.last == "sum 15", "trial \(trial)")
            _ = (onDouble, onSum)
        }
    }

    /// Bodies that change each other's inputs to a new value every run (a
    /// cycle the dependencies do not show) end: each runs at most as
    /// often as there are automatic commands, plus once more.
    @Test func bodiesChangingEachOthersInputsEnd() {
        let log = CallLog()
        let vm = ViewModel(["x": 0, "y": 0, "z": 0])
        vm.setCommand(forKey: "a", dependsOn: ["x", "z"], execution: .automatic) { vm in
            log.append("a")
            vm["y"] = vm.int(at: "y", default: 0) + 1
            return vm.int(at: "z", default: 0)
        }
        vm.setCommand(forKey: "c", dependsOn: ["y"], execution: .automatic) { vm in
            log.append("c")
            vm["z"] = vm.int(at: "z", default: 0) + 1
            return vm.int(at: "y", default: 0)
        }
        let before = log.all.count
        vm["x"] = 1
        #expect(log.all.count - before <= 2 * (2 + 1))
        #expect(log.all.count - before >= 2)
    }

    /// `removeAll` ends with every automatic key holding its result for an
    /// empty ViewModel, whether the derived key comes before or after its
    /// inputs.
    @Test func removeAllLeavesTheResultForNoInputsInAnyKeyOrder() {
        let vm = ViewModel()
        vm.setCommand(for: .bookPriceText, dependsOn: .bookPrice, execution: .automatic) { vm in
            "\(vm[.bookPrice] ?? 0)"
        }
        vm[.bookPrice] = 3
        #expect(vm.keys == ["priceText", "price"])
        vm.removeAll()
        #expect(vm.keys == ["priceText"])
        #expect(vm[.bookPriceText] == "0.0")
    }

    /// A body that runs a command and then changes that command's input:
    /// the command runs again for the later change.
    @Test func aCommandRunByABodyRunsAgainWhenTheBodyChangesItsInput() {
        for forced in [false, true] {
            let vm = ViewModel(["x": 0, "y": 0])
            vm.setCommand(forKey: "k", dependsOn: ["y"], execution: .automatic) { vm in
                vm.int(at: "y", default: 0) + 1
            }
            vm.setCommand(forKey: "q", dependsOn: ["x"], execution: .automatic) { vm in
                let x = vm.int(at: "x", default: 0)
                vm["y"] = x
                _ = forced ? try? vm.executeCommand(forKey: "k") : try? vm.executeCommandIfNeeded(forKey: "k")
                vm["y"] = x * 10
                return x
            }
            vm["x"] = 2
            #expect(vm.int(at: "k") == 21, "forced: \(forced)")
            #expect(!vm.needsExecuteCommand(forKey: "k"))
        }
    }

    /// An on-demand input that another automatic body makes stale while
    /// the commands built on it are brought up to date: they end current,
    /// whichever runs first.
    @Test func anOnDemandInputMadeStaleByAnotherBodyIsBroughtUpToDate() {
        for trial in 0..<32 {
            let total = "total\(trial)", writer = "writer\(trial)"
            let vm = ViewModel(["i": 1, "h": 10])
            vm.setCommand(forKey: writer, dependsOn: ["i"], execution: .automatic) { vm in
                vm["h"] = vm.int(at: "i", default: 0) * 10
                return vm.int(at: "i", default: 0)
            }
            vm.setCommand(forKey: "sum", dependsOn: ["i", "h"]) { vm in
                vm.int(at: "i", default: 0) + vm.int(at: "h", default: 0)
            }
            vm.setCommand(forKey: total, dependsOn: ["sum", writer], execution: .automatic) { vm in
                vm.int(at: "sum", default: 0) + vm.int(at: writer, default: 0)
            }
            vm["i"] = 2
            #expect(vm.int(at: total) == 24, "trial \(trial)")
            #expect(!vm.needsExecuteCommand(forKey: total))
        }
    }
}

