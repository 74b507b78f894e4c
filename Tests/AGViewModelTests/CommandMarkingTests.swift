import Testing
@testable import AGViewModel

/// Which commands need to run, and what they compute, checked against a
/// plain model of the rules: a change marks every command downstream of
/// the key; a run first brings its command inputs up to date, then clears
/// its mark unless an executable input is still marked; a result that
/// differs from the stored value is a change.
@Suite("Command marking")
struct CommandMarkingTests {
    /// Counts the runs of each row's command.
    final class RunCounts {
        var rows: [Int]
        init(_ count: Int) { rows = [Int](repeating: 0, count: count) }
    }

    /// A ledger of `rows` amounts of 1: each balance is a command on the
    /// balance before it plus its amount.
    static func ledger(rows: Int, counting runs: RunCounts? = nil) -> ViewModel {
        let vm = ViewModel()
        for row in 0 ..< rows {
            vm["amount\(row)"] = .int(1)
            let dependencies = row == 0 ? ["amount0"] : ["balance\(row - 1)", "amount\(row)"]
            vm.setCommand(forKey: "balance\(row)", dependsOn: dependencies) { (vm: ViewModel) -> Int? in
                runs?.rows[row] += 1
                let before = row == 0 ? 0 : vm.int(at: "balance\(row - 1)", default: 0)
                return before + vm.int(at: "amount\(row)", default: 0)
            }
        }
        return vm
    }

    /// A ledger as long as a real one brings its balances up to date one
    /// after the other without a stack frame per row: 20,000 rows on a
    /// 512 KB thread (a secondary thread's size on Apple platforms).
    @Test func aLongLedgerRunsWithoutDeepRecursion() throws {
        let rows = 20_000
        let balances = onSmallStackThread(stackSize: 512 * 1024) { () -> [Int?] in
            let vm = Self.ledger(rows: rows)
            let first = try? vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")?.json?.intValue
            vm["amount0"] = .int(5)
            let second = try? vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")?.json?.intValue
            return [first, second, vm.int(at: "balance\(rows / 2)")]
        }
        #expect(balances == [rows, rows + 4, rows / 2 + 5])
    }

    /// Editing one amount of a ledger reruns that row and the rows after
    /// it, once each.
    @Test func aLedgerEditRerunsTheRowsAfterItOnce() throws {
        let rows = 300
        let counts = RunCounts(rows)
        let vm = Self.ledger(rows: rows, counting: counts)
        var runs: [Int] { counts.rows }
        #expect(try vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")?.json == .int(Int64(rows)))
        #expect(runs.allSatisfy { $0 == 1 })

        for edit in [200, 0, 299, 200] {
            counts.rows = [Int](repeating: 0, count: rows)
            vm["amount\(edit)"] = .int(Int64(vm.int(at: "amount\(edit)", default: 0) + 10))
            #expect((0 ..< rows).allSatisfy { vm.needsExecuteCommand(forKey: "balance\($0)") == ($0 >= edit) })
            _ = try vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")
            #expect(runs == (0 ..< rows).map { $0 >= edit ? 1 : 0 })
            #expect(!(0 ..< rows).contains { vm.needsExecuteCommand(forKey: "balance\($0)") })
        }
        #expect(vm.int(at: "balance\(rows - 1)") == rows + 40)
        #expect(vm.int(at: "balance199") == 200 + 10)
    }

    /// A stored balance marks the row after it and no further: the rows
    /// beyond are marked already, so the walk stops there. The last row
    /// hears of an edit twice (the edit's walk, then its input's result),
    /// however many rows rerun before it.
    @Test func aStoredResultMarksOnlyWhatIsNotMarkedYet() throws {
        let rows = 300
        let vm = Self.ledger(rows: rows)
        _ = try vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")
        let before = try #require(vm.commandSlots["balance\(rows - 1)"]).generation
        vm["amount100"] = 11
        _ = try vm.executeCommandIfNeeded(forKey: "balance\(rows - 1)")
        let after = try #require(vm.commandSlots["balance\(rows - 1)"]).generation
        #expect(after - before == 2)
        #expect(vm.int(at: "balance\(rows - 1)") == rows + 10)
    }

