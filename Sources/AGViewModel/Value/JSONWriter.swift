import Foundation

/// Writes ``JSONValue`` as JSON text (UTF-8), compact or pretty.
///
/// ```swift
/// let value: JSONValue = ["title": "Swift", "price": 9.5, "tags": ["a"]]
/// try value.jsonString()                               // {"title":"Swift","price":9.5,"tags":["a"]}
/// try value.jsonString(options: .init(pretty: true))   // two-space indented, one member per line
/// ```
///
/// The output is always valid JSON that parses back to an equal value
/// (`parse(write(v)) == v`):
/// - Strings escape `"`, `\` and control characters (as `\n`, `\r`, `\t`,
///   `\b`, `\f` or `\u00XX`); everything else is written as raw UTF-8.
/// - Integers are exact; ``JSONValue/bigInteger(_:)`` text is written
///   verbatim.
/// - Doubles use the shortest text that reads back as the same double, and
///   always carry a `.` or an exponent (`5.0`, `1e-05`, `1e+300`) so they
///   read back as doubles, not integers. NaN and infinity have no JSON form:
///   writing one throws a ``JSONWriteError`` naming its path.
/// - Keys keep their order unless ``Options/sortedKeys`` asks for byte order
///   of their UTF-8.
///
/// The writer does not recurse, so values of any depth can be written on any
/// thread.
public struct JSONWriter: Sendable {
    /// Writer settings.
    public struct Options: Sendable, Hashable {
        /// Pretty-print: one element or member per line, indented, with a
        /// space after each `:`. Empty arrays and objects stay `[]` and `{}`.
        public var pretty = false
        /// Spaces per nesting level when pretty (negative counts as 0).
        public var indent = 2
        /// Object keys in byte order of their UTF-8 instead of insertion
        /// order, for deterministic output.
        public var sortedKeys = false

        /// Options; the default is compact output in insertion order.
        public init(pretty: Bool = false, indent: Int = 2, sortedKeys: Bool = false) {
            self.pretty = pretty
            self.indent = indent
            self.sortedKeys = sortedKeys
        }

        /// Compact output: no whitespace at all.
        public static var compact: Options { Options() }
        /// Pretty output with two-space indentation.
        public static var pretty: Options { Options(pretty: true) }
    }

    /// The settings.
    public var options: Options

    /// A writer with `options`.
    public init(options: Options = Options()) { self.options = options }

    /// The JSON text of `value` as UTF-8 bytes (no trailing newline).
    public func write(_ value: JSONValue) throws(JSONWriteError) -> [UInt8] {
        var engine = JSONWriterEngine(options: options)
        try engine.write(value)
        return engine.sink.bytes()
    }
}

