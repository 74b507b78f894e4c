import Foundation
import Testing
import AGViewModel

/// A thread-safe log for `@Sendable` command closures.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
    func count(_ entry: String) -> Int { all.filter { $0 == entry }.count }
}

@Suite("Keyed commands")
struct CommandTests {
    /// The README example: a formatted price from `price` and `currency`.
    func priceViewModel(log: CallLog) -> ViewModel {
        ViewModel(["price": 12.5, "currency": "EUR"])
            .setCommand(for: .bookPriceText, dependsOn: .bookPrice, .bookCurrency) { vm in
                log.append("format")
                return String(format: "%.2f %@", vm[.bookPrice] ?? 0, vm[.bookCurrency] ?? "")
            }
    }

    @Test func executeNowStoresAndReturnsTheResult() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        #expect(try vm.executeCommand(for: .bookPriceText) == "12.50 EUR")
        #expect(vm[.bookPriceText] == "12.50 EUR")
        #expect(try vm.executeCommand(forKey: "priceText")?.json == "12.50 EUR")
        #expect(log.count("format") == 2)              // "now" always runs
    }

    @Test func dependentCommandStaysCorrect() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        #expect(vm.needsExecuteCommand(forKey: "priceText"))     // never run
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "12.50 EUR")
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "12.50 EUR")
        #expect(log.count("format") == 1)              // cached: not run again

        vm[.bookPrice] = 3                              // a dependency changes
        #expect(vm.needsExecuteCommand(forKey: "priceText"))
        vm[.bookCurrency] = "USD"                        // several changes, one run
        vm["unrelated"] = "x"
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "3.00 USD")
        #expect(log.count("format") == 2)

        vm.merge(["price": 7, "title": "T"])             // merges mark too
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "7.00 USD")
        vm.removeValue(for: .bookCurrency)                // and removals
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "7.00 ")
        #expect(log.count("format") == 4)
    }

    /// Inside a batch, a command run after a set sees it; the batch's end
    /// does not mark the fresh result stale again.
    @Test func commandsInsideABatchSeeTheValuesSetBeforeThem() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        try vm.executeCommandIfNeeded(for: .bookPriceText)
        let inside = try vm.performBatchUpdates {
            vm[.bookPrice] = 20
            return try vm.executeCommandIfNeeded(for: .bookPriceText)
        }
        #expect(inside == "20.00 EUR")
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "20.00 EUR")
        #expect(log.count("format") == 2)
        // A set the batch later undoes still leaves a correct result.
        vm.performBatchUpdates {
            vm[.bookCurrency] = "USD"
            vm[.bookCurrency] = "EUR"
        }
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "20.00 EUR")
    }

    @Test func markByHand() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        try vm.executeCommandIfNeeded(forKey: "priceText")
        vm.setNeedsExecuteCommand(for: .bookPriceText).setNeedsExecuteCommand(forKey: "priceText")
        try vm.executeCommandIfNeeded(forKey: "priceText")
        try vm.executeCommandIfNeeded(forKey: "priceText")
        #expect(log.count("format") == 2)
    }

    @Test func derivedValuesOfDerivedValuesAreBroughtUpToDate() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        vm.setCommand(forKey: "label", dependsOn: ["priceText", "title"]) { vm in
            log.append("label")
            return "\(vm.string(at: "title", default: "?")): \(vm[.bookPriceText] ?? "-")"
        }
        vm["title"] = "Book"
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "Book: 12.50 EUR")
        #expect(log.all == ["format", "label"])       // priceText ran first
        vm[.bookPrice] = 1
        #expect(vm.needsExecuteCommand(forKey: "label"))  // marked through priceText
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "Book: 1.00 EUR")
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "Book: 1.00 EUR")
        #expect(log.all == ["format", "label", "format", "label"])
    }

    @Test func dependencyCyclesEnd() throws {
        let vm = ViewModel(["seed": 1])
        vm.setCommand(forKey: "a", dependsOn: ["b", "seed"]) { vm in vm.int(at: "b", default: 0) + 1 }
        vm.setCommand(forKey: "b", dependsOn: ["a"]) { vm in vm.int(at: "a", default: 0) + 1 }
        #expect(try vm.executeCommandIfNeeded(forKey: "a") != nil)
        vm["seed"] = 2
        #expect(try vm.executeCommandIfNeeded(forKey: "b") != nil)
        // As documented: a cycle stays marked, so each call runs it again.
        #expect(vm.needsExecuteCommand(forKey: "a") && vm.needsExecuteCommand(forKey: "b"))
        let before = vm.int(at: "a", default: 0)
        try vm.executeCommandIfNeeded(forKey: "a")
        #expect(vm.int(at: "a", default: 0) > before)
    }

    @Test func ownKeyIsNotADependency() throws {
        let log = CallLog()
        let vm = ViewModel()
        vm.setCommand(forKey: "count", dependsOn: ["count"]) { vm in
            log.append("run")
            return vm.int(at: "count", default: 0) + 1
        }
        #expect(try vm.executeCommandIfNeeded(forKey: "count")?.json == 1)
        #expect(try vm.executeCommandIfNeeded(forKey: "count")?.json == 1)
        #expect(log.count("run") == 1)
    }

    @Test func nonExecutableCommandIsSkippedAndSaysSo() throws {
        let log = CallLog()
        let command = Command(isExecutable: false) { _ in log.append("run"); return "x" }
        let vm = ViewModel(["result": "before"]).setCommand(command, forKey: "result")
        #expect(throws: CommandError.notExecutable(key: "result")) { try vm.executeCommand(forKey: "result") }
        #expect(throws: CommandError.notExecutable(key: "result")) { try vm.executeCommandIfNeeded(forKey: "result") }
        #expect(vm["result"] == "before")
        #expect(log.all.isEmpty)
        #expect(vm.needsExecuteCommand(forKey: "result"))
        command.isExecutable = true
        #expect(try vm.executeCommandIfNeeded(forKey: "result")?.json == "x")
        #expect(CommandError.notExecutable(key: "result").description.contains("not executable"))
    }

    @Test func missingCommand() {
        let vm = ViewModel()
        #expect(throws: CommandError.noCommand(key: "nope")) { try vm.executeCommand(forKey: "nope") }
        #expect(throws: CommandError.noCommand(key: "nope")) { try vm.undoCommand(forKey: "nope") }
        #expect(!vm.needsExecuteCommand(forKey: "nope"))
    }

    @Test func removedCommandNoLongerRunsOrTracks() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        try vm.executeCommand(for: .bookPriceText)
        vm.removeCommand(for: .bookPriceText)
        #expect(vm.command(forKey: "priceText") == nil)
        vm[.bookPrice] = 99
        #expect(vm[.bookPriceText] == "12.50 EUR")     // value stays
        #expect(throws: CommandError.noCommand(key: "priceText")) { try vm.executeCommandIfNeeded(for: .bookPriceText) }
    }

    @Test func replacingACommandDropsTheOldDependencies() throws {
        let log = CallLog()
        let vm = priceViewModel(log: log)
        vm.setCommand(forKey: "priceText", dependsOn: ["title"]) { vm in vm.string(at: "title") }
        vm["title"] = "A"
        try vm.executeCommandIfNeeded(forKey: "priceText")
        vm[.bookPrice] = 5                              // no longer a dependency
        #expect(!vm.needsExecuteCommand(forKey: "priceText"))
        vm["title"] = "B"
        #expect(vm.needsExecuteCommand(forKey: "priceText"))
        #expect(log.all.isEmpty)
    }

    @Test func chainRunsForwardAndUndoWalksBackward() throws {
        let log = CallLog()
        let base = Command(dependsOn: ["price"], undo: { _ in log.append("undo base") }) { vm in
            log.append("base")
            return vm.double(at: "price", default: 0) * 2
        }
        let disabled = Command(isExecutable: false, undo: { _ in log.append("undo disabled") }) { _ in
            log.append("disabled")
            return "never"
        }
        let text = Command(undo: { vm in log.append("undo text"); vm["total"] = nil }) { vm in
            log.append("text")
            // The previous step's result is already stored under the key.
            return "total \(vm.double(at: "total", default: -1))"
        }
        base.then(disabled).then(text)
        #expect(base.next === disabled)
        #expect(text.previous === disabled)
        #expect(base.chain.count == 3)
        #expect(base.isUndoable)

        let vm = ViewModel(["price": 4]).setCommand(base, forKey: "total")
        #expect(try vm.executeCommand(forKey: "total")?.json == "total 8.0")
        #expect(log.all == ["base", "text"])           // the disabled step was skipped

        #expect(try vm.undoCommand(forKey: "total") == 3)
        #expect(Array(log.all.suffix(3)) == ["undo text", "undo disabled", "undo base"])
        #expect(vm["total"] == nil)
        #expect(vm.needsExecuteCommand(forKey: "total"))

        let plain = Command { _ in "x" }
        vm.setCommand(plain, forKey: "plain")
        #expect(throws: CommandError.notUndoable(key: "plain")) { try vm.undoCommand(forKey: "plain") }
    }

    /// Only a chain with no undo at all is refused: a keyed command without
    /// one still undoes the later steps that have one.
    /// A chain whose keyed command is in a dependency cycle: storing a
    /// step's result marks the command again through the cycle, and the
    /// key still ends holding the last step's result, as the call returns.
    @Test func aChainInADependencyCycleStoresItsLastStep() throws {
        for ifNeeded in [false, true] {
            let vm = ViewModel(["x": 1])
            let head = Command(dependsOn: ["b", "x"]) { vm in .json(.string("head \(vm.int(at: "x", default: 0))")) }
            head.then(Command { vm in .json(.string("tail \(vm.int(at: "x", default: 0))")) })
            vm.setCommand(head, forKey: "a")
            vm.setCommand(forKey: "b", dependsOn: ["a"]) { vm in vm.string(at: "a") }
            for x in [1, 2] {
                vm["x"] = .int(Int64(x))
                let result = ifNeeded ? try vm.executeCommandIfNeeded(forKey: "a") : try vm.executeCommand(forKey: "a")
                #expect(result?.json == .string("tail \(x)"), "if needed: \(ifNeeded)")
                #expect(vm["a"] == .string("tail \(x)"), "if needed: \(ifNeeded)")
            }
        }
    }

    /// Another run of the key, started while a chain stores its first
    /// step's result (an observer asks for it, a round runs it, the
    /// command is set again), stores the chain computed from the inputs as
    /// they are; the first run stores no more steps over it. Its tail adds
    /// one to the key's value, so a second tail run would show.
    @Test func aRunStartedWhileAStepIsStoredIsTheOneThatCounts() throws {
        enum Interference: CaseIterable { case observerSetsInput, observerMarks, roundRuns, automaticReaderSetsInput, observerSetsCommandAgain }
        for interference in Interference.allCases {
            let automatic = interference == .roundRuns || interference == .automaticReaderSetsInput
            let vm = ViewModel(["x": 1])
            let head = Command(dependsOn: ["x"], execution: automatic ? .automatic : .onDemand) { vm in
                .json(.int(Int64(vm.int(at: "x", default: 0) * 10)))
            }
            head.then(Command { vm in .json(.int(Int64(vm.int(at: "a", default: 0) + 1))) })
            vm.setCommand(head, forKey: "a")
            var armed = true
            let observation = vm.observe("a") { vm, _, change in
                guard armed, change.newValue?.json == .int(10), interference != .automaticReaderSetsInput else { return }
                armed = false
                switch interference {
                case .observerSetsInput: vm["x"] = 2; _ = try? vm.executeCommandIfNeeded(forKey: "a")
                case .observerMarks: vm.setNeedsExecuteCommand(forKey: "a"); _ = try? vm.executeCommandIfNeeded(forKey: "a")
                case .roundRuns: vm["x"] = 2
                case .observerSetsCommandAgain: vm.setCommand(head, forKey: "a"); _ = try? vm.executeCommandIfNeeded(forKey: "a")
                case .automaticReaderSetsInput: break
                }
            }
            if interference == .automaticReaderSetsInput {
                vm.setCommand(forKey: "c", dependsOn: ["a"], execution: .automatic) { (vm: ViewModel) -> Int? in
                    if armed, vm.int(at: "a", default: 0) == 10 { armed = false; vm["x"] = 2 }
                    return vm.int(at: "a", default: 0)
                }
            }
            _ = try vm.executeCommand(forKey: "a")
            let current = vm.int(at: "x", default: 0) * 10 + 1
            #expect(vm.needsExecuteCommand(forKey: "a") || vm.int(at: "a") == current, "\(interference): \(vm["a"] ?? nil)")
            withExtendedLifetime(observation) {}
        }
    }

    @Test func everyStepsDependenciesMarkTheKeyedCommand() throws {
        let vm = ViewModel(["price": 10, "rate": 2])
        let head = Command(dependsOn: ["price"]) { vm in .json(.double(vm.double(at: "price", default: 0))) }
        head.then(Command(dependsOn: ["rate"]) { vm in
            .json(.double(vm.double(at: "total", default: 0) * vm.double(at: "rate", default: 0)))
        })
        vm.setCommand(head, forKey: "total")
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 20.0)
        vm["rate"] = 3
        #expect(vm.needsExecuteCommand(forKey: "total"))
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 30.0)
        #expect(vm.copy().needsExecuteCommand(forKey: "total") == false)

        // A step's input computed by a command is brought up to date first.
        vm.setCommand(forKey: "rate", dependsOn: ["base"]) { (vm: ViewModel) -> Double? in vm.double(at: "base", default: 0) + 1 }
        vm["base"] = 4
        #expect(vm.needsExecuteCommand(forKey: "total"))
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 50.0)

        // A step linked after the command was set counts once it is set again.
        let copy = vm.copy()
        head.next?.then(Command(dependsOn: ["discount"]) { vm in
            .json(.double(vm.double(at: "total", default: 0) - vm.double(at: "discount", default: 0)))
        })
        vm["discount"] = 5
        #expect(!vm.needsExecuteCommand(forKey: "total"))
        vm.setCommand(head, forKey: "total")
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 45.0)
        vm["discount"] = 6
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 44.0)
        // Removing the command forgets every step's dependencies.
        vm.removeCommand(forKey: "total")
        vm["rate"] = 9
        #expect(!vm.needsExecuteCommand(forKey: "total"))
        // A copy keeps the dependencies its original had when copied.
        copy["base"] = 1
        #expect(copy.needsExecuteCommand(forKey: "total"))
    }

    @Test func undoRunsTheChainsUndosWhenTheKeyedCommandHasNone() throws {
        let head = Command { _ in "first" }
        let tail = Command(undo: { vm in vm["undone"] = true }) { _ in "second" }
        head.then(tail)
        let vm = ViewModel().setCommand(head, forKey: "k")
        #expect(try vm.executeCommand(forKey: "k")?.json == "second")
        #expect(try vm.undoCommand(forKey: "k") == 1)
        #expect(vm["undone"] == true)
        #expect(vm.needsExecuteCommand(forKey: "k"))
    }

    @Test func relinkingAndLoopingChains() throws {
        let a = Command { _ in 1 }, b = Command { _ in 2 }, c = Command { _ in 3 }
        a.then(b)
        a.then(c)                                       // replaces a → b
        #expect(a.next === c)
        #expect(b.previous == nil)
        c.then(a)                                       // a loop
        #expect(a.chain.map { $0 === a || $0 === c } == [true, true])
        let vm = ViewModel().setCommand(a, forKey: "n")
        #expect(try vm.executeCommand(forKey: "n")?.json == 3)
    }

    @Test func linkingACommandAfterAnotherTakesItFromItsEarlierPrevious() throws {
        let a = Command { _ in 1 }, b = Command { _ in 2 }, c = Command { _ in 3 }
        a.then(c)
        b.then(c)                                       // c now follows b only
        #expect(c.previous === b)
        #expect(a.next == nil)
        let vm = ViewModel().setCommand(a, forKey: "n")
        #expect(try vm.executeCommand(forKey: "n")?.json == 1)
    }

    @Test func closureCommandsAndCommandObjects() throws {
        let vm = ViewModel(["first": "Ada", "last": "Lovelace"])
        vm.setCommand(forKey: "full", dependsOn: ["first", "last"]) { vm in
            "\(vm.string(at: "first") ?? "") \(vm.string(at: "last") ?? "")"
        }
        vm.setCommand(Command(dependsOn: .bookTitle) { vm in vm[.bookTitle]?.count }, for: .bookPages)
        vm.setCommand(Command { vm in .payload(Shelf(row: 1, label: vm.string(at: "first") ?? "")) }, forKey: "shelf")
        #expect(try vm.executeCommandIfNeeded(forKey: "full")?.json == "Ada Lovelace")
        vm[.bookTitle] = "abc"
        #expect(try vm.executeCommandIfNeeded(for: .bookPages) == 3)
        #expect(try vm.executeCommand(for: .bookShelf) == Shelf(row: 1, label: "Ada"))
        #expect(vm.commandKeys == ["full", "pages", "shelf"])
        #expect(vm.command(forKey: "pages")?.dependencies == ["title"])
    }

    /// Writes to its ViewModel when deallocated: user code run while the
    /// ViewModel replaces a command.
    final class DeinitWriter {
        let viewModel: ViewModel
        init(_ viewModel: ViewModel) { self.viewModel = viewModel }
        deinit { viewModel["released"] = true }
    }

    @Test func replacedCommandsMayTouchTheViewModelWhenReleased() {
        let vm = ViewModel()
        do {
            let writer = DeinitWriter(vm)
            vm.setCommand(forKey: "k") { _ in writer.viewModel === vm ? 1 : 0 }
        }
        vm.setCommand(forKey: "k") { _ in 2 }            // releases the writer
        #expect(vm["released"] == true)
        do {
            let writer = DeinitWriter(vm)
            vm.setCommand(forKey: "other") { _ in writer.viewModel === vm ? 1 : 0 }
        }
        vm["released"] = nil
        vm.removeCommand(forKey: "other")
        #expect(vm["released"] == true)
    }

    private static func int(_ value: JSONValue?) -> Int64? {
        if case .int(let int)? = value { return int }
        return nil
    }

    /// A command body that changes one of its own inputs after reading
    /// them: its result is computed from overwritten inputs and must not
    /// pass for current.
    @Test func aResultFromOverwrittenInputsIsNotTakenAsCurrent() throws {
        let vm = ViewModel(["a": 1, "b": 2])
        var calls = 0
        vm.setCommand(Command(dependsOn: ["a", "b"]) { vm -> Int64? in
            let a = Int64(vm.int(at: "a") ?? 0), b = Int64(vm.int(at: "b") ?? 0)
            calls += 1
            if calls == 1 { vm["a"] = 5 }        // inputs read; now one changes
            return a * b
        }, forKey: "product")
        _ = try vm.executeCommandIfNeeded(forKey: "product")
        #expect(Self.int(vm["product"]) != 2 || vm.needsExecuteCommand(forKey: "product"),
                "1 × 2 passes for current after a became 5")
        _ = try vm.executeCommandIfNeeded(forKey: "product")
        #expect(Self.int(vm["product"]) == 10)
        #expect(!vm.needsExecuteCommand(forKey: "product"))
    }

    /// The same one level down: while a dependent command brings its input
    /// command up to date, the input's own input changes.
    @Test func aDependentOfAnInputThatChangedMidRunStaysMarked() throws {
        let vm = ViewModel(["a": 1, "b": 2])
        var calls = 0
        vm.setCommand(Command(dependsOn: ["a", "b"]) { vm -> Int64? in
            let a = Int64(vm.int(at: "a") ?? 0), b = Int64(vm.int(at: "b") ?? 0)
            calls += 1
            if calls == 1 { vm["a"] = 5 }
            return a * b
        }, forKey: "product")
        vm.setCommand(Command(dependsOn: ["product"]) { vm -> Int64? in
            Int64(vm.int(at: "product") ?? 0) + 1
        }, forKey: "next")
        _ = try vm.executeCommandIfNeeded(forKey: "next")
        if Self.int(vm["next"]) != 11 {
            #expect(vm.needsExecuteCommand(forKey: "next"), "stale next passes for current")
        }
        _ = try vm.executeCommandIfNeeded(forKey: "next")
        #expect(Self.int(vm["product"]) == 10)
        #expect(Self.int(vm["next"]) == 11)
    }

    /// A payload result differs from the last one on every run; an observer
    /// of the command's key that asks for its value "if needed" gets the
    /// stored result, and the body does not run again.
    @Test func anObserverAskingForTheCommandsValueDoesNotRunItAgain() throws {
        final class Styled { let text: String; init(_ text: String) { self.text = text } }
        final class Cell { var shown: [String] = [] }
        let vm = ViewModel(["title": "Dune"])
        var runs = 0
        let same = Styled("loop")
        vm.setCommand(Command(dependsOn: ["title"]) { vm in
            runs += 1
            // Past ten runs, the same object: no change, so a loop would end.
            return .payload(runs > 10 ? same : Styled(vm.string(at: "title", default: "")))
        }, forKey: "styledTitle")
        let cell = Cell()
        vm.addObserver(cell, forKey: "styledTitle") { cell, vm, _, _ in
            let styled = try? vm.executeCommandIfNeeded(forKey: "styledTitle")
            cell.shown.append((styled?.payload as? Styled)?.text ?? "-")
        }
        _ = try vm.executeCommandIfNeeded(forKey: "styledTitle")
        #expect(runs == 1)
        #expect(cell.shown == ["Dune"])
        vm["title"] = "Emma"
        _ = try vm.executeCommandIfNeeded(forKey: "styledTitle")
        #expect(runs == 2)
        #expect(cell.shown == ["Dune", "Emma"])
    }

    @Test func replacingACommandMarksTheCommandsBuiltOnIt() throws {
        let vm = ViewModel(["price": 1])
        vm.setCommand(forKey: "a", dependsOn: ["price"]) { (vm: ViewModel) -> Int? in vm.int(at: "price", default: 0) * 10 }
        vm.setCommand(forKey: "b", dependsOn: ["a"]) { (vm: ViewModel) -> Int? in vm.int(at: "a", default: 0) + 1 }
        #expect(try vm.executeCommandIfNeeded(forKey: "b")?.json == 11)
        vm.setCommand(forKey: "a", dependsOn: ["price"]) { (vm: ViewModel) -> Int? in vm.int(at: "price", default: 0) * 100 }
        #expect(vm.needsExecuteCommand(forKey: "a") && vm.needsExecuteCommand(forKey: "b"))
        #expect(try vm.executeCommandIfNeeded(forKey: "b")?.json == 101)
    }

    /// The body sets a bookkeeping key that differs on every run, and an
    /// observer of that key asks for the command's value "if needed" while
    /// the command runs: it gets the stored value, and the body runs once.
    @Test func anIfNeededCallFromInsideTheRunDoesNotRunItAgain() throws {
        let vm = ViewModel(["price": 2, "quantity": 3])
        var runs = 0
        vm.setCommand(forKey: "total", dependsOn: ["price", "quantity"]) { (vm: ViewModel) -> Int? in
            runs += 1
            // A bound, so the code before this rule fails here instead of hanging.
            if runs < 1_000 { vm["computedAt"] = .int(Int64(runs)) }
            return vm.int(at: "price", default: 0) * vm.int(at: "quantity", default: 0)
        }
        var seenDuringRun: [JSONValue?] = []
        let observation = vm.observe("computedAt") { vm, _, _ in
            seenDuringRun.append(try? vm.executeCommandIfNeeded(forKey: "total")?.json)
        }
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 6)
        #expect(runs == 1)
        #expect(seenDuringRun.count == 1 && seenDuringRun[0] == nil)   // nothing stored yet
        vm["quantity"] = 4
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 8)
        #expect(runs == 2)
        #expect(seenDuringRun.count == 2 && seenDuringRun[1] == 6)   // the value stored before this run
        // The same from the body itself.
        vm.setCommand(forKey: "selfAsking", dependsOn: ["price"]) { (vm: ViewModel) -> Int? in
            runs += 1
            let before = (try? vm.executeCommandIfNeeded(forKey: "selfAsking"))?.json?.intValue ?? 0
            return before + 1
        }
        runs = 0
        #expect(try vm.executeCommandIfNeeded(forKey: "selfAsking")?.json == 1)
        #expect(try vm.executeCommand(forKey: "selfAsking")?.json == 2)
        #expect(runs == 2)
        observation.cancel()
    }

    /// A command replaced (or removed) while it runs does not store its
    /// result under the key: the key stands for the new command now.
    @Test func aCommandReplacedWhileItRunsDoesNotStoreItsResult() throws {
        let vm = ViewModel()
        vm.setCommand(forKey: "label", dependsOn: []) { (vm: ViewModel) -> String? in
            vm.setCommand(forKey: "label", dependsOn: []) { (_: ViewModel) -> String? in "new" }
            return "old"
        }
        #expect(try vm.executeCommand(forKey: "label")?.json == "old")   // the caller gets its own run's result
        #expect(vm["label"] == nil)
        #expect(vm.needsExecuteCommand(forKey: "label"))
        #expect(try vm.executeCommandIfNeeded(forKey: "label")?.json == "new")
        #expect(vm["label"] == "new")

        vm.setCommand(forKey: "gone", dependsOn: []) { (vm: ViewModel) -> String? in
            vm.removeCommand(forKey: "gone")
            return "orphan"
        }
        #expect(try vm.executeCommand(forKey: "gone")?.json == "orphan")
        #expect(vm["gone"] == nil)
    }

    /// A body that clamps its own input: the run that changed the input
    /// does not store its result, so an "if needed" call made meanwhile
    /// (by an observer of the input) runs the command, whose result is
    /// stored and told.
    @Test func anIfNeededCallDuringARunThatChangedItsInputRunsIt() throws {
        let vm = ViewModel(["x": 5])
        var runs = 0
        vm.setCommand(forKey: "clamped", dependsOn: ["x"]) { (vm: ViewModel) -> Int? in
            runs += 1
            if vm.int(at: "x", default: 0) > 3 { vm["x"] = 3 }
            return vm.int(at: "x", default: 0) * 10
        }
        var seen: [JSONValue?] = []
        var told: [JSONValue?] = []
        let input = vm.observe("x") { vm, _, _ in seen.append(try? vm.executeCommandIfNeeded(forKey: "clamped")?.json) }
        let output = vm.observe("clamped") { _, _, change in told.append(change.newValue?.json) }
        #expect(try vm.executeCommandIfNeeded(forKey: "clamped")?.json == 30)
        #expect(seen == [30] && told == [30] && vm["clamped"] == 30)
        #expect(runs == 2 && !vm.needsExecuteCommand(forKey: "clamped"))
        withExtendedLifetime((input, output)) {}
    }

    /// A run whose input changed meanwhile must not store its older result
    /// over the one a newer run, started by an observer of the input, has
    /// already stored.
    @Test func anOlderRunDoesNotReplaceTheResultOfANewerOne() throws {
        let vm = ViewModel(["x": 5])
        vm.setCommand(forKey: "clamped", dependsOn: ["x"]) { (vm: ViewModel) -> Int? in
            let x = vm.int(at: "x", default: 0)
            if x > 3 { vm["x"] = 3 }
            return x * 10
        }
        let input = vm.observe("x") { vm, _, _ in _ = try? vm.executeCommandIfNeeded(forKey: "clamped") }
        _ = try vm.executeCommandIfNeeded(forKey: "clamped")
        #expect(vm["clamped"] == 30)
        #expect(!vm.needsExecuteCommand(forKey: "clamped"))
        withExtendedLifetime(input) {}
    }

    /// A command left marked because an input command went stale during
    /// the update is still not run again by an "if needed" call from its
    /// own body.
    @Test func anIfNeededCallFromInsideARunLeftMarkedDoesNotRunItAgain() throws {
        let vm = ViewModel(["x": 0])
        let log = CallLog()
        vm.setCommand(forKey: "a", dependsOn: ["x"]) { (vm: ViewModel) -> Int? in
            let x = vm.int(at: "x", default: 0)
            if x == 0 { vm["x"] = 1 }                   // changes its own input once
            return x
        }
        vm.setCommand(forKey: "b", dependsOn: ["a"]) { (vm: ViewModel) -> Int? in
            log.append("b")
            if log.count("b") == 1 { _ = try? vm.executeCommandIfNeeded(forKey: "b") }
            return vm.int(at: "a", default: -1)
        }
        _ = try vm.executeCommandIfNeeded(forKey: "b")
        #expect(log.count("b") == 1)
    }
}
