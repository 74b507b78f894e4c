/// A parse failure before line and column are known: the byte offset and
/// the message. ``JSONParser`` turns it into a ``JSONParseError``.
internal struct JSONScanFailure: Error {
    var offset: Int
    var message: String
}

/// The engine behind ``JSONParser``: one pass over the bytes, no recursion.
///
/// Containers being parsed sit on an explicit stack of ``Frame``s, and
/// finished values on a scratch value stack; closing an array or object
/// moves its elements off the scratch stack into a new array in one go. So
/// nesting depth costs heap memory (bounded by `maximumDepth`), never call
/// stack, and parsing works on threads with small stacks.
internal struct JSONScanner: ~Copyable {
    /// An open array or object.
    struct Frame {
        /// `true` for an object, `false` for an array.
        var isObject: Bool
        /// ``JSONScanner/previousKey`` when it opened; restored when an object closes.
        var enclosingPreviousKey: UInt16
        /// Where its first element sits on the value stack.
        var valueStart: Int
        /// Where its first key sits on the key stack (objects).
        var keyStart: Int
    }

    let base: UnsafePointer<UInt8>
    let count: Int
    var pos = 0
    let maximumDepth: Int

    /// Finished values not yet moved into their container.
    var values: UnsafeMutablePointer<JSONValue>
    var valueCount = 0
    var valueCapacity: Int
    /// Keys of the open objects' members, and their hash values.
    var keys: UnsafeMutablePointer<String>
    var keyHashes: UnsafeMutablePointer<Int>
    var keyCount = 0
    var keyCapacity: Int
    /// Keys seen on this thread, so repeated keys are neither decoded nor
    /// hashed again; kept for the thread's next parse, with the scanner's
    /// buffers (see ``finish()``).
    let internedKeys: JSONKeyInternTable
    /// Where the innermost open object is in its keys, as an index into
    /// ``JSONKeyInternTable/successors``, whose entry there is the guess for
    /// its next key: its last key (its entry index + 1 in ``internedKeys``;
    /// 0 after a key not interned), or before its first key, the member it
    /// is the value of (the same plus ``JSONKeyInternTable/objectStart``).
    var previousKey = 0
    /// The members of the objects closed so far, and how many of their keys
    /// (of up to ``JSONKeyInternTable/maximumKeyLength`` bytes) were not in
    /// ``internedKeys``: whether the table suits the documents this thread
    /// parses.
    var keysRead = 0
    var keysMissed = 0
    /// Long string values seen in this document, so repeated ones are
    /// validated and allocated once.
    var strings: JSONStringCache
    /// Key shapes (the hash values of an object's keys, in order) of recent
    /// objects whose keys were checked distinct, with their hash index; see
    /// ``closeObject()``. Carried over from the thread's previous parse;
    /// empty until the first object with two keys closes.
    var shapes: [ObjectShape] = []
    /// Remembered shapes: 32 sets of two.
    static let shapeSlotCount = 64
    /// Open containers, innermost last.
    var frames: JSONStack<Frame>
    /// ``JSONDecimalConversion/powersOfFive``, read at most once per
    /// document: only a double the exact fast path cannot convert needs it,
    /// so documents without such numbers never build the table.
    var powersOfFive: UnsafePointer<UInt64>?
    /// Reused buffer for strings with escapes.
    var scratch: JSONScratchBuffer

    init(base: UnsafePointer<UInt8>, count: Int, maximumDepth: Int) {
        self.base = base
        self.count = count
        self.maximumDepth = maximumDepth
        let table = JSONKeyInternTable.take()
        internedKeys = table
        // The buffers of the thread's last parse, when it kept them.
        var spares = table.takeSpareBuffers()
        (values, valueCapacity) = spares.values.take(minimumCapacity: 64)
        (keys, keyCapacity) = spares.keys.take(minimumCapacity: 32)
        keyHashes = spares.keyHashes.take(minimumCapacity: keyCapacity).memory
        frames = JSONStack(reusing: &spares.frames, minimumCapacity: 32)
        scratch = JSONScratchBuffer(reusing: &spares.scratch, minimumCapacity: 256)
        strings = JSONStringCache(reusing: &spares.stringSlots)
        spares.deallocate()  // any kept buffer too small to use
        // The thread's shapes from earlier parses: the same API's objects
        // skip the duplicate check from the first document on.
        shapes = table.shapes
        table.shapes = []
    }

