/// One subcommand of `agvm`, described as data: the argument parser, the
/// help text and the dispatcher all read this description. Later commands
/// add a value like this to ``CommandLineTool/commands``.
public struct ToolCommand: Sendable {
    /// The word that selects the command: `agvm NAME ...`.
    public var name: String
    /// One line saying what it does, shown in the command list.
    public var abstract: String
    /// The arguments part of the usage line, after `agvm NAME`.
    public var usage: String
    /// Longer explanation shown by `--help`, or empty.
    public var discussion: String
    /// The options it accepts (`--help` is always accepted too).
    public var options: [CommandOption]
    /// The positional arguments it takes.
    public var arguments: PositionalArguments
    /// Runs the command and returns the exit status. Throw a
    /// ``CommandLineUsageError`` for bad usage (exit 2).
    public var run: @Sendable (ParsedArguments, ToolIO) throws -> Int32

    /// A command description.
    public init(name: String, abstract: String, usage: String, discussion: String = "",
                options: [CommandOption], arguments: PositionalArguments,
                run: @escaping @Sendable (ParsedArguments, ToolIO) throws -> Int32) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.run = run
    }

    /// The option spelled `--name`, if the command has it.
    public func option(named name: String) -> CommandOption? {
        options.first { $0.name == name }
    }

    /// The option spelled `-x`, if the command has it.
    public func option(short: Character) -> CommandOption? {
        options.first { $0.shortName == short }
    }
}

/// An option of a command: a flag (`--sort-keys`) or an option with a value
/// (`--indent 4` or `--indent=4`).
public struct CommandOption: Sendable, Hashable {
    /// Whether the option takes a value.
    public enum Kind: Sendable, Hashable {
        /// Present or not.
        case flag
        /// Takes one value, shown as `placeholder` in help.
        case value(placeholder: String)
    }

    /// The name without the leading dashes.
    public var name: String
    /// Flag or value.
    public var kind: Kind
    /// One line of help.
    public var help: String
    /// A one-letter alias without the dash (`o` for `-o`), or `nil`.
    public var shortName: Character?

    /// A flag, `--name` (or `-x` when `short` is given).
    public static func flag(_ name: String, short: Character? = nil, help: String) -> CommandOption {
        CommandOption(name: name, kind: .flag, help: help, shortName: short)
    }

    /// An option taking a value, `--name VALUE` (or `-x VALUE`).
    public static func value(_ name: String, short: Character? = nil, placeholder: String, help: String) -> CommandOption {
        CommandOption(name: name, kind: .value(placeholder: placeholder), help: help, shortName: short)
    }

    /// How the option appears in help: `--indent N`, `-o, --output FILE`.
    public var synopsis: String {
        let short = shortName.map { "-\($0), " } ?? ""
        switch kind {
        case .flag: return "\(short)--\(name)"
        case .value(let placeholder): return "\(short)--\(name) \(placeholder)"
        }
    }
}

/// How many positional arguments a command takes, and what they are called.
public struct PositionalArguments: Sendable, Hashable {
    /// The name shown in messages, such as `FILE`.
    public var placeholder: String
    /// The fewest allowed.
    public var minimum: Int
    /// The most allowed, or `nil` for no limit.
    public var maximum: Int?

    /// A positional argument description.
    public init(placeholder: String, minimum: Int, maximum: Int?) {
        self.placeholder = placeholder
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// What the parser found on the command line for one command.
public struct ParsedArguments: Sendable, Hashable {
    /// The command's name.
    public var command: String
    /// Flags given (names without dashes).
    public var flags: Set<String> = []
    /// Values of value options; the last one given wins.
    public var values: [String: String] = [:]
    /// Positional arguments in order.
    public var positionals: [String] = []
    /// Options in the order given (names without dashes).
    public var order: [String] = []

    /// `true` when flag `name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value given for option `name`.
    public func value(_ name: String) -> String? { values[name] }

    /// The whole-number value of option `name` within `range`, `nil` when
    /// absent; throws a usage error for anything else.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandLineUsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CommandLineUsageError(command: command, message:
                "invalid value '\(text)' for '--\(name)': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

/// A mistake in how the tool was called: printed as one line with a hint
/// where to find help, exit status 2.
public struct CommandLineUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command it concerns, or `nil` for the tool itself.
    public var command: String?
    /// What is wrong.
    public var message: String

    /// A usage error.
    public init(command: String?, message: String) {
        self.command = command
        self.message = message
    }

    /// `agvm: MESSAGE; see 'agvm CMD --help'`.
    public var description: String {
        let help = command.map { "agvm \($0) --help" } ?? "agvm --help"
        return "agvm: \(message); see '\(help)'"
    }
}
