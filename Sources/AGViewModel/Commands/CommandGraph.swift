/// What the rules of a round of automatic commands need to know of a
/// ViewModel's commands. The ViewModel keeps it until a command is set or
/// removed: edits far outnumber changes of the commands.
internal struct CommandGraph {
    /// How many of the commands are automatic.
    let automaticCount: Int
    /// The commands that depend, through other commands, on their own result.
    let cycleMembers: Set<String>

    init(commands: [String: CommandSlot], dependents: [String: Set<String>]) {
        automaticCount = commands.values.count { $0.command.execution == .automatic }
        cycleMembers = keysInCycles(dependents)
    }
}

/// The keys that reach themselves through `edges` (a key → the keys that
/// follow it): the members of the graph's cycles.
///
/// Tarjan's strongly connected components, one pass over the graph with
/// an explicit stack: a ledger's chain of commands is as deep as the
/// ledger is long, too deep for recursion.
internal func keysInCycles(_ edges: [String: Set<String>]) -> Set<String> {
    var finder = CycleFinder(edges: edges)
    for key in edges.keys where finder.order[key] == nil {
        finder.visit(from: key)
    }
    return finder.members
}

private struct CycleFinder {
    struct Frame {
        let key: String
        let successors: [String]
        var next = 0
    }

    let edges: [String: Set<String>]
    /// The order each key was reached in.
    var order: [String: Int] = [:]
    /// The earliest key on the stack each key reaches.
    var lowLink: [String: Int] = [:]
    var stack: [String] = []
    var onStack: Set<String> = []
    var members: Set<String> = []

    mutating func visit(from root: String) {
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
            // A command never depends on its own key, so a component of
            // one key is not a cycle.
            if component.count > 1 { members.formUnion(component) }
        }
    }

    mutating func enter(_ key: String, frames: inout [Frame]) {
        order[key] = order.count
        lowLink[key] = order[key]
        stack.append(key)
        onStack.insert(key)
        frames.append(Frame(key: key, successors: Array(edges[key] ?? [])))
    }

    mutating func lowerLink(of key: String, to link: Int) {
        if link < lowLink[key, default: .max] { lowLink[key] = link }
    }
}