extension JSONValue {
    /// The JSON text of this value as UTF-8 data. See ``JSONWriter``.
    public func jsonData(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> Data {
        Data(try JSONWriter(options: options).write(self))
    }

    /// The JSON text of this value. See ``JSONWriter``.
    public func jsonString(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> String {
        String(decoding: try JSONWriter(options: options).write(self), as: UTF8.self)
    }

    /// The JSON text of this value as UTF-8 bytes. See ``JSONWriter``.
    public func jsonBytes(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> [UInt8] {
        try JSONWriter(options: options).write(self)
    }
}

/// The writing loop behind ``JSONWriter``: an explicit stack of open
/// containers instead of recursion.
internal struct JSONWriterEngine: ~Copyable {
    /// An array or object being written.
    struct Frame {
        var isObject: Bool
        /// The object's members (empty for an array).
        var members: JSONObject.Members
        /// The array's elements (empty for an object).
        var elements: JSONArray
        /// How many elements or members there are.
        var count: Int
        /// Member positions in sorted-key order, when keys are sorted.
        var order: [Int]?
        /// The next element or member to write.
        var next: Int
    }

    let pretty: Bool
    let indent: Int
    let sortedKeys: Bool
    var sink = JSONByteSink(capacity: 4096)
    var frames: [Frame] = []

    init(options: JSONWriter.Options) {
        pretty = options.pretty
        indent = max(0, options.indent)
        sortedKeys = options.sortedKeys
    }

    mutating func write(_ root: JSONValue) throws(JSONWriteError) {
        try writeValue(root)
        while !frames.isEmpty {
            let top = frames.count - 1
            let next = frames[top].next
            if next < frames[top].count {
                frames[top].next = next + 1
                if next > 0 { sink.append(UInt8(ascii: ",")) }
                if pretty { newline(level: frames.count) }
                let index = frames[top].order?[next] ?? next
                if frames[top].isObject {
                    let member = frames[top].members[index]
                    writeString(member.key)
                    if pretty { sink.append(": ") } else { sink.append(UInt8(ascii: ":")) }
                    try writeValue(member.value)
                } else {
                    try writeValue(frames[top].elements[index])
                }
            } else {
                let frame = frames.removeLast()
                if pretty { newline(level: frames.count) }
                sink.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
        }
    }

    /// Writes a scalar, or an empty container, or opens a non-empty one.
    @inline(__always)
    mutating func writeValue(_ value: JSONValue) throws(JSONWriteError) {
        switch value {
        case .null: sink.append("null")
        case .bool(let b): if b { sink.append("true") } else { sink.append("false") }
        case .int(let i): writeInteger(i)
        case .double(let d): try writeDouble(d)
        case .bigInteger(let text): writeRaw(text)
        case .string(let s): writeString(s)
        case .array(let array):
            if array.isEmpty {
                sink.append("[]")
            } else {
                sink.append(UInt8(ascii: "["))
                frames.append(Frame(isObject: false, members: [], elements: array, count: array.count, order: nil, next: 0))
            }
        case .object(let object):
            if object.isEmpty {
                sink.append("{}")
            } else {
                sink.append(UInt8(ascii: "{"))
                var order: [Int]? = nil
                let members = object._members
                if sortedKeys {
                    order = members.indices.sorted { JSONObject.utf8Less(members[$0].key, members[$1].key) }
                }
                frames.append(Frame(isObject: true, members: members, elements: [], count: members.count, order: order, next: 0))
            }
        }
    }

    @inline(__always)
    mutating func newline(level: Int) {
        sink.append(UInt8(ascii: "\n"))
        sink.append(repeating: UInt8(ascii: " "), count: level * indent)
    }

    /// The path of the value being written, for errors.
    func currentPath() -> JSONPath {
        JSONPath(frames.map { frame in
            let position = frame.order?[frame.next - 1] ?? frame.next - 1
            return frame.isObject ? .key(frame.members[position].key) : .index(position)
        })
    }

    /// Writes a finite double in Swift's shortest round-trip form (as
    /// `description`), which always has a '.' or an exponent ("5.0",
    /// "1e-05", "1e+300"): valid JSON that reads back as a double.
    mutating func writeDouble(_ d: Double) throws(JSONWriteError) {
        guard d.isFinite else { throw nonFinite(d) }
        sink.append(shortest: d)
    }

    /// The error for NaN or infinity, naming where it sits.
    func nonFinite(_ d: Double) -> JSONWriteError {
        let path = currentPath()
        let place = path.components.isEmpty ? "top-level value" : path.description
        return JSONWriteError(path: path, message: "\(place): cannot write \(d): JSON has no NaN or infinity")
    }

    mutating func writeInteger(_ i: Int64) {
        var magnitude = i.magnitude
        // 20 digits and a sign fit in a 24-byte stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let digits = buffer.baseAddress!
            var p = 24
            repeat {
                p -= 1
                digits[p] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if i < 0 {
                p -= 1
                digits[p] = UInt8(ascii: "-")
            }
            sink.append(digits + p, count: 24 - p)
        }
    }

    /// Writes the UTF-8 of `text` unchanged.
    mutating func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { sink.append(base, count: utf8.count) }
        }
    }

    /// A mask with the high bit set in every byte of `word` that needs an
    /// escape: `"`, `\` and control characters. The lowest set bit marks a
    /// real hit.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        JSONWordMask.quoteBackslashOrControl(word)
    }

    /// Writes `s` as a JSON string literal, copying runs that need no
    /// escaping in one go.
    mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            let n = utf8.count
            sink.reserve(n + 2)
            sink.appendUnchecked(UInt8(ascii: "\""))
            guard let base = utf8.baseAddress else {
                sink.appendUnchecked(UInt8(ascii: "\""))
                return
            }
            var runStart = 0
            var p = 0
            while true {
                var found = false
                while p &+ 8 <= n {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                    let mask = Self.escapeMask(word)
                    if mask != 0 {
                        p &+= mask.trailingZeroBitCount &>> 3
                        found = true
                        break
                    }
                    p &+= 8
                }
                if !found {
                    while p < n {
                        let c = base[p]
                        if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                            found = true
                            break
                        }
                        p += 1
                    }
                    if !found { break }
                }
                if p > runStart { sink.append(base + runStart, count: p - runStart) }
                writeEscape(base[p])
                p += 1
                runStart = p
            }
            if n > runStart { sink.append(base + runStart, count: n - runStart) }
            sink.append(UInt8(ascii: "\""))
        }
    }

    /// Writes the escape for `c` (a quote, backslash or control character).
    mutating func writeEscape(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\""): sink.append("\\\"")
        case UInt8(ascii: "\\"): sink.append("\\\\")
        case 0x0A: sink.append("\\n")
        case 0x0D: sink.append("\\r")
        case 0x09: sink.append("\\t")
        case 0x08: sink.append("\\b")
        case 0x0C: sink.append("\\f")
        default:
            let hex: StaticString = "0123456789abcdef"
            sink.append("\\u00")
            sink.append(hex.utf8Start[Int(c >> 4)])
            sink.append(hex.utf8Start[Int(c & 0xF)])
        }
    }
}
