/// A path into nested JSON: object keys and array indices, written
/// `user.screen_name` or `entities.urls[0].expanded_url`.
///
/// Every accessor takes a path as a literal, as any `String` (a constant, a
/// variable, a generated key) or as a `JSONPath`, all with one meaning:
/// `json.string(at: "user.name")`, `let kName = "user.name"` then
/// `json.string(at: kName)`, or `json.string(at: JSONPath(kName))`.
///
/// The syntax: keys separated by `.`, indices as `[n]` (`items[0].id`,
/// `[2]`). A key that itself contains `.`, `[` or `\\` is written with a
/// backslash before that character (`"a\\.b"` in Swift source, `#"a\.b"#`
/// raw, is the single key `a.b`); the empty key is written `[""]`
/// (`a[""].b`); or name a key without any parsing with
/// ``init(key:)`` or the `[key]` subscripts. Text that is not a valid path
/// (an empty key between dots, `a.`, an unclosed or non-numeric `[...]`) is
/// taken as one literal key, so a read with it simply finds that key or
/// nothing. A negative index (`items[-1]`) is valid and names no element:
/// reads find nothing and writes change nothing; so does an index too large
/// for any array (``JSONArray/maximumCount`` or more, `Int`'s range included).
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

    /// The path written in `text`, with exactly the meaning of the same
    /// text as a literal: text that is not a valid path is one key.
    public init(_ text: String) {
        self.components = Self.parse(text) ?? [.key(text)]
    }

    /// Parses `text`; returns `nil` when it is malformed (an unclosed or
    /// non-numeric `[...]`, an empty key between dots).
    public init?(parsing text: String) {
        guard let components = Self.parse(text) else { return nil }
        self.components = components
    }

    /// The path in its written form, which `JSONPath(_:)` reads back to
    /// this path: an empty key is written `[""]` (`a[""].b`).
    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .index(let i): out += "[\(i)]"
            case .key(""): out += #"[""]"#
            case .key(let key):
                if !out.isEmpty { out += "." }
                for scalar in key.unicodeScalars {
                    if scalar == "." || scalar == "[" || scalar == "\\" { out.unicodeScalars.append("\\") }
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Whether a step is a negative index (valid, but it names nothing).
    internal var hasNegativeIndex: Bool {
        components.contains { if case .index(let i) = $0 { i < 0 } else { false } }
    }

    /// The path prefix made of the first `count` components.
    public func prefix(_ count: Int) -> JSONPath { JSONPath(Array(components.prefix(count))) }

    /// Reads Unicode scalars, not characters: a key that starts with a
    /// combining mark stays apart from the `.` before it, as in the
    /// written form ``description`` gives.
    private static func parse(_ text: String) -> [Component]? {
        var result: [Component] = []
        var key = String.UnicodeScalarView()
        var hasKey = false      // scalars have been read into `key`
        var afterDot = false    // a `.` was read and no key after it yet
        var afterIndex = false  // the last component read was `[n]`
        var chars = text.unicodeScalars.makeIterator()
        func finishKey() {
            result.append(.key(String(key)))
            key = String.UnicodeScalarView(); hasKey = false; afterDot = false
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
                    digits.unicodeScalars.append(d)
                }
                if closed, digits == "\"\"" {
                    result.append(.key(""))
                    afterIndex = true
                    continue
                }
                // A negative index is an index too, so reads of it find
                // nothing and writes with it change nothing, as with a
                // component path (never a key that replaces an array).
                let isNegative = digits.hasPrefix("-")
                let magnitude = isNegative ? String(digits.dropFirst()) : digits
                guard closed, !magnitude.isEmpty, magnitude.allSatisfy(\.isASCII),
                      magnitude.allSatisfy(\.isNumber) else { return nil }
                // `[-0]` is negative too: it names nothing, not element 0.
                // Past `Int`'s range, an index names nothing either way.
                let index = Int(digits) ?? (isNegative ? -1 : .max)
                result.append(.index(isNegative && index == 0 ? -1 : index))
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

extension JSONPath {
    /// What reading a path written as text needs, found with one pass over
    /// its UTF-8 (see `String.withContiguousUTF8`).
    internal enum TextShape {
        /// No `.`, `[` or `\\`: the whole text is one key.
        case singleKey
        /// A valid path of plain keys (no escapes, ASCII) and indices:
        /// walkable straight from the text.
        case plain
        /// Escapes, non-ASCII text around separators, or malformed text:
        /// parse into a ``JSONPath`` first.
        case needsParsing

        /// The shape of the path whose text is the UTF-8 `bytes`: one pass
        /// over a buffer, where walking `String.UTF8View` by index checks
        /// the string's representation at every byte.
        init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
            var sawSeparator = false, nonASCII = false
            var hasKey = false, afterDot = false, afterIndex = false, components = 0
            var result = TextShape.plain
            let n = bytes.count
            var p = 0
            scan: while p < n {
                let byte = bytes[p]
                p &+= 1
                switch byte {
                case UInt8(ascii: "."):
                    sawSeparator = true
                    if hasKey { components += 1; hasKey = false } else if afterDot || components == 0 {
                        result = .needsParsing; break scan
                    }
                    afterDot = true; afterIndex = false
                case UInt8(ascii: "["):
                    sawSeparator = true
                    if hasKey { components += 1; hasKey = false; afterDot = false } else if afterDot {
                        result = .needsParsing; break scan
                    }
                    var digits = 0
                    var closed = false
                    while p < n {
                        let d = bytes[p]
                        p &+= 1
                        if d == UInt8(ascii: "]") { closed = true; break }
                        guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9"), digits < 18 else { break }
                        digits += 1
                    }
                    guard closed, digits > 0 else { result = .needsParsing; break scan }
                    components += 1
                    afterIndex = true
                case UInt8(ascii: "\\"):
                    result = .needsParsing; break scan
                default:
                    if byte >= 0x80 { nonASCII = true }
                    if afterIndex { result = .needsParsing; break scan }
                    hasKey = true
                    // The rest of the key eight bytes at a time, up to the
                    // next byte the switch must see (a non-ASCII one too: a
                    // plain path is walked as ASCII).
                    while p &+ 8 <= n {
                        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + p).loadUnaligned(as: UInt64.self))
                        let stops = JSONWordMask.dotBracketBackslashOrNonASCII(word)
                        if stops != 0 {
                            p &+= stops.trailingZeroBitCount &>> 3
                            break
                        }
                        p &+= 8
                    }
                }
            }
            if case .needsParsing = result {
                // Malformed or escaped; still one key if nothing separates.
                self = .needsParsing
                return
            }
            if !hasKey && afterDot { self = .needsParsing; return }
            if !sawSeparator { self = n == 0 ? .plain : .singleKey; return }
            // A combining mark after a separator joins it into one Character,
            // which the Character-based parser reads as key text.
            self = nonASCII ? .needsParsing : .plain
        }
    }

    /// Walks the ``TextShape/plain`` path whose UTF-8 is `bytes` from
    /// `start`, reading keys and indices straight from the bytes, beginning
    /// at byte offset `position` (a separator or the start of a key).
    internal static func walk(_ start: JSONValue, plainUTF8 bytes: UnsafeBufferPointer<UInt8>, from position: Int = 0) -> JSONValue? {
        // In place, with the steps of `UnsafePointer<JSONValue>`.
        withUnsafePointer(to: start) { start in
            var current = start
            var i = position
            let end = bytes.count
            while i < end {
                let byte = bytes[i]
                if byte == UInt8(ascii: ".") {
                    i &+= 1
                    continue
                }
                let next: UnsafePointer<JSONValue>?
                if byte == UInt8(ascii: "[") {
                    // A plain path's indices are closed and have 1 to 18 digits.
                    i &+= 1
                    var index = 0
                    while bytes[i] != UInt8(ascii: "]") {
                        index = index &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
                        i &+= 1
                    }
                    i &+= 1
                    next = current.element(at: index)
                } else {
                    let keyEnd = plainKeyEnd(in: bytes, from: i)
                    // A plain path is ASCII.
                    next = current.member(forKey: JSONScanner.makeASCIIString(UnsafeBufferPointer(rebasing: bytes[i..<keyEnd])), hash: nil)
                    i = keyEnd
                }
                guard let next else { return nil }
                current = next
            }
            return current.pointee
        }
    }

    /// The offset of the `.` or `[` that ends the key starting at `start`,
    /// or the end of `bytes`.
    private static func plainKeyEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let n = bytes.count
        while i &+ 8 <= n {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self))
            let separators = JSONWordMask.dotOrBracket(word)
            if separators != 0 { return i &+ separators.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < n, bytes[i] != UInt8(ascii: "."), bytes[i] != UInt8(ascii: "[") { i &+= 1 }
        return i
    }
}

extension JSONPath {
    /// The first key of the ``TextShape/plain`` path whose UTF-8 is
    /// `bytes`, and the byte offset where the rest starts; `nil` when it
    /// starts with an index.
    internal static func firstKey(ofPlainUTF8 bytes: UnsafeBufferPointer<UInt8>) -> (key: String, rest: Int)? {
        let keyEnd = plainKeyEnd(in: bytes, from: 0)
        guard keyEnd > 0 else { return nil }
        return (JSONScanner.makeASCIIString(UnsafeBufferPointer(rebasing: bytes[..<keyEnd])), keyEnd)
    }
}

extension String {
    /// Calls `body` with the string's UTF-8, in place when it is stored
    /// contiguously (native and literal strings), else from a contiguous copy.
    @inline(__always)
    internal func withContiguousUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
