/// How tree output looks: the width lines are cut to and whether ANSI
/// colour is used. Decided once per run from the options, the environment
/// and whether standard output is a terminal, so output that goes to a pipe
/// or a file is always the same (the golden files rely on it).
struct OutputStyle: Sendable, Equatable {
    /// The most columns a line takes; `nil` for no limit.
    var width: Int?
    /// Whether to colour with ANSI escapes.
    var colors: Bool

    /// Plain text, 80 columns: what a pipe gets by default.
    static let plain = OutputStyle(width: 80, colors: false)

    /// The width used when nothing says otherwise and output is not a terminal.
    static let defaultWidth = 80

    /// The narrowest tree: narrower, the tree's own lines would not fit.
    static let minimumWidth = 20

    /// `--width N`: 0 (no limit) or from ``minimumWidth`` to 10,000; `nil`
    /// when not given.
    static func widthOption(in arguments: ParsedArguments) throws(CommandLineUsageError) -> Int? {
        guard let text = arguments.value("width") else { return nil }
        guard let width = Int(text), width == 0 || (minimumWidth ... 10_000).contains(width) else {
            throw CommandLineUsageError(command: arguments.command, message:
                "invalid value '\(text)' for '--width': expected 0 (no limit) or a whole number from \(minimumWidth) to 10000")
        }
        return width
    }

    /// The style for writing to standard output (`toFile == false`) or to a
    /// file, given `--width` (0 means no limit).
    ///
    /// Width: `--width`, else a positive `COLUMNS`, else the terminal's width
    /// when standard output is one, else 80; at least ``minimumWidth``.
    /// Colour: only when writing to standard output, it is a terminal, and
    /// `NO_COLOR` is unset or empty (see no-color.org).
    static func resolve(widthOption: Int?, toFile: Bool, io: ToolIO) -> OutputStyle {
        let width: Int?
        if let widthOption {
            width = widthOption == 0 ? nil : widthOption
        } else if let text = io.environment["COLUMNS"], let columns = Int(text), columns > 0 {
            width = max(columns, minimumWidth)
        } else if !toFile, io.isOutputTerminal, let columns = io.terminalColumns() {
            width = max(columns, minimumWidth)
        } else {
            width = defaultWidth
        }
        let noColor = !(io.environment["NO_COLOR"] ?? "").isEmpty
        return OutputStyle(width: width, colors: !toFile && io.isOutputTerminal && !noColor)
    }

    /// The ANSI colours used, by role.
    enum Role: String {
        case title = "1"          // bold
        case structure = "2"      // dim: tree lines, counts, types
        case key = "36"           // cyan
        case string = "32"        // green
        case number = "33"        // yellow
        case literal = "35"       // magenta: true, false, null
        case warning = "1;33"     // bold yellow
    }

    /// `text` in the colour of `role`, or `text` as is without colours.
    func paint(_ text: String, _ role: Role) -> String {
        guard colors, !text.isEmpty else { return text }
        return "\u{1B}[\(role.rawValue)m\(text)\u{1B}[0m"
    }
}
