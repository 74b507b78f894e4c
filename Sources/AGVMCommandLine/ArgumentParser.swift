/// Splits a command's arguments into flags, option values and positionals,
/// following the command's table of options. Small on purpose: `--name`,
/// `--name VALUE`, `--name=VALUE`, `-h`, `-` as a positional (standard
/// input) and `--` to end options.
enum ArgumentParser {
    /// What the arguments ask for.
    enum Outcome: Equatable {
        /// Run the command with these arguments.
        case run(ParsedArguments)
        /// Show the command's help.
        case help
    }

    static func parse(_ arguments: [String], for command: ToolCommand) throws(CommandLineUsageError) -> Outcome {
        var parsed = ParsedArguments(command: command.name)
        var index = 0
        var optionsEnded = false
        func fail(_ message: String) -> CommandLineUsageError {
            CommandLineUsageError(command: command.name, message: message)
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                // An empty name (`agvm format ''`) would read or write the
                // current directory and name nothing in its message.
                guard !argument.isEmpty else { throw fail("empty \(command.arguments.placeholder) for '\(command.name)'") }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" { return .help }
            var name: String
            var inlineValue: String?
            let option: CommandOption
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if name == "help" { throw fail("option '--help' takes no value") }
                guard let found = command.option(named: name) else {
                    throw fail("unknown option '--\(name)' for '\(command.name)'" + command.optionSuggestion(for: name))
                }
                option = found
            } else {
                // `-x` or `-xVALUE`: a one-letter alias.
                let letters = argument.dropFirst()
                guard let letter = letters.first, let found = command.option(short: letter) else {
                    // `-to json` for `--to json`; one letter is too short to guess from.
                    let suggestion = letters.count > 1 ? command.optionSuggestion(for: String(letters)) : ""
                    throw fail("unknown option '\(argument)' for '\(command.name)'" + suggestion)
                }
                if letters.count > 1 { inlineValue = String(letters.dropFirst()) }
                // `-o=out.json` would name the file `=out.json`.
                if case .value(let placeholder) = found.kind, let attached = inlineValue, attached.first == "=" {
                    let value = attached.count > 1 ? String(attached.dropFirst()) : placeholder
                    throw fail("'\(argument)': write '-\(letter) \(value)' or '--\(found.name)=\(value)'; "
                        + "after '-\(letter)', '=' would be part of the value")
                }
                option = found
                name = found.name
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw fail("option '--\(name)' takes no value") }
                parsed.flags.insert(name)
            case .value(let placeholder):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw fail("option '--\(name)' needs a value (\(placeholder))")
                    }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else { throw fail("option '--\(name)' needs a value (\(placeholder)), not an empty one") }
                parsed.values[name] = value
            }
            parsed.order.append(name)
        }
        let spec = command.arguments
        if parsed.positionals.count < spec.minimum {
            throw fail("missing \(spec.placeholder) for '\(command.name)'")
        }
        if let maximum = spec.maximum, parsed.positionals.count > maximum {
            let extra = parsed.positionals[maximum]
            throw fail("unexpected argument '\(extra)' for '\(command.name)' (it takes \(maximum == 1 ? "one" : "at most \(maximum)") \(spec.placeholder))")
        }
        return .run(parsed)
    }
}
