/// The automatic commands of one ViewModel waiting to run after a change,
/// and the runs made since: one round (see `ViewModel.runAutomaticCommands`).
///
/// A command runs again in the round when one of its inputs changes after
/// it ran, unless that change follows from its own result (commands that
/// depend on each other in a cycle, a body that changes its own inputs):
/// then it stays marked, and the round ends. To tell the two apart, the
/// round remembers what each run followed from: the run under way when a
/// mark was made, and the runs whose results a run read first (the
/// commands it depends on, brought up to date before it).
internal final class AutomaticCommandRound {
    /// A command marked during the round, and the run under way then.
    struct Mark {
        let key: String
        let cause: Int?
    }

    /// A run of a command in the round, and where the runs it follows
    /// from are listed in `causes` (one list for all: no allocation per run).
    struct Run {
        let key: String
        let causes: Range<Int>
    }

    /// The marks waiting, oldest first; `next` is the first not yet taken.
    private var marks: [Mark] = []
    private var next = 0
    private var runs: [Run] = []
    private var causes: [Int] = []
    /// Per key, its latest run in `runs`, and how many it had.
    private var runsByKey: [String: (latest: Int, count: Int)] = [:]
    /// The run whose body or result is being stored: what marks made now
    /// follow from.
    private(set) var current: Int?

    init(marking keys: [String]) {
        add(keys)
    }

    /// Adds the automatic commands of `keys`, marked by the run under way
    /// (or by the change that opened the round).
    func add(_ keys: [String]) {
        for key in keys { marks.append(Mark(key: key, cause: current)) }
    }

    /// Takes the next mark, and makes its cause what the run it leads to
    /// follows from.
    func takeMark() -> Mark? {
        guard next < marks.count else { return nil }
        let mark = marks[next]
        next += 1
        current = mark.cause
        return mark
    }

    /// Whether `mark` should run its command: not when the command ran
    /// after the mark was made (that run saw the change), nor when the
    /// change follows from a run of the command itself (a cycle), nor
    /// after `limit` runs of it in this round.
    func shouldRun(_ mark: Mark, limit: () -> Int) -> Bool {
        guard let (latest, count) = runsByKey[mark.key] else { return true }
        guard let cause = mark.cause, cause > latest, count < limit() else { return false }
        return !follows(from: mark.key, startingAt: cause)
    }

    /// Whether the run at `start`, or one it follows from, is a run of `key`.
    private func follows(from key: String, startingAt start: Int) -> Bool {
        var pending = [start]
        var seen: Set<Int> = []
        while let index = pending.popLast() {
            guard seen.insert(index).inserted else { continue }
            if runs[index].key == key { return true }
            pending.append(contentsOf: causes[runs[index].causes])
        }
        return false
    }

    /// Records that `key`'s command starts running, after the runs in
    /// `dependencyRuns` (of the commands it depends on), and makes it the
    /// run under way. Returns the run, and the run it interrupts, for
    /// ``finish(_:)``.
    func begin(_ key: String, after dependencyRuns: [Int]) -> (run: Int, interrupted: Int?) {
        let index = runs.count
        let start = causes.count
        if let current { causes.append(current) }
        causes.append(contentsOf: dependencyRuns)
        runs.append(Run(key: key, causes: start..<causes.count))
        Self.count(run: index, in: &runsByKey[key, default: (index, 0)])
        let interrupted = current
        current = index
        return (index, interrupted)
    }

    private static func count(run index: Int, in entry: inout (latest: Int, count: Int)) {
        entry.latest = index
        entry.count += 1
    }

    /// Records that the run `begin` returned has ended.
    func finish(_ started: (run: Int, interrupted: Int?)) {
        current = started.interrupted
    }
}
