/// A computation whose result a ViewModel stores under a key: "when a
/// result depends on several changing values, use a command".
///
/// A command has a body (run synchronously by the code that executes it), an
/// executable flag, an optional undo closure, the keys it depends on, and
/// links to a next and a previous command forming a chain:
///
/// ```swift
/// let format = Command(dependsOn: ["price", "currency"]) { vm in
///     "\(vm.string(at: "currency", default: "")) \(vm.double(at: "price", default: 0))"
/// }
/// viewModel.setCommand(format, forKey: "formattedPrice")
/// viewModel["price"] = 12        // marks the command "needs execute"
/// try viewModel.executeCommandIfNeeded(forKey: "formattedPrice")  // runs it
/// ```
///
/// ## Automatic commands
/// A command runs when asked (``Execution/onDemand``, the default): a
/// change of an input only marks it, and `executeCommandIfNeeded` brings
/// the value up to date. A view that reads the key through the subscript
/// (a SwiftUI `body`, a cell's `apply(_:)`) would show the old value until
/// someone asks. A command made with `execution: .automatic` runs as soon
/// as it is marked instead (when it is set, when an input changes, when
/// it is marked by hand), so the key always holds a current value and
/// the views and observers reading it are told when it changes:
///
/// ```swift
/// viewModel.setCommand(for: .priceText, dependsOn: .price, .currency, execution: .automatic) { vm in
///     "\(vm[.price] ?? 0) \(vm[.currency] ?? "")"
/// }
/// viewModel[.price] = 35     // priceText is "35.0 EUR" now
/// ```
///
/// ## Chains
/// `a.then(b)` makes `b` run after `a`. Executing a keyed command runs it
/// and then every command after it, in order, storing each result under
/// the key as it goes (so a step can read the previous step's result); the
/// key ends up holding the last step's result. Steps that are not
/// executable are skipped. The dependencies of every step mark the keyed
/// command: those of the chain as it is when the command is set for the
/// key (link the steps first, or set it again after relinking). Undo runs
/// the undo closures from the last step back to the keyed command. A chain
/// that loops back on itself is followed only until a command repeats; its
/// links hold each other, so its commands (and what their closures
/// capture) stay alive until a `then` breaks the loop.
///
/// ## Isolation
/// A command is a reference type (the links need identity) and, like the
/// ViewModel it serves, belongs to one isolation domain: its body and undo
/// closures are ordinary closures, run synchronously where the command is
/// executed, so a `@MainActor` caller's closures may touch main-actor state.
/// One command can serve several ViewModels of that domain (copies share
/// their commands); whether it needs executing is kept per ViewModel.
public final class Command {
    /// A command's computation: reads the ViewModel, returns the value to
    /// store under the command's key (`nil` removes the key).
    public typealias Body = (ViewModel) -> ViewModelValue?
    /// Reverts what the command did.
    public typealias Undo = (ViewModel) -> Void

    /// When a keyed command runs.
    public enum Execution: Sendable, Hashable {
        /// When asked: `executeCommand` runs it, `executeCommandIfNeeded`
        /// runs it when it is marked. A change of an input only marks it.
        case onDemand
        /// As soon as it is marked: when it is set for a key, when a key it
        /// depends on changes (inside a batch too, at each change), when it
        /// is marked by hand or by an undo. It runs after the change that
        /// marked it is stored and before that change's observers are
        /// told, so they read a current value; the observers of the keys
        /// the commands change hear of them once all have run (before the
        /// observers of the change that started them), as after a batch.
        /// Commands built on each other run in dependency order, and one
        /// whose input changes after it ran (another command's body set
        /// it, or an input computed on demand went stale) runs again.
        ///
        /// It stays marked instead, for the next change that marks it or
        /// the next `executeCommandIfNeeded` call, when it is not
        /// executable, when its own body changed its input, when it is in a
        /// dependency cycle and already ran for this change (the commands
        /// reading the cycle read its values as they stand), and when it
        /// already ran for this change as many times as the ViewModel has
        /// automatic commands, plus once each time the other commands have
        /// run out of work, up to that number of times again (bodies that
        /// change each other's inputs every run). So the runs a change
        /// starts always end. While one stays marked, every change of an
        /// input above it walks the commands down to it again, so that it
        /// is reached.
        case automatic
    }

    private let body: Body
    private let undoBody: Undo?
    private var executable: Bool
    private var nextCommand: Command?
    private weak var previousCommand: Command?

    /// The keys the command's result depends on. In a ViewModel, setting
    /// any of them marks the command as needing execution (for a step of a
    /// chain, the keyed command at its head). A command's own key is
    /// ignored here: storing its result does not mark it again.
    ///
    /// A path (`"user.name"`, `"replies[0]"`) depends on the key it starts
    /// with as well (a key with a dot in it still matches as written):
    /// setting `user`, or anything inside it through the holding ViewModel
    /// (``ViewModel/setValue(_:at:)-(JSONValue,JSONPath)``,
    /// ``ViewModel/removeValue(at:)-(JSONPath)``, a deep merge), marks the
    /// command. An edit made on a nested ViewModel itself does not reach
    /// the ViewModel holding it.
    public let dependencies: [String]

