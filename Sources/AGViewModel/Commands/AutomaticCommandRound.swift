/// The automatic commands of one ViewModel waiting to run after a change:
/// one round (see `ViewModel.runAutomaticCommands`).
///
/// The round runs until no automatic command it reached is marked, so a
/// command whose input changes after it ran (another command's body set
/// it, or an input computed on demand went stale) runs again. Three rules
/// make every round end:
/// - a mark made while the command's own body runs (it changed its own
///   input) does not queue it;
/// - a command in a dependency cycle runs once per round, whether the
///   round or another command's dependencies ask for it;
/// - a command runs at most as often as the ViewModel has automatic
///   commands, plus once after the queue has emptied. Bodies that change
///   each other's inputs to a new value every run (a cycle that the
///   dependencies do not show) stop there; the run after the queue has
///   emptied brings up to date a command that many undeclared writes
///   marked more often than that.
///
/// Commands left marked by these rules run at the next change or
/// `executeCommandIfNeeded` call.
internal final class AutomaticCommandRound {
    /// The commands queued, oldest first; `next` is the first not taken.
    private var queue: [String]
    private var next = 0
    /// The runs of each command in this round.
    private var runCounts: [String: Int] = [:]
    /// The commands whose bodies are running now, innermost last (a body
    /// may run another).
    private var running: [String] = []
    /// Commands refused a run by the cap, to run once more when the queue
    /// has emptied; `allowedPastCap` holds those whose run is due, and
    /// `deferredOnce` every one deferred, as each is deferred only once.
    private var deferred: [String] = []
    private var allowedPastCap: Set<String> = []
    private var deferredOnce: Set<String> = []
    /// What the rules need of the ViewModel's commands, found when first
    /// needed and again after its commands change.
    private var automaticCount: Int?
    private var cycleMembers: Set<String>?

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

    /// Forgets what the rules found about the ViewModel's commands: a
    /// body set or removed one.
    func commandsDidChange() {
        automaticCount = nil
        cycleMembers = nil
    }

    /// The next queued command, or once the queue has emptied, the
    /// commands the cap deferred.
    func nextKey() -> String? {
        if next == queue.count {
            queue.removeAll(keepingCapacity: true)
            next = 0
            guard !deferred.isEmpty else { return nil }
            allowedPastCap.formUnion(deferred)
            swap(&queue, &deferred)
        }
        next += 1
        return queue[next - 1]
    }

    /// Whether `key`'s command, marked, may run now in `viewModel`: always
    /// the first time in the round; again only when it is in no
    /// dependency cycle and under the cap (a command at the cap is
    /// deferred).
    func mayRun(_ key: String, in viewModel: ViewModel) -> Bool {
        guard let count = runCounts[key] else { return true }
        if cycleMembers == nil { cycleMembers = keysInCycles(viewModel.commandDependents) }
        if cycleMembers?.contains(key) == true { return false }
        if automaticCount == nil {
            automaticCount = viewModel.commandSlots.values.count { $0.command.execution == .automatic }
        }
        if count < automaticCount ?? 0 || allowedPastCap.contains(key) { return true }
        if deferredOnce.insert(key).inserted { deferred.append(key) }
        return false
    }

    /// Records that a run of `key`'s command starts.
    func countRun(of key: String) {
        runCounts[key, default: 0] += 1
        allowedPastCap.remove(key)
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
