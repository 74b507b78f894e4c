import Foundation

/// Parses the bench's arguments, runs the groups and prints the report.
enum BenchmarkRunner {
    /// Every benchmark group, in report order. Add new groups here.
    static let groups: [BenchmarkGroup] = [
        JSONBenchmarks.group,
        ViewModelBenchmarks.group,
        GroupingBenchmarks.group,
        CommandBenchmarks.group,
        PersistenceBenchmarks.group,
        NotifierBenchmarks.group,
    ]

    static func main() {
        var json = false
        var runs = 9
        var only: Set<String> = []
        var paths: [String] = []
        var args = CommandLine.arguments.dropFirst().makeIterator()
        while let arg = args.next() {
            switch arg {
            case "--json": json = true
            case "--runs":
                guard let value = args.next(), let count = Int(value), count > 0 else {
                    usageError("--runs needs a positive number of runs")
                }
                runs = count
            case "--only":
                let names = (args.next() ?? "").split(separator: ",").map(String.init)
                let known = groups.map(\.name)
                guard !names.isEmpty else { usageError("--only needs a group: \(known.joined(separator: ", "))") }
                for name in names where !known.contains(name) {
                    usageError("unknown group '\(name)' (groups: \(known.joined(separator: ", ")))")
                }
                only.formUnion(names)
            case "--help", "-h":
                print("""
                usage: agvm-bench [--json] [--runs N] [--only GROUP[,GROUP]] [FILE...]
                Measures AGViewModel against Foundation in one run (build with -c release).
                Groups: \(groups.map(\.name).joined(separator: ", ")).
                FILE defaults to twitter.json and citm_catalog.json in ../shared/data (or
                $AGVM_BENCH_DATA) when present, else to generated documents of the same shapes.
                The persistence group needs a file whose name contains "twitter".
                """)
                return
            default:
                if arg.hasPrefix("-") { usageError("unknown option '\(arg)' (see --help)") }
                paths.append(arg)
            }
        }
        let inputs: [URL]
        do {
            inputs = try BenchmarkCorpus.inputs(for: paths) { note in
                printError("agvm-bench: note: \(note)\n")
            }
        } catch {
            printError("agvm-bench: error: \(error)\n")
            exit(1)
        }
        let context = BenchmarkContext(inputs: inputs, runs: runs)
        if !inputs.contains(where: { $0.lastPathComponent.contains("twitter") }) && only.isEmpty {
            // Measure what the inputs allow rather than stop half-way.
            printError("agvm-bench: note: no twitter-like input; skipping the persistence group\n")
            only = Set(groups.map(\.name)).subtracting(["persistence"])
        }
        if !json {
            print(pad("benchmark", 28) + pad("input", 20) + pad("unit", 11) + pad("ours", 11) + pad("peer", 28) + pad("peer value", 11) + "speedup")
        }
        for group in groups where only.isEmpty || only.contains(group.name) {
            do {
                for result in try group.run(context) { report(result, json: json) }
            } catch {
                printError("agvm-bench: \(group.name): \(error)\n")
                exit(1)
            }
        }
    }

    /// Reports a wrong command line and exits with status 2, as `agvm` does.
    static func usageError(_ message: String) -> Never {
        printError("agvm-bench: error: \(message)\n")
        exit(2)
    }

    static func report(_ r: BenchmarkResult, json: Bool) {
        if json {
            func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            print("{\"benchmark\": \(q(r.benchmark)), \"input\": \(q(r.input)), \"unit\": \(q(r.unit)), \"ours\": \(fmt(r.ours)), \"peer\": \(q(r.peer)), \"peer_value\": \(fmt(r.peerValue)), \"speedup\": \(fmt(r.speedup))}")
        } else {
            print(pad(r.benchmark, 28) + pad(r.input, 20) + pad(r.unit, 11) + pad(fmt(r.ours), 11) + pad(r.peer, 28) + pad(fmt(r.peerValue), 11) + fmt(r.speedup) + "x")
        }
        fflush(nil)
    }

    static func fmt(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        return String(format: x >= 100 ? "%.1f" : x >= 1 ? "%.2f" : x >= 0.001 ? "%.4f" : "%.2e", x)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// Writes a line to standard error; a failure there has nowhere to go
    /// (FileHandle.write would trap on it).
    static func printError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
