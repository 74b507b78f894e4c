import AGViewModel
import Foundation

/// `agvm format [--pretty|--compact] [--indent N] [--sort-keys] FILE|-`:
/// re-writes JSON to standard output.
enum FormatCommand {
    static let command = ToolCommand(
        name: "format",
        abstract: "Pretty-print or compact JSON.",
        usage: "[--pretty|--compact] [--indent N] [--sort-keys] FILE|-",
        discussion: """
        Reads FILE ('-' for standard input), checks it strictly and writes it to
        standard output: pretty by default. Key order is kept unless --sort-keys.
        A key that occurs twice in an object (also as keys that differ only in
        Unicode normalization) is written once: its last value, at its first place.
        Invalid input prints 'FILE:LINE:COLUMN: error: MESSAGE' and exits 1.
        """,
        options: [
            .flag("pretty", help: "One element or member per line, indented (the default)."),
            .flag("compact", help: "No whitespace at all."),
            .value("indent", placeholder: "N", help: "Spaces per level when pretty, 0 to 16 (default 2)."),
            .flag("sort-keys", help: "Sort object keys by their UTF-8 bytes."),
        ],
        arguments: PositionalArguments(placeholder: "FILE", minimum: 1, maximum: 1),
        run: { arguments, io in
            if arguments.has("pretty") && arguments.has("compact") {
                throw CommandLineUsageError(command: "format", message: "'--pretty' and '--compact' cannot be used together")
            }
            let indent = try arguments.integer("indent", in: 0...16)
            if indent != nil && arguments.has("compact") {
                throw CommandLineUsageError(command: "format", message: "'--indent' needs pretty output, not '--compact'")
            }
            let options = JSONWriter.Options(pretty: !arguments.has("compact"), indent: indent ?? 2,
                                             sortedKeys: arguments.has("sort-keys"))
            let path = arguments.positionals[0]
            guard let data = CommandLineTool.readInput(path, io: io) else { return 1 }
            let value: JSONValue
            do {
                value = try JSONParser().parse(data)
            } catch {
                CommandLineTool.writeParseError(error, path: path, data: data, io: io)
                return 1
            }
            var bytes = try JSONWriter(options: options).write(value)
            bytes.append(UInt8(ascii: "\n"))
            try io.writeOutput(Data(bytes))
            return 0
        })
}