    /// When the command runs in a ViewModel: when asked, or as soon as it
    /// is marked. See ``Execution``.
    public let execution: Execution

    /// A command running `body`.
    ///
    /// - Parameters:
    ///   - dependencies: keys whose changes make the result stale.
    ///   - isExecutable: whether the command may run; see ``isExecutable``.
    ///   - execution: when it runs: when asked (the default), or as soon as
    ///     an input changes; see ``Execution``.
    ///   - undo: reverts what the command did; `nil` when it cannot be undone.
    ///   - body: computes the value stored under the command's key.
    public init(
        dependsOn dependencies: [String] = [],
        isExecutable: Bool = true,
        execution: Execution = .onDemand,
        undo: Undo? = nil,
        _ body: @escaping Body
    ) {
        self.dependencies = dependencies
        self.execution = execution
        self.executable = isExecutable
        self.undoBody = undo
        self.body = body
    }

    /// A command whose body returns a typed result, stored in its natural
    /// form (a `String` as a JSON string, a `ViewModel` as a payload).
    public convenience init<Result: ViewModelStorable>(
        dependsOn dependencies: [String] = [],
        isExecutable: Bool = true,
        execution: Execution = .onDemand,
        undo: Undo? = nil,
        _ body: @escaping (ViewModel) -> Result?
    ) {
        self.init(dependsOn: dependencies, isExecutable: isExecutable, execution: execution, undo: undo) { viewModel in
            body(viewModel)?.viewModelValue
        }
    }

    /// A command with a typed result that depends on typed keys:
    /// `Command(dependsOn: .price, .currency) { vm in ... }`.
    public convenience init<Result: ViewModelStorable, First, each Dependency>(
        dependsOn first: ViewModel.Key<First>, _ more: repeat ViewModel.Key<each Dependency>,
        isExecutable: Bool = true,
        execution: Execution = .onDemand,
        undo: Undo? = nil,
        body: @escaping (ViewModel) -> Result?
    ) {
        var names = [first.name]
        for key in repeat each more { names.append(key.name) }
        self.init(dependsOn: names, isExecutable: isExecutable, execution: execution, undo: undo, body)
    }

    /// Whether the command may run. A keyed command that is not executable
    /// is not run: executing it throws ``CommandError/notExecutable(key:)``.
    /// Inside a chain, a step that is not executable is skipped.
    public var isExecutable: Bool {
        get { executable }
        set { executable = newValue }
    }

    /// Whether the command has an undo closure.
    public var isUndoable: Bool { undoBody != nil }

    /// The command run after this one, or `nil`.
    public var next: Command? { nextCommand }

    /// The command run before this one, or `nil`. Held weakly: a chain is
    /// owned from its first command forwards.
    public var previous: Command? { previousCommand }

    /// Makes `next` run after this command and returns `next`, so chains
    /// read in order: `first.then(second).then(third)`.
    ///
    /// A chain is owned from its first command, and `then` returns the
    /// last: keep the first and register it, not what `then` returns
    /// (`setCommand(a.then(b), forKey:)` registers `b` alone, and `a` is
    /// released).
    ///
    /// ```swift
    /// let format = Command { vm in vm.string(at: "title") }
    /// format.then(Command { vm in vm.string(at: "title")?.uppercased() })
    /// viewModel.setCommand(format, forKey: "heading")
    /// ```
    ///
    /// Replaces this command's earlier next link and `next`'s earlier
    /// previous link.
    @discardableResult
    public func then(_ next: Command) -> Command {
        let oldNext = nextCommand
        nextCommand = next
        if let oldNext, oldNext !== next, oldNext.previousCommand === self {
            oldNext.previousCommand = nil
        }
        let oldPrevious = next.previousCommand
        next.previousCommand = self
        if let oldPrevious, oldPrevious !== self, oldPrevious.nextCommand === next {
            oldPrevious.nextCommand = nil
        }
        return next
    }

    /// This command and the ones after it, in order, stopping before a
    /// command repeats (a looping chain).
    public var chain: [Command] {
        var result: [Command] = []
        var seen: Set<ObjectIdentifier> = []
        var current: Command? = self
        while let command = current, seen.insert(ObjectIdentifier(command)).inserted {
            result.append(command)
            current = command.next
        }
        return result
    }

    /// Runs the body.
    internal func run(on viewModel: ViewModel) -> ViewModelValue? {
        body(viewModel)
    }

    /// Runs the undo closure, if any; returns whether there was one.
    internal func runUndo(on viewModel: ViewModel) -> Bool {
        guard let undoBody else { return false }
        undoBody(viewModel)
        return true
    }
}
