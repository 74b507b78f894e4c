/// The automatic commands of one ViewModel waiting to run after a change:
/// one round (see `ViewModel.runAutomaticCommands`).
///
/// The round runs until no automatic command it reached is marked, so a
/// command whose input changes after it ran (another command's body set
/// it, or an input computed on demand went stale) runs again. Three rules
/// make every round end:
/// - a mark made while the command itself runs (its body changed its own
///   input) does not queue it;
/// - a command in a dependency cycle runs once per round;
/// - no command runs more often in one round than the ViewModel has
///   automatic commands (bodies that change each other's inputs to a new
///   value every run).
///
/// Commands left marked by these rules run at the next change or
/// `executeCommandIfNeeded` call.
internal final class AutomaticCommandRound {
    /// The commands queued, oldest first; `next` is the first not taken.
    private var queue: [String]
    private var next = 0
    /// The runs of each command in this round.
    private var runCounts: [String: Int] = [:]
    /// The commands running now, innermost last (a body may run another).
    private var running: [String] = []
    /// Whether a command is in a dependency cycle, once asked.
    private var isInCycle: [String: Bool] = [:]

    init(queueing keys: [String]) {
        queue = keys
    }

    /// Queues the commands of `keys`, marked by a change, except those
    /// running now: their own run made the change.
    func queue(_ keys: [String]) {
        for key in keys where !running.contains(key) { queue.append(key) }
    }

    /// The next queued command.
    func nextKey() -> String? {
        guard next < queue.count else { return nil }
        next += 1
        return queue[next - 1]
    }

    /// Whether `key`'s command, marked, may run now: always the first
    /// time in the round; again only when it is in no dependency cycle
    /// and has run fewer times than `limit`.
    func mayRun(_ key: String, limit: () -> Int, dependsOnItself: (String) -> Bool) -> Bool {
        guard let count = runCounts[key] else { return true }
        guard count < limit() else { return false }
        if let known = isInCycle[key] { return !known }
        let inCycle = dependsOnItself(key)
        isInCycle[key] = inCycle
        return !inCycle
    }

    /// Records that `key`'s command starts running.
    func begin(_ key: String) {
        runCounts[key, default: 0] += 1
        running.append(key)
    }

    /// Records that the run of `key` that began last has ended.
    func finish(_ key: String) {
        if let index = running.lastIndex(of: key) { running.remove(at: index) }
    }
}