    /// An input command that is not executable keeps its mark while the
    /// command built on it runs; once it is executable again, a change
    /// before it still reaches the command built on it.
    @Test func aChangeReachesPastAnInputThatWasNotExecutable() throws {
        let vm = ViewModel(["price": 1])
        let tax = Command(dependsOn: ["price"]) { vm -> Int64? in Int64(vm.int(at: "price", default: 0) * 2) }
        vm.setCommand(tax, forKey: "tax")
        vm.setCommand(forKey: "total", dependsOn: ["tax"]) { (vm: ViewModel) -> Int? in vm.int(at: "tax", default: 0) + 1 }
        _ = try vm.executeCommandIfNeeded(forKey: "total")
        tax.isExecutable = false
        vm["price"] = 5
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 3)
        #expect(vm.needsExecuteCommand(forKey: "tax") && !vm.needsExecuteCommand(forKey: "total"))
        tax.isExecutable = true
        vm["price"] = 7
        #expect(vm.needsExecuteCommand(forKey: "total"))
        #expect(try vm.executeCommandIfNeeded(forKey: "total")?.json == 15)
    }

    @Test(arguments: 0 ..< 40)
    func randomEditsAgreeWithTheModel(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var model = Model(random: &random)
        var vm = ViewModel()
        for input in model.inputs { vm[input] = .int(0) }
        for key in model.commandKeys { model.setCommand(forKey: key, in: vm) }

        for step in 0 ..< 300 {
            let key = model.commandKeys.randomElement(using: &random)!
            switch Int.random(in: 0 ..< 100, using: &random) {
            case ..<30:
                let input = model.inputs.randomElement(using: &random)!
                let value = Int64.random(in: 0 ..< 4, using: &random)
                vm[input] = .int(value)
                model.set(input, to: value)
            case ..<55:
                let result = try? vm.executeCommandIfNeeded(forKey: key)
                let expected = model.execute(key, force: false)
                #expect(result?.json?.intValue.map(Int64.init) == expected, "seed \(seed) step \(step)")
            case ..<65:
                let result = try? vm.executeCommand(forKey: key)
                let expected = model.execute(key, force: true)
                #expect(result?.json?.intValue.map(Int64.init) == expected, "seed \(seed) step \(step)")
            case ..<72:
                vm.setNeedsExecuteCommand(forKey: key)
                model.mark([key])
            case ..<82:
                if let command = vm.command(forKey: key) {
                    command.isExecutable.toggle()
                    model.executable[key] = command.isExecutable
                }
            case ..<90:
                model.setCommand(forKey: key, in: vm)
            case ..<95:
                vm.removeCommand(forKey: key)
                model.hasCommand[key] = false
            default:
                vm = vm.copy()
            }
            for key in model.commandKeys {
                #expect(vm.needsExecuteCommand(forKey: key) == (model.hasCommand[key]! && model.marked.contains(key)),
                        "seed \(seed) step \(step): \(key)")
                #expect(vm.int(at: key).map(Int64.init) == model.values[key], "seed \(seed) step \(step): \(key)")
            }
        }
    }

    /// Commands over a few inputs, each depending on inputs and earlier
    /// commands, some on later ones (cycles), each summing what it depends on.
    struct Model {
        let inputs = ["i0", "i1", "i2"]
        let commandKeys = (0 ..< 8).map { "c\($0)" }
        var dependencies: [String: [String]] = [:]
        var hasCommand: [String: Bool] = [:]
        var executable: [String: Bool] = [:]
        var marked: Set<String> = []
        var values: [String: Int64] = [:]

        init(random: inout SplitMix64) {
            for input in inputs { values[input] = 0 }
            for (index, key) in commandKeys.enumerated() {
                hasCommand[key] = false
                let candidates = inputs + commandKeys.prefix(index)
                var chosen = candidates.filter { _ in Bool.random(using: &random) }
                if Int.random(in: 0 ..< 6, using: &random) == 0 {
                    chosen.append(commandKeys.randomElement(using: &random)!)
                }
                dependencies[key] = chosen
            }
        }

        mutating func setCommand(forKey key: String, in vm: ViewModel) {
            let dependencies = dependencies[key]!
            let offset = Int64(key.dropFirst())!
            vm.setCommand(Command(dependsOn: dependencies) { vm -> Int64? in
                (dependencies.reduce(offset) { $0 + Int64(vm.int(at: $1) ?? 0) }) % 1000
            }, forKey: key)
            hasCommand[key] = true
            executable[key] = true
            mark([key])
        }

        func dependents(of key: String) -> [String] {
            commandKeys.filter { hasCommand[$0]! && $0 != key && dependencies[$0]!.contains(key) }
        }

        mutating func mark(_ keys: [String]) {
            var pending = keys
            var seen: Set<String> = []
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                if hasCommand[next] == true { marked.insert(next) }
                pending += dependents(of: next)
            }
        }

        mutating func set(_ key: String, to value: Int64) {
            guard values[key] != value else { return }
            values[key] = value
            mark(dependents(of: key))
        }

        mutating func execute(_ key: String, force: Bool) -> Int64? {
            var visiting: Set<String> = []
            var ran: Set<String> = []
            return execute(key, force: force, visiting: &visiting, ran: &ran)
        }

        private mutating func execute(_ key: String, force: Bool, visiting: inout Set<String>, ran: inout Set<String>) -> Int64? {
            guard hasCommand[key]! else { return nil }
            guard force || marked.contains(key) else { return values[key] }
            guard executable[key]! else { return nil }
            visiting.insert(key)
            for dependency in dependencies[key]! where dependency != key && !visiting.contains(dependency) {
                // A dependency this call already ran keeps its value.
                guard hasCommand[dependency] == true, !ran.contains(dependency),
                      marked.contains(dependency), executable[dependency]! else { continue }
                _ = execute(dependency, force: false, visiting: &visiting, ran: &ran)
                ran.insert(dependency)
            }
            visiting.remove(key)
            guard force || marked.contains(key) else { return values[key] }
            guard executable[key]! else { return nil }
            let staleInput = dependencies[key]!.contains { dependency in
                dependency != key && !visiting.contains(dependency) && hasCommand[dependency] == true
                    && marked.contains(dependency) && executable[dependency]!
            }
            if staleInput { marked.insert(key) } else { marked.remove(key) }
            let result = dependencies[key]!.reduce(Int64(key.dropFirst())!) { $0 + (values[$1] ?? 0) } % 1000
            set(key, to: result)
            return result
        }
    }
}

