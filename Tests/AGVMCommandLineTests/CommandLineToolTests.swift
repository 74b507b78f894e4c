import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("agvm: dispatch, help and usage errors")
struct CommandLineToolTests {
    @Test func versionIsSemantic() {
        #expect(CommandLineTool.version.split(separator: ".").count == 3)
        let io = CapturedIO()
        #expect(io.run("--version") == 0)
        #expect(io.output == "agvm \(CommandLineTool.version)\n")
    }

    @Test func toolHelpListsEveryCommand() {
        for arguments in [["--help"], ["-h"], ["help"], ["help", "help"], ["help", "-h"], ["--help", "--help"], ["-h", "help"]] {
            let io = CapturedIO()
            #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 0)
            for command in CommandLineTool.commands {
                #expect(io.output.contains("  \(command.name) "), "\(arguments) lists \(command.name)")
                #expect(io.output.contains(command.abstract))
            }
            #expect(io.error.isEmpty)
        }
    }

    @Test func commandHelpComesFromTheTable() {
        let viaHelp = CapturedIO()
        let viaFlag = CapturedIO()
        #expect(viaHelp.run("help", "format") == 0)
        let viaToolFlag = CapturedIO()
        #expect(viaToolFlag.run("--help", "format") == 0)
        #expect(viaToolFlag.output == viaHelp.output)
        #expect(viaFlag.run("format", "--help") == 0)
        #expect(viaHelp.output == viaFlag.output)
        #expect(viaHelp.output.contains("USAGE: agvm format [--pretty|--compact] [--indent N] [--sort-keys] FILE|-"))
        for option in FormatCommand.command.options {
            #expect(viaHelp.output.contains(option.synopsis))
            #expect(viaHelp.output.contains(option.help))
        }
        let short = CapturedIO()
        #expect(short.run("validate", "-h") == 0)
        #expect(short.output.hasPrefix("OVERVIEW: Check that files are valid JSON"))
    }

    @Test(arguments: [
        (["format", "--x", "a.json"], "agvm: unknown option '--x' for 'format'; see 'agvm format --help'\n"),
        (["format", "-x", "a.json"], "agvm: unknown option '-x' for 'format'; see 'agvm format --help'\n"),
        (["format", "--indent"], "agvm: option '--indent' needs a value (N); see 'agvm format --help'\n"),
        (["format", "--indent", "x", "a.json"],
         "agvm: invalid value 'x' for '--indent': expected a whole number from 0 to 16; see 'agvm format --help'\n"),
        (["format", "--indent=99", "a.json"],
         "agvm: invalid value '99' for '--indent': expected a whole number from 0 to 16; see 'agvm format --help'\n"),
        (["format", "--pretty", "--compact", "a.json"],
         "agvm: '--pretty' and '--compact' cannot be used together; see 'agvm format --help'\n"),
        (["format", "--compact", "--indent", "2", "a.json"],
         "agvm: '--indent' needs pretty output, not '--compact'; see 'agvm format --help'\n"),
        (["format", "--sort-keys=yes", "a.json"], "agvm: option '--sort-keys' takes no value; see 'agvm format --help'\n"),
        (["format"], "agvm: missing FILE for 'format'; see 'agvm format --help'\n"),
        (["format", "a.json", "b.json"],
         "agvm: unexpected argument 'b.json' for 'format' (it takes one FILE); see 'agvm format --help'\n"),
        (["validate"], "agvm: missing FILE for 'validate'; see 'agvm validate --help'\n"),
        ([], "agvm: missing command; see 'agvm --help'\n"),
        (["frobnicate"], "agvm: unknown command 'frobnicate'; see 'agvm --help'\n"),
        (["--frobnicate"], "agvm: unknown option '--frobnicate'; see 'agvm --help'\n"),
        (["help", "frobnicate"], "agvm: unknown command 'frobnicate'; see 'agvm --help'\n"),
        (["conver", "a.json"], "agvm: unknown command 'conver' (did you mean 'convert'?); see 'agvm --help'\n"),
        (["help", "Validat"], "agvm: unknown command 'Validat' (did you mean 'validate'?); see 'agvm --help'\n"),
        (["hlep"], "agvm: unknown command 'hlep' (did you mean 'help'?); see 'agvm --help'\n"),
        (["covnert", "a.json"], "agvm: unknown command 'covnert' (did you mean 'convert'?); see 'agvm --help'\n"),
        (["convert", "a.json", "--packagr", "s.json"],
         "agvm: unknown option '--packagr' for 'convert' (did you mean '--packager'?); see 'agvm convert --help'\n"),
        (["convert", "a.json", "-to", "json"],
         "agvm: unknown option '-to' for 'convert' (did you mean '--to'?); see 'agvm convert --help'\n"),
        (["convert", "a.json", "-o=out.json"],
         "agvm: '-o=out.json': write '-o out.json' or '--output=out.json'; after '-o', '=' would be part of the value; see 'agvm convert --help'\n"),
        (["convert", "a.json", "-O", "x"], "agvm: unknown option '-O' for 'convert'; see 'agvm convert --help'\n"),
        (["convert", "a.json", "-o="],
         "agvm: '-o=': write '-o OUT' or '--output=OUT'; after '-o', '=' would be part of the value; see 'agvm convert --help'\n"),
        (["keys", "a.json", "-o=Feed.swift"],
         "agvm: '-o=Feed.swift': write '-o Feed.swift' or '--output=Feed.swift'; after '-o', '=' would be part of the value; see 'agvm keys --help'\n"),
        (["format", ""], "agvm: empty FILE for 'format'; see 'agvm format --help'\n"),
        (["--version", "extra"], "agvm: unexpected argument 'extra' after '--version'; see 'agvm --help'\n"),
        (["x\u{1B}[2J\ny"], "agvm: unknown command 'x\\u001B[2J\\ny'; see 'agvm --help'\n"),
        (["--help", "convert", "x"], "agvm: '--help' takes one command name; see 'agvm --help'\n"),
        (["convert", "a.json", "-o", ""],
         "agvm: option '--output' needs a value (OUT), not an empty one; see 'agvm convert --help'\n"),
        (["convert", "a.json", "--packager="],
         "agvm: option '--packager' needs a value (SPEC), not an empty one; see 'agvm convert --help'\n"),
        (["convert", "--help=yes"], "agvm: option '--help' takes no value; see 'agvm convert --help'\n"),
        (["convert", "a.json", "--to", "archive", "-o", "-"],
         "agvm: '--to archive' cannot write to standard output ('-o -'): archives are binary; give '-o FILE'; see 'agvm convert --help'\n"),
        (["inspect", "a.agvm", "--to", "json", "--width", "40"],
         "agvm: '--width' applies to '--to tree' only; see 'agvm inspect --help'\n"),
        (["keys", "a.json", "--module", "M", "--language", "objc", "--packager"],
         "agvm: '--packager' needs '--language swift'; see 'agvm keys --help'\n"),
    ])
    func usageErrorsExitTwoWithAOneLineHint(arguments: [String], message: String) {
        let io = CapturedIO()
        #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 2)
        #expect(io.error == message)
        #expect(io.output.isEmpty)
    }

