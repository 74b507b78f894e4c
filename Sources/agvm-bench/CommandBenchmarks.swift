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
enum CommandBenchmarks {
    static let rows = 200
    static let edits = 100

    static let group = BenchmarkGroup(name: "commands") { context in
        [try ledgerEdit(.onDemand, context: context), try ledgerEdit(.automatic, context: context)]
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
}
