/// A command as set for a key: the command, and the keys that mark it.
/// One reference in the slot, which the hot paths copy.
internal final class CommandRegistration {
    let command: Command
    /// The keys whose changes mark the command: those of every command in
    /// its chain, as the chain was when the command was set, in order.
    let dependencies: [String]

    init(_ command: Command) {
        self.command = command
        let declared = command.next == nil ? command.dependencies : command.chain.flatMap(\.dependencies)
        // A path ("user.name") changes when the key it starts with does:
        // depend on that key too (a key with a dot in it still counts).
        var keys = declared
        for dependency in declared where dependency.contains(where: { $0 == "." || $0 == "[" }) {
            if case .key(let first)? = JSONPath(dependency).components.first, first != dependency, !keys.contains(first) {
                keys.append(first)
            }
        }
        dependencies = keys
    }
}

/// A command registered under a key, with this ViewModel's execution state.
internal struct CommandSlot {
    let registration: CommandRegistration
    /// Marked, by hand or by a dependency change, or never run.
    var needsExecute = true
    /// Executions under way. An "if needed" call made while one runs (from
    /// its body, or from an observer of a key the body sets) gets the
    /// stored value and does not run the command inside itself: a body
    /// whose every run changes an observed key would otherwise run again
    /// from that observer forever. The run under way stores its result
    /// and tells the key's observers when it ends. Unless an input changed
    /// since the latest run claimed the command (``claimedGeneration``):
    /// that run will not store its result, so the call runs the command.
    var inFlight = 0
    /// The ``generation`` the latest run saw when it claimed the command.
    var claimedGeneration = 0
    /// Counts the marks that reach this command. An execution whose inputs
    /// changed after it claimed the command (the generation moved on) does
    /// not store its result: a later execution may already have stored a
    /// newer one, and the older result must not replace it and pass for
    /// current. A change of a direct input always reaches it (a store marks
    /// the key's dependents), even where a walk from further up stops early.
    var generation = 0
    /// The number of the latest claim for a run, unique in the ViewModel
    /// (0: none, as for a command just set). A run whose claim is no longer
    /// the latest stores nothing more: another run of the key started
    /// while it stored a step's result (an observer asked for it, a round
    /// ran it) and stored a chain computed from the inputs as they are.
    var claim = 0
    /// Set when a walk marks this command and every command downstream of
    /// it; cleared, here and upstream, when this command is cleared, and
    /// upstream of an automatic command a round leaves marked. The
    /// commands with it set are closed downstream (each one's dependents
    /// have it too), so a walk that reaches one need not go further: a
    /// ledger's running balances, each storing its result in turn, would
    /// otherwise walk the rest of the ledger at every store.
    var markedDownstream = false

    /// A slot for `command`, not run yet.
    init(command: Command) {
        registration = CommandRegistration(command)
    }

    /// A slot with the same command and dependencies, with `slot`'s mark.
    init(copying slot: CommandSlot) {
        registration = slot.registration
        needsExecute = slot.needsExecute
    }

    /// The command.
    var command: Command { registration.command }

    /// The keys whose changes mark the command (see ``CommandRegistration``).
    var dependencies: [String] { registration.dependencies }

    /// Marks the command and counts the mark; returns whether everything
    /// downstream was already marked.
    mutating func mark() -> Bool {
        let wasMarkedDownstream = markedDownstream
        needsExecute = true
        generation &+= 1
        markedDownstream = true
        return wasMarkedDownstream
    }
}

extension ViewModel {
    /// Whether any key holds, or may hold, a command's output: a command
    /// is set here, or the original of this snapshot copy had one.
    internal var hasCommandOutputKeys: Bool {
        !commandSlots.isEmpty || !snapshotCommandKeys.isEmpty
    }

    /// The keys of ``hasCommandOutputKeys``.
    internal var commandOutputKeys: Set<String> {
        snapshotCommandKeys.isEmpty ? Set(commandSlots.keys) : snapshotCommandKeys.union(commandSlots.keys)
    }

    // MARK: Setting and removing