    @Test func theParserFollowsTheTable() throws {
        let command = FormatCommand.command
        let outcome = try ArgumentParser.parse(["--indent=4", "--sort-keys", "--", "-weird-name.json"], for: command)
        guard case .run(let parsed) = outcome else {
            Issue.record("expected arguments, got \(outcome)")
            return
        }
        #expect(parsed.values["indent"] == "4")
        #expect(parsed.has("sort-keys"))
        #expect(parsed.positionals == ["-weird-name.json"])
        #expect(parsed.order == ["indent", "sort-keys"])
        #expect(try ArgumentParser.parse(["-"], for: command) == .run(ParsedArguments(command: "format", positionals: ["-"])))
    }

    @Test func newCommandsRegisterAsValues() throws {
        // What a later command looks like: the parser and help need nothing else.
        let echo = ToolCommand(
            name: "echo", abstract: "Print the arguments.", usage: "[--upper] WORD...",
            options: [.flag("upper", help: "Upper-case.")],
            arguments: PositionalArguments(placeholder: "WORD", minimum: 1, maximum: nil),
            run: { arguments, io in
                let text = arguments.positionals.joined(separator: " ")
                try io.print((arguments.has("upper") ? text.uppercased() : text) + "\n")
                return 0
            })
        guard case .run(let parsed) = try ArgumentParser.parse(["--upper", "a", "b"], for: echo) else {
            Issue.record("expected arguments")
            return
        }
        let io = CapturedIO()
        #expect(try echo.run(parsed, io.io) == 0)
        #expect(io.output == "A B\n")
        #expect(HelpText.command(echo).contains("--upper"))
    }

    @Test func aOneLetterOptionTakesEvenAOneCharacterValueAttached() throws {
        guard case .run(let parsed) = try ArgumentParser.parse(["-ox", "a.json"], for: ConvertCommand.command) else {
            Issue.record("expected arguments")
            return
        }
        #expect(parsed.value("output") == "x")
        #expect(parsed.positionals == ["a.json"])
        let io = CapturedIO(standardInput: Data(#"[{"a": 1}]"#.utf8))
        #expect(io.run("convert", "-", "--to", "json", "-o-") == 0)
        #expect(io.error.isEmpty)
        #expect(io.output.contains("\"a\""))
    }

    @Test func commandHelpIncludesTheDiscussion() {
        for command in CommandLineTool.commands where !command.discussion.isEmpty {
            let io = CapturedIO()
            #expect(io.run(command.name, "--help") == 0)
            #expect(io.output.contains(command.discussion), "\(command.name)")
        }
    }
}