extension CommandMarkingTests {
    final class RunCounter { var runs = 0 }

    /// A cycle of on-demand commands whose results change every run (new
    /// ViewModels): one "if needed" call runs each member once, not once
    /// per path through the cycle (150,048 runs for these 24 commands
    /// when a dependency run again was walked again).
    @Test func oneCallRunsEachCommandOfAChangingCycleOnce() throws {
        let n = 24
        for dense in [false, true] {
            let vm = ViewModel()
            let counter = RunCounter()
            let size = dense ? 9 : n
            for i in 0 ..< size {
                let dependencies = dense
                    ? (0 ..< size).filter { $0 != i }.map { "c\($0)" } + ["x"]
                    : ["c\((i + 1) % size)", "c\((i + 2) % size)", "x"]
                vm.setCommand(forKey: "c\(i)", dependsOn: dependencies) { vm -> ViewModel? in
                    counter.runs += 1
                    return ViewModel(["x": .int(Int64(vm.int(at: "x", default: 0)))])
                }
            }
            vm["x"] = 1
            counter.runs = 0
            _ = try vm.executeCommandIfNeeded(forKey: "c0")
            #expect(counter.runs == size, "dense: \(dense)")
        }
    }

    /// A dependency on a path is marked when the key it starts with is set,
    /// or when something inside it is set through the path.
    @Test func pathDependenciesAreMarkedByTheirFirstKey() {
        let vm = ViewModel(["user": ["name": "Ann"], "a.b": 1])
        vm.setCommand(forKey: "greeting", dependsOn: ["user.name"], execution: .automatic) { vm in
            "hi \(vm.string(at: "user.name") ?? "?")"
        }
        vm.setValue("Bob", at: "user.name")
        #expect(vm["greeting"] == "hi Bob")
        vm["user"] = ["name": "Cy"]
        #expect(vm["greeting"] == "hi Cy")
        // A key with a dot in it still matches as written.
        vm.setCommand(forKey: "dotted", dependsOn: ["a.b"], execution: .automatic) { vm in
            vm[value: "a.b"]?.json?.intValue.map { $0 * 10 }
        }
        vm["a.b"] = 2
        #expect(vm["dotted"] == 20)
    }