    /// Sets `command` for `key`, replacing any earlier one, and marks it,
    /// and the commands that depend on `key`, as needing execution.
    /// Returns the ViewModel, for chaining.
    ///
    /// From now on, setting any key the command depends on marks it as
    /// needing execution again (see ``executeCommandIfNeeded(forKey:)``).
    /// An automatic command runs at once, and again whenever it is marked.
    @discardableResult
    public func setCommand(_ command: Command, forKey key: String) -> ViewModel {
        let slot = CommandSlot(command: command)
        let old = commandSlots.updateValue(slot, forKey: key)
        if let old { unregisterDependencies(of: old, forKey: key) }
        for dependency in slot.dependencies where dependency != key {
            commandDependents[dependency, default: []].insert(key)
        }
        commandGraphCache = nil
        // The new command may compute another value: commands built on it
        // run again too.
        mark([key])
        if command.execution == .automatic { automaticCommandRound?.queueReplaced(key) }
        return self
    }

    /// Sets `command` for the typed `key`. Returns the ViewModel, for chaining.
    @discardableResult
    public func setCommand<Value>(_ command: Command, for key: Key<Value>) -> ViewModel {
        setCommand(command, forKey: key.name)
    }

    /// Sets a command computing `key`'s value from the keys it depends on.
    /// Returns the ViewModel, for chaining.
    ///
    /// ```swift
    /// viewModel.setCommand(for: .formattedPrice, dependsOn: .price, .currency) { vm in
    ///     "\(vm[.currency] ?? "") \(vm[.price] ?? 0)"
    /// }
    /// ```
    ///
    /// With `execution: .automatic` it runs now and whenever an input
    /// changes, so reads of `key` are always current (see
    /// ``Command/Execution``).
    @discardableResult
    public func setCommand<Value: ViewModelStorable, each Dependency>(
        for key: Key<Value>,
        dependsOn dependencies: repeat Key<each Dependency>,
        execution: Command.Execution = .onDemand,
        body: @escaping (ViewModel) -> Value?
    ) -> ViewModel {
        var names: [String] = []
        for dependency in repeat each dependencies { names.append(dependency.name) }
        return setCommand(Command(dependsOn: names, execution: execution, body), forKey: key.name)
    }

    /// Sets a command computing the value of `key` from the keys it depends
    /// on, run when asked or, with `execution: .automatic`, whenever an
    /// input changes. Returns the ViewModel, for chaining.
    @discardableResult
    public func setCommand<Result: ViewModelStorable>(
        forKey key: String,
        dependsOn dependencies: [String] = [],
        execution: Command.Execution = .onDemand,
        _ body: @escaping (ViewModel) -> Result?
    ) -> ViewModel {
        setCommand(Command(dependsOn: dependencies, execution: execution, body), forKey: key)
    }

    /// Removes the command for `key`; the value stored under `key` stays.
    /// Returns the ViewModel, for chaining.
    @discardableResult
    public func removeCommand(forKey key: String) -> ViewModel {
        if let old = commandSlots.removeValue(forKey: key) {
            unregisterDependencies(of: old, forKey: key)
            commandGraphCache = nil
        }
        return self
    }

