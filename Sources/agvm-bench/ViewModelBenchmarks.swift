import AGViewModel
import Foundation

/// The peer for ViewModel key access: what people write without a toolkit,
/// a `[String: Any]` dictionary inside a final class.
final class Baseline {
    var storage: [String: Any] = [:]
}

extension ViewModel.Key where Value == String {
    /// The bench's typed keys, one per string-valued key.
    fileprivate static let benchStringKeys: [ViewModel.Key<String>] = ViewModelBenchmarks.stringKeys.map { ViewModel.Key<String>($0) }
}

/// Key read and write throughput of a ViewModel against `Baseline`, with the
/// same keys and values, measured interleaved in one run.
enum ViewModelBenchmarks {
    /// A typical cell's keys: 16 short keys, half of them strings.
    static let stringKeys = ["title", "subtitle", "author", "cover", "currency", "priceText", "badge", "summary"]
    static let otherKeys = ["id", "pages", "rating", "price", "available", "liked", "year", "reviews"]

    /// The same value as JSON (for the ViewModel) and as a native value
    /// (for the baseline).
    static func value(for key: String, round: Int) -> (json: JSONValue, native: Any) {
        switch key {
        case "id", "pages", "year", "reviews": return (.int(Int64(round)), round)
        case "rating", "price": return (.double(Double(round) + 0.5), Double(round) + 0.5)
        case "available", "liked": return (.bool(round % 2 == 0), round % 2 == 0)
        default:
            let text = "\(key) \(round)"
            return (.string(text), text)
        }
    }

    static let rounds = 20_000

    static let group = BenchmarkGroup(name: "viewmodel") { context in
        let keys = stringKeys + otherKeys
        let vm = ViewModel()
        let baseline = Baseline()
        for key in keys {
            let (json, native) = value(for: key, round: 1)
            vm[key] = json
            baseline.storage[key] = native
        }
        // Writes alternate between two value sets, so every write is a
        // real change (an equal value is not a change and costs less).
        let jsonValues = [2, 3].map { round in keys.map { value(for: $0, round: round).json } }
        let nativeValues = [2, 3].map { round in keys.map { value(for: $0, round: round).native } }
        let stringValues = [4, 5].map { round in stringKeys.map { "\($0) \(round)" } }
        let typedKeys = ViewModel.Key<String>.benchStringKeys
        let peer = "[String: Any] class"
        var results: [BenchmarkResult] = []

        func record(_ benchmark: String, keys: Int, _ times: (ours: Double, peer: Double)) {
            let ops = rounds * keys
            results.append(BenchmarkResult(
                benchmark: benchmark, input: "\(keys) keys x \(rounds / 1000)k", unit: "Mops/s",
                ours: Double(ops) / times.ours / 1e6, peer: peer,
                peerValue: Double(ops) / times.peer / 1e6))
        }

        // Key read: string-key subscript.
        record("key read", keys: keys.count, measureInterleaved(runs: context.runs, ours: {
            for _ in 0..<rounds {
                for key in keys { blackHole(vm[key]) }
            }
        }, peer: {
            for _ in 0..<rounds {
                for key in keys { blackHole(baseline.storage[key]) }
            }
        }))

        // First reads: a new ViewModel per item, each key read once, as a
        // cell reads an item it has not shown before (the first read of a
        // key reports it to Swift Observation for the first time).
        let objects = (0..<rounds).map { round in JSONObject(keys.map { ($0, value(for: $0, round: round).json) }) }
        let natives = (0..<rounds).map { round in
            Dictionary(uniqueKeysWithValues: keys.map { ($0, value(for: $0, round: round).native) })
        }
        record("new ViewModel, first key reads", keys: keys.count, measureInterleaved(runs: context.runs, ours: {
            for object in objects {
                let item = ViewModel(object)
                for key in keys { blackHole(item[key]) }
            }
        }, peer: {
            for native in natives {
                let item = Baseline()
                item.storage = native
                for key in keys { blackHole(item.storage[key]) }
            }
        }))

        // Typed key read: `vm[.title]` as String? against `as? String`.
        record("typed key read", keys: stringKeys.count, measureInterleaved(runs: context.runs, ours: {
            for _ in 0..<rounds {
                for key in typedKeys { blackHole(vm[key]) }
            }
        }, peer: {
            for _ in 0..<rounds {
                for key in stringKeys { blackHole(baseline.storage[key] as? String) }
            }
        }))

        // Key write: overwrite existing keys with JSON / native values.
        record("key write", keys: keys.count, measureInterleaved(runs: context.runs, ours: {
            for r in 0..<rounds {
                let values = jsonValues[r & 1]
                for i in keys.indices { vm[keys[i]] = values[i] }
            }
        }, peer: {
            for r in 0..<rounds {
                let values = nativeValues[r & 1]
                for i in keys.indices { baseline.storage[keys[i]] = values[i] }
            }
        }))

        // Typed key write: `vm[.title] = "..."` against storing the String.
        record("typed key write", keys: stringKeys.count, measureInterleaved(runs: context.runs, ours: {
            for r in 0..<rounds {
                let values = stringValues[r & 1]
                for i in typedKeys.indices { vm[typedKeys[i]] = values[i] }
            }
        }, peer: {
            for r in 0..<rounds {
                let values = stringValues[r & 1]
                for i in stringKeys.indices { baseline.storage[stringKeys[i]] = values[i] }
            }
        }))
        return results
    }
}
