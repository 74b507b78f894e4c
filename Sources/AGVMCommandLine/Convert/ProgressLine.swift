/// A one-line progress report on standard error for long conversions:
/// `agvm: converting 3/12: feed.json…`, redrawn in place and erased at the
/// end, so it never mixes with output or stays on screen.
///
/// Shown only when standard error is a terminal, never in pipes or logs,
/// and only for long runs: several inputs, or an input of at least
/// ``largeInput`` bytes.
struct ProgressLine {
    /// Inputs at least this large count as a long run on their own.
    static let largeInput = 1 << 20

    private let io: ToolIO
    private let total: Int
    private var visible = false

    /// A progress line for `total` inputs, writing to `io`'s standard error.
    init(io: ToolIO, total: Int) {
        self.io = io
        self.total = total
    }

    /// Shows that input `index` (from 0), named `name`, of `bytes` bytes is
    /// being converted, when the run is long and stderr is a terminal.
    mutating func show(_ index: Int, name: String, bytes: Int) {
        guard io.isErrorTerminal, total > 1 || bytes >= Self.largeInput else { return }
        let counter = total > 1 ? " \(index + 1)/\(total)" : ""
        io.writeError("\r\u{1B}[2Kagvm: converting\(counter): \(name)…")
        visible = true
    }

    /// Erases the line (before a message is printed, and at the end).
    mutating func clear() {
        guard visible else { return }
        io.writeError("\r\u{1B}[2K")
        visible = false
    }
}
