import Testing
import AGViewModel

/// Random acyclic graphs of commands, automatic and on demand, some of
/// whose bodies also set keys that later commands read without declaring
/// the writer: after every change of an input, each automatic key holds
/// what computing the graph from scratch gives, and observers (of inputs
/// and of derived keys) only ever read such values.
@Suite("Automatic commands: random graphs")
struct AutomaticCommandPropertyTests {
    /// A deterministic generator, so a failing seed can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Command `index` computes `key` from `inputs`, and also writes
    /// `writes` (keys later commands may depend on).
    struct Node {
        let key: String
        let inputs: [String]
        let writes: [String]
        let isAutomatic: Bool
    }

    static let plainInputs = ["a", "b", "c"]

    static func combine(_ values: [Int], _ salt: Int) -> Int {
        values.reduce(salt) { ($0 &* 31 &+ $1) % 1_000_003 }
    }

    /// Graph sizes: many small graphs, and fewer large ones, whose long
    /// paths of undeclared writes mark commands many times in one round.
    enum Size: CaseIterable {
        case small, large
        var nodes: ClosedRange<Int> { self == .small ? 3...8 : 20...40 }
        var seeds: ClosedRange<UInt64> { self == .small ? 1...1_500 : 1...80 }
    }

    static func graph(seed: UInt64, allAutomatic: Bool, size: Size = .small) -> [Node] {
        var random = Generator(state: seed)
        var readable = plainInputs
        var nodes: [Node] = []
        let count = size.nodes.lowerBound + random.next(size.nodes.count)
        for index in 0..<count {
            var inputs: [String]
            switch size {
            case .small:
                inputs = readable.filter { _ in random.next(3) == 0 }
            case .large:
                // Mostly recent keys, so paths of undeclared writes run
                // long; now and then a sink reading many of them.
                let recent = readable.suffix(random.next(8) == 0 ? 16 : 6)
                inputs = Array(Set(recent.filter { _ in random.next(3) == 0 })).sorted()
            }
            if inputs.isEmpty { inputs = [readable[random.next(readable.count)]] }
            let isAutomatic = random.next(4) != 0 || allAutomatic
            let writes = isAutomatic && random.next(size == .small ? 2 : 4) != 0 ? ["w\(index)"] : []
            nodes.append(Node(key: "d\(index)", inputs: inputs, writes: writes, isAutomatic: isAutomatic))
            readable.append("d\(index)")
            readable.append(contentsOf: writes)
        }
        return nodes
    }

    /// What every key holds when the graph is computed in order.
    static func expected(_ nodes: [Node], inputs: [String: Int]) -> [String: Int] {
        var values = inputs
        for (index, node) in nodes.enumerated() {
            let read = node.inputs.map { values[$0] ?? 0 }
            values[node.key] = combine(read, index)
            for key in node.writes { values[key] = combine(read, 100 + index) }
        }
        return values
    }

    /// The automatic keys (and the keys their bodies write) that differ
    /// from the expected values.
    static func staleKeys(_ nodes: [Node], in viewModel: ViewModel, inputs: [String: Int]) -> [String] {
        let values = expected(nodes, inputs: inputs)
        return nodes.filter(\.isAutomatic).flatMap { [$0.key] + $0.writes }.filter {
            viewModel.int(at: $0) != values[$0]
        }
    }

    @Test(arguments: [false, true], Size.allCases)
    func everyAutomaticKeyIsCurrentAfterEachChange(allAutomatic: Bool, size: Size) {
        var failures: [String] = []
        for seed in size.seeds {
            let nodes = Self.graph(seed: seed, allAutomatic: allAutomatic, size: size)
            var inputs = ["a": 1, "b": 2, "c": 3]
            let viewModel = ViewModel(["a": 1, "b": 2, "c": 3])
            // Set in reverse order: commands are set before those they read.
            for (index, node) in nodes.enumerated().reversed() {
                viewModel.setCommand(forKey: node.key, dependsOn: node.inputs,
                                     execution: node.isAutomatic ? .automatic : .onDemand) { vm in
                    let read = node.inputs.map { vm.int(at: $0, default: 0) }
                    for key in node.writes { vm[key] = .int(Int64(Self.combine(read, 100 + index))) }
                    return Self.combine(read, index)
                }
            }
            var staleForObservers: [String] = []
            let observed = Self.plainInputs + nodes.filter(\.isAutomatic).map(\.key)
            let token = viewModel.observe(observed) { vm, key, _ in
                let stale = Self.staleKeys(nodes, in: vm, inputs: inputs)
                if !stale.isEmpty { staleForObservers.append("observer of \(key) read stale \(stale)") }
            }
            var random = Generator(state: seed &* 7)
            for step in 0..<6 {
                let key = Self.plainInputs[random.next(3)], value = random.next(50)
                inputs[key] = value
                if random.next(3) == 0 {
                    viewModel.performBatchUpdates { viewModel[key] = .int(Int64(value)) }
                } else {
                    viewModel[key] = .int(Int64(value))
                }
                let stale = Self.staleKeys(nodes, in: viewModel, inputs: inputs)
                if !stale.isEmpty || !staleForObservers.isEmpty {
                    failures.append("seed \(seed), step \(step): stale \(stale) \(staleForObservers.prefix(1))")
                    break
                }
            }
            token.cancel()
        }
        #expect(failures.isEmpty, "\(failures.count) graphs: \(failures.prefix(3))")
    }
}
