import AGViewModel
import Foundation

/// Grouping: change sets between two 10,000-item managers, and index-path
/// lookups.
///
/// - "change set": `ChangeSet(from:to:)` between two managers of 100
///   sections × 100 items (five keys each) whose new side is freshly
///   packaged and differs by 1% — 25 deletes, 25 inserts, 25 moves (most
///   across sections) and 25 content changes. Peer: Swift's own
///   `CollectionDifference` (`newIds.difference(from: oldIds)`) over the
///   flat identity arrays, read from the same managers inside the timing;
///   it finds neither cross-section moves nor reloads.
/// - "index path lookup": `Manager.indexPath(of:)` for all 10,000 items in
///   random order. Peer: a scan of each section's items with
///   `firstIndex(where: ===)`.
enum GroupingBenchmarks {
    static let group = BenchmarkGroup(name: "grouping") { context in
        var rng = BenchRandom(seed: 0x5EC7_1045)
        let oldLayout = (0..<100).map { s in (0..<100).map { Int64(s * 100 + $0) } }
        let (newLayout, changed) = mutate(oldLayout, &rng)
        let old = manager(oldLayout, changed: [])
        let new = manager(newLayout, changed: changed)

        // Sanity: the change set is what was planted, and it applies.
        let check = ChangeSet(from: old, to: new)
        let planted = check.deletedItems.count + check.insertedItems.count + check.movedItems.count + check.reloadedItems.count
        guard planted >= 100, planted <= 125, (try? check.apply(to: old.map(\.items), new: new.map(\.items))) != nil else {
            throw BenchmarkError("change set of \(planted) changes: \(check)")
        }

        let diff = measureInterleaved(runs: context.runs, ours: {
            blackHole(ChangeSet(from: old, to: new))
        }, peer: {
            let oldIds = old.allItems.map { $0["id"] ?? .null }
            let newIds = new.allItems.map { $0["id"] ?? .null }
            blackHole(newIds.difference(from: oldIds))
        })

        // Lookups: every item once, in random order.
        var targets = old.allItems
        targets.shuffle(using: &rng)
        let lookups = measureInterleaved(runs: context.runs, ours: {
            var found = 0
            for item in targets where old.indexPath(of: item) != nil { found += 1 }
            blackHole(found)
        }, peer: {
            var found = 0
            let sections = old.sections
            for item in targets {
                for section in sections where section.items.firstIndex(where: { $0 === item }) != nil {
                    found += 1
                    break
                }
            }
            blackHole(found)
        })
        let mops = { (seconds: Double) in Double(targets.count) / seconds / 1e6 }

        return [
            BenchmarkResult(benchmark: "change set", input: "100×100 items, 1% diff", unit: "ms",
                            ours: diff.ours * 1e3, peer: "CollectionDifference", peerValue: diff.peer * 1e3,
                            lowerIsBetter: true),
            BenchmarkResult(benchmark: "index path lookup", input: "10,000 items", unit: "Mops/s",
                            ours: mops(lookups.ours), peer: "scan + firstIndex(===)", peerValue: mops(lookups.peer)),
        ]
    }

    /// A manager from a layout of item ids; section headers carry `"s<index>"`.
    static func manager(_ layout: [[Int64]], changed: Set<Int64>) -> Manager {
        Manager(sections: layout.enumerated().map { s, ids in
            Section(items: ids.map { id in
                ViewModel([
                    "id": .int(id),
                    "title": .string("Item \(id)"),
                    "subtitle": .string(changed.contains(id) ? "edited" : "Subtitle for \(id)"),
                    "count": .int(id % 97),
                    "favourite": .bool(id % 3 == 0),
                ])
            }, header: ViewModel(["id": .string("s\(s)"), "title": .string("Section \(s)")]))
        })
    }

    /// The layout with 1% changes: 25 deletes, 25 inserts, 25 moves and
    /// 25 content changes (returned as the changed ids).
    static func mutate(_ layout: [[Int64]], _ rng: inout BenchRandom) -> ([[Int64]], Set<Int64>) {
        var sections = layout
        var touched = Set<Int64>()
        func pick(_ rng: inout BenchRandom) -> (Int, Int) {
            while true {
                let s = Int.random(in: 0..<sections.count, using: &rng)
                guard !sections[s].isEmpty else { continue }
                let i = Int.random(in: 0..<sections[s].count, using: &rng)
                if !touched.contains(sections[s][i]) { return (s, i) }
            }
        }
        for _ in 0..<25 {  // deletes
            let (s, i) = pick(&rng)
            sections[s].remove(at: i)
        }
        for k in 0..<25 {  // moves
            let (s, i) = pick(&rng)
            let id = sections[s].remove(at: i)
            touched.insert(id)
            let t = Int.random(in: 0..<sections.count, using: &rng)
            sections[t].insert(id, at: Int.random(in: 0...sections[t].count, using: &rng))
            _ = k
        }
        var changed = Set<Int64>()
        for _ in 0..<25 {  // content changes
            let (s, i) = pick(&rng)
            changed.insert(sections[s][i])
            touched.insert(sections[s][i])
        }
        for k in 0..<25 {  // inserts
            let t = Int.random(in: 0..<sections.count, using: &rng)
            let id = Int64(1_000_000 + k)
            touched.insert(id)
            sections[t].insert(id, at: Int.random(in: 0...sections[t].count, using: &rng))
        }
        return (sections, changed)
    }
}

/// SplitMix64, so the benchmark's data and generated corpora are the same on every run.
struct BenchRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