    /// Removes the command for the typed `key`. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeCommand<Value>(for key: Key<Value>) -> ViewModel {
        removeCommand(forKey: key.name)
    }

    /// The command set for `key`, or `nil`.
    public func command(forKey key: String) -> Command? {
        commandSlots[key]?.command
    }

    /// The command set for the typed `key`, or `nil`.
    public func command<Value>(for key: Key<Value>) -> Command? {
        command(forKey: key.name)
    }

    /// The keys that have a command, sorted.
    public var commandKeys: [String] {
        commandSlots.keys.sorted()
    }

    // MARK: Executing

    /// Runs the command for `key` (and the chain after it) now, stores its
    /// result under `key` and returns it.
    ///
    /// Commands set for keys this command depends on run first when they
    /// need to, so derived values built on derived values are current.
    ///
    /// A result that no longer stands for the key is returned but not
    /// stored: when the body set an input of the command, when another run
    /// of the key started meanwhile (an observer asked for it), or when the
    /// command was replaced or removed while it ran.
    ///
    /// - Throws: ``CommandError/noCommand(key:)`` when none is set,
    ///   ``CommandError/notExecutable(key:)`` when it is not executable (it
    ///   is skipped; whether it needs execution is left as it was).
    @discardableResult
    public func executeCommand(forKey key: String) throws(CommandError) -> ViewModelValue? {
        try execute(key, force: true)
    }

    /// Runs the command for the typed `key` now and returns its result read
    /// as `Value`. See ``executeCommand(forKey:)``.
    @discardableResult
    public func executeCommand<Value: ViewModelStorable>(for key: Key<Value>) throws(CommandError) -> Value? {
        try executeCommand(forKey: key.name).flatMap(Value.fromViewModelValue)
    }

    /// Runs the command for `key` only when it needs to (it was marked, a
    /// key it depends on changed, or it never ran) and returns its result;
    /// otherwise returns the value stored under `key` without running it.
    ///
    /// Commands that depend on each other in a cycle mark each other when
    /// a result they store changes, so while their results keep changing
    /// they stay marked and each call runs them again; once the results
    /// settle, they are no longer marked. One call runs each command of
    /// the cycle that needs it once: a dependency it already ran keeps
    /// that result, even when a later run in the cycle marked it again.
    ///
    /// Called while the command is running (from its body, or from an
    /// observer of a key its body sets), it returns the stored value and
    /// does not run the command inside itself; the run under way stores
    /// its result, and tells the key's observers, when it ends. When an
    /// input changed since that run began (its body set one), the run will
    /// not store its result, and the call runs the command.
    ///
    /// - Throws: ``CommandError/noCommand(key:)``, or
    ///   ``CommandError/notExecutable(key:)`` when it needs to run but is
    ///   not executable.
    @discardableResult
    public func executeCommandIfNeeded(forKey key: String) throws(CommandError) -> ViewModelValue? {
        try execute(key, force: false)
    }

    /// ``executeCommandIfNeeded(forKey:)`` for a typed key, its result read
    /// as `Value`.
    @discardableResult
    public func executeCommandIfNeeded<Value: ViewModelStorable>(for key: Key<Value>) throws(CommandError) -> Value? {
        try executeCommandIfNeeded(forKey: key.name).flatMap(Value.fromViewModelValue)
    }

    /// Marks the command for `key` as needing execution. Returns the
    /// ViewModel, for chaining.
    @discardableResult
    public func setNeedsExecuteCommand(forKey key: String) -> ViewModel {
        mark([key])
        return self
    }

    /// Marks the command for the typed `key` as needing execution.
    @discardableResult
    public func setNeedsExecuteCommand<Value>(for key: Key<Value>) -> ViewModel {
        setNeedsExecuteCommand(forKey: key.name)
    }

    /// Whether the command for `key` will run on the next "if needed"
    /// call; `false` when there is no command.
    public func needsExecuteCommand(forKey key: String) -> Bool {
        commandSlots[key]?.needsExecute ?? false
    }

    /// Whether the command for the typed `key` will run on the next "if
    /// needed" call; `false` when there is no command.
    public func needsExecuteCommand<Value>(for key: Key<Value>) -> Bool {
        needsExecuteCommand(forKey: key.name)
    }

    // MARK: Undoing

    /// Undoes the command for `key`: runs the undo closures of its chain
    /// from the last command back to the keyed one (commands without undo
    /// are skipped), then marks it as needing execution. Returns how many
    /// undo closures ran.
    ///
    /// An automatic command runs again as soon as it is marked: an undo
    /// that restores its inputs recomputes it, but one that only restores
    /// the command's own key is overwritten at once.
    ///
    /// - Throws: ``CommandError/noCommand(key:)``, or
    ///   ``CommandError/notUndoable(key:)`` when no command of the chain
    ///   has an undo closure.
    @discardableResult
    public func undoCommand(forKey key: String) throws(CommandError) -> Int {
        guard let head = command(forKey: key) else { throw .noCommand(key: key) }
        let steps = head.chain
        guard steps.contains(where: \.isUndoable) else { throw .notUndoable(key: key) }
        var undone = 0
        for step in steps.reversed() where step.runUndo(on: self) {
            undone += 1
        }
        setNeedsExecuteCommand(forKey: key)
        return undone
    }

    /// Undoes the command for the typed `key`. See ``undoCommand(forKey:)``.
    @discardableResult
    public func undoCommand<Value>(for key: Key<Value>) throws(CommandError) -> Int {
        try undoCommand(forKey: key.name)
    }

    // MARK: Internals

    /// Marks the commands depending on `key` (and, transitively, those
    /// depending on their keys) as needing execution. Called from
    /// `keyDidChange` for every change.
    internal func markCommandsDepending(on key: String) {
        guard !commandDependents.isEmpty, let dependents = commandDependents[key] else { return }
        mark(Array(dependents))
    }

    /// Marks the commands of `keys` and everything downstream of them, each
    /// once: one walk for all, as dependents often share what follows them.
    /// The walk stops where everything downstream is marked already.
    ///
    /// Then runs the automatic commands it marked (see
    /// ``Command/Execution/automatic``).
    private func mark(_ keys: [String]) {
        var pending = keys
        var seen: Set<String> = []
        var automatic: [String] = []
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if let index = commandSlots.index(forKey: next) {
                let markedDownstream = commandSlots.values[index].mark()
                if commandSlots.values[index].command.execution == .automatic { automatic.append(next) }
                if markedDownstream { continue }
            }
            if let dependents = commandDependents[next] { pending.append(contentsOf: dependents) }
        }
        if !automatic.isEmpty { runAutomaticCommands(automatic) }
    }

    /// Runs the automatic commands of `keys`, and those their results mark:
    /// a round. Marks made while a round runs (by the results it stores)
    /// add to it, so chains of derived values run in a loop, not nested in
    /// each other's stores. Each command brings the commands it depends on
    /// up to date first (``execute(_:force:)``). The round goes on while a
    /// command it reached is marked, within the rules that make it end
    /// (see ``AutomaticCommandRound``).
    ///
    /// Key observers hear of the round's changes when it ends, as after a
    /// batch, so every automatic value they read is current.
    private func runAutomaticCommands(_ keys: [String]) {
        if let round = automaticCommandRound {
            round.queue(keys)
            return
        }
        let round = AutomaticCommandRound(queueing: keys)
        // Without key observers there is nothing to hold (and a batch
        // would put every store of the round on the slow path).
        let center = observationCenter.flatMap { $0.observers.isEmpty ? nil : $0 }
        center?.beginBatch()
        defer { center?.endBatch(in: self) }
        automaticCommandRound = round
        // Cleared before the batch ends: observers that change an input
        // start a round of their own.
        defer { automaticCommandRound = nil }
        while let key = round.nextKey() {
            guard var index = commandSlots.index(forKey: key), commandSlots.values[index].needsExecute else { continue }
            if round.mayRun(key, in: commandGraph) {
                // One that is not executable throws, and stays marked.
                _ = try? execute(key, force: false)
                guard let ran = commandSlots.index(forKey: key), commandSlots.values[ran].needsExecute else { continue }
                index = ran
            }
            // One left marked runs when a change next reaches it, later in
            // this round or after: a walk from further up must not stop
            // early, above it.
            clearMarkedDownstream(from: commandSlots.values[index].dependencies)
        }
    }

    /// What the rounds need to know of the commands, found once until a
    /// command is set or removed.
    private var commandGraph: CommandGraph {
        if let commandGraphCache { return commandGraphCache }
        let graph = CommandGraph(commands: commandSlots, dependents: commandDependents)
        commandGraphCache = graph
        return graph
    }

    /// Marks every automatic command, so each runs for what the ViewModel
    /// holds now.
    internal func markAutomaticCommands() {
        let automatic = commandSlots.compactMap { $0.value.command.execution == .automatic ? $0.key : nil }
        if !automatic.isEmpty { mark(automatic) }
    }

    /// Clears the mark of `key`'s command, which was claimed for a run with
    /// its inputs current, and tells the commands upstream that not all of
    /// their downstream is marked any more.
    private func clearMark(_ key: String) {
        commandSlots[key]?.needsExecute = false
        clearMarkedDownstream(from: [key])
    }

    /// Tells the commands of `keys`, and those upstream of them, that not
    /// all of their downstream is marked any more.
    private func clearMarkedDownstream(from keys: [String]) {
        var pending = keys
        while let next = pending.popLast() {
            // Upstream of a command without the flag, none has it.
            guard let slot = commandSlots[next], slot.markedDownstream else { continue }
            commandSlots[next]?.markedDownstream = false
            pending.append(contentsOf: slot.dependencies)
        }
    }

    /// Whether `key`'s command is in a dependency cycle that already ran
    /// in the round of automatic commands under way: its value stands
    /// until the round ends (see ``AutomaticCommandRound``).
    private func isSettled(_ key: String) -> Bool {
        automaticCommandRound?.isSettled(key, in: commandGraph) ?? false
    }

    /// Counts an execution of `head` for `key` in or out of flight, unless
    /// the key's command has been replaced meanwhile.
    private func setInFlight(_ key: String, _ head: Command, by change: Int) {
        guard let index = commandSlots.index(forKey: key), commandSlots.values[index].command === head,
              commandSlots.values[index].inFlight + change >= 0 else { return }
        commandSlots.values[index].inFlight += change
    }

    /// Forgets that `key`'s command depends on its dependencies.
    private func unregisterDependencies(of slot: CommandSlot, forKey key: String) {
        for dependency in slot.dependencies {
            commandDependents[dependency]?.remove(key)
            if commandDependents[dependency]?.isEmpty == true { commandDependents[dependency] = nil }
        }
    }

    /// What a call for `key` does now: nothing to run (`.cached`), an
    /// error, or run `key`'s command.
    private enum ExecutionDecision {
        case missing, notExecutable, cached, run(CommandRegistration)

        func command(forKey key: String) throws(CommandError) -> Command? {
            switch self {
            case .missing: throw .noCommand(key: key)
            case .notExecutable: throw .notExecutable(key: key)
            case .cached: return nil
            case .run(let registration): return registration.command
            }
        }
    }

    /// Executes `key`'s command when forced or needed, after bringing the
    /// commands it depends on up to date (when they need it): their new
    /// results mark it, which is why it is claimed only after them. A
    /// dependency that cannot run keeps its value.
    ///
    /// A work list, not recursion: a ledger's running balances, each a
    /// command on the one before, chain as deep as the ledger is long.
    /// `visiting` holds the keys whose dependencies are being brought up to
    /// date, so dependency cycles end. In a round of automatic commands, a
    /// dependency in a cycle that already ran in the round keeps its value,
    /// as in the round itself.
    private func execute(_ key: String, force: Bool) throws(CommandError) -> ViewModelValue? {
        struct Pending {
            let key: String
            let dependencies: [String]
            var next = 0
        }
        var visiting: Set<String> = []
        // The dependencies this call already ran. One in a dependency
        // cycle, marked again since by the cycle (its results change every
        // run), keeps its value, as a settled cycle does in a round:
        // walking it again would rerun the cycle once per path to it,
        // exponentially often. Outside cycles only a side effect (an
        // observer setting an input) marks one again, and it runs again.
        var ran: Set<String> = []
        let decision = decide(key, force: force, claim: false, visiting: visiting)
        guard try decision.command(forKey: key) != nil, case .run(let registration) = decision else {
            return storedValue(forKey: key)
        }
        var pending = [Pending(key: key, dependencies: registration.dependencies)]
        visiting.insert(key)
        while let top = pending.last {
            if top.next < top.dependencies.count {
                pending[pending.count - 1].next += 1
                let dependency = top.dependencies[top.next]
                guard dependency != top.key, !visiting.contains(dependency),
                      !(ran.contains(dependency) && commandGraph.isInCycle(dependency)),
                      case .run(let registration) = decide(dependency, force: false, claim: false, visiting: visiting),
                      !isSettled(dependency) else {
                    continue
                }
                pending.append(Pending(key: dependency, dependencies: registration.dependencies))
                visiting.insert(dependency)
                continue
            }
            pending.removeLast()
            visiting.remove(top.key)
            if pending.isEmpty { break }
            _ = try? run(top.key, force: false, visiting: visiting)
            ran.insert(top.key)
        }
        return try run(key, force: force, visiting: visiting)
    }

    /// Whether `key`'s command runs now. When `claim`ing it for a run, also
    /// clears its mark (or keeps it, when an input computed by another
    /// command is stale) and counts the run in flight.
    private func decide(_ key: String, force: Bool, claim: Bool, visiting: Set<String>) -> ExecutionDecision {
        guard let slot = commandSlots[key] else { return .missing }
        guard force || (slot.needsExecute && (slot.inFlight == 0 || slot.generation != slot.claimedGeneration)) else {
            return .cached
        }
        guard slot.command.isExecutable else { return .notExecutable }
        if claim {
            // Cleared before running: a dependency changing while
            // the body runs marks it again, so the next "if needed"
            // call reruns.
            // Unless an input computed by another command is marked
            // again (a command body changed what it depends on after
            // it was brought up to date): then this run reads a stale
            // input, so the mark stays and the next "if needed" call
            // refreshes the input and this command. Keeps "input
            // marked ⇒ dependents marked", except for a settled cycle
            // in a round: its value stands, and so does what is read
            // from it outside the cycle. Inside it, the members keep
            // each other marked, as outside a round; clearing each one
            // would walk the whole cycle at every run.
            let staleInput = slot.dependencies.contains { dependency in
                guard dependency != key, !visiting.contains(dependency),
                      let input = commandSlots[dependency], input.needsExecute, input.command.isExecutable
                else { return false }
                return !isSettled(dependency) || commandGraph.areInSameCycle(key, dependency)
            }
            if staleInput {
                // Storing the input's new result marks this command
                // again, which queues it in a round.
                commandSlots[key]?.needsExecute = true
            } else {
                clearMark(key)
            }
            lastCommandClaim &+= 1
            if let index = commandSlots.index(forKey: key) {
                commandSlots.values[index].inFlight += 1
                commandSlots.values[index].claimedGeneration = slot.generation
                commandSlots.values[index].claim = lastCommandClaim
            }
        }
        return .run(slot.registration)
    }

    /// Claims `key`'s command, when it is to run, and runs its chain,
    /// storing each result under `key`.
    private func run(_ key: String, force: Bool, visiting: Set<String>) throws(CommandError) -> ViewModelValue? {
        guard let head = try decide(key, force: force, claim: true, visiting: visiting).command(forKey: key) else {
            return storedValue(forKey: key)
        }
        // The generation the claim saw, and the claim; `decide` counted the
        // run in flight.
        let claimed = commandSlots[key]
        var claimedGeneration = claimed?.claimedGeneration ?? 0
        let claim = claimed?.claim ?? 0
        let round = automaticCommandRound
        round?.countRun(of: key)
        defer { setInFlight(key, head, by: -1) }
        var result: ViewModelValue? = storedValue(forKey: key)
        for step in head.chain where step === head || step.isExecutable {
            // Only the body's own marks of the key are its own doing; one
            // made while the result is stored (by an observer) queues it.
            round?.bodyWillRun(key)
            result = step.run(on: self)
            round?.bodyDidRun(key)
            // Stored only if no input changed since the claim (a step may
            // set a key the command depends on; see `CommandSlot.generation`),
            // no other run claimed the command since (see `CommandSlot.claim`),
            // and the command is still the key's: one replaced or removed
            // while it ran computed a value the key no longer stands for.
            guard let slot = commandSlots[key], slot.command === head, slot.claim == claim,
                  slot.generation == claimedGeneration else {
                continue
            }
            // Not in flight while the result is stored: the key's observers
            // are told now, and one that asks for the value "if needed"
            // reads the result just stored instead of running the command
            // again (which, for a result that differs each run, such as a
            // new payload object, never ended).
            setInFlight(key, head, by: -1)
            store(result, forKey: key)
            setInFlight(key, head, by: 1)
            // Marks the store made (through a dependency cycle back to this
            // command, or an observer that set an input) came after the
            // step read its inputs; the next step reads them as they are
            // now, so its result stands for them.
            if let index = commandSlots.index(forKey: key), commandSlots.values[index].command === head,
               commandSlots.values[index].claim == claim {
                claimedGeneration = commandSlots.values[index].generation
                commandSlots.values[index].claimedGeneration = claimedGeneration
            }
        }
        return result
    }
}

