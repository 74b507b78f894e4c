/// Turns JSON keys into valid, readable Swift identifiers, deterministically.
///
/// - `snake_case`, `kebab-case` and spaces become lowerCamelCase
///   (`profile_image_url` → `profileImageUrl`); existing camelCase is kept.
/// - A leading digit gets a `_` prefix (`1080p` → `_1080p`).
/// - Characters outside ASCII letters and digits become `u` and their
///   hexadecimal scalar value (`名` → `u540D`), so every result is valid on
///   every compiler and stays distinct.
/// - Swift keywords are escaped with backticks; the few names that cannot be
///   member names even in backticks (`self`, `Type`, ...) get a `_` suffix.
/// - Names that collide after cleaning get `2`, `3`, ... in source order.
struct IdentifierCleaner {
    private var used: Set<String>

    /// A cleaner for one scope, with names that must not be taken.
    init(reserved: Set<String> = []) {
        used = reserved
    }

    /// A lowerCamelCase member name for `key`, unique in this scope.
    mutating func memberName(for key: String) -> String {
        unique(Self.escape(Self.camelCase(key, upperFirst: false)))
    }

    /// An UpperCamelCase type name for `key`, unique in this scope.
    mutating func typeName(for key: String) -> String {
        unique(Self.escape(Self.camelCase(key, upperFirst: true)))
    }

    private mutating func unique(_ name: String) -> String {
        let bare = name.trimmingBackticks
        var candidate = bare
        var n = 2
        while used.contains(candidate) {
            candidate = "\(bare)\(n)"
            n += 1
        }
        used.insert(candidate)
        return candidate == bare ? name : candidate
    }

    /// The words of `key`, camel-cased.
    static func camelCase(_ key: String, upperFirst: Bool) -> String {
        var words: [String] = []
        var word = ""
        for scalar in key.unicodeScalars {
            if scalar.isASCIILetterOrDigit {
                word.unicodeScalars.append(scalar)
            } else if scalar.isASCII {
                // A separator: `_`, `-`, space, `.`, punctuation.
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
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) {
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
