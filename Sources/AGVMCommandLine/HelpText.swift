/// The help texts, generated from the command table.
enum HelpText {
    /// `agvm --help`.
    static func tool(commands: [ToolCommand]) -> String {
        let width = (commands.map(\.name.count).max() ?? 0) + 4
        var text = """
        agvm \(CommandLineTool.version): package API JSON into ViewModels, inspect archives, generate keys

        USAGE: agvm <command> [options] [arguments]

        COMMANDS:

        """
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.abstract + "\n"
        }
        text += """

        OPTIONS:
          -h, --help    Show this help.
          --version     Show the version.

        See 'agvm help <command>' or 'agvm <command> --help' for a command's options.
        An option's value follows it ('--to json', '-o out.json') or an '='
        ('--to=json'); a one-letter option also takes it attached ('-oout.json').
        '--' ends the options. An INPUT of '-' is standard input, '-o -' standard
        output.

        """
        return text
    }

    /// `agvm CMD --help`.
    static func command(_ command: ToolCommand) -> String {
        var text = "OVERVIEW: \(command.abstract)\n\nUSAGE: agvm \(command.name) \(command.usage)\n"
        if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
        let rows = command.options.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show this help.")]
        let width = (rows.map(\.0.count).max() ?? 0) + 4
        text += "\nOPTIONS:\n"
        for (synopsis, help) in rows {
            text += "  " + synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + help + "\n"
        }
        return text
    }
}
