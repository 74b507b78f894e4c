import AGViewModel

/// One subcommand of `agvm`, described as data: the argument parser, the
/// help text and the dispatcher all read this description. Later commands
/// add a value like this to ``CommandLineTool/commands``.
package struct ToolCommand: Sendable {
    /// The word that selects the command: `agvm NAME ...`.
    package var name: String
    /// One line saying what it does, shown in the command list.
    package var abstract: String
    /// The arguments part of the usage line, after `agvm NAME`.
    package var usage: String
    /// Longer explanation shown by `--help`, or empty.
    package var discussion: String
    /// The options it accepts (`--help` is always accepted too).
    package var options: [CommandOption]
    /// The positional arguments it takes.
    package var arguments: PositionalArguments
    /// Runs the command and returns the exit status. Throw a
    /// ``CommandLineUsageError`` for bad usage (exit 2).
    package var run: @Sendable (ParsedArguments, ToolIO) throws -> Int32

    /// A command description.
    package init(name: String, abstract: String, usage: String, discussion: String = "",
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
    package func option(named name: String) -> CommandOption? {
        options.first { $0.name == name }
    }

    /// The option spelled `-x`, if the command has it.
    package func option(short: Character) -> CommandOption? {
        options.first { $0.shortName == short }
    }

    /// ` (did you mean '--name'?)` when `name` is a near miss of one of the
    /// command's options, else empty.
    package func optionSuggestion(for name: String) -> String {
        NearMatch.closest(to: name, in: options.map(\.name) + ["help"]).map { " (did you mean '--\($0)'?)" } ?? ""
    }
}

/// An option of a command: a flag (`--sort-keys`) or an option with a value
/// (`--indent 4` or `--indent=4`).
package struct CommandOption: Sendable, Hashable {
    /// Whether the option takes a value.
    package enum Kind: Sendable, Hashable {
        /// Present or not.
        case flag
        /// Takes one value, shown as `placeholder` in help.
        case value(placeholder: String)
    }

    /// The name without the leading dashes.
    package var name: String
    /// Flag or value.
    package var kind: Kind
    /// One line of help.
    package var help: String
    /// A one-letter alias without the dash (`o` for `-o`), or `nil`.
    package var shortName: Character?

    /// A flag, `--name` (or `-x` when `short` is given).
    package static func flag(_ name: String, short: Character? = nil, help: String) -> CommandOption {
        CommandOption(name: name, kind: .flag, help: help, shortName: short)
    }

    /// An option taking a value, `--name VALUE` (or `-x VALUE`).
    package static func value(_ name: String, short: Character? = nil, placeholder: String, help: String) -> CommandOption {
        CommandOption(name: name, kind: .value(placeholder: placeholder), help: help, shortName: short)
    }

    /// How the option appears in help: `--indent N`, `-o, --output FILE`.
    package var synopsis: String {
        let short = shortName.map { "-\($0), " } ?? ""
        switch kind {
        case .flag: return "\(short)--\(name)"
        case .value(let placeholder): return "\(short)--\(name) \(placeholder)"
        }
    }
}

/// How many positional arguments a command takes, and what they are called.
package struct PositionalArguments: Sendable, Hashable {
    /// The name shown in messages, such as `FILE`.
    package var placeholder: String
    /// The fewest allowed.
    package var minimum: Int
    /// The most allowed, or `nil` for no limit.
    package var maximum: Int?

    /// A positional argument description.
    package init(placeholder: String, minimum: Int, maximum: Int?) {
        self.placeholder = placeholder
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// What the parser found on the command line for one command.
package struct ParsedArguments: Sendable, Hashable {
    /// The command's name.
    package var command: String
    /// Flags given (names without dashes).
    package var flags: Set<String> = []
    /// Values of value options; the last one given wins.
    package var values: [String: String] = [:]
    /// Positional arguments in order.
    package var positionals: [String] = []
    /// Options in the order given (names without dashes).
    package var order: [String] = []

    /// `true` when flag `name` was given.
    package func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value given for option `name`.
    package func value(_ name: String) -> String? { values[name] }

    /// The whole-number value of option `name` within `range`, `nil` when
    /// absent; throws a usage error for anything else.
    package func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandLineUsageError) -> Int? {
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
package struct CommandLineUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command it concerns, or `nil` for the tool itself.
    package var command: String?
    /// What is wrong.
    package var message: String

    /// A usage error.
    package init(command: String?, message: String) {
        self.command = command
        self.message = message
    }

    /// `agvm: MESSAGE; see 'agvm CMD --help'`.
    package var description: String {
        let help = command.map { "agvm \($0) --help" } ?? "agvm --help"
        return "agvm: \(message); see '\(help)'"
    }
}
