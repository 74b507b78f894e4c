/// What the rules of a round of automatic commands need to know of a
/// ViewModel's commands: how many are automatic, and which are in a
/// dependency cycle, and in which. The ViewModel keeps it until a command
/// is set or removed, as edits far outnumber changes of the commands, and
/// it finds each command's cycles only when first asked, exploring only
/// what follows that command.
internal final class CommandGraph {
    /// How many of the commands are automatic.
    let automaticCount: Int
    private var cycles: CycleFinder

    /// The graph of `commands`, where `dependents` maps a key to the
    /// commands that depend on it.
    init(commands: [String: CommandSlot], dependents: [String: Set<String>]) {
        automaticCount = commands.values.count { $0.command.execution == .automatic }
        cycles = CycleFinder(edges: dependents)
    }

    /// Whether `key`'s command depends, through other commands, on its own
    /// result.
    func isInCycle(_ key: String) -> Bool {
        cycles.visit(from: key)
        return cycles.cycleIndex[key] != nil
    }

    /// Whether the commands of `key` and `other` are in the same
    /// dependency cycle (each depends, through other commands, on the
    /// other).
    func areInSameCycle(_ key: String, _ other: String) -> Bool {
        cycles.visit(from: key)
        guard let index = cycles.cycleIndex[key] else { return false }
        return cycles.cycleIndex[other] == index
    }
}

/// The members of a graph's cycles, each cycle numbered, by Tarjan's
/// strongly connected components, run from each key asked about that no
/// earlier run reached (`edges` maps a key to the keys that follow it). An
/// explicit stack replaces recursion: a ledger's chain of commands is as
/// deep as the ledger is long.
private struct CycleFinder {
    private struct Frame {
        let key: String
        let successors: [String]
        var next = 0
    }

    private let edges: [String: Set<String>]
    /// The order each key was reached in.
    private var order: [String: Int] = [:]
    /// The earliest key on the stack each key reaches.
    private var lowLink: [String: Int] = [:]
    private var stack: [String] = []
    private var onStack: Set<String> = []
    /// The keys found in a cycle so far, each with its cycle's number.
    private(set) var cycleIndex: [String: Int] = [:]
    private var cycleCount = 0

    init(edges: [String: Set<String>]) {
        self.edges = edges
    }

    /// Finds the cycles through `root` and every key after it, unless an
    /// earlier visit reached `root`: then they are known.
    mutating func visit(from root: String) {
        guard order[root] == nil else { return }
        var frames: [Frame] = []
        enter(root, frames: &frames)
        while let top = frames.last {
            if top.next < top.successors.count {
                frames[frames.count - 1].next += 1
                let successor = top.successors[top.next]
                if let reached = order[successor] {
                    if onStack.contains(successor) { lowerLink(of: top.key, to: reached) }
                } else {
                    enter(successor, frames: &frames)
                }
                continue
            }
            frames.removeLast()
            let link = lowLink[top.key, default: 0]
            if let parent = frames.last { lowerLink(of: parent.key, to: link) }
            guard link == order[top.key] else { continue }
            // `top` is the first key reached of a component: pop it.
            var component: [String] = []
            while let member = stack.popLast() {
                onStack.remove(member)
                component.append(member)
                if member == top.key { break }
            }
            // `setCommand` drops a command's dependency on its own key,
            // so a component of one key is not a cycle.
            guard component.count > 1 else { continue }
            for member in component { cycleIndex[member] = cycleCount }
            cycleCount += 1
        }
    }

    private mutating func enter(_ key: String, frames: inout [Frame]) {
        let index = order.count
        order[key] = index
        lowLink[key] = index
        stack.append(key)
        onStack.insert(key)
        frames.append(Frame(key: key, successors: Array(edges[key] ?? [])))
    }

    private mutating func lowerLink(of key: String, to link: Int) {
        if link < lowLink[key, default: .max] { lowLink[key] = link }
    }
}