    deinit {
        internedKeys.shapes = shapes
        internedKeys.missedManyKeys = keysMissed > keysRead / 8
        internedKeys.giveBack()
        values.deinitialize(count: valueCount)
        keys.deinitialize(count: keyCount)
        if valueCapacity > 0 { values.deallocate() }
        if keyCapacity > 0 {
            keys.deallocate()
            keyHashes.deallocate()
        }
    }

    // MARK: - Document and containers

    /// Parses the whole input: one value, surrounded by optional whitespace.
    mutating func parseDocument() throws(JSONScanFailure) -> JSONValue {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        try parseValues()
        skipWhitespace()
        if pos < count {
            throw JSONScanFailure(offset: pos, message: "unexpected \(describeByte(at: pos)) after the JSON value")
        }
        valueCount -= 1
        return values.move()
    }

    /// Parses one value, including everything nested in it, onto the value
    /// stack. A loop with an explicit frame stack instead of recursion.
    mutating func parseValues() throws(JSONScanFailure) {
        readValue: while true {
            skipWhitespace()
            guard pos < count else {
                throw JSONScanFailure(offset: pos, message: "unexpected end of input, expected a JSON value")
            }
            switch base[pos] {
            case UInt8(ascii: "\""):
                push(.string(try parseString()))
            case UInt8(ascii: "{"):
                try openFrame(isObject: true)
                skipWhitespace()
                if pos < count && base[pos] == UInt8(ascii: "}") {
                    pos += 1
                    closeObject()
                } else {
                    if !parsePredictedKeyAndColon() { try parseKeyAndColon(afterComma: false) }
                    continue readValue
                }
            case UInt8(ascii: "["):
                try openFrame(isObject: false)
                skipWhitespace()
                if pos < count && base[pos] == UInt8(ascii: "]") {
                    pos += 1
                    closeArray()
                } else {
                    continue readValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                push(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                push(.bool(true))
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                push(.bool(false))
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                push(.null)
            default:
                throw unexpectedValueStart()
            }

            // A value is complete: continue or close the enclosing containers.
            while true {
                guard let top = frames.last else { return }
                skipWhitespace()
                guard pos < count else {
                    throw JSONScanFailure(offset: pos, message: top.isObject
                        ? "unexpected end of input, expected ',' or '}' after object member"
                        : "unexpected end of input, expected ',' or ']' after array element")
                }
                let c = base[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    if top.isObject {
                        if !parsePredictedKeyAndColon() { try parseKeyAndColon(afterComma: true) }
                    } else {
                        skipWhitespace()
                        if pos < count && base[pos] == UInt8(ascii: "]") {
                            throw JSONScanFailure(offset: pos, message: "trailing comma is not allowed before ']'")
                        }
                    }
                    continue readValue
                }
                if top.isObject {
                    guard c == UInt8(ascii: "}") else {
                        throw JSONScanFailure(offset: pos, message: "expected ',' or '}' after object member, found \(describeByte(at: pos))")
                    }
                    pos += 1
                    closeObject()
                } else {
                    guard c == UInt8(ascii: "]") else {
                        throw JSONScanFailure(offset: pos, message: "expected ',' or ']' after array element, found \(describeByte(at: pos))")
                    }
                    pos += 1
                    closeArray()
                }
            }
        }
    }

    /// Opens an array or object at `pos` (which holds `[` or `{`).
    @inline(__always)
    mutating func openFrame(isObject: Bool) throws(JSONScanFailure) {
        guard frames.count < maximumDepth else {
            throw JSONScanFailure(offset: pos, message:
                "nesting is deeper than the maximum depth of \(maximumDepth) arrays and objects")
        }
        // Room for the container when it closes (see pushClosedContainer).
        if valueCount == valueCapacity { growValues() }
        frames.append(Frame(isObject: isObject, enclosingPreviousKey: UInt16(truncatingIfNeeded: previousKey),
                            valueStart: valueCount, keyStart: keyCount))
        if isObject {
            // An object's first keys follow from the member it is the value
            // of: a post's from "statuses", its author's from "user".
            let objectStart = JSONKeyInternTable.objectStart
            previousKey = objectStart &+ (previousKey < objectStart ? previousKey : 0)
        }
        pos += 1
    }

    /// Reads `"key"` and `:` of an object member when the key is the one
    /// that followed ``previousKey`` before and the colon comes next or
    /// after one space, the usual case in API data; `false` otherwise,
    /// with `pos` past whitespace only, for ``parseKeyAndColon(afterComma:)``.
    /// Inlined into the value loop: a call costs a fifth of a key's time.
    @inline(__always)
    mutating func parsePredictedKeyAndColon() -> Bool {
        skipWhitespace()
        let guess = Int(internedKeys.successors[previousKey])
        guard guess != 0 && pos < count && base[pos] == UInt8(ascii: "\"") else { return false }
        let start = pos &+ 1
        let entry = internedKeys.entries + (guess &- 1)
        let length = Int(entry.pointee.length)
        // Eight readable bytes past the key leave room for `": "`.
        guard start &+ length &+ 8 <= count
            && internedKeys.bytes(at: base + start, length: length, match: entry)
            && base[start &+ length] == UInt8(ascii: "\"") else { return false }
        var colon = start &+ length &+ 1
        if base[colon] == 0x20 { colon &+= 1 }
        guard base[colon] == UInt8(ascii: ":") else { return false }
        pos = colon &+ 1
        previousKey = guess
        if keyCount == keyCapacity { growKeys() }
        (keys + keyCount).initialize(to: entry.pointee.string)
        keyHashes[keyCount] = entry.pointee.hash
        keyCount &+= 1
        return true
    }

    /// Reads `"key"` and `:` of an object member; `pos` is just after `{` or `,`.
    mutating func parseKeyAndColon(afterComma: Bool) throws(JSONScanFailure) {
        skipWhitespace()
        guard pos < count else {
            throw JSONScanFailure(offset: pos, message: afterComma
                ? "unexpected end of input, expected a string key after ','"
                : "unexpected end of input, expected a string key or '}'")
        }
        let c = base[pos]
        guard c == UInt8(ascii: "\"") else {
            if c == UInt8(ascii: "}") && afterComma {
                throw JSONScanFailure(offset: pos, message: "trailing comma is not allowed before '}'")
            }
            if c == UInt8(ascii: "'") {
                throw JSONScanFailure(offset: pos, message: "object keys must be in double quotes, not single quotes")
            }
            if c == UInt8(ascii: "/") {
                throw JSONScanFailure(offset: pos, message: "comments are not allowed in JSON")
            }
            throw JSONScanFailure(offset: pos, message: afterComma
                ? "expected a string key in double quotes after ',', found \(describeByte(at: pos))"
                : "expected a string key in double quotes or '}', found \(describeByte(at: pos))")
        }
        let key: String
        let hash: Int
        if let (interned, internedHash) = internKey() {
            key = interned
            hash = internedHash
        } else {
            previousKey = 0
            key = try parseString()
            hash = key.hashValue
        }
        if keyCount == keyCapacity { growKeys() }
        (keys + keyCount).initialize(to: key)
        keyHashes[keyCount] = hash
        keyCount += 1
        skipWhitespace()
        guard pos < count else {
            throw JSONScanFailure(offset: pos, message: "unexpected end of input, expected ':' after object key")
        }
        guard base[pos] == UInt8(ascii: ":") else {
            throw JSONScanFailure(offset: pos, message: "expected ':' after object key, found \(describeByte(at: pos))")
        }
        pos += 1
    }

    /// Closes the innermost array: its elements move into a new array.
    mutating func closeArray() {
        let frame = frames.removeLast()
        let n = valueCount - frame.valueStart
        let array = moveValues(from: frame.valueStart, count: n)
        valueCount = frame.valueStart
        pushClosedContainer(.array(array))
    }

    /// Closes the innermost object: its keys and values move into a
    /// ``JSONObject``. Duplicate keys keep the first position and the last value.
    mutating func closeObject() {
        let frame = frames.removeLast()
        previousKey = Int(frame.enclosingPreviousKey)
        let n = valueCount - frame.valueStart
        keysRead &+= n
        // Pair keys and values straight into the object's one members array,
        // reserved at its exact size: no growth, no intermediate arrays, and
        // moves instead of copies (no retain/release). (Not
        // `Array(unsafeUninitializedCapacity:)`: that calls into the standard
        // library unspecialized and looks up the storage class's generic
        // metadata on every call, which costs more than the appends.)
        let members = JSONObject.Members(pairingKeys: keys + frame.keyStart, values: values + frame.valueStart, count: n)
        valueCount = frame.valueStart
        let hashes = UnsafePointer(keyHashes + frame.keyStart)
        // Each branch pushes its own object: kept in one variable across the
        // branches, the object is retained and released once more.
        if n >= 2 {
            // API data repeats object shapes. When this object's key hash
            // values equal, in order, those of an earlier object whose hash
            // values were pairwise distinct, its keys are pairwise distinct
            // too (equal keys have equal hash values): no duplicate check,
            // and a large object shares that object's hash index, which
            // depends only on the hash values and positions.
            //
            // Two ways per set: shapes that alternate in a document (a post
            // and its author) often share a set, and would otherwise evict
            // each other on every object.
            if shapes.isEmpty { shapes = Array(repeating: ObjectShape(), count: Self.shapeSlotCount) }
            let set = ((hashes[0] &+ n) & (Self.shapeSlotCount / 2 - 1)) &<< 1
            let way = shapes[set].matches(hashes, count: n) ? set
                : shapes[set | 1].matches(hashes, count: n) ? set | 1 : -1
            if way >= 0 {
                pushClosedContainer(.object(JSONObject(members: members, index: shapes[way].index)))
            } else {
                let (parsed, distinctHashes) = JSONObject.parsed(members: members, hashes: hashes)
                if distinctHashes {
                    // The newest shape takes the first way; the shape there
                    // moves to the second, whose shape is forgotten.
                    if !shapes[set].hashes.isEmpty { shapes.swapAt(set, set | 1) }
                    shapes[set].hashes.removeAll(keepingCapacity: true)
                    shapes[set].hashes.append(contentsOf: UnsafeBufferPointer(start: hashes, count: n))
                    shapes[set].index = parsed._index
                }
                pushClosedContainer(.object(parsed))
            }
        } else {
            pushClosedContainer(.object(JSONObject.parsed(members: members, hashes: hashes).object))
        }
        keyCount = frame.keyStart
    }

    /// The `n` values from `start` of the value stack, moved into an array
    /// reserved at exactly that size (moves: no retain/release traffic).
    @inline(__always)
    func moveValues(from start: Int, count n: Int) -> JSONArray {
        JSONArray(storage: JSONContainerStorage(moving: values + start, count: n))
    }

    /// Pushes a container just closed where its frame began, which
    /// ``openFrame(isObject:)`` kept room for: no growth check. (Without a
    /// possible growth call in between, the container moves onto the stack
    /// with no retain and release.)
    @inline(__always)
    mutating func pushClosedContainer(_ value: consuming JSONValue) {
        assert(valueCount < valueCapacity, "no room kept for a closed container")
        (values + valueCount).initialize(to: value)
        valueCount += 1
    }

    @inline(__always)
    mutating func push(_ value: consuming JSONValue) {
        if valueCount == valueCapacity { growValues() }
        (values + valueCount).initialize(to: value)
        valueCount += 1
    }

    mutating func growValues() {
        let newCapacity = valueCapacity * 2
        let newValues = UnsafeMutablePointer<JSONValue>.allocate(capacity: newCapacity)
        newValues.moveInitialize(from: values, count: valueCount)
        values.deallocate()
        values = newValues
        valueCapacity = newCapacity
    }

    mutating func growKeys() {
        let newCapacity = keyCapacity * 2
        let newKeys = UnsafeMutablePointer<String>.allocate(capacity: newCapacity)
        newKeys.moveInitialize(from: keys, count: keyCount)
        keys.deallocate()
        keys = newKeys
        let newHashes = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newHashes.update(from: keyHashes, count: keyCount)
        keyHashes.deallocate()
        keyHashes = newHashes
        keyCapacity = newCapacity
    }

    // MARK: - Whitespace, literals, diagnostics

    @inline(__always)
    mutating func skipWhitespace() {
        // Most tokens follow each other directly: one compare decides. The
        // next most common case, one space (`, ` and `: `), is skipped here.
        if pos < count && base[pos] <= 0x20 {
            if base[pos] == 0x20 && pos &+ 1 < count && base[pos &+ 1] > 0x20 {
                pos &+= 1
            } else {
                skipWhitespaceRun()
            }
        }
    }

    /// Skips JSON whitespace (space, \t, \n, \r); runs of spaces, such as
    /// the indentation of pretty-printed input, eight bytes at a time.
    mutating func skipWhitespaceRun() {
        // Pretty-printed input: a line break, then the next line's
        // indentation. Each step skips the spaces in one word, then one
        // other whitespace byte (the caller made sure `pos < count`).
        if base[pos] == 0x0A { pos &+= 1 }
        while pos &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self))
            let other = word ^ 0x2020_2020_2020_2020
            if other == 0 {
                pos &+= 8
                continue
            }
            pos &+= other.trailingZeroBitCount &>> 3
            let c = base[pos]
            if c > 0x20 { return }
            guard c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos &+= 1
        }
        while pos < count {
            let c = base[pos]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos &+= 1
        }
    }

    /// Consumes `literal` (`true`, `false`, `null`) at `pos`.
    @inline(__always)
    mutating func expectLiteral(_ literal: StaticString) throws(JSONScanFailure) {
        let n = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        // The first four bytes in one comparison (every literal has four or
        // five); the loop below only runs to find and describe a mismatch.
        if pos &+ n <= count
            && UnsafeRawPointer(base + pos).loadUnaligned(as: UInt32.self) == UnsafeRawPointer(text).loadUnaligned(as: UInt32.self)
            && (n == 4 || base[pos &+ 4] == text[4]) {
            pos &+= n
            return
        }
        var i = 0
        while i < n {
            guard pos + i < count else {
                throw JSONScanFailure(offset: pos + i, message: "unexpected end of input in literal '\(literal)'")
            }
            guard base[pos + i] == text[i] else {
                throw JSONScanFailure(offset: pos + i, message: "invalid literal, expected '\(literal)'")
            }
            i += 1
        }
        pos += n
    }

    /// The error for a byte that cannot start a value, with hints for the
    /// usual non-JSON habits.
    func unexpectedValueStart() -> JSONScanFailure {
        let c = base[pos]
        let message: String
        switch c {
        case UInt8(ascii: "/"):
            message = "comments are not allowed in JSON"
        case UInt8(ascii: "'"):
            message = "strings must be in double quotes, not single quotes"
        case UInt8(ascii: "N") where hasPrefix("NaN"):
            message = "NaN is not valid JSON"
        case UInt8(ascii: "I") where hasPrefix("Infinity"):
            message = "Infinity is not valid JSON"
        case UInt8(ascii: "+"):
            message = "a number cannot start with '+'"
        case UInt8(ascii: "."):
            message = "a number needs a digit before the decimal point"
        case UInt8(ascii: "T") where hasPrefix("True"), UInt8(ascii: "F") where hasPrefix("False"),
             UInt8(ascii: "N") where hasPrefix("Null"):
            message = "unexpected \(describeByte(at: pos)), expected a JSON value (true, false and null are lowercase)"
        default:
            // A bare word reads as a string that lost its quotes; other
            // bytes (`#`, `<`, binary data) are simply not JSON.
            let isLetter = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_")
            message = "unexpected \(describeByte(at: pos)), expected a JSON value" + (isLetter ? " (strings must be in double quotes)" : "")
        }
        return JSONScanFailure(offset: pos, message: message)
    }

    func hasPrefix(_ text: StaticString, at offset: Int? = nil) -> Bool {
        let start = offset ?? pos
        let n = text.utf8CodeUnitCount
        guard start + n <= count else { return false }
        for i in 0..<n where base[start + i] != text.utf8Start[i] { return false }
        return true
    }

    /// `character 'x'` for printable ASCII, `byte 0xNN` otherwise.
    func describeByte(at offset: Int) -> String {
        let c = base[offset]
        if c >= 0x21 && c < 0x7F { return "character '\(Character(Unicode.Scalar(c)))'" }
        if c == 0x20 { return "space" }
        return "byte 0x" + hex2(c)
    }

    func hex2(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(c >> 4)], digits[Int(c & 0xF)]], as: UTF8.self)
    }
}

