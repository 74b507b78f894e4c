import Foundation  // memcmp

/// String scanning: a word-at-a-time fast path for plain ASCII runs, strict
/// UTF-8 validation for everything else, and a slow path for escapes.
extension JSONScanner {
    /// A mask with the high bit set in every byte of `word` that a string
    /// scan must stop at: `"`, `\`, control characters and non-ASCII bytes.
    /// The lowest set bit always marks a real hit (borrows only propagate
    /// upwards), so `trailingZeroBitCount / 8` is the first such byte.
    @inline(__always)
    static func stringStopMask(_ word: UInt64) -> UInt64 {
        JSONWordMask.quoteBackslashOrControl(word) | (word & 0x8080_8080_8080_8080)
    }

    /// A mask with the high bit set in every byte of `word` that ends a run
    /// of plain string content: `"`, `\` and control characters. Unlike
    /// ``stringStopMask(_:)`` it lets non-ASCII bytes through, so text in any
    /// script is scanned eight bytes at a time. The lowest set bit always
    /// marks a real hit.
    @inline(__always)
    static func stringEndMask(_ word: UInt64) -> UInt64 {
        JSONWordMask.quoteBackslashOrControl(word)
    }

    /// Parses the string starting at `pos` (which holds `"`) and moves past
    /// its closing quote.
    ///
    /// The UTF-8 of the content is checked exactly once: by ``JSONUTF8``
    /// where the standard library can then copy it unchecked, and otherwise
    /// by creating the `String` (which validates anyway). Only when that
    /// check fails does ``validateUTF8(from:to:)`` run, to find and describe
    /// the bad byte.
    @inline(__always)
    mutating func parseString() throws(JSONScanFailure) -> String {
        let start = pos + 1
        var p = start
        // The OR of every content byte scanned: bit 7 of some byte set means
        // the content is not pure ASCII.
        var seen: UInt64 = 0
        while p &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let mask = Self.stringEndMask(word)
            if mask != 0 {
                // Only the bytes below the first hit are content.
                seen |= word & ((mask & (0 &- mask)) &- 1)
                p &+= mask.trailingZeroBitCount &>> 3
                break
            }
            seen |= word
            p &+= 8
        }
        // The last few bytes of the input (the loop above leaves `p` on the
        // end byte when it found one, so this stops at once).
        while p < count {
            let c = base[p]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
            seen |= UInt64(c)
            p &+= 1
        }
        let isASCII = seen & 0x8080_8080_8080_8080 == 0
        guard p < count else {
            // Report bad UTF-8 before the missing quote, in input order.
            if !isASCII { try validateUTF8(from: start, to: p) }
            throw unterminatedString()
        }
        let c = base[p]
        if c == UInt8(ascii: "\"") {
            pos = p &+ 1
            let length = p &- start
            guard length >= JSONStringCache.minimumLength else {
                return try makeString(start: start, end: p, isASCII: isASCII)
            }
            // A long string: reuse an earlier copy of the same bytes if any.
            let slot = strings.slot(of: base + start, length: length, documentLength: count)
            if let cached = strings.string(in: slot, matching: start, length: length, base: base) {
                return cached
            }
            let string = try makeString(start: start, end: p, isASCII: isASCII)
            strings.store(string, in: slot, start: start, length: length)
            return string
        }
        if c == UInt8(ascii: "\\") {
            // The escape path checks the UTF-8 of the raw content itself.
            return try parseEscapedString(start: start, firstEscape: p, prefixIsASCII: isASCII)
        }
        if !isASCII { try validateUTF8(from: start, to: p) }
        throw controlCharacter(at: p)
    }

    /// The `String` of the content from `start` to `end` (no escapes;
    /// `isASCII` tells whether it is pure ASCII), or the error for its first
    /// bad UTF-8 sequence.
    @inline(__always)
    func makeString(start: Int, end: Int, isASCII: Bool) throws(JSONScanFailure) -> String {
        let content = UnsafeBufferPointer(start: base + start, count: end &- start)
        if isASCII { return Self.makeASCIIString(content) }
        if let string = Self.makeValidatedString(content) { return string }
        try validateUTF8(from: start, to: end)
        // Valid after all (in theory only: both validators follow Unicode
        // table 3-7).
        return String(decoding: content, as: UTF8.self)
    }

    /// A `String` of `bytes`, which are known to be ASCII.
    ///
    /// Up to 15 bytes fit in a small (inline) string, and the standard
    /// library builds an ASCII small string from uninitialized capacity
    /// without a validation pass; most JSON strings (ids, flags, short
    /// names) are that small. Longer ones are copied unchecked where the
    /// standard library allows it.
    @inline(__always)
    static func makeASCIIString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let n = bytes.count
        if n <= 15 {
            return String(unsafeUninitializedCapacity: n) { buffer in
                if n > 0 { buffer.baseAddress!.initialize(from: bytes.baseAddress!, count: n) }
                return n
            }
        }
        return JSONUTF8.string(unchecked: bytes, isASCII: true)
    }

    /// A `String` of `bytes` if they are well-formed UTF-8, else `nil`.
    @inline(__always)
    static func makeValidatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard JSONUTF8.makesUncheckedStrings else { return makeStandardLibraryValidatedString(bytes) }
        switch JSONUTF8.kind(of: bytes) {
        case .ascii: return JSONUTF8.string(unchecked: bytes, isASCII: true)
        case .multibyte: return JSONUTF8.string(unchecked: bytes, isASCII: false)
        case .illFormed: return nil
        }
    }

    /// ``makeValidatedString(_:)`` where only the standard library can make
    /// a `String`, and so validates every time.
    ///
    /// `String(decoding:as: UTF8.self)` runs the standard library's
    /// specialized, ASCII-first UTF-8 check and replaces bad sequences with
    /// U+FFFD; the result's bytes equal the input exactly when there was
    /// nothing to replace. That is one validation plus a `memcmp`, where
    /// `String(validating:as:)` is generic over the encoding and, called
    /// unspecialized, looks up generic metadata on every call.
    static func makeStandardLibraryValidatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.withUTF8 { utf8 in
            utf8.count == bytes.count
                && (utf8.count == 0 || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
        }
        return unchanged ? string : nil
    }

    /// Checks that the bytes from `start` to `end` are well-formed UTF-8 and
    /// throws the positioned error for the first bad sequence.
    func validateUTF8(from start: Int, to end: Int) throws(JSONScanFailure) {
        var p = start
        while p < end {
            // ASCII eight bytes at a time.
            if p &+ 8 <= end,
               UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                p &+= 8
                continue
            }
            if base[p] < 0x80 { p &+= 1 } else { p = try validateUTF8Sequence(at: p) }
        }
    }

    /// The slow path: the string has escapes, so it is decoded into `scratch`.
    ///
    /// Raw content, non-ASCII included, is copied in runs without a check of
    /// its own: bytes produced by escapes are valid UTF-8 by construction.
    /// So when the raw content is all ASCII (`prefixIsASCII` says so for the
    /// bytes before `firstEscape`), the finished bytes need no check at all;
    /// otherwise one check of them (``makeValidatedString(_:)``) covers the
    /// raw content. Only when it fails, or when the string turns out
    /// malformed in another way, is the raw content checked with
    /// ``validateUTF8(from:to:)``, so bad UTF-8 is reported at its own
    /// position and before any later error, in input order.
    mutating func parseEscapedString(
        start: Int, firstEscape: Int, prefixIsASCII: Bool
    ) throws(JSONScanFailure) -> String {
        // A long string is looked up in the cache by its raw bytes, escapes
        // and all, before it is decoded: a repeat then costs one comparison.
        var slot = -1
        if start &+ JSONStringCache.minimumLength <= count {
            slot = strings.slot(ofTextAt: base + start, documentLength: count)
            if let (cached, length) = strings.string(in: slot, matchingTextAt: start, base: base, count: count) {
                pos = start &+ length &+ 1
                return cached
            }
        }
        scratch.removeAll()
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: firstEscape - start))
        var p = firstEscape
        // The OR of every raw content byte, as in `parseString`.
        var seen: UInt64 = prefixIsASCII ? 0 : 0x80
        // Whether a `\u` escape was decoded: only those can produce a
        // non-ASCII scalar (`\u0041` counts too, which only costs the
        // string its known-ASCII mark).
        var hasUnicodeEscape = false
        while true {
            // Copy the run of bytes up to the next `"`, `\` or control
            // character in one go.
            let runStart = p
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
            if p > runStart {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: p - runStart))
            }
            guard p < count else {
                try validateUTF8(from: start, to: p)
                throw unterminatedString()
            }
            let c = base[p]
            if c == UInt8(ascii: "\"") {
                pos = p + 1
                let length = p &- start
                let rawIsASCII = seen & 0x8080_8080_8080_8080 == 0
                let decoded: String? = scratch.withUnsafeBufferPointer { bytes in
                    rawIsASCII
                        ? JSONUTF8.string(unchecked: bytes, isASCII: !hasUnicodeEscape)
                        : Self.makeValidatedString(bytes)
                }
                if let string = decoded {
                    if length >= JSONStringCache.minimumLength {
                        strings.store(string, in: slot, start: start, length: length)
                    }
                    return string
                }
                // Bad UTF-8 in the raw content.
                try validateUTF8(from: start, to: p)
                return scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            }
            if c < 0x20 {
                try validateUTF8(from: start, to: p)
                throw controlCharacter(at: p)
            }
            do {
                if p &+ 1 < count && base[p &+ 1] == UInt8(ascii: "u") { hasUnicodeEscape = true }
                p = try decodeEscape(at: p)
            } catch {
                try validateUTF8(from: start, to: p)
                throw error
            }
        }
    }

    /// Decodes the escape at `p` (which holds `\`) into `scratch`; returns
    /// the position after it.
    @inline(__always)
    mutating func decodeEscape(at p: Int) throws(JSONScanFailure) -> Int {
        guard p &+ 1 < count else { throw unterminatedString() }
        let e = base[p &+ 1]
        guard e == UInt8(ascii: "u") else {
            try decodeShortEscape(e, at: p)
            return p &+ 2
        }
        let unit = try hexEscape(at: p)
        if unit & 0xF800 != 0xD800 {  // not a surrogate (U+D800 to U+DFFF)
            scratch.appendUTF8(UInt32(truncatingIfNeeded: unit))
            return p &+ 6
        }
        return decodeSurrogate(unit, at: p)
    }

    /// Decodes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r` or `\t` (`e` is the
    /// byte after the backslash at `p`) into `scratch`.
    mutating func decodeShortEscape(_ e: UInt8, at p: Int) throws(JSONScanFailure) {
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            scratch.append(e)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        default:
            if e < 0x20 || e >= 0x80 {
                throw JSONScanFailure(offset: p, message:
                    "invalid escape sequence: '\\' followed by \(describeByte(at: p + 1))")
            }
            throw JSONScanFailure(offset: p, message:
                "invalid escape sequence '\\\(Character(Unicode.Scalar(e)))' (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    /// Decodes the `\uXXXX` at `p` whose code unit `unit` is a surrogate:
    /// a high one and the low one escaped right after it make one scalar;
    /// any other surrogate becomes U+FFFD. Returns the position after it.
    mutating func decodeSurrogate(_ unit: UInt16, at p: Int) -> Int {
        if unit < 0xDC00, hasPrefix("\\u", at: p + 6), let low = try? hexEscape(at: p + 6),
           low >= 0xDC00 && low < 0xE000 {
            let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            scratch.appendUTF8(scalar)
            return p + 12
        }
        scratch.appendUTF8(0xFFFD)
        return p + 6
    }

    /// The code unit of `\uXXXX` at `p`.
    @inline(__always)
    func hexEscape(at p: Int) throws(JSONScanFailure) -> UInt16 {
        if p &+ 6 <= count {
            // All four digits at once; any invalid one makes the OR reach 16.
            let a = Self.hexDigitValue(base[p &+ 2]), b = Self.hexDigitValue(base[p &+ 3])
            let c = Self.hexDigitValue(base[p &+ 4]), d = Self.hexDigitValue(base[p &+ 5])
            if a | b | c | d < 16 { return UInt16(truncatingIfNeeded: a &<< 12 | b &<< 8 | c &<< 4 | d) }
        }
        try hexEscapeFailure(at: p)
    }

    /// The value of hexadecimal digit `h`, or 255 when `h` is not one
    /// (comparisons without branches, which digits and letters mixed in
    /// code units would mispredict).
    @inline(__always)
    static func hexDigitValue(_ h: UInt8) -> UInt32 {
        let digit = UInt32(h) &- 0x30
        let letter = UInt32(h | 0x20) &- 0x61
        let value = letter < 6 ? letter &+ 10 : 255
        return digit < 10 ? digit : value
    }

    /// The error for a `\u` at `p` not followed by four hexadecimal digits:
    /// the first bad digit, or the end of input.
    @inline(never)
    func hexEscapeFailure(at p: Int) throws(JSONScanFailure) -> Never {
        for i in 2..<6 {
            guard p + i < count else {
                throw JSONScanFailure(offset: count, message: "unexpected end of input in \\u escape")
            }
            if Self.hexDigitValue(base[p + i]) >= 16 {
                throw JSONScanFailure(offset: p + i, message:
                    "invalid \\u escape: expected 4 hexadecimal digits, found \(describeByte(at: p + i))")
            }
        }
        preconditionFailure("four hexadecimal digits at \(p)")
    }

    /// Checks the multi-byte UTF-8 sequence at `p` (whose first byte is
    /// `>= 0x80`) against the well-formed ranges of Unicode table 3-7, and
    /// returns the position after it.
    @inline(__always)
    func validateUTF8Sequence(at p: Int) throws(JSONScanFailure) -> Int {
        let lead = base[p]
        let length: Int
        var low: UInt8 = 0x80   // allowed range of the second byte
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        case 0x80...0xBF:
            throw JSONScanFailure(offset: p, message:
                "invalid UTF-8: unexpected continuation byte 0x\(hex2(lead)) without a lead byte")
        case 0xC0, 0xC1:
            throw JSONScanFailure(offset: p, message:
                "invalid UTF-8: overlong encoding (byte 0x\(hex2(lead)) never appears in UTF-8)")
        case 0xF5...0xF7:
            throw JSONScanFailure(offset: p, message:
                "invalid UTF-8: byte 0x\(hex2(lead)) starts a code point above U+10FFFF")
        default:
            throw JSONScanFailure(offset: p, message:
                "invalid UTF-8: byte 0x\(hex2(lead)) never appears in UTF-8")
        }
        guard p + length <= count else {
            // Report which byte is missing or wrong even at the end of input.
            var i = 1
            while p + i < count {
                let b = base[p + i]
                let lo: UInt8 = i == 1 ? low : 0x80, hi: UInt8 = i == 1 ? high : 0xBF
                if b < lo || b > hi { break }
                i += 1
            }
            if p + i < count { throw badContinuation(at: p, index: i, lead: lead) }
            throw JSONScanFailure(offset: p, message:
                "invalid UTF-8: truncated \(length)-byte sequence at the end of input")
        }
        let second = base[p + 1]
        if second < low || second > high { throw badContinuation(at: p, index: 1, lead: lead) }
        var i = 2
        while i < length {
            let b = base[p + i]
            if b < 0x80 || b > 0xBF { throw badContinuation(at: p, index: i, lead: lead) }
            i += 1
        }
        return p + length
    }

    /// The error for byte `index` of the sequence at `p` being out of range.
    func badContinuation(at p: Int, index: Int, lead: UInt8) -> JSONScanFailure {
        let b = base[p + index]
        if index == 1 && b >= 0x80 && b <= 0xBF {
            // The second byte is a continuation byte but outside the lead's range.
            let message: String
            switch lead {
            case 0xE0, 0xF0: message = "invalid UTF-8: overlong encoding"
            case 0xED: message = "invalid UTF-8: encoded UTF-16 surrogate (U+D800 to U+DFFF)"
            default: message = "invalid UTF-8: code point above U+10FFFF"
            }
            return JSONScanFailure(offset: p, message: message)
        }
        return JSONScanFailure(offset: p, message:
            "invalid UTF-8: truncated sequence (byte 0x\(hex2(lead)) needs a continuation byte, found 0x\(hex2(b)))")
    }

    func unterminatedString() -> JSONScanFailure {
        JSONScanFailure(offset: count, message: "unexpected end of input in string (missing closing '\"')")
    }

    func controlCharacter(at p: Int) -> JSONScanFailure {
        let c = base[p]
        let hint: String
        switch c {
        case 0x0A: hint = "\\n"
        case 0x0D: hint = "\\r"
        case 0x09: hint = "\\t"
        case 0x08: hint = "\\b"
        case 0x0C: hint = "\\f"
        default: hint = "\\u00" + hex2(c)
        }
        return JSONScanFailure(offset: p, message:
            "unescaped control character U+00\(hex2(c)) in string (write it as \(hint))")
    }
}
