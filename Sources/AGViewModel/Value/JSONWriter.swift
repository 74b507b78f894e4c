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
/// (`parse(write(v)) == v`, with a parser ``JSONParser/Options/maximumDepth`` at least
/// the value's depth; the default is 512):
/// - Strings escape `"`, `\` and control characters (as `\n`, `\r`, `\t`,
///   `\b`, `\f` or `\u00XX`); everything else is written as raw UTF-8.
/// - Integers are exact; ``JSONValue/bigInteger(_:)`` text is written
///   verbatim, and text that is not an integer's digits (`"abc"`, `"+5"`,
///   `"007"`) throws a ``JSONWriteError`` naming its path.
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
        /// Spaces per nesting level when pretty, from 0 to 64 (a value
        /// outside counts as the nearest end).
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

    /// The JSON text of `value` as UTF-8 data, handed over without a copy.
    internal func writeData(_ value: JSONValue) throws(JSONWriteError) -> Data {
        var engine = JSONWriterEngine(options: options)
        try engine.write(value)
        return engine.takeData()
    }
}

extension JSONValue {
    /// The JSON text of this value as UTF-8 data. See ``JSONWriter``.
    public func jsonData(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> Data {
        try JSONWriter(options: options).writeData(self)
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
///
/// Scalars and empty containers are written in a tight loop over a
/// container's elements; a frame is pushed only where a non-empty container
/// nests inside another, so the leaves of a document (a point's `[x, y]`, an
/// object of strings and numbers) are written without one.
internal struct JSONWriterEngine: ~Copyable {
    /// A container part-way written: where its elements are and which comes
    /// next.
    struct Frame {
        /// Keeps the elements alive while the frame points into them.
        let owner: AnyObject
        /// The array's elements (`nil` for an object).
        let elements: UnsafeMutablePointer<JSONValue>?
        /// The object's members (`nil` for an array).
        let members: UnsafeMutablePointer<JSONObject.Member>?
        /// How many elements or members there are.
        let count: Int
        /// Member positions in sorted-key order, when keys are sorted.
        let order: [Int]?
        /// The position (in writing order) of the next element or member.
        var next: Int

        /// The element or member value at `position` in writing order.
        func element(at position: Int) -> JSONValue {
            if let elements { return elements[position] }
            return members![order?[position] ?? position].value
        }
    }

    /// Why writing a run of elements stopped before the end.
    enum Stop {
        /// Every element was written, and the closing bracket.
        case finished
        /// The element at this position is a non-empty container.
        case container(Int)
        /// The element at this position is a NaN or an infinity.
        case nonFinite(Int, Double)
        /// The element at this position is a big integer whose text is
        /// not an integer in JSON's grammar.
        case notAnInteger(Int, String)
    }

    let pretty: Bool
    let indent: Int
    let sortedKeys: Bool
    var sink = JSONByteSink(capacity: 4096)
    var frames: [Frame] = []
    /// The power-of-ten table for doubles, looked up once per document (a
    /// global's every access goes through its one-time initializer check).
    let powersOfFive = JSONDecimalConversion.powersOfFive

    /// The output so far as `Data`, taking over the buffer.
    consuming func takeData() -> Data {
        sink.data()
    }

    init(options: JSONWriter.Options) {
        pretty = options.pretty
        // Bounded, so `level * indent` cannot overflow at any depth.
        indent = min(max(0, options.indent), 64)
        sortedKeys = options.sortedKeys
    }

    mutating func write(_ root: JSONValue) throws(JSONWriteError) {
        if case .double(let d) = root, !d.isFinite { throw nonFinite(d) }
        if case .bigInteger(let text) = root, !JSONNumber.isIntegerText(text.utf8) { throw notAnInteger(text) }
        var opened: JSONValue? = nil
        if !writeScalar(root) { opened = root }
        while true {
            if let container = opened {
                opened = try open(container)
                continue
            }
            guard !frames.isEmpty else { return }
            let top = frames.count - 1
            let frame = frames[top]
            let stop = frame.elements.map { writeElements($0, count: frame.count, from: frame.next, level: top + 1) }
                ?? writeMembers(frame.members!, count: frame.count, order: frame.order, from: frame.next, level: top + 1)
            switch stop {
            case .finished:
                frames.removeLast()
            case .container(let position):
                frames[top].next = position + 1
                opened = frame.element(at: position)
            case .nonFinite(let position, let d):
                frames[top].next = position + 1
                throw nonFinite(d)
            case .notAnInteger(let position, let text):
                frames[top].next = position + 1
                throw notAnInteger(text)
            }
        }
    }

    /// Writes the opening bracket of non-empty `container` and as many of
    /// its elements as come before a nested non-empty container, whose frame
    /// it pushes; returns that nested container, or `nil` when `container`
    /// was written to its end.
    mutating func open(_ container: JSONValue) throws(JSONWriteError) -> JSONValue? {
        let frame: Frame
        let stop: Stop
        switch container {
        case .array(let array):
            sink.append(UInt8(ascii: "["))
            let (owner, elements, count) = array.storage.unsafeElements!
            stop = writeElements(elements, count: count, from: 0, level: frames.count + 1)
            if case .finished = stop { return nil }
            frame = Frame(owner: owner, elements: elements, members: nil, count: count, order: nil, next: 0)
        case .object(let object):
            sink.append(UInt8(ascii: "{"))
            let (owner, members, count) = object._members.unsafeElements!
            let order = sortedKeys ? Self.sortedOrder(members, count: count) : nil
            stop = writeMembers(members, count: count, order: order, from: 0, level: frames.count + 1)
            if case .finished = stop { return nil }
            frame = Frame(owner: owner, elements: nil, members: members, count: count, order: order, next: 0)
        default:
            preconditionFailure("only containers are opened")
        }
        switch stop {
        case .finished:
            return nil
        case .container(let position):
            var pushed = frame
            pushed.next = position + 1
            frames.append(pushed)
            return frame.element(at: position)
        case .nonFinite(let position, let d):
            var pushed = frame
            pushed.next = position + 1
            frames.append(pushed)
            throw nonFinite(d)
        case .notAnInteger(let position, let text):
            var pushed = frame
            pushed.next = position + 1
            frames.append(pushed)
            throw notAnInteger(text)
        }
    }

    /// Writes the elements of an array (nested `level` deep) from position
    /// `start` on, stopping at a non-empty container or a non-finite double;
    /// writes the closing bracket when it reaches the end.
    mutating func writeElements(
        _ elements: UnsafeMutablePointer<JSONValue>, count: Int, from start: Int, level: Int
    ) -> Stop {
        var position = start
        while position < count {
            if position > 0 { sink.append(UInt8(ascii: ",")) }
            if pretty { newline(level: level) }
            switch elements[position] {
            case .double(let d):
                guard d.isFinite else { return .nonFinite(position, d) }
                if !pretty, position &+ 1 < count, case .double(let next) = elements[position &+ 1], next.isFinite {
                    sink.append(shortest: d, next, powers: powersOfFive)
                    position &+= 2
                    continue
                }
                sink.append(shortest: d, powers: powersOfFive)
            case .array(let array) where !array.isEmpty:
                guard writeLeaf(elements: array.storage.borrowedElements, level: level &+ 1) else { return .container(position) }
            case .object(let object) where !object.isEmpty:
                guard writeLeaf(members: object._members.borrowedElements, level: level &+ 1) else { return .container(position) }
            case .bigInteger(let text) where !JSONNumber.isIntegerText(text.utf8):
                return .notAnInteger(position, text)
            default:
                writeScalar(elements[position])
            }
            position &+= 1
        }
        close(UInt8(ascii: "]"), level: level &- 1)
        return .finished
    }

    /// Writes the members of an object from position `start` (in writing
    /// order) on, as ``writeElements(_:count:from:level:)`` does for arrays.
    mutating func writeMembers(
        _ members: UnsafeMutablePointer<JSONObject.Member>, count: Int, order: [Int]?, from start: Int, level: Int
    ) -> Stop {
        var position = start
        while position < count {
            if position > 0 { sink.append(UInt8(ascii: ",")) }
            if pretty { newline(level: level) }
            let member = members + (order?[position] ?? position)
            writeString(member.pointee.key)
            if pretty { sink.append(": ") } else { sink.append(UInt8(ascii: ":")) }
            switch member.pointee.value {
            case .double(let d):
                guard d.isFinite else { return .nonFinite(position, d) }
                sink.append(shortest: d, powers: powersOfFive)
            case .array(let array) where !array.isEmpty:
                guard writeLeaf(elements: array.storage.borrowedElements, level: level &+ 1) else { return .container(position) }
            case .object(let object) where !object.isEmpty:
                guard writeLeaf(members: object._members.borrowedElements, level: level &+ 1) else { return .container(position) }
            case .bigInteger(let text) where !JSONNumber.isIntegerText(text.utf8):
                return .notAnInteger(position, text)
            default:
                writeScalar(member.pointee.value)
            }
            position &+= 1
        }
        close(UInt8(ascii: "}"), level: level &- 1)
        return .finished
    }

    /// Writes a non-empty container with no container among its values (a
    /// point's `[x, y]`, an object of strings and numbers) whole, without a
    /// frame, and returns `true`; returns `false`, having written nothing,
    /// for any other container or when a value is a NaN or an infinity (the
    /// frames then write it, and name the path of a bad double).
    mutating func writeLeaf(elements: UnsafeMutableBufferPointer<JSONValue>, level: Int) -> Bool {
        let base = elements.baseAddress!
        if !pretty && elements.count <= 4 && writeCompactPoint(UnsafeBufferPointer(elements)) { return true }
        guard !JSONContainerTeardown.containsContainers(base, count: elements.count) else { return false }
        let mark = sink.count
        sink.append(UInt8(ascii: "["))
        let stop = writeElements(base, count: elements.count, from: 0, level: level)
        return finishLeaf(stop, mark: mark)
    }

    /// Writes `[x,y]` (up to four finite doubles, as geometry is made of)
    /// with one capacity check, and returns `true`; returns `false`,
    /// having written nothing, for anything else.
    @inline(__always)
    mutating func writeCompactPoint(_ elements: UnsafeBufferPointer<JSONValue>) -> Bool {
        for element in elements {
            guard case .double(let d) = element, d.isFinite else { return false }
        }
        sink.reserve(elements.count &* (JSONShortestDouble.maximumLength &+ 1) &+ 2)
        sink.appendUnchecked(UInt8(ascii: "["))
        var position = 0
        while position < elements.count {
            if position > 0 { sink.appendUnchecked(UInt8(ascii: ",")) }
            guard case .double(let d) = elements[position] else { preconditionFailure("checked above") }
            if position &+ 1 < elements.count, case .double(let next) = elements[position &+ 1] {
                sink.count &+= JSONShortestDouble.writePair(d, next, to: sink.base + sink.count, powers: powersOfFive)
                position &+= 2
            } else {
                sink.count &+= JSONShortestDouble.write(d, to: sink.base + sink.count, powers: powersOfFive)
                position &+= 1
            }
        }
        sink.appendUnchecked(UInt8(ascii: "]"))
        return true
    }

    /// Writes an object of scalars whole (see ``writeLeaf(elements:level:)``).
    mutating func writeLeaf(members: UnsafeMutableBufferPointer<JSONObject.Member>, level: Int) -> Bool {
        let base = members.baseAddress!
        guard !JSONContainerTeardown.containsContainers(base, count: members.count) else { return false }
        let mark = sink.count
        sink.append(UInt8(ascii: "{"))
        let order = sortedKeys ? Self.sortedOrder(base, count: members.count) : nil
        let stop = writeMembers(base, count: members.count, order: order, from: 0, level: level)
        return finishLeaf(stop, mark: mark)
    }

    /// Whether a leaf was written to its end; if not, takes back what it wrote.
    @inline(__always)
    mutating func finishLeaf(_ stop: Stop, mark: Int) -> Bool {
        guard case .finished = stop else {
            sink.count = mark
            return false
        }
        return true
    }

    /// Writes the closing bracket of a container at nesting `level`.
    @inline(__always)
    mutating func close(_ bracket: UInt8, level: Int) {
        if pretty { newline(level: level) }
        sink.append(bracket)
    }

    /// Writes a scalar or an empty container and returns `true`, or returns
    /// `false` for a non-empty container. Doubles must be finite.
    @discardableResult
    mutating func writeScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .null: sink.append("null")
        case .bool(let b): if b { sink.append("true") } else { sink.append("false") }
        case .int(let i): writeInteger(i)
        case .double(let d): sink.append(shortest: d, powers: powersOfFive)
        case .bigInteger(let text): writeRaw(text)
        case .string(let s): writeString(s)
        case .array(let array):
            guard array.isEmpty else { return false }
            sink.append("[]")
        case .object(let object):
            guard object.isEmpty else { return false }
            sink.append("{}")
        }
        return true
    }

    /// Member positions in byte order of their keys' UTF-8.
    static func sortedOrder(_ members: UnsafeMutablePointer<JSONObject.Member>, count: Int) -> [Int] {
        (0..<count).sorted { JSONObject.utf8Less(members[$0].key, members[$1].key) }
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
            return frame.members.map { .key($0[position].key) } ?? .index(position)
        })
    }

    /// The error for a big integer whose text is not an integer.
    func notAnInteger(_ text: String) -> JSONWriteError {
        let path = currentPath()
        let place = path.components.isEmpty ? "top-level value" : path.description
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return JSONWriteError(path: path, message: "\(place): cannot write big integer \"\(shown)\": not an integer's digits")
    }

    /// The error for NaN or infinity, naming where it sits.
    func nonFinite(_ d: Double) -> JSONWriteError {
        let path = currentPath()
        let place = path.components.isEmpty ? "top-level value" : path.description
        return JSONWriteError(path: path, message: "\(place): cannot write \(d): JSON has no NaN or infinity")
    }

    mutating func writeInteger(_ i: Int64) {
        // A sign, 19 digits and the digit writer's 7 bytes of scratch.
        sink.reserve(32)
        let out = sink.base + sink.count
        var p = out
        if i < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        let n = JSONShortestDouble.digitCount(i.magnitude)
        JSONShortestDouble.writeDigits(i.magnitude, count: n, to: p)
        sink.count &+= p + n - out
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
