import Testing
@testable import AGViewModel

/// The cycles a ViewModel's command graph finds, against reachability
/// worked out the slow way.
@Suite("Command graph")
struct CommandGraphTests {
    /// A graph of `nodes` commands `k0`, `k1`, … whose dependencies are
    /// `edges` (`(from, to)`: `to` depends on `from`).
    private static func graph(nodes: Int, edges: [(from: Int, to: Int)]) -> CommandGraph {
        var commands: [String: CommandSlot] = [:]
        var dependents: [String: Set<String>] = [:]
        for node in 0..<nodes {
            let inputs = edges.filter { $0.to == node && $0.from != node }.map { "k\($0.from)" }
            commands["k\(node)"] = CommandSlot(command: Command(dependsOn: inputs, execution: .onDemand) { _ in nil })
        }
        for edge in edges where edge.from != edge.to {
            dependents["k\(edge.from)", default: []].insert("k\(edge.to)")
        }
        return CommandGraph(commands: commands, dependents: dependents)
    }

    @Test func twoCyclesJoinedOneWayAreTwoCycles() {
        // 0 ⇄ 1 feeds 2 ⇄ 3; 4 reads 3; 5 depends on itself only.
        let graph = Self.graph(nodes: 6, edges: [(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 4), (5, 5)])
        #expect(graph.areInSameCycle("k2", "k3"))
        #expect(graph.areInSameCycle("k0", "k1"))
        #expect(!graph.areInSameCycle("k1", "k2"))
        #expect(!graph.areInSameCycle("k2", "k1"))
        #expect(!graph.isInCycle("k4"))
        #expect(!graph.isInCycle("k5"))
        #expect(!graph.areInSameCycle("k5", "k5"))
    }

    /// Random graphs, asked about in random order (each question may start
    /// the search from a key an earlier one already reached): a key is in a
    /// cycle, and two keys in the same one, exactly when reachability says.
    @Test func randomGraphsMatchReachability() {
        for seed in 0..<300 {
            var random = SplitMix64(seed: UInt64(seed))
            let nodes = Int.random(in: 2...14, using: &random)
            let edgeCount = Int.random(in: 0...(nodes * 2), using: &random)
            let edges = (0..<edgeCount).map { _ in
                (from: Int.random(in: 0..<nodes, using: &random), to: Int.random(in: 0..<nodes, using: &random))
            }
            var reaches = [[Bool]](repeating: [Bool](repeating: false, count: nodes), count: nodes)
            for edge in edges where edge.from != edge.to { reaches[edge.from][edge.to] = true }
            for middle in 0..<nodes {
                for from in 0..<nodes where reaches[from][middle] {
                    for to in 0..<nodes where reaches[middle][to] { reaches[from][to] = true }
                }
            }
            let graph = Self.graph(nodes: nodes, edges: edges)
            var questions = (0..<nodes).flatMap { a in (0..<nodes).map { b in (a, b) } }
            questions.shuffle(using: &random)
            for (a, b) in questions {
                let inCycle = (0..<nodes).contains { reaches[a][$0] && reaches[$0][a] }
                let together = inCycle && (a == b || (reaches[a][b] && reaches[b][a]))
                #expect(graph.isInCycle("k\(a)") == inCycle, "seed \(seed): k\(a)")
                #expect(graph.areInSameCycle("k\(a)", "k\(b)") == together, "seed \(seed): k\(a), k\(b)")
            }
        }
    }
}
