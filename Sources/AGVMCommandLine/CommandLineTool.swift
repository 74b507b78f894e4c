import AGViewModel
import Foundation

/// Entry point of the `agvm` tool: a table of ``ToolCommand`` values, a small
/// argument parser driven by that table, and the dispatch between them.
///
/// Exit statuses: 0 success, 1 failure (invalid JSON, unreadable file),
/// 2 usage error (printed as one line with a hint where to find help).
package enum CommandLineTool {
    /// The tool's version, printed by `agvm --version`.
    package static let version = "0.1.0"

    /// Every command, in help order. Add new commands here.
    package static let commands: [ToolCommand] = [
        ConvertCommand.command,
        InspectCommand.command,
        KeysCommand.command,
        ValidateCommand.command,
        FormatCommand.command,
    ]

    /// ` (did you mean 'convert'?)` when `name` is a near miss of a
    /// command, else empty.
    static func commandSuggestion(for name: String) -> String {
        NearMatch.closest(to: name, in: commands.map(\.name) + ["help"]).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The command named `name`.
    package static func command(named name: String) -> ToolCommand? {
        commands.first { $0.name == name }
    }

    /// Runs the tool with the process arguments and exits with its status.
    package static func main() -> Never {
        // A closed pipe becomes an EPIPE error the writers handle, not a
        // signal; so does a file-size limit (`ulimit -f`): EFBIG, reported,
        // with the temporary file removed and the old file left in place.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
        exit(status)
    }

    /// Runs the tool with `arguments` (without the program name) against
    /// `io`, and returns the exit status. Never traps or prints a stack
    /// trace: every failure becomes a message and a status.
    package static func run(arguments: [String], io: ToolIO) -> Int32 {
        let status: Int32
        do {
            status = try dispatch(arguments, io: io)
        } catch let error as CommandLineUsageError {
            io.writeError("\(messageText("\(error)"))\n")
            status = 2
        } catch ToolOutputError.closed {
            // The reader stopped reading (`agvm … | head`): end quietly.
            status = 0
        } catch let error as ToolOutputError {
            io.writeError("agvm: error: cannot write to standard output: \(error)\n")
            status = 1
        } catch {
            io.writeError("agvm: error: \(messageText("\(error)"))\n")
            status = 1
        }
        // Messages lost on the way to standard error still fail the run.
        return status == 0 && io.errorStreamFailed() ? 1 : status
    }

    static func dispatch(_ arguments: [String], io: ToolIO) throws -> Int32 {
        guard let first = arguments.first else {
            throw CommandLineUsageError(command: nil, message: "missing command")
        }
        switch first {
        case "--version":
            if arguments.count > 1 {
                throw CommandLineUsageError(command: nil, message: "unexpected argument '\(arguments[1])' after '--version'")
            }
            try io.print("agvm \(version)\n")
            return 0
        case "-h", "--help", "help":
            // `agvm --help convert` reads as `agvm help convert`; help for
            // help (`agvm help -h`) is the tool's help.
            guard arguments.count > 1, !["-h", "--help", "help"].contains(arguments[1]) else {
                try io.print(HelpText.tool(commands: commands))
                return 0
            }
            guard arguments.count == 2 else {
                throw CommandLineUsageError(command: nil, message: "'\(first)' takes one command name")
            }
            guard let command = command(named: arguments[1]) else {
                throw CommandLineUsageError(command: nil, message: "unknown command '\(arguments[1])'" + commandSuggestion(for: arguments[1]))
            }
            try io.print(HelpText.command(command))
            return 0
        default:
            guard let command = command(named: first) else {
                if first.hasPrefix("-") {
                    throw CommandLineUsageError(command: nil, message: "unknown option '\(first)'")
                }
                throw CommandLineUsageError(command: nil, message: "unknown command '\(first)'" + commandSuggestion(for: first))
            }
            switch try ArgumentParser.parse(Array(arguments.dropFirst()), for: command) {
            case .help:
                try io.print(HelpText.command(command))
                return 0
            case .run(let parsed):
                return try command.run(parsed, io)
            }
        }
    }

    /// Reads `path`, or standard input for `-`. Returns the data, or runs
    /// `beforeError` (which clears a progress line), prints
    /// `NAME: error: REASON` and returns `nil`.
    static func readInput(_ path: String, io: ToolIO, beforeError: () -> Void = {}) -> Data? {
        do {
            return path == "-" ? try io.readStandardInput() : try io.readFile(path)
        } catch {
            beforeError()
            io.writeError("\(displayName(path)): error: cannot read: \(messageText("\(error)"))\n")
            return nil
        }
    }

    /// Reports that `data`, read from `path`, is not JSON: the parse error,
    /// and, for an archive, where to read it instead.
    static func writeParseError(_ error: any Error, path: String, data: Data, io: ToolIO) {
        let name = displayName(path)
        io.writeError("\(name):\(error)\n")
        if data.starts(with: ArchiveFormat.magic) {
            io.writeError("\(name): note: this is an AGViewModel archive, not JSON; read it with 'agvm inspect \(path == "-" ? "-" : name)'\n")
        }
    }

    /// Throws a usage error when `paths` (a command's inputs) name standard
    /// input (`-`) more than once: the second read would find it empty.
    static func checkStandardInputReadOnce(_ paths: [String], command: String) throws(CommandLineUsageError) {
        if paths.filter(namesStandardInput).count > 1 {
            throw CommandLineUsageError(command: command, message: "standard input ('-') can be read only once")
        }
    }

    /// Whether `path` reads standard input: `-`, or a device path for it.
    static func namesStandardInput(_ path: String) -> Bool {
        ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path)
    }

    /// Writes `data` to `path` as ``OutputDestination`` describes (a file
    /// replaced atomically, a link followed, a FIFO or device streamed to),
    /// or to standard output when `path` is `nil` or `-`. Throws
    /// ``OutputPathError``, ``ToolFileWriteError`` or ``ToolOutputError``,
    /// which ``run(arguments:io:)`` reports.
    static func emit(_ data: Data, to path: String?, io: ToolIO) throws {
        try OutputDestination.resolve(path).write(data, io: io)
    }

    /// How an input is named in messages.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : TreeRenderer.printable(path) }

    /// Text that may come from the input (keys, values, file names) as one
    /// line of a message: control and bidirectional characters escaped, so
    /// data can neither start a line that reads as another message nor
    /// restyle the terminal, and a long text cut in the middle.
    static func messageText(_ text: String) -> String {
        MessageBounds.line(TreeRenderer.printable(text, escapingBackslashes: false))
    }
}
