/// A path into nested JSON: object keys and array indices, written
/// `user.screen_name` or `entities.urls[0].expanded_url`.
///
/// Paths are `ExpressibleByStringLiteral`, so accessors take them as plain
/// strings: `json.string(at: "user.name")`. A key that itself contains `.`,
/// `[` or `\` is written with a backslash before that character
/// (`"a\\.b"` is the single key `a.b`), or built from ``Component`` values.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps, outermost first.
    public var components: [Component]

    /// A path from components.
    public init(_ components: [Component]) { self.components = components }

    /// A one-step path naming an object member, taken literally (no parsing).
    public init(key: String) { components = [.key(key)] }

    /// Parses `text`; returns `nil` when it is malformed (an unclosed or
    /// non-numeric `[...]`, an empty key between dots).
    public init?(parsing text: String) {
        guard let components = Self.parse(text) else { return nil }
        self.components = components
    }

    /// The path in its written form.
    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .index(let i): out += "[\(i)]"
            case .key(let key):
                if !out.isEmpty { out += "." }
                for ch in key {
                    if ch == "." || ch == "[" || ch == "\\" { out.append("\\") }
                    out.append(ch)
                }
            }
        }
        return out
    }

    /// The path prefix made of the first `count` components.
    public func prefix(_ count: Int) -> JSONPath { JSONPath(Array(components.prefix(count))) }

    private static func parse(_ text: String) -> [Component]? {
        var result: [Component] = []
        var key = ""
        var hasKey = false      // characters have been read into `key`
        var afterDot = false    // a `.` was read and no key after it yet
        var afterIndex = false  // the last component read was `[n]`
        var chars = text.makeIterator()
        func finishKey() {
            result.append(.key(key))
            key = ""; hasKey = false; afterDot = false
        }
        while let ch = chars.next() {
            switch ch {
            case ".":
                if hasKey { finishKey() } else if afterDot || result.isEmpty { return nil }
                afterDot = true; afterIndex = false
            case "[":
                if hasKey { finishKey() } else if afterDot { return nil }
                var digits = ""
                var closed = false
                while let d = chars.next() {
                    if d == "]" { closed = true; break }
                    digits.append(d)
                }
                guard closed, !digits.isEmpty, digits.allSatisfy(\.isASCII),
                      digits.allSatisfy(\.isNumber), let index = Int(digits) else { return nil }
                result.append(.index(index))
                afterIndex = true
            default:
                if afterIndex { return nil }
                if ch == "\\" {
                    guard let escaped = chars.next() else { return nil }
                    key.append(escaped)
                } else {
                    key.append(ch)
                }
                hasKey = true
            }
        }
        if hasKey { finishKey() } else if afterDot { return nil }
        return result
    }
}

extension JSONPath: ExpressibleByStringLiteral {
    /// A path from a literal. A malformed literal is taken as a single key,
    /// so lookups with it simply find nothing.
    public init(stringLiteral value: String) {
        self.components = Self.parse(value) ?? [.key(value)]
    }
}
