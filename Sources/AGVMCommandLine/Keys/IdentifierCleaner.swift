import Foundation

/// Turns JSON keys into valid, readable Swift identifiers, deterministically.
///
/// - `snake_case`, `kebab-case` and spaces become lowerCamelCase
///   (`profile_image_url` → `profileImageUrl`); existing camelCase is kept.
/// - A leading digit gets a `_` prefix (`1080p` → `_1080p`).
/// - Letters of any script that Swift accepts in identifiers are kept
///   (`名前` → `名前`, `prénom` → `prénom`), composed (NFC) as typing
///   produces them, since Swift compares identifiers scalar by scalar and a
///   decomposed `é` would be a name nobody can type; invisible and bidirectional
///   control characters and non-ASCII punctuation and spaces separate
///   words; any other character becomes `u` and its hexadecimal scalar
///   value (`€` → `u20AC`).
/// - Swift keywords are escaped with backticks; the few names that cannot be
///   member names even in backticks (`self`, `Type`, ...) get a `_` suffix,
///   as do type names that are keywords (`Any_`).
/// - Names that collide after cleaning (including keys that differ only in
///   case or punctuation) get `2`, `3`, ... in source order, `_2` after a
///   name that ends in a digit.
struct IdentifierCleaner {
    private var used: Set<String>
    /// The next number to try for each name that collided, so that many
    /// keys cleaning to one name take linear time, not quadratic.
    private var nextNumber: [String: Int] = [:]

    /// A cleaner for one scope, with names that must not be taken.
    init(reserved: Set<String> = []) {
        used = reserved
    }

    /// A lowerCamelCase member name for `key`, unique in this scope.
    mutating func memberName(for key: String) -> String {
        unique(Self.escape(Self.camelCase(key, upperFirst: false)))
    }

    /// An UpperCamelCase type name for `key`, unique in this scope, usable
    /// without backticks (a type name is declared bare).
    mutating func typeName(for key: String) -> String {
        let name = Self.camelCase(key, upperFirst: true)
        return unique(Self.unusableTypeNames.contains(name) ? name + "_" : name)
    }

    private mutating func unique(_ name: String) -> String {
        let bare = name.trimmingBackticks
        var candidate = bare
        var n = nextNumber[bare] ?? 2
        let separator = bare.unicodeScalars.last.map { ("0"..."9").contains($0) } == true ? "_" : ""
        while used.contains(candidate) {
            candidate = "\(bare)\(separator)\(n)"
            n += 1
        }
        if candidate != bare { nextNumber[bare] = n }
        used.insert(candidate)
        return candidate == bare ? name : candidate
    }

    /// The words of `key`, camel-cased.
    static func camelCase(_ key: String, upperFirst: Bool) -> String {
        var words: [String] = []
        var word = ""
        for scalar in key.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.isASCIILetterOrDigit || scalar.isReadableIdentifierCharacter {
                word.unicodeScalars.append(scalar)
            } else if scalar.isASCII || scalar.separatesWords {
                // A separator: `_`, `-`, space, `.`, punctuation, invisible characters.
                if !word.isEmpty { words.append(word); word = "" }
            } else {
                word += "u" + String(scalar.value, radix: 16, uppercase: true)
            }
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return upperFirst ? "Key" : "key" }

        var result = ""
        for (i, w) in words.enumerated() {
            if i == 0 && !upperFirst {
                result += lowercasedLeadingWord(w)
            } else {
                result += w.prefix(1).uppercased() + w.dropFirst()
            }
        }
        // Upper-casing a word's first letter can decompose it again.
        result = result.precomposedStringWithCanonicalMapping
        if let first = result.unicodeScalars.first,
           ("0"..."9").contains(first) || !first.isSwiftIdentifierHead {
            result = "_" + result
        }
        return result
    }

    /// `ID` → `id`, `URLs` → `urls`, `HTMLBody` → `htmlBody`, `Name` → `name`.
    private static func lowercasedLeadingWord(_ w: String) -> String {
        let scalars = Array(w.unicodeScalars)
        let upperRun = scalars.prefix(while: { ("A"..."Z").contains($0) }).count
        if upperRun == 0 { return w }
        if upperRun == scalars.count { return w.lowercased() }
        let rest = String(String.UnicodeScalarView(scalars[upperRun...]))
        if upperRun == 1 || rest == "s" {
            return String(String.UnicodeScalarView(scalars[..<upperRun])).lowercased() + rest
        }
        // Keep the last capital: it starts the next word (`HTMLBody` → `htmlBody`).
        return String(String.UnicodeScalarView(scalars[..<(upperRun - 1)])).lowercased()
            + String(String.UnicodeScalarView(scalars[(upperRun - 1)...]))
    }

    /// Escapes keywords.
    static func escape(_ name: String) -> String {
        if unusableMemberNames.contains(name) { return name + "_" }
        if keywords.contains(name) { return "`\(name)`" }
        return name
    }

    /// Names that cannot name a type. (UpperCamelCase names are keywords
    /// only in this form.)
    static let unusableTypeNames: Set<String> = ["Any", "Self", "Type", "Protocol"]

    /// Names that cannot be used as member names even with backticks.
    static let unusableMemberNames: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript"]

    /// Swift keywords that must be escaped with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "super", "throws", "true", "try", "_",
    ]
}

extension String {
    /// The name without surrounding backticks.
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

extension Unicode.Scalar {
    var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

extension Unicode.Scalar {
    /// A letter, digit or combining mark outside ASCII that Swift accepts in
    /// an identifier and a reader sees (so not a control or format character).
    var isReadableIdentifierCharacter: Bool {
        // A default-ignorable scalar draws nothing: a name with one would
        // look like another name, or like no name at all.
        guard !isASCII, isSwiftIdentifierCharacter, !properties.isDefaultIgnorableCodePoint else { return false }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .decimalNumber, .letterNumber:
            return true
        default:
            return false
        }
    }

    /// Spaces, punctuation and invisible characters outside ASCII: word breaks.
    var separatesWords: Bool {
        if properties.isDefaultIgnorableCodePoint { return true }
        switch properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// Whether Swift accepts the scalar first in an identifier (The Swift
    /// Programming Language, Lexical Structure: identifier-head).
    var isSwiftIdentifierHead: Bool {
        let v = value
        if isASCII { return ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_" }
        let ranges: [ClosedRange<UInt32>] = [
            0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE,
            0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D,
            0x180F...0x1DBF, 0x1E00...0x1FFF, 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040,
            0x2054...0x2054, 0x2060...0x206F, 0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF,
            0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F,
            0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F,
            0xFE30...0xFE44, 0xFE47...0xFFFD,
        ]
        if ranges.contains(where: { $0.contains(v) }) { return true }
        // U+10000–U+EFFFD, except the last two code points of each plane.
        return v >= 0x10000 && v <= 0xEFFFD && (v & 0xFFFF) <= 0xFFFD
    }

    /// Whether Swift accepts the scalar after the first in an identifier.
    var isSwiftIdentifierCharacter: Bool {
        if ("0"..."9").contains(self) || isSwiftIdentifierHead { return true }
        let ranges: [ClosedRange<UInt32>] = [0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]
        return ranges.contains { $0.contains(value) }
    }
}
