import AGViewModel
import Foundation

/// Keyed commands: a ledger of 200 rows in one ViewModel, each row's
/// balance a command on the balance before it and the row's amount.
///
/// - "ledger edit": 100 edits, each setting one amount (cycling through the
///   rows) and asking for the last balance "if needed", which reruns the
///   edited row and every row after it. Peer: the same running balances in
///   a plain `[Int]`, recomputed from the edited row by a loop, which is
///   what code without commands does.
/// - "automatic ledger edit": the same with automatic commands, which run
///   as each amount is set: the edit is only the set, then a read.
/// - "automatic chain run twice": a chain of 3,000 automatic commands, each
///   one more than the one before, whose end a command reads to set the
///   chain's second input, so each change runs the chain twice. Peer: the
///   same chain recomputed twice by a loop over an `[Int]`.
/// - "automatic read of an on-demand cycle": an automatic command reading
///   one member of a cycle of 2,000 on-demand commands, each reading the
///   next and a shared input, so each change of the input runs the whole
///   cycle once. Peer: the same cycle computed in the same order by a loop
///   over an `[Int]`.
enum CommandBenchmarks {
    static let rows = 200
    static let edits = 100

    static let group = BenchmarkGroup(name: "commands") { context in
        [
            try ledgerEdit(.onDemand, context: context),
            try ledgerEdit(.automatic, context: context),
            try chainRunTwice(context: context),
            try cycleReadAutomatically(context: context),
        ]
    }

    /// A ledger of `rows` running balances, each a command run as `execution` says.
    static func ledger(_ execution: Command.Execution) -> ViewModel {
        let vm = ViewModel()
        for row in 0..<rows {
            vm["amount\(row)"] = .int(1)
            let dependencies = row == 0 ? ["amount0"] : ["balance\(row - 1)", "amount\(row)"]
            let before = "balance\(row - 1)", amount = "amount\(row)"
            vm.setCommand(forKey: "balance\(row)", dependsOn: dependencies, execution: execution) { (vm: ViewModel) -> Int? in
                (row == 0 ? 0 : vm.int(at: before, default: 0)) + vm.int(at: amount, default: 0)
            }
        }
        return vm
    }

    static func ledgerEdit(_ execution: Command.Execution, context: BenchmarkContext) throws -> BenchmarkResult {
        let vm = ledger(execution)
        let last = "balance\(rows - 1)"
        var amounts = [Int](repeating: 1, count: rows)
        var balances = [Int](repeating: 0, count: rows)
        var round = 0

        let times = try measureInterleaved(runs: context.runs, ours: {
            round += 1
            for edit in 0..<edits {
                vm["amount\(edit * 7 % rows)"] = .int(Int64(round * edits + edit))
                if execution == .automatic {
                    blackHole(vm.int(at: last))
                } else {
                    blackHole(try vm.executeCommandIfNeeded(forKey: last))
                }
            }
        }, peer: {
            for edit in 0..<edits {
                let row = edit * 7 % rows
                amounts[row] = round * edits + edit
                for index in row..<rows {
                    balances[index] = (index == 0 ? 0 : balances[index - 1]) + amounts[index]
                }
                blackHole(balances[rows - 1])
            }
        })
        // Both sides end on the same amounts, so on the same last balance.
        guard vm.int(at: last) == balances[rows - 1] else {
            throw BenchmarkError("ledger: \(vm.int(at: last) ?? -1) against \(balances[rows - 1])")
        }
        return BenchmarkResult(
            benchmark: execution == .automatic ? "automatic ledger edit" : "ledger edit",
            input: "\(rows) rows, \(edits) edits", unit: "ms per edit",
            ours: times.ours * 1e3 / Double(edits), peer: "[Int] loop",
            peerValue: times.peer * 1e3 / Double(edits), lowerIsBetter: true)
    }

    static let chainSteps = 3_000
    static let chainChanges = 10

