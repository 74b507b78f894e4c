import AGViewModel
import Foundation

/// `agvm inspect ARCHIVE [--to tree|json] [--width N]`: shows what an
/// archive holds, or why it cannot be read.
enum InspectCommand {
    /// The output formats.
    enum Format: String {
        case tree, json
    }

    static let command = ToolCommand(
        name: "inspect",
        abstract: "Show what an archive holds, or why it is damaged.",
        usage: "ARCHIVE [--to tree|json] [--width N]",
        discussion: """
        Checks the whole archive ('-' for standard input) and prints its header (format
        version, payload size, payload CRC-32, record kind), then its content: a tree
        like 'agvm convert' prints, with the keys registered for archives and export
        after the counts of whatever registers them; or with --to json one JSON
        object {"archive": {"version", "payloadBytes", "payloadCRC32", "record"},
        "content": ...}.
        A damaged, truncated or foreign file prints 'ARCHIVE: error: REASON' (for
        example 'archive is damaged: content checksum is 0x..., expected 0x...') and
        exits 1; nothing of it is shown.
        """,
        options: [
            .value("to", placeholder: "tree|json", help: "Output format (default tree)."),
            .value("width", placeholder: "N", help: "Tree width in columns, at least 20; 0 for no limit (default: COLUMNS, the terminal, or 80)."),
        ],
        arguments: PositionalArguments(placeholder: "ARCHIVE", minimum: 1, maximum: 1),
        run: run)

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws -> Int32 {
        let formatName = arguments.value("to") ?? Format.tree.rawValue
        guard let format = Format(rawValue: formatName) else {
            throw CommandLineUsageError(command: "inspect", message:
                "invalid value '\(formatName)' for '--to': expected tree or json")
        }
        let width = try OutputStyle.widthOption(in: arguments)
        if width != nil && format != .tree {
            throw CommandLineUsageError(command: "inspect", message: "'--width' applies to '--to tree' only")
        }
        let path = arguments.positionals[0]
        let name = CommandLineTool.displayName(path)
        guard let data = CommandLineTool.readInput(path, io: io) else { return 1 }
        let header: ArchiveHeader
        let record: ArchiveRecord
        do {
            let decoder = ArchiveDecoder()
            header = try decoder.header(of: data)
            record = try decoder.decode(data)
        } catch {
            io.writeError("\(name): error: \(CommandLineTool.messageText("\(error)"))\n")
            if case .wrongMagic = error, (try? JSONValue(parsing: data)) != nil {
                io.writeError("\(name): note: this is JSON, not an archive; read it with 'agvm convert \(path == "-" ? "-" : name)'\n")
            }
            return 1
        }
        let checksum = "0x" + String(header.payloadChecksum, radix: 16, uppercase: true)
            .leftPadded(to: 8)
        switch format {
        case .tree:
            let style = OutputStyle.resolve(widthOption: width, toFile: false, io: io)
            let title = path == "-" ? "<stdin>" : URL(fileURLWithPath: path).lastPathComponent
            let renderer = TreeRenderer(style: style)
            let root = TreeRenderer.Node(
                label: [(title, .title)] + TreeRenderer.details([
                    "archive format \(header.version)", "payload \(header.payloadLength) bytes",
                    "CRC-32 \(checksum)",
                ]),
                children: [renderer.node(for: record, title: record.kindName)])
            try io.print(renderer.render(root))
        case .json:
            let summary: JSONValue = [
                "archive": [
                    "version": .int(Int64(header.version)),
                    "payloadBytes": .int(Int64(header.payloadLength)),
                    "payloadCRC32": .string(checksum),
                    "record": .string(record.kindName),
                ],
                "content": ManagerExport.json(record),
            ]
            var bytes = try JSONWriter(options: .init(pretty: true)).write(summary)
            bytes.append(UInt8(ascii: "\n"))
            try io.writeOutput(Data(bytes))
        }
        return 0
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
