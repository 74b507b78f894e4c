import AGViewModel
import Foundation

/// Entry point of the `agvm` tool: a table of ``ToolCommand`` values, a small
/// argument parser driven by that table, and the dispatch between them.
///
/// Exit statuses: 0 success, 1 failure (invalid JSON, unreadable file),
/// 2 usage error (printed as one line with a hint where to find help).
public enum CommandLineTool {
    /// The tool's version, printed by `agvm --version`.
    public static let version = "0.1.0"

    /// Every command, in help order. Add new commands here.
    public static let commands: [ToolCommand] = [
        ConvertCommand.command,
        InspectCommand.command,
        KeysCommand.command,
        ValidateCommand.command,
        FormatCommand.command,
    ]

    /// The command named `name`.
    public static func command(named name: String) -> ToolCommand? {
        commands.first { $0.name == name }
    }

    /// Runs the tool with the process arguments and exits with its status.
    public static func main() -> Never {
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
        exit(status)
    }

    /// Runs the tool with `arguments` (without the program name) against
    /// `io`, and returns the exit status. Never traps or prints a stack
    /// trace: every failure becomes a message and a status.
    public static func run(arguments: [String], io: ToolIO) -> Int32 {
        do {
            return try dispatch(arguments, io: io)
        } catch let error as CommandLineUsageError {
            io.writeError("\(error)\n")
            return 2
        } catch {
            io.writeError("agvm: error: \(error)\n")
            return 1
        }
    }

    static func dispatch(_ arguments: [String], io: ToolIO) throws -> Int32 {
        guard let first = arguments.first else {
            throw CommandLineUsageError(command: nil, message: "missing command")
        }
        switch first {
        case "-h", "--help":
            io.print(HelpText.tool(commands: commands))
            return 0
        case "--version":
            io.print("agvm \(version)\n")
            return 0
        case "help":
            guard arguments.count > 1 else {
                io.print(HelpText.tool(commands: commands))
                return 0
            }
            guard arguments.count == 2 else {
                throw CommandLineUsageError(command: nil, message: "'help' takes one command name")
            }
            guard let command = command(named: arguments[1]) else {
                throw CommandLineUsageError(command: nil, message: "unknown command '\(arguments[1])'")
            }
            io.print(HelpText.command(command))
            return 0
        default:
            guard let command = command(named: first) else {
                if first.hasPrefix("-") {
                    throw CommandLineUsageError(command: nil, message: "unknown option '\(first)'")
                }
                throw CommandLineUsageError(command: nil, message: "unknown command '\(first)'")
            }
            switch try ArgumentParser.parse(Array(arguments.dropFirst()), for: command) {
            case .help:
                io.print(HelpText.command(command))
                return 0
            case .run(let parsed):
                return try command.run(parsed, io)
            }
        }
    }

    /// Reads `path`, or standard input for `-`. Returns the data, or prints
    /// `NAME: error: REASON` and returns `nil`.
    static func readInput(_ path: String, io: ToolIO) -> Data? {
        do {
            return path == "-" ? try io.readStandardInput() : try io.readFile(path)
        } catch {
            io.writeError("\(displayName(path)): error: cannot read: \(error)\n")
            return nil
        }
    }

    /// Writes `data` to the file at `path` atomically (an existing file is
    /// only ever replaced by a complete new one), or to standard output when
    /// `path` is `nil` or `-`. Returns `false` after printing
    /// `PATH: error: REASON` when the file cannot be written.
    static func emit(_ data: Data, to path: String?, io: ToolIO) -> Bool {
        guard let path, path != "-" else {
            io.writeOutput(data)
            return true
        }
        do {
            try AtomicFile.write(data, to: URL(fileURLWithPath: path))
            return true
        } catch {
            // The path leads the line already; say what failed and why.
            let reason = String(cString: strerror(error.code))
            io.writeError("\(path): error: cannot write: \(reason) (while \(error.step.rawValue))\n")
            return false
        }
    }

    /// How an input is named in messages.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
