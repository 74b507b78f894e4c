/// Word-at-a-time (SWAR) byte classification shared by the parser, the
/// writer and path reading: eight bytes are tested in a few arithmetic
/// operations instead of eight comparisons.
///
/// Each mask has the high bit set in every byte it matches. Its lowest set
/// bit always marks a real match (borrows only propagate upwards), so
/// `trailingZeroBitCount / 8` is the first matching byte; bits above it may
/// be false matches.
internal enum JSONWordMask {
    /// `"`, `\` or a control character (below 0x20): the bytes that end a
    /// run of plain string content, and the bytes that need an escape when
    /// writing.
    @inline(__always)
    static func quoteBackslashOrControl(_ word: UInt64) -> UInt64 {
        // Written out rather than through `equal(_:_:)`: the parser's key
        // scan inlines this, and the helper made the compiler lay it out
        // worse (0.5% more instructions parsing twitter.json).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        return (control | hasQuote | hasBackslash) & high
    }

    /// `.` or `[`: the bytes that end a key in a path written as text.
    @inline(__always)
    static func dotOrBracket(_ word: UInt64) -> UInt64 {
        (equal(word, 0x2E) | equal(word, 0x5B)) & high
    }

    /// `.`, `[`, `\` or a non-ASCII byte: the bytes that end a run of plain
    /// key text when a path's shape is checked.
    @inline(__always)
    static func dotBracketBackslashOrNonASCII(_ word: UInt64) -> UInt64 {
        (equal(word, 0x2E) | equal(word, 0x5B) | equal(word, 0x5C) | word) & high
    }

    /// The bytes of `word` equal to `byte`, in the high bit of each (before
    /// masking with ``high``).
    @inline(__always)
    private static func equal(_ word: UInt64, _ byte: UInt64) -> UInt64 {
        let difference = word ^ (ones &* byte)
        return (difference &- ones) & ~difference
    }

    private static var ones: UInt64 { 0x0101_0101_0101_0101 }
    private static var high: UInt64 { 0x8080_8080_8080_8080 }
}