    /// An edit the holding ViewModel makes inside a nested ViewModel, or
    /// one in a list, marks its commands on that key.
    @Test func anEditThroughTheHolderInsideANestedViewModelMarksItsCommands() throws {
        let vm = ViewModel()
        vm[value: "author"] = .payload(ViewModel(["name": "Ann"]))
        vm[value: "replies"] = .payload([ViewModel(["text": "a"])])
        vm.setCommand(forKey: "byline", dependsOn: ["author"]) { vm in "by \(vm.string(at: "author.name") ?? "?")" }
        vm.setCommand(forKey: "first", dependsOn: ["replies[0].text"]) { vm in vm.string(at: "replies[0].text") }
        _ = try vm.executeCommandIfNeeded(forKey: "byline")
        _ = try vm.executeCommandIfNeeded(forKey: "first")
        vm.setValue("Bob", at: "author.name")
        vm.setValue("b", at: "replies[0].text")
        #expect(try vm.executeCommandIfNeeded(forKey: "byline")?.json == "by Bob")
        #expect(try vm.executeCommandIfNeeded(forKey: "first")?.json == "b")
    }
}

extension CommandMarkingTests {
    /// Outside cycles, a dependency this call ran and a side effect marked
    /// again (an observer setting an input) runs again before what depends
    /// on it: the result is current.
    @Test func aDependencyMarkedAgainBySideEffectRunsAgainInTheSameCall() throws {
        let vm = ViewModel(["x": 1])
        vm.setCommand(forKey: "a", dependsOn: ["x"]) { vm in vm.int(at: "x", default: 0) * 10 }
        vm.setCommand(forKey: "e") { _ in 7 }
        vm.setCommand(forKey: "c", dependsOn: ["a"]) { vm in vm.int(at: "a", default: 0) + 1 }
        vm.setCommand(forKey: "d", dependsOn: ["a", "e", "c"]) { vm in vm.int(at: "c", default: 0) }
        let token = vm.observe("e") { vm, _, _ in vm["x"] = 2 }
        #expect(try vm.executeCommandIfNeeded(forKey: "d")?.json == 21)
        #expect(!vm.needsExecuteCommand(forKey: "d"))
        withExtendedLifetime(token) {}
    }

    /// Removing or deep-merging inside a nested ViewModel through its
    /// holder marks the holder's commands; a path that reaches nothing
    /// marks none.
    @Test func removingOrMergingInsideANestedViewModelMarksAndNothingDoesNot() throws {
        let vm = ViewModel()
        vm[value: "author"] = .payload(ViewModel(["name": "Ann"]))
        vm[value: "group"] = .payload(Section())
        vm.setCommand(forKey: "byline", dependsOn: ["author.name"]) { vm in "by \(vm.string(at: "author.name") ?? "?")" }
        #expect(try vm.executeCommandIfNeeded(forKey: "byline")?.json == "by Ann")
        vm.removeValue(at: "author.name")
        #expect(try vm.executeCommandIfNeeded(forKey: "byline")?.json == "by ?")
        vm.deepMerge(["author": ["name": "Zed"]])
        #expect(try vm.executeCommandIfNeeded(forKey: "byline")?.json == "by Zed")
        let incoming = ViewModel()
        incoming[value: "author"] = .payload(ViewModel(["name": "Kim"]))
        vm.deepMerge(incoming)
        #expect(try vm.executeCommandIfNeeded(forKey: "byline")?.json == "by Kim")

        let counter = RunCounter()
        vm.setCommand(forKey: "count", dependsOn: ["group", "author"], execution: .automatic) { _ in
            counter.runs += 1
            return counter.runs
        }
        counter.runs = 0
        vm.setValue("x", at: "group.x")
        vm.removeValue(at: "author.missing")
        vm.setValue("x", at: "author[3].x")
        #expect(counter.runs == 0)
    }
}
