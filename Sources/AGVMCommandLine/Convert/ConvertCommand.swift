import AGViewModel
import Foundation

/// `agvm convert INPUT... [--packager SPEC] [--to tree|json|archive] [-o OUT]`:
/// packages API JSON into a manager and shows, exports or archives it.
enum ConvertCommand {
    /// The output formats.
    enum Format: String, CaseIterable {
        case tree, json, archive
    }

    static let command = ToolCommand(
        name: "convert",
        abstract: "Package API JSON into ViewModels and show, export or archive them.",
        usage: "INPUT... [--packager SPEC] [--to tree|json|archive] [-o OUT] [--width N] [--strict]",
        discussion: """
        Reads each INPUT ('-' for standard input) and packages it into a manager of
        sections of ViewModels. With --packager, the spec file says how: items path
        (an array, or an object's members with "keyedBy"), header, fields with types,
        defaults, required keys, templates with number and date formats (reference:
        Fixtures/specs/README.md; JSON Schema: Fixtures/specs/spec.schema.json).
        Without it, a generic packaging is used: an array of objects
        becomes one section; each member of an object that is an array of objects
        becomes a section titled with its key (searched one level down when the top
        level has none) and the other members go to the manager's common ViewModel;
        any other object becomes one section with one item.

        --to tree (the default) prints sections, items and keys with their types and
        values cut to the width (--width, else COLUMNS, else the terminal's width,
        else 80), coloured only on a terminal unless NO_COLOR is set. --to json
        writes the JSON export; with several inputs, an array of
        {"input": PATH, "manager": EXPORT}. --to archive writes an archive file and
        needs -o, which may name a pipe but not a terminal; it takes one INPUT.

        Elements the spec cannot package (a missing required key, not an object) are
        skipped and reported as 'INPUT: warning: item N: REASON' ('section S, item N'
        with sections; two or more elements that are not objects as one line per
        section: 'N elements skipped: numbers, not objects';
        a spec's "scalarKey" packages them instead), and so is a header or a
        section's items the spec cannot package; the rest is still
        converted and the exit status is 0, or 1 with --strict. Invalid JSON, a bad
        spec or a document that does not fit the spec print
        'FILE[:LINE:COLUMN]: error: MESSAGE' and exit 1. Output is all or nothing:
        when any input fails, nothing is written, and an existing -o file is only
        ever replaced by a complete new one. A symbolic link given to -o is followed
        and kept (its target is replaced); a FIFO, a device or an open descriptor
        (/dev/stdout, /dev/fd/N) is written to in place;
        a directory, or a file the command reads (an INPUT or the SPEC), is an error. A failed write prints 'agvm: error: cannot write …'
        and exits 1; a closed pipe ('agvm … | head') ends quietly.
        """,
        options: [
            .value("packager", short: "p", placeholder: "SPEC", help: "Package with the spec file SPEC (JSON) instead of the generic packaging."),
            .value("to", placeholder: "tree|json|archive", help: "Output format (default tree)."),
            .value("output", short: "o", placeholder: "OUT", help: "Write to OUT (atomically) instead of standard output."),
            .value("width", placeholder: "N", help: "Tree width in columns, at least 20; 0 for no limit (default: COLUMNS, the terminal, or 80)."),
            .flag("strict", help: "Exit 1 and write nothing when anything was skipped."),
        ],
        arguments: PositionalArguments(placeholder: "INPUT", minimum: 1, maximum: nil),
        run: run)

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws -> Int32 {
        let formatName = arguments.value("to") ?? Format.tree.rawValue
        guard let format = Format(rawValue: formatName) else {
            throw CommandLineUsageError(command: "convert", message:
                "invalid value '\(formatName)' for '--to': expected tree, json or archive")
        }
        let width = try OutputStyle.widthOption(in: arguments)
        let inputs = arguments.positionals
        let output = arguments.value("output").flatMap { $0 == "-" ? nil : $0 }
        let specPath = arguments.value("packager")
        try CommandLineTool.checkStandardInputReadOnce(inputs + (specPath.map { [$0] } ?? []), command: "convert")
        if let replaced = OutputDestination.replacedInput(writingTo: output, inputs: inputs + (specPath.map { [$0] } ?? [])) {
            let role = inputs.contains(replaced) ? "the input" : "the packaging spec"
            throw CommandLineUsageError(command: "convert", message:
                "'-o \(output!)' would replace \(role) \(CommandLineTool.displayName(replaced)); write to another file")
        }
        if format == .archive {
            guard output != nil else {
                throw CommandLineUsageError(command: "convert", message: arguments.value("output") == "-"
                    ? "'--to archive' cannot write to standard output ('-o -'): archives are binary; give '-o FILE'"
                    : "'--to archive' needs '-o OUT' (archives are binary and not written to standard output)")
            }
            if (try? OutputDestination.resolve(output))?.isTerminal(io: io) == true {
                throw CommandLineUsageError(command: "convert", message:
                    "'--to archive' cannot write to a terminal ('-o \(output!)'): archives are binary; give '-o FILE' or a pipe")
            }
            guard inputs.count == 1 else {
                throw CommandLineUsageError(command: "convert", message:
                    "'--to archive' takes one INPUT, got \(inputs.count); run 'agvm convert' once per archive")
            }
        }
        if width != nil && format != .tree {
            throw CommandLineUsageError(command: "convert", message: "'--width' applies to '--to tree' only")
        }

        var packager: SpecPackager?
        if let specPath {
            guard let data = CommandLineTool.readInput(specPath, io: io) else { return 1 }
            do {
                packager = SpecPackager(spec: try PackagingSpec(data: data, source: CommandLineTool.displayName(specPath)))
            } catch {
                io.writeError("\(CommandLineTool.messageText("\(error)"))\n")
                return 1
            }
        }

        // Package every input first: output is all or nothing.
        var conversions: [Conversion] = []
        var failed = false
        var progress = ProgressLine(io: io, total: inputs.count)
        for (index, path) in inputs.enumerated() {
            let name = CommandLineTool.displayName(path)
            guard let data = CommandLineTool.readInput(path, io: io, beforeError: { progress.clear() }) else {
                failed = true
                continue
            }
            progress.show(index, name: name, bytes: data.count)
            do {
                let conversion = try Conversion.convert(data, path: path, spec: packager)
                if !conversion.skipped.isEmpty { progress.clear() }
                // A `sections` spec takes `scalarKey` per section; a
                // `sectionsFrom` spec refuses it.
                let scalarKeyHolder = packager?.spec.sectionsPath != nil ? nil
                    : packager?.spec.sections != nil ? "a section" : "a spec"
                for line in SkippedSummary.lines(for: conversion.skipped, scalarKeyHolder: scalarKeyHolder) {
                    io.writeError("\(name): warning: \(CommandLineTool.messageText(line))\n")
                }
                conversions.append(conversion)
            } catch let error as JSONParseError {
                progress.clear()
                CommandLineTool.writeParseError(error, path: path, data: data, io: io)
                failed = true
            } catch let error as PackagingError where specPath != nil {
                // The spec or the input may be the one to fix: name both.
                progress.clear()
                io.writeError("\(name): error: packaging with \(CommandLineTool.displayName(specPath!)): \(CommandLineTool.messageText("\(error)"))\n")
                failed = true
            } catch {
                progress.clear()
                io.writeError("\(name): error: \(CommandLineTool.messageText("\(error)"))\n")
                failed = true
            }
        }
        progress.clear()
        if failed { return 1 }
        let skippedCount = conversions.reduce(0) { $0 + $1.skippedElementCount }
        let problemCount = conversions.reduce(0) { $0 + $1.problemCount }
        if arguments.has("strict") && skippedCount + problemCount > 0 {
            var what: [String] = []
            if skippedCount > 0 {
                what.append("\(counted(skippedCount, "element")) \(skippedCount == 1 ? "was" : "were") skipped")
            }
            if problemCount > 0 {
                let other = skippedCount > 0 ? "other " : ""
                what.append("\(grouped(problemCount)) \(other)\(problemCount == 1 ? "problem was" : "problems were") reported")
            }
            io.writeError("agvm: error: \(what.joined(separator: " and ")) (--strict); nothing written\n")
            return 1
        }

        switch format {
        case .tree:
            let style = OutputStyle.resolve(widthOption: width, toFile: output != nil, io: io)
            let renderer = TreeRenderer(style: style)
            let text = conversions.map {
                renderer.render(manager: $0.manager, title: $0.title, skipped: $0.skippedElementCount,
                                problems: $0.problemCount)
            }.joined(separator: "\n")
            try CommandLineTool.emit(Data(text.utf8), to: output, io: io)
            return 0
        case .json:
            let value: JSONValue
            if conversions.count == 1 {
                value = ManagerExport.json(conversions[0].manager)
            } else {
                value = .array(conversions.map { conversion in
                    .object(["input": .string(conversion.path), "manager": ManagerExport.json(conversion.manager)])
                })
            }
            var bytes = try JSONWriter(options: .init(pretty: true, indent: 2, sortedKeys: false)).write(value)
            bytes.append(UInt8(ascii: "\n"))
            try CommandLineTool.emit(Data(bytes), to: output, io: io)
            return 0
        case .archive:
            return try ManagerArchiving.write(conversions[0], to: output!, io: io)
        }
    }
}