    static func chainRunTwice(context: BenchmarkContext) throws -> BenchmarkResult {
        let vm = ViewModel(["t": 0, "y": 0])
        for step in 0..<chainSteps {
            let before = "step\(step - 1)"
            vm.setCommand(forKey: "step\(step)", dependsOn: step == 0 ? ["t", "y"] : [before],
                          execution: .automatic) { (vm: ViewModel) -> Int? in
                step == 0
                    ? vm.int(at: "t", default: 0) + vm.int(at: "y", default: 0)
                    : vm.int(at: before, default: 0) + 1
            }
        }
        let last = "step\(chainSteps - 1)"
        vm.setCommand(forKey: "secondInput", dependsOn: [last], execution: .automatic) { (vm: ViewModel) -> Int? in
            vm["y"] = .int(Int64(vm.int(at: "t", default: 0) * 10))
            return 0
        }
        var chain = [Int](repeating: 0, count: chainSteps)
        var secondInput = 0
        var round = 0
        let times = measureInterleaved(runs: context.runs, ours: {
            round += 1
            for change in 0..<chainChanges {
                vm["t"] = .int(Int64(round * chainChanges + change))
                blackHole(vm.int(at: last))
            }
        }, peer: {
            for change in 0..<chainChanges {
                let t = round * chainChanges + change
                // Once with the second input as it was, once as set.
                for input in [secondInput, t * 10] {
                    for step in 0..<chainSteps {
                        chain[step] = step == 0 ? t + input : chain[step - 1] + 1
                    }
                }
                secondInput = t * 10
                blackHole(chain[chainSteps - 1])
            }
        })
        guard vm.int(at: last) == chain[chainSteps - 1] else {
            throw BenchmarkError("chain: \(vm.int(at: last) ?? -1) against \(chain[chainSteps - 1])")
        }
        return BenchmarkResult(
            benchmark: "automatic chain run twice", input: "\(chainSteps) steps, \(chainChanges) changes",
            unit: "ms per change", ours: times.ours * 1e3 / Double(chainChanges), peer: "[Int] loop",
            peerValue: times.peer * 1e3 / Double(chainChanges), lowerIsBetter: true)
    }

    static let cycleMembers = 2_000
    static let cycleChanges = 10

    static func cycleReadAutomatically(context: BenchmarkContext) throws -> BenchmarkResult {
        let vm = ViewModel(["x": 0])
        for member in 0..<cycleMembers {
            let next = "member\((member + 1) % cycleMembers)"
            vm.setCommand(forKey: "member\(member)", dependsOn: [next, "x"]) { (vm: ViewModel) -> Int? in
                vm.int(at: next, default: 0) % 7 + vm.int(at: "x", default: 0)
            }
        }
        vm.setCommand(forKey: "reader", dependsOn: ["member0"], execution: .automatic) { (vm: ViewModel) -> Int? in
            vm.int(at: "member0", default: 0) * 2
        }
        // The values the commands hold now: each ran once, in the order the
        // loop below follows (the last member first, reading the first).
        var members = [Int](repeating: 0, count: cycleMembers)
        for member in members.indices.reversed() { members[member] = members[(member + 1) % cycleMembers] % 7 }
        var round = 0
        let times = measureInterleaved(runs: context.runs, ours: {
            round += 1
            for change in 0..<cycleChanges {
                vm["x"] = .int(Int64(round * cycleChanges + change))
                blackHole(vm.int(at: "reader"))
            }
        }, peer: {
            for change in 0..<cycleChanges {
                let x = round * cycleChanges + change
                for member in members.indices.reversed() {
                    members[member] = members[(member + 1) % cycleMembers] % 7 + x
                }
                blackHole(members[0] * 2)
            }
        })
        guard vm.int(at: "reader") == members[0] * 2 else {
            throw BenchmarkError("cycle: \(vm.int(at: "reader") ?? -1) against \(members[0] * 2)")
        }
        return BenchmarkResult(
            benchmark: "automatic read of an on-demand cycle", input: "\(cycleMembers) members, \(cycleChanges) changes",
            unit: "ms per change", ours: times.ours * 1e3 / Double(cycleChanges), peer: "[Int] loop",
            peerValue: times.peer * 1e3 / Double(cycleChanges), lowerIsBetter: true)
    }
}
