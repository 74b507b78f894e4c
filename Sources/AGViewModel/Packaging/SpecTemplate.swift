/// A string built from literal text and `{path}` placeholders, as in
/// `"@{user.screen_name}"` or `"{user.name} ({user.followers_count} followers)"`.
///
/// `{{` and `}}` stand for literal braces. Placeholders read like a
/// `string` field: strings, and numbers as their JSON text; if any
/// placeholder has no such value (missing, null, a boolean, an array or an
/// object), the template has no value. A placeholder may name a format
/// after `|`: `{price.amount|fixed:2}`, `{published|date:long}` (see
/// ``SpecTemplateFormat``); a value the format cannot read leaves the
/// template without a value too.
internal struct SpecTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(JSONPath, SpecTemplateFormat?)
    }

    let segments: [Segment]

    /// The paths of the placeholders, in order.
    var placeholderPaths: [JSONPath] {
        segments.compactMap { segment in
            if case .placeholder(let path, _) = segment { return path }
            return nil
        }
    }

    /// Parses `text`; the error message says what is wrong.
    ///
    /// Read scalar by scalar, as ``JSONPath`` is: a brace followed by a
    /// combining mark (`{n}\u{20E3}`) is still a brace, although the two
    /// make one `Character`.
    init(parsing text: String) throws(SpecTemplateError) {
        var segments: [Segment] = []
        var literal = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "{":
                if scalars.first == "{" { scalars.removeFirst(); literal.append("{"); continue }
                // The placeholder's scalars, each with whether a `\` escaped
                // it: an escaped `|`, `{`, `}` or space is part of the path,
                // as `\.` is, so every key a `path` can name, a placeholder can.
                var inner: [(scalar: Unicode.Scalar, escaped: Bool)] = []
                var closed = false
                while let next = scalars.popFirst() {
                    if next == "\\", let escaped = scalars.popFirst() { inner.append((escaped, true)); continue }
                    if next == "}" { closed = true; break }
                    if next == "{" { throw SpecTemplateError("\"{\" inside a placeholder; write \"{{\" outside placeholders for a literal brace") }
                    inner.append((next, false))
                }
                guard closed else { throw SpecTemplateError("unclosed \"{\" (write \"{{\" for a literal brace)") }
                guard !inner.isEmpty else { throw SpecTemplateError("empty placeholder \"{}\"") }
                var format: SpecTemplateFormat?
                if let bar = inner.firstIndex(where: { $0.scalar == "|" && !$0.escaped }) {
                    var formatText = String.UnicodeScalarView()
                    for part in inner[(bar + 1)...] {
                        if part.escaped { formatText.append("\\") }
                        formatText.append(part.scalar)
                    }
                    format = try SpecTemplateFormat(parsing: String(formatText))
                    inner.removeSubrange(bar...)
                }
                // As around the format: `{price | fixed:2}` reads `price`;
                // an escaped space (`{name\ }`) is part of the key. (The
                // spaces of `CharacterSet.whitespaces`: tab and `Zs`.)
                func isSpace(_ part: (scalar: Unicode.Scalar, escaped: Bool)) -> Bool {
                    !part.escaped && (part.scalar == "\t" || part.scalar.properties.generalCategory == .spaceSeparator)
                }
                while let first = inner.first, isSpace(first) { inner.removeFirst() }
                while let last = inner.last, isSpace(last) { inner.removeLast() }
                var pathScalars = String.UnicodeScalarView()
                for part in inner {
                    if part.escaped { pathScalars.append("\\") }
                    pathScalars.append(part.scalar)
                }
                let pathText = String(pathScalars)
                guard let path = JSONPath(parsing: pathText), !path.components.isEmpty, !path.hasNegativeIndex else {
                    throw SpecTemplateError("bad path \"\(pathText)\" in a placeholder")
                }
                if !literal.isEmpty { segments.append(.literal(String(literal))); literal = String.UnicodeScalarView() }
                segments.append(.placeholder(path, format))
            case "}":
                guard scalars.first == "}" else { throw SpecTemplateError("unmatched \"}\" (write \"}}\" for a literal brace)") }
                scalars.removeFirst()
                literal.append("}")
            default:
                literal.append(scalar)
            }
        }
        if !literal.isEmpty { segments.append(.literal(String(literal))) }
        self.segments = segments
    }

    /// The text for `object`, or why a placeholder has no value.
    func render(_ object: JSONObject) -> Result<String, JSONAccessError> {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                out += text
            case .placeholder(let path, let format):
                switch object.lookup(path) {
                case .failure(let error): return .failure(error)
                case .success(let value):
                    let formatted: String? = if let format { format.apply(to: value) } else { String.read(from: value) }
                    guard let text = formatted else {
                        let expected = format?.expectedDescription ?? String.expectedDescription
                        let reason: JSONAccessError.Reason = value.isNull ? .null
                            : .typeMismatch(expected: expected, found: value.kind, value: value.briefDescription)
                        return .failure(JSONAccessError(path: path, reason: reason))
                    }
                    out += text
                }
            }
        }
        return .success(out)
    }
}

/// A template syntax problem.
internal struct SpecTemplateError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
