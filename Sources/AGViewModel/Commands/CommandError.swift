/// Why a keyed command did not run.
public enum CommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No command is set for the key.
    case noCommand(key: String)
    /// The command for the key is not executable (``Command/isExecutable``
    /// is `false`), so it was skipped.
    case notExecutable(key: String)
    /// No command in the key's chain has an undo closure.
    case notUndoable(key: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noCommand(let key): "no command for key '\(key)'"
        case .notExecutable(let key): "the command for key '\(key)' is not executable; it was skipped"
        case .notUndoable(let key): "the command for key '\(key)' cannot be undone"
        }
    }
}
