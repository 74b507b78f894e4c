/// Validating a value without building it: the same grammar, depth limit,
/// string, escape, UTF-8 and number rules as a full parse, no allocation.
/// The messages are brief: the parser re-parses a rejected document in full
/// for the positioned error.
extension JSONScanner {
    /// Skips the complete value at `pos` (after whitespace), checking it.
    mutating func skipValue() throws(JSONScanFailure) {
        // The kinds of the containers open inside this value, one bit per
        // level (set for an object): the first 64 levels in `shallow`, deeper
        // ones in `deep`.
        var shallow: UInt64 = 0
        var deep: [UInt64] = []
        var depth = 0
        readValue: while true {
            skipWhitespace()
            guard pos < count else { throw skipFailure() }
            let c = base[pos]
            switch c {
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard frames.count + depth < maximumDepth else { throw skipFailure() }
                let isObject = c == UInt8(ascii: "{")
                let bit: UInt64 = 1 << UInt64(depth & 63)
                if depth < 64 {
                    if isObject { shallow |= bit } else { shallow &= ~bit }
                } else {
                    let word = (depth >> 6) - 1
                    if word == deep.count { deep.append(0) }
                    if isObject { deep[word] |= bit } else { deep[word] &= ~bit }
                }
                depth += 1
                pos += 1
                skipWhitespace()
                if pos < count && base[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    depth -= 1
                } else {
                    if isObject { try skipKeyAndColon() }
                    continue readValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // The number rules include rejecting magnitudes beyond a double.
                _ = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
            case UInt8(ascii: "f"):
                try expectLiteral("false")
            case UInt8(ascii: "n"):
                try expectLiteral("null")
            default:
                throw skipFailure()
            }
            while depth > 0 {
                let level = depth - 1
                let bits = level < 64 ? shallow : deep[(level >> 6) - 1]
                let isObject = bits & (1 << UInt64(level & 63)) != 0
                skipWhitespace()
                guard pos < count else { throw skipFailure() }
                let c = base[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    if isObject {
                        try skipKeyAndColon()
                    } else {
                        skipWhitespace()
                        if pos < count && base[pos] == UInt8(ascii: "]") { throw skipFailure() }
                    }
                    continue readValue
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw skipFailure() }
                pos += 1
                depth -= 1
            }
            return
        }
    }

    /// Skips `"key"` and `:`; `pos` is just after `{` or `,`.
    @inline(__always)
    mutating func skipKeyAndColon() throws(JSONScanFailure) {
        skipWhitespace()
        guard pos < count, base[pos] == UInt8(ascii: "\"") else { throw skipFailure() }
        try skipString()
        skipWhitespace()
        guard pos < count, base[pos] == UInt8(ascii: ":") else { throw skipFailure() }
        pos += 1
    }

    /// Skips the string at `pos` (which holds `"`), checking its escapes,
    /// control characters and UTF-8.
    mutating func skipString() throws(JSONScanFailure) {
        let start = pos + 1
        var p = start
        // The OR of every raw content byte: bit 7 of some byte set means the
        // content needs a UTF-8 check (escapes are ASCII, so checking the
        // whole raw content is checking every run between them).
        var seen: UInt64 = 0
        while true {
            while p &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let mask = Self.stringEndMask(word)
                if mask != 0 {
                    seen |= word & ((mask & (0 &- mask)) &- 1)
                    p &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                seen |= word
                p &+= 8
            }
            while p < count {
                let c = base[p]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                seen |= UInt64(c)
                p &+= 1
            }
            guard p < count else { throw skipFailure() }
            let c = base[p]
            if c == UInt8(ascii: "\"") {
                if seen & 0x8080_8080_8080_8080 != 0,
                   JSONUTF8.kind(of: UnsafeBufferPointer(start: base + start, count: p &- start)) == .illFormed {
                    throw skipFailure()
                }
                pos = p &+ 1
                return
            }
            guard c == UInt8(ascii: "\\"), p + 1 < count else { throw skipFailure() }
            switch base[p + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                 UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                p &+= 2
            case UInt8(ascii: "u"):
                _ = try hexEscape(at: p)
                p &+= 6
            default:
                throw skipFailure()
            }
        }
    }

    func skipFailure() -> JSONScanFailure {
        JSONScanFailure(offset: pos, message: "invalid JSON")
    }
}
