import AGViewModel
import Foundation

/// `agvm validate FILE...`: checks that every file is valid JSON.
enum ValidateCommand {
    static let command = ToolCommand(
        name: "validate",
        abstract: "Check that files are valid JSON (RFC 8259, strict).",
        usage: "FILE...",
        discussion: """
        Prints 'FILE: ok' for each valid file. For each invalid one, prints
        'FILE:LINE:COLUMN: error: MESSAGE' on standard error. Exits 0 when every
        file is valid, 1 otherwise. '-' reads standard input (once).
        """,
        options: [],
        arguments: PositionalArguments(placeholder: "FILE", minimum: 1, maximum: nil),
        run: { arguments, io in
            try CommandLineTool.checkStandardInputReadOnce(arguments.positionals, command: "validate")
            var status: Int32 = 0
            // When the reader stops reading (`agvm validate … | head`), the
            // files are still checked: an invalid one must still fail the run.
            var isOutputClosed = false
            for path in arguments.positionals {
                guard let data = CommandLineTool.readInput(path, io: io) else {
                    status = 1
                    continue
                }
                do {
                    _ = try JSONParser().parse(data)
                } catch {
                    CommandLineTool.writeParseError(error, path: path, data: data, io: io)
                    status = 1
                    continue
                }
                guard !isOutputClosed else { continue }
                do {
                    try io.print("\(CommandLineTool.displayName(path)): ok\n")
                } catch ToolOutputError.closed {
                    isOutputClosed = true
                }
            }
            return status
        })
}
