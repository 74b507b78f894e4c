/// The automatic commands of one ViewModel waiting to run after a change:
/// one round (see `ViewModel.runAutomaticCommands`).
///
/// The round runs until no automatic command it reached is marked, so a
/// command whose input changes after it ran (another command's body set
/// it, or an input computed on demand went stale) runs again. Three rules
/// make every round end:
/// - a mark made while the command's own body runs (it changed its own
///   input) does not queue it;
/// - a command in a dependency cycle runs once per round: then it is
///   *settled*, and the commands that read it, and their dependency
///   passes, take its value as it stands (the cycle's own members keep
///   each other marked, as outside a round);
/// - the round runs a command again at most as many times as the
///   ViewModel has automatic commands (the *cap*). One marked again
///   after that waits for the queue to empty and runs once in the next
///   *pass*, and there are as many passes as automatic commands at most.
///   Bodies that change each other's inputs to a new value every run (a
///   cycle the dependencies do not show) stop there. In a graph without
///   such a cycle, each pass brings the commands marked by the last one
///   up to date, so a command that many undeclared writes mark ends
///   current.
///
/// Commands left marked by these rules run at the next change that
/// reaches them (marks them again), or at an `executeCommandIfNeeded`
/// call.
internal final class AutomaticCommandRound {
    /// The commands queued in this pass, oldest first; `next` is the first
    /// not taken.
    private var queue: [String]
    private var next = 0
    /// The passes after the first that have started.
    private var pass = 0
    /// The runs of each command in this round.
    private var runCounts: [String: Int] = [:]
    /// The commands whose bodies are running now, innermost last (a body
    /// may run another).
    private var running: [String] = []
    /// The commands the cap refused in this pass, to run in the next one.
    private var deferred: [String] = []
    /// For each command the cap refused: the last pass it was refused in,
    /// and how many runs past the cap the passes since have allowed it.
    private var deferrals: [String: (pass: Int, runsPastCap: Int)] = [:]

    init(queueing keys: [String]) {
        queue = keys
    }

    /// Queues the commands of `keys`, marked by a change, except those
    /// whose bodies are running now: their own run made the change.
    func queue(_ keys: [String]) {
        for key in keys where !running.contains(key) { queue.append(key) }
    }

    /// Queues `key`, whose command was just set: a run of the command it
    /// replaced, under way now, will not store its result.
    func queueReplaced(_ key: String) {
        if running.contains(key) { queue.append(key) }
    }

    /// The next queued command; once the queue has emptied, the first of
    /// the next pass.
    func nextKey() -> String? {
        if next == queue.count {
            queue.removeAll(keepingCapacity: true)
            next = 0
            guard !deferred.isEmpty else { return nil }
            pass += 1
            for key in deferred { deferrals[key]?.runsPastCap += 1 }
            swap(&queue, &deferred)
        }
        next += 1
        return queue[next - 1]
    }

    /// Whether `key`'s command is in a dependency cycle of `graph` and
    /// already ran in this round, so its value stands until the round ends.
    func isSettled(_ key: String, in graph: @autoclosure () -> CommandGraph) -> Bool {
        runCounts[key] != nil && graph().isInCycle(key)
    }

    /// Whether the round may run `key`'s command, marked, now: always the
    /// first time; again when it is not settled and under the cap. One at
    /// the cap is deferred to the next pass, while passes remain.
    func mayRun(_ key: String, in graph: @autoclosure () -> CommandGraph) -> Bool {
        guard let count = runCounts[key] else { return true }
        let graph = graph()
        if graph.isInCycle(key) { return false }
        let deferral = deferrals[key]
        if count < graph.automaticCount + (deferral?.runsPastCap ?? 0) { return true }
        if deferral?.pass != pass, pass < graph.automaticCount {
            deferrals[key] = (pass, deferral?.runsPastCap ?? 0)
            deferred.append(key)
        }
        return false
    }

    /// Records that a run of `key`'s command starts.
    func countRun(of key: String) {
        runCounts[key, default: 0] += 1
    }

    /// Records that a body of `key`'s command starts running.
    func bodyWillRun(_ key: String) {
        running.append(key)
    }

    /// Records that the body of `key`'s command that started last ended.
    func bodyDidRun(_ key: String) {
        if let index = running.lastIndex(of: key) { running.remove(at: index) }
    }
}
