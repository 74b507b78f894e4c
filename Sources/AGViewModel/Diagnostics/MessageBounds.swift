/// Keeps error messages readable whatever the input: a path 512 levels
/// deep is shown as `[0][0]…[0] (512 levels)`, not as 1.6 KB of brackets.
package enum MessageBounds {
    /// The longest path shown whole, in characters.
    package static let pathLimit = 80

    /// `path` (as `JSONPath` prints it: `a.b[0][1]`) whole when short, else
    /// its first and last components around `…`, with the number of levels.
    package static func path(_ path: String, limit: Int = pathLimit) -> String {
        guard path.count > limit else { return path }
        let components = self.components(of: path)
        guard components.count > 3 else { return line(path, limit: limit) }
        var head = "", tail = ""
        var first = 0, last = components.count
        while first < last - 1, head.count + components[first].count <= limit / 2 {
            head += components[first]
            first += 1
        }
        while last - 1 > first, tail.count + components[last - 1].count <= limit / 4 {
            tail = components[last - 1] + tail
            last -= 1
        }
        if head.isEmpty { head = String(components[0].prefix(limit / 2)) }
        return head + "…" + tail + " (\(components.count) levels)"
    }

    /// `text` whole when at most `limit` characters, else its start and end
    /// around `…`. A limit of 8 or less leaves too little of either end to
    /// read, so the text is returned whole.
    ///
    /// A character can hold any number of scalars (a letter with 100,000
    /// combining marks is one), so the scalars are bounded too: at most
    /// four times `limit`.
    package static func line(_ text: String, limit: Int = 400) -> String {
        guard limit > 8 else { return text }
        var result = text
        if text.count > limit {
            let keep = (limit - 1) / 2
            result = String(text.prefix(keep)) + "…" + String(text.suffix(limit - 1 - keep))
        }
        let scalars = result.unicodeScalars
        let scalarLimit = limit.multipliedReportingOverflow(by: 4).overflow ? .max : limit * 4
        guard scalars.count > scalarLimit else { return result }
        let keep = (scalarLimit - 1) / 2
        return String(String.UnicodeScalarView(scalars.prefix(keep))) + "…"
            + String(String.UnicodeScalarView(scalars.suffix(scalarLimit - 1 - keep)))
    }

    /// `key` as a JSON string literal (`"rows"`, quotes and control
    /// characters escaped, so the message stays one line), its middle cut
    /// when longer than `limit` characters: a key from a hostile document
    /// may be a megabyte long.
    package static func quotedKey(_ key: String, limit: Int = pathLimit) -> String {
        let literal = JSONValue.string(key).description
        guard literal.count > limit, limit > 8 else { return literal }
        // Cut, then escaped: cutting the escaped text could split an escape.
        // An escape takes up to 6 characters: cut shorter until the
        // escaped text fits (9, the shortest cut, escapes to at most 58).
        var cut = limit - 2
        var result = JSONValue.string(line(key, limit: cut)).description
        while result.count > limit, cut > 9 {
            cut = max(9, min(cut - 1, cut * limit / result.count))
            result = JSONValue.string(line(key, limit: cut)).description
        }
        return result
    }

    /// `a.b[0]` → `["a", ".b", "[0]"]`; escaped characters stay in their key.
    static func components(of path: String) -> [String] {
        var components: [String] = []
        var current = ""
        var escaped = false
        for ch in path {
            if escaped { current.append(ch); escaped = false; continue }
            switch ch {
            case "\\": current.append(ch); escaped = true
            case "[", ".":
                if !current.isEmpty { components.append(current) }
                current = String(ch)
            default: current.append(ch)
            }
        }
        if !current.isEmpty { components.append(current) }
        return components
    }
}
