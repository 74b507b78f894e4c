import AGViewModel
import Foundation

/// Generates key constants from sample API JSON: the counterpart of the
/// original's key-constant printer, as code you can commit.
///
/// The sample may be an object or an array of objects (or of arrays or maps
/// keyed by ids holding them); every element of every array is folded into
/// one shape, so optional keys, keys whose type varies and keys that are
/// always `null` are all found.
struct KeyConstantGenerator {
    /// The output language.
    enum Language: String, CaseIterable {
        case swift, objc
    }

    /// A finding worth telling the user, printed as a note.
    struct Note: Equatable, CustomStringConvertible {
        /// The key path, e.g. `statuses[].user.url`.
        var path: String
        /// What was found.
        var message: String
        var description: String { "\(path): \(message)" }
    }

    /// The namespace name (after cleaning).
    var moduleName: String {
        var cleaner = IdentifierCleaner(reserved: includePackager
            ? Self.reservedTypeNames.union(ShadowedTypeNames.all) : Self.reservedTypeNames)
        return cleaner.typeName(for: requestedModuleName)
    }

    /// The module name as written in `language`: Swift's namespace type,
    /// or the prefix of Objective-C's constants, which declare no type
    /// that could hide another.
    func moduleName(in language: Language) -> String {
        switch language {
        case .swift: moduleName
        case .objc: IdentifierCleaner.camelCase(requestedModuleName, upperFirst: true)
        }
    }
    /// The module name as given.
    private let requestedModuleName: String
    /// Where the sample came from, named in the header comment.
    let sourceName: String
    /// The folded shape of the sample.
    let shape: JSONShape
    /// Whether to add the packager lines (copy each API key into a ViewModel).
    var includePackager = false

    /// A generator for `sample`. The module name is cleaned into a type name
    /// that hides no type the generated code uses (`ViewModel2`), nor, when
    /// it names the top-level packager, a type the app is likely to use
    /// (`Error2`, see ``ShadowedTypeNames``).
    init(sample: JSONValue, moduleName: String, sourceName: String) {
        self.requestedModuleName = moduleName
        self.sourceName = Self.oneLine(sourceName)
        self.shape = JSONShape(of: sample).collapsingMapsForConstants()
    }

    /// The object shape whose keys become constants: the sample itself, or
    /// the elements of a top-level array.
    private var rootObject: JSONShape? { shape.nestedObjectShape }

    /// Whether the sample has keys to generate: it is an object, an array
    /// of objects or a map of them, with at least one member.
    var hasKeys: Bool { rootObject.map { !$0.members.isEmpty } ?? false }

    /// Whether the sample is an object or an array of objects, with keys or not.
    var isObjectSample: Bool { rootObject != nil }

    /// The map keyed by ids whose values hold the top-level keys, when the
    /// sample is one or holds one through arrays (`[{"101": {...}}]`), and
    /// the steps to it (`[]` per array).
    private var firstMapAtTheTop: (map: JSONShape, steps: String)? {
        var current = shape, steps = ""
        while current.kinds == [.array], let element = current.elements?.shape {
            current = element
            steps += "[]"
        }
        return current.kinds == [.object] && current.mapValues != nil ? (current, steps) : nil
    }

    /// Findings about the sample: a map keyed by ids at the top, null-only
    /// keys, keys whose type varies.
    var notes: [Note] {
        var notes: [Note] = []
        if let (map, steps) = firstMapAtTheTop {
            notes.append(Note(path: "(root)" + steps, message: "a map keyed by ids (\(counted(map.mapMemberCount, "member"))); keys of its values generated"))
        }
        func walk(_ object: JSONShape, path: String, depth: Int) {
            for (key, member) in object.members {
                let here = path.isEmpty ? key : "\(path).\(key)"
                if member.kinds.isEmpty {
                    notes.append(Note(path: here, message: "null in every sample; typed as JSONValue"))
                } else if member.isMixed {
                    let kinds = member.kinds.map(\.rawValue).sorted().joined(separator: ", ")
                    notes.append(Note(path: here, message: "type varies (\(kinds)); typed as \(KeyType(member).swiftName)"))
                }
                if let nested = member.nestedObjectShape {
                    let step = member.stepsToNestedObjects
                    if includePackager, depth + 1 == Self.deepestPackager, !nested.members.isEmpty {
                        notes.append(Note(path: here + step, message: "packagers stop at \(Self.deepestPackager) levels of nesting (the Swift compiler's time doubles with each level of nested types past about 20); none for the objects here and below"))
                    }
                    walk(nested, path: here + step, depth: depth + 1)
                }
            }
        }
        if let root = rootObject { walk(root, path: "", depth: 0) }
        return notes
    }

