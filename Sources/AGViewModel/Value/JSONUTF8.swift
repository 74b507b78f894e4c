/// Well-formed UTF-8 (Unicode table 3-7) and strings made from bytes that are
/// known to be.
///
/// Creating a `String` from bytes normally validates them again inside the
/// standard library, with a decoder that costs several instructions per
/// byte. The parser checks string content once, here, and then copies it
/// into a `String` without a second pass where the standard library allows
/// that (`UTF8Span`, Swift 6.2 runtimes).
enum JSONUTF8 {
    /// `true` when the standard library can make a `String` from checked
    /// bytes without validating them again.
    @inline(__always)
    static var makesUncheckedStrings: Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) { return true }
        return false
    }

    /// A `String` of `bytes`, which must be well-formed UTF-8 (pure ASCII
    /// when `isASCII`); validated again only where ``makesUncheckedStrings``
    /// is `false`.
    @inline(__always)
    static func string(unchecked bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a run of bytes is as UTF-8.
    enum Kind: Equatable {
        /// Well-formed, and all ASCII.
        case ascii
        /// Well-formed, with at least one multi-byte sequence.
        case multibyte
        /// Not well-formed.
        case illFormed
    }

    /// Whether `bytes` are well-formed UTF-8, and whether they are ASCII.
    ///
    /// ASCII runs go eight bytes at a time. A multi-byte sequence with four
    /// bytes of input left is read as one 32-bit word and matched by shape
    /// (lead byte and continuation bytes in one mask test), then the four
    /// leads with a narrower second byte (E0, ED, F0, F4) get one range
    /// check; text in one script (CJK: three-byte sequences back to back)
    /// stays on that path. Diagnostics are not its job: on
    /// ``Kind/illFormed``, the scanner's byte-by-byte check finds and
    /// describes the bad sequence.
    static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        guard var p = bytes.baseAddress else { return .ascii }
        let end = p + bytes.count
        var isASCII = true
        while p < end {
            let lead = p[0]
            if lead < 0x80 {
                guard end - p >= 8 else {
                    p += 1
                    continue
                }
                let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
                let high = word & 0x8080_8080_8080_8080
                // Past the whole word, or up to its first non-ASCII byte.
                p += high == 0 ? 8 : high.trailingZeroBitCount &>> 3
                continue
            }
            isASCII = false
            guard end - p >= 4 else {
                guard let next = sequenceEnd(at: p, end: end) else { return .illFormed }
                p = next
                continue
            }
            // Byte 0 in the low bits.
            var word = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
            if word & 0x00C0_C0F0 == 0x0080_80E0 {
                // 1110xxxx 10xxxxxx 10xxxxxx, for as long as they follow one
                // another. E0 needs A0...BF (shorter forms are overlong); ED
                // needs 80...9F (the rest encode UTF-16 surrogates).
                repeat {
                    let lead = UInt8(truncatingIfNeeded: word), second = UInt8(truncatingIfNeeded: word &>> 8)
                    if lead == 0xE0 ? second < 0xA0 : (lead == 0xED && second > 0x9F) { return .illFormed }
                    p += 3
                    guard end - p >= 4 else { break }
                    word = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
                } while word & 0x00C0_C0F0 == 0x0080_80E0
                continue
            }
            let second = UInt8(truncatingIfNeeded: word &>> 8)
            if word & 0xC0E0 == 0x80C0 {
                // 110xxxxx 10xxxxxx, except C0 and C1 (overlong).
                guard lead >= 0xC2 else { return .illFormed }
                p += 2
            } else if word & 0xC0C0_C0F8 == 0x8080_80F0 {
                // 11110xxx and three continuation bytes, up to F4. F0 needs
                // 90...BF (shorter forms are overlong); F4 needs 80...8F (the
                // rest are above U+10FFFF).
                guard lead <= 0xF4 else { return .illFormed }
                if lead == 0xF0 ? second < 0x90 : (lead == 0xF4 && second > 0x8F) { return .illFormed }
                p += 4
            } else {
                // A stray continuation byte, a lead byte that never occurs,
                // or a lead without its continuation bytes.
                return .illFormed
            }
        }
        return isASCII ? .ascii : .multibyte
    }

    /// The end of the multi-byte sequence at `p`, byte by byte (for the last
    /// three bytes of the input), or `nil` when it is not well-formed.
    private static func sequenceEnd(at p: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        let lead = p[0]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard end - p >= length, (low...high).contains(p[1]) else { return nil }
        for index in 2..<length where p[index] & 0xC0 != 0x80 { return nil }
        return p + length
    }
}
