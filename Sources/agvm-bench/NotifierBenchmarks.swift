import AGViewModel
import Foundation

/// Key-change delivery: one ViewModel key change to one observer, against
/// the same change posted through `NotificationCenter` (userInfo with key,
/// old and new value; one observer block); and the same change with 1,000
/// observers registered on other keys, which should cost about the same
/// (dispatch looks up the changed key only).
enum NotifierBenchmarks {
    static let group = BenchmarkGroup(name: "notifier") { context in
        let changes = 200_000
        let oneObserver = measureOneObserver(changes: changes, runs: context.runs)
        let otherObservers = measureOtherObservers(changes: changes, runs: context.runs)
        return [
            BenchmarkResult(
                benchmark: "key change", input: "1 observer", unit: "Mchanges/s",
                ours: rate(changes, oneObserver.ours), peer: "NotificationCenter",
                peerValue: rate(changes, oneObserver.peer)),
            BenchmarkResult(
                benchmark: "key change", input: "+1k obs. other keys", unit: "Mchanges/s",
                ours: rate(changes, otherObservers.ours), peer: "ours, no other observers",
                peerValue: rate(changes, otherObservers.peer)),
        ]
    }

    /// Millions of changes per second.
    private static func rate(_ changes: Int, _ seconds: Double) -> Double {
        Double(changes) / seconds / 1e6
    }

    /// Counts deliveries, so the work cannot be optimized away (used on
    /// the benchmark's one thread only).
    private final class Counter {
        var count = 0
    }

    /// The peer: stores like a dictionary-backed model, then posts the
    /// change with its key, old and new value in `userInfo`.
    private final class PeerStore {
        var values: [String: Any] = ["k": Int64(1)]
    }

    private static let peerName = Notification.Name("notifier.bench.k")

    private static func postChanges(_ center: NotificationCenter, _ store: PeerStore, changes: Int) {
        for i in 0..<changes {
            let new = Int64(i & 1)
            let old = store.values.updateValue(new, forKey: "k")
            center.post(name: peerName, object: nil, userInfo: ["key": "k", "old": old as Any, "new": new])
        }
    }

    /// `changes` sets of one key, each to a new value.
    private static func setKey(_ viewModel: ViewModel, changes: Int) {
        for i in 0..<changes { viewModel["k"] = .int(Int64(i & 1)) }
    }

    private static func measureOneObserver(changes: Int, runs: Int) -> (ours: Double, peer: Double) {
        let counter = Counter()
        let viewModel = ViewModel(["k": 1])
        let observation = viewModel.observe("k") { _, _, change in
            if change.newValue != nil { counter.count += 1 }
        }
        let center = NotificationCenter()
        // NotificationCenter's handlers are `@Sendable`: the peer's reads
        // its value into a sink instead of counting into shared state.
        let token = center.addObserver(forName: peerName, object: nil, queue: nil) { note in
            blackHole(note.userInfo?["new"] != nil)
        }
        let store = PeerStore()
        let result = measureInterleaved(runs: runs, ours: {
            setKey(viewModel, changes: changes)
        }, peer: {
            postChanges(center, store, changes: changes)
        })
        precondition(counter.count > 0)
        blackHole(counter.count)
        center.removeObserver(token)
        withExtendedLifetime(observation) {}
        return result
    }

    private static func measureOtherObservers(changes: Int, runs: Int) -> (ours: Double, peer: Double) {
        let counter = Counter()
        let crowded = ViewModel(["k": 1]), quiet = ViewModel(["k": 1])
        var observations = [crowded, quiet].map { viewModel in
            viewModel.observe("k") { _, _, _ in counter.count += 1 }
        }
        for i in 0..<1_000 {
            observations.append(crowded.observe("other\(i)") { _, _, _ in counter.count += 1 })
        }
        let result = measureInterleaved(runs: runs, ours: {
            setKey(crowded, changes: changes)
        }, peer: {
            setKey(quiet, changes: changes)
        })

        blackHole(counter.count)
        withExtendedLifetime(observations) {}
        return result
    }
}