/// The key hash values of a parsed object, pairwise distinct, and its hash
/// index (objects with at least ``JSONObject/indexThreshold`` members).
internal struct ObjectShape {
    var hashes: [Int] = []
    var index: JSONKeyIndex?

    /// `true` when the `n` values at `other` equal `hashes`.
    @inline(__always)
    func matches(_ other: UnsafePointer<Int>, count n: Int) -> Bool {
        guard hashes.count == n else { return false }
        return hashes.withUnsafeBufferPointer { own in
            var i = 0
            while i < n {
                if own[i] != other[i] { return false }
                i &+= 1
            }
            return true
        }
    }
}

extension JSONObject {
    /// An object of parsed members whose keys are known to be distinct, with
    /// their hash index if the object is large enough to need one.
    @inline(__always)
    internal init(members: Members, index: JSONKeyIndex?) {
        _members = members
        _index = index
    }

    /// An object from parsed members in source order, and the keys' hash
    /// values. Duplicate keys resolve as ``JSONObject/updateValue(_:forKey:)``
    /// does (first position, last value). `distinctHashes` tells whether the
    /// keys' hash values were checked pairwise distinct.
    internal static func parsed(members: Members, hashes: UnsafePointer<Int>) -> (object: JSONObject, distinctHashes: Bool) {
        var object = JSONObject()
        let n = members.count
        var distinct = true
        if n < indexThreshold {
            // Small objects: a linear duplicate check on hash values.
            var i = 1
            while i < n {
                let hash = hashes[i]
                var j = 0
                while j < i {
                    if hashes[j] == hash {
                        if members[j].key == members[i].key {
                            return (resolvingDuplicates(members), false)
                        }
                        distinct = false
                    }
                    j += 1
                }
                i += 1
            }
        } else {
            var index = JSONKeyIndex(capacity: n)
            for i in 0..<n where index.insert(members[i].key, hash: hashes[i], position: i, in: members) != nil {
                return (resolvingDuplicates(members), false)
            }
            object._index = index
            let sorted = UnsafeBufferPointer(start: hashes, count: n).sorted()
            for i in 1..<n where sorted[i] == sorted[i - 1] {
                distinct = false
                break
            }
        }
        object._members = members
        return (object, distinct)
    }

    /// The slow path for objects with repeated keys.
    private static func resolvingDuplicates(_ members: Members) -> JSONObject {
        var object = JSONObject(minimumCapacity: members.count)
        for member in members { object.updateValue(member.value, forKey: member.key) }
        return object
    }
}