    /// The generated source.
    func generate(_ language: Language) -> String {
        switch language {
        case .swift: swiftSource()
        case .objc: objcSource()
        }
    }

    // MARK: - Swift

    /// Type names that generated code refers to, so no namespace may take
    /// them: a packager struct nested under one would hide the type (or, as
    /// `Element`, stand in for the protocol's associated type).
    private static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "URL", "JSONValue", "JSONObject", "ViewModel",
        "Swift", "Foundation", "AGViewModel", "Key", "Value", "ViewModelPackager", "Element",
    ]

    private func swiftSource() -> String {
        var out = """
        // Generated by `agvm keys` from \(sourceName). Do not edit by hand;
        // regenerate when the API changes.

        import AGViewModel
        import Foundation


        """
        let root = rootObject ?? JSONShape()
        var reserved = Self.reservedTypeNames
        reserved.insert(moduleName)
        // Key constants are static members of `ViewModel.Key`, one
        // constrained extension per value type, so `vm[.title]` finds them.
        // Keys of nested objects are prefixed with their path. Every
        // declaration is `nonisolated`: keys and packagers are used off the
        // main actor, also in targets whose default isolation is MainActor.
        var constants: [(type: String, member: String, key: String, doc: String)] = []
        var members = IdentifierCleaner()
        collectConstants(root, prefix: "", sourcePath: [], members: &members, into: &constants)
        var types: [String] = []
        for constant in constants where !types.contains(constant.type) { types.append(constant.type) }
        var lines: [String] = []
        for (index, type) in types.enumerated() {
            if index > 0 { lines.append("") }
            lines.append("/// Typed ViewModel keys of the `\(moduleName)` API (\(sourceName)) with `\(type)` values.")
            lines.append("nonisolated extension ViewModel.Key where Value == \(type) {")
            for constant in constants where constant.type == type {
                lines.append("    /// \(constant.doc)")
                lines.append("    public static var \(constant.member): Self { \(Self.swiftLiteral(constant.key)) }")
            }
            lines.append("}")
        }
        if includePackager {
            lines.append("")
            emitPackagers(moduleName, object: root, reservedTypes: reserved, indent: "", into: &lines)
        }
        out += lines.joined(separator: "\n") + "\n"
        return out
    }

    /// The key constants of `object` and its nested objects, in order.
    /// `prefix` is the text their member names start with; `sourcePath`
    /// the API keys leading to `object`, named in their doc comments.
    private func collectConstants(
        _ object: JSONShape, prefix: String, sourcePath: [String], members: inout IdentifierCleaner,
        into constants: inout [(type: String, member: String, key: String, doc: String)]
    ) {
        var nested: [(prefix: String, sourcePath: [String], shape: JSONShape)] = []
        for (key, member) in object.members {
            let path = prefix.isEmpty ? key : prefix + "_" + key
            let doc = (sourcePath.isEmpty ? "" : "In \(Self.codeSpan(Self.writtenPath(sourcePath))): ")
                + describe(key: key, member: member, parentCount: object.objectCount)
            constants.append((KeyType(member).swiftName, members.memberName(for: path), key, doc))
            if let objectShape = member.nestedObjectShape, !objectShape.members.isEmpty {
                nested.append((path, sourcePath + [key], objectShape))
            }
        }
        for entry in nested {
            collectConstants(entry.shape, prefix: entry.prefix, sourcePath: entry.sourcePath, members: &members, into: &constants)
        }
    }

    /// The API keys `keys` as one path in `JSONPath`'s written form
    /// (`entities.user_mentions`, `a\.b` for the key `a.b`): the real keys,
    /// never the words a member name is made of.
    private static func writtenPath(_ keys: [String]) -> String {
        JSONPath(keys.map(JSONPath.Component.key)).description
    }

    /// How many packagers nest in each other at most. Swift allows 256
    /// levels of nested types, but generating SIL for them takes about
    /// twice as long with each level past about 20 (Swift 6.3: 24 empty
    /// nested structs take a second, 30 a minute), so a deep sample would
    /// give a file no build can finish; 16 levels compile in a fraction of
    /// a second, deeper than API objects nest in practice.
    static let deepestPackager = 16

    /// `struct Name: ViewModelPackager` per object level: copies each API key
    /// of one object into a ViewModel, through `Name.package(_:)` or an
    /// instance passed where a packager goes (`section.appendItems(packaging:using:)`).
    /// Down to ``deepestPackager`` levels.
    private func emitPackagers(
        _ name: String, object: JSONShape, reservedTypes: Set<String>,
        indent: String, depth: Int = 1, into lines: inout [String]
    ) {
        let inner = indent + "    "
        var types = IdentifierCleaner(reserved: reservedTypes)
        var nested: [(typeName: String, key: String, shape: JSONShape)] = []
        lines.append("\(indent)/// Packages objects of the `\(moduleName)` API into ViewModels:")
        lines.append("\(indent)/// `\(name).package(json)`, or `\(name)()` where a packager goes.")
        lines.append("\(indent)public nonisolated struct \(name): ViewModelPackager {")
        lines.append("\(inner)public init() {}")
        lines.append("")
        lines.append("\(inner)/// Copies each API key of one `\(name)` object into a ViewModel.")
        lines.append("\(inner)public func package(_ json: JSONObject) -> sending ViewModel { Self.package(json) }")
        lines.append("")
        lines.append("\(inner)/// Copies each API key of one `\(name)` object into a ViewModel")
        lines.append("\(inner)/// (source key → ViewModel key).")
        lines.append("\(inner)public static func package(_ json: JSONObject) -> sending ViewModel {")
        lines.append("\(inner)    let viewModel = ViewModel()")
        for (key, member) in object.members {
            let literal = Self.swiftLiteral(key)
            lines.append("\(inner)    viewModel[\(literal)] = json[\(literal)]")
            if depth < Self.deepestPackager, let objectShape = member.nestedObjectShape, !objectShape.members.isEmpty {
                nested.append((types.typeName(for: key), key, objectShape))
            }
        }
        lines.append("\(inner)    return viewModel")
        lines.append("\(inner)}")
        var childReserved = reservedTypes
        for entry in nested { childReserved.insert(entry.typeName) }
        for entry in nested {
            lines.append("")
            emitPackagers(entry.typeName, object: entry.shape, reservedTypes: childReserved, indent: inner, depth: depth + 1, into: &lines)
        }
        lines.append("\(indent)}")
    }

    /// The doc comment for one key: source key, type notes and an example.
    private func describe(key: String, member: JSONShape, parentCount: Int) -> String {
        var parts = [Self.codeSpan(key)]
        var facts: [String] = []
        if member.isOptional(inParentOf: parentCount) { facts.append("optional") }
        if member.kinds.isEmpty { facts.append("null in every sample") }
        if member.isMixed { facts.append("type varies: " + member.kinds.map(\.rawValue).sorted().joined(separator: ", ")) }
        if member.kinds.contains(.bigInteger) { facts.append("beyond Int64") }
        if member.mapValues != nil { facts.append("map keyed by id, \(counted(member.mapMemberCount, "member"))") }
        if !facts.isEmpty { parts.append("(" + facts.joined(separator: "; ") + ")") }
        if let example = member.example {
            parts.append("Example: " + Self.commentText(example.briefDescription))
        }
        return parts.joined(separator: " ")
    }

    // MARK: - Objective-C

    private func objcSource() -> String {
        var out = """
        // Generated by `agvm keys` from \(sourceName). Do not edit by hand;
        // regenerate when the API changes.

        #import <Foundation/Foundation.h>

        """
        var used = Set<String>()
        func emit(_ object: JSONShape, prefix: String, title: String) {
            out += "\n#pragma mark - \(Self.oneLine(title))\n"
            var nested: [(String, String, JSONShape)] = []
            for (key, member) in object.members {
                let suffix = IdentifierCleaner.camelCase(key, upperFirst: true)
                var name = "k" + prefix + suffix
                // After a digit, a bare number would spell another key
                // (`v1` numbered 2 reads as `v12`).
                let separator = name.last?.isASCII == true && name.last?.isNumber == true ? "_" : ""
                var n = 2
                while used.contains(name) { name = "k\(prefix)\(suffix)\(separator)\(n)"; n += 1 }
                used.insert(name)
                out += "/** \(describe(key: key, member: member, parentCount: object.objectCount)) */\n"
                out += "static NSString * const \(name) = @\(objcLiteral(key));\n"
                if let nestedShape = member.nestedObjectShape, !nestedShape.members.isEmpty {
                    nested.append((prefix + suffix, title + " " + key, nestedShape))
                }
            }
            for (p, t, s) in nested { emit(s, prefix: p, title: t) }
        }
        let prefix = moduleName(in: .objc)
        emit(rootObject ?? JSONShape(), prefix: prefix, title: prefix)
        return out
    }

    // MARK: - Literals

    static func swiftLiteral(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.isHiddenInSource:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func objcLiteral(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            // `??` starts a trigraph (`??=` is `#`): escape the second `?`.
            case "?" where out.hasSuffix("?"): out += "\\?"
            case _ where scalar.isHiddenInSource && scalar.value < 0xA0:
                // Octal UTF-8 bytes: C allows no universal character name
                // below U+00A0, and a C escape takes at most three octal
                // digits, while `\x` would run on into hex digits that follow.
                for byte in String(scalar).utf8 { out += String(format: "\\%03o", byte) }
            case _ where scalar.isHiddenInSource:
                out += scalar.value > 0xFFFF
                    ? String(format: "\\U%08X", scalar.value) : String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Comment text on one line, without sequences that would end a comment.
    static func commentText(_ s: String, keepingTrailingBackslashes: Bool = false) -> String {
        // `*/` would end the comment; `/*` inside one is a clang warning
        // (fatal with -Werror).
        Self.oneLine(s, keepingTrailingBackslashes: keepingTrailingBackslashes)
            .replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
    }

    /// `s` as a Markdown code span in a comment, shown as it is: fenced by
    /// one backtick more than its longest run of them (with a space inside
    /// the fence where it starts or ends with one), its backslashes kept
    /// (a code span shows them as they are, and the fence follows them).
    static func codeSpan(_ s: String) -> String {
        let text = commentText(s, keepingTrailingBackslashes: true)
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + padding + text + padding + fence
    }

    /// `s` as the text of one source line (a `//` comment, a `#pragma`):
    /// control characters, line and paragraph separators become spaces,
    /// other invisible characters their `\u{…}` escape (so a bidirectional
    /// override cannot make the line read other than it is), and trailing `\`s, which would join the next line to it in C even
    /// with spaces after them, are dropped (kept with
    /// `keepingTrailingBackslashes`, for text that does not end a line).
    static func oneLine(_ s: String, keepingTrailingBackslashes: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            let breaks = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            if breaks {
                out.append(" ")
            } else if scalar.isHiddenInSource {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        var end = out.endIndex
        while end > out.startIndex, out[out.index(before: end)] == " " { end = out.index(before: end) }
        if !keepingTrailingBackslashes, end > out.startIndex, out[out.index(before: end)] == "\\" {
            while end > out.startIndex, ["\\", " "].contains(out[out.index(before: end)]) { end = out.index(before: end) }
            out.removeSubrange(end...)
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// Whether the scalar changes or hides what a line of source shows:
    /// controls, line and paragraph separators, invisible format
    /// characters such as bidirectional overrides (the "Trojan Source"
    /// pattern), the byte order mark and the soft hyphen, and every other
    /// default-ignorable code point (variation selectors, joiners, the
    /// Hangul fillers), which draw nothing. Escaping one in a literal keeps
    /// the string's value.
    var isHiddenInSource: Bool {
        if value < 0x20 || (0x7F ... 0x9F).contains(value) { return true }
        switch properties.generalCategory {
        case .lineSeparator, .paragraphSeparator, .format: return true
        default: return properties.isDefaultIgnorableCodePoint
        }
    }
}
