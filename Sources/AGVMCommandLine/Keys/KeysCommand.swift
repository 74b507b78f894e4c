import AGViewModel
import Foundation

/// `agvm keys INPUT --module NAME [--language swift|objc] [--packager | --spec] [-o FILE]`:
/// generates typed key constants from sample API JSON, or, with `--spec`,
/// from a packaging spec.
enum KeysCommand {
    static let command = ToolCommand(
        name: "keys",
        abstract: "Generate key constants from sample API JSON or a packaging spec.",
        usage: "INPUT --module NAME [--language swift|objc] [--packager | --spec] [-o FILE]",
        discussion: """
        Reads sample JSON (an object or an array of objects; '-' for standard input)
        and writes key constants: in Swift, typed keys as static members of
        'nonisolated extension ViewModel.Key where Value == String' (one extension
        per value type), so 'vm[.title]' reads them; keys of nested objects carry
        their path in their name ('authorName' is the key 'name' of 'author') and
        read from a ViewModel of that nested object (the path is not followed);
        each has a doc comment giving the source key, its path and an example;
        '--packager' adds a ViewModelPackager struct per object level
        (Name.package(json), or Name() where a packager goes). Declarations
        are nonisolated: usable off the main actor even in a target whose default
        isolation is MainActor. In Objective-C, 'static NSString * const'
        constants. Types are inferred from every element of every array: keys
        missing from some elements are marked optional, keys whose type varies get
        the widest type, and keys that are null in every sample are reported on
        standard error.
        Objects that are maps keyed by ids (numeric, UUID or hash-like member names,
        or many members of one shape, as in catalogues and lookup tables) get one
        constant, and the shape of their values is described once. Names are made
        valid Swift: keywords escaped, leading digits prefixed with '_', Unicode
        letters kept ('名前'), and names that collide after cleaning numbered, as is
        a module name that would hide a type the code uses ('ViewModel2') or,
        with --packager, a common type of the app's ('Error2').
        A sample that holds no object (an error page, '[]') is an error.
        With --spec, INPUT is a packaging spec (as 'agvm convert --packager' takes)
        and the constants are the keys its fields store, typed by their "type",
        for the ViewModels the spec packages (header and items of every section);
        a part without "fields" copies the API's keys, which the spec does not
        name, and is reported on standard error.
        The same input always gives the same output.
        """,
        options: [
            .value("module", placeholder: "NAME", help: "Name of the API (required), e.g. Timeline: the --packager type, the Objective-C prefix, comments."),
            .value("language", placeholder: "swift|objc", help: "Output language (default swift)."),
            .flag("packager", help: "Swift only: add packagers copying each API key into a ViewModel."),
            .flag("spec", help: "Swift only: INPUT is a packaging spec; generate the keys it stores."),
            .value("output", short: "o", placeholder: "FILE", help: "Write to FILE (atomically) instead of standard output; never the INPUT."),
        ],
        arguments: PositionalArguments(placeholder: "INPUT", minimum: 1, maximum: 1),
        run: run)

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws -> Int32 {
        guard let module = arguments.value("module") else {
            throw CommandLineUsageError(command: "keys", message: "missing '--module NAME'")
        }
        let languageName = arguments.value("language") ?? "swift"
        guard let language = KeyConstantGenerator.Language(rawValue: languageName) else {
            throw CommandLineUsageError(command: "keys", message:
                "invalid value '\(languageName)' for '--language': expected swift or objc")
        }
        if arguments.has("packager") && language != .swift {
            throw CommandLineUsageError(command: "keys", message: "'--packager' needs '--language swift'")
        }
        if arguments.has("spec") && language != .swift {
            throw CommandLineUsageError(command: "keys", message: "'--spec' needs '--language swift'")
        }
        if arguments.has("spec") && arguments.has("packager") {
            throw CommandLineUsageError(command: "keys", message:
                "'--spec' and '--packager' do not go together: the spec is the packager (agvm convert --packager SPEC, or SpecPackager in the app)")
        }
        let path = arguments.positionals[0]
        if let output = arguments.value("output"), OutputDestination.replacedInput(writingTo: output, inputs: [path]) != nil {
            throw CommandLineUsageError(command: "keys", message: "'-o \(output)' would replace the input \(CommandLineTool.displayName(path)); write to another file")
        }
        guard let data = CommandLineTool.readInput(path, io: io) else { return 1 }
        let sourceName = path == "-" ? "standard input" : URL(fileURLWithPath: path).lastPathComponent
        if arguments.has("spec") {
            return try runWithSpec(data, path: path, sourceName: sourceName, module: module,
                                   output: arguments.value("output"), io: io)
        }
        let sample: JSONValue
        do {
            sample = try JSONParser().parse(data)
        } catch {
            CommandLineTool.writeParseError(error, path: path, data: data, io: io)
            return 1
        }
        var generator = KeyConstantGenerator(sample: sample, moduleName: module, sourceName: sourceName)
        guard generator.hasKeys else {
            // An error page, an empty list or empty objects: no key file,
            // and an existing one is kept.
            var problem = CommandLineTool.messageText(sample.briefDescription)
                + (generator.isObjectSample ? ", with no keys" : ", not an object or an array of objects")
            if case .array(let elements) = sample, !generator.isObjectSample,
               let index = elements.firstIndex(where: { $0.objectValue == nil }) {
                problem += " (element [\(index)] is \(CommandLineTool.messageText(elements[index].briefDescription)))"
            }
            io.writeError("\(CommandLineTool.displayName(path)): error: the sample is \(problem); no keys to generate\n")
            return 1
        }
        generator.includePackager = arguments.has("packager")
        if generator.moduleName(in: language) != module {
            io.writeError("\(CommandLineTool.displayName(path)): note: module name '\(CommandLineTool.messageText(module))' is written as '\(generator.moduleName(in: language))'\n")
        }
        for note in generator.notes {
            io.writeError("\(CommandLineTool.displayName(path)): note: \(CommandLineTool.messageText(note.description))\n")
        }
        let source = generator.generate(language)
        try CommandLineTool.emit(Data(source.utf8), to: arguments.value("output"), io: io)
        return 0
    }

    /// `--spec`: the keys the packaging spec in `data` stores.
    private static func runWithSpec(
        _ data: Data, path: String, sourceName: String, module: String, output: String?, io: ToolIO
    ) throws -> Int32 {
        let spec: PackagingSpec
        do {
            spec = try PackagingSpec(data: data, source: CommandLineTool.displayName(path))
        } catch {
            io.writeError("\(CommandLineTool.messageText("\(error)"))\n")
            return 1
        }
        let generator = SpecKeyConstantGenerator(spec: spec, moduleName: module, sourceName: sourceName)
        for note in generator.notes {
            io.writeError("\(CommandLineTool.displayName(path)): note: \(CommandLineTool.messageText(note.description))\n")
        }
        guard generator.hasKeys else {
            io.writeError("\(CommandLineTool.displayName(path)): error: the spec names no keys (no \"fields\" or \"headerFields\"); "
                + "generate keys from a sample of the API instead\n")
            return 1
        }
        try CommandLineTool.emit(Data(generator.generate().utf8), to: output, io: io)
        return 0
    }
}
