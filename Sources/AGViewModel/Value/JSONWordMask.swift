/// Word-at-a-time (SWAR) byte classification shared by the parser and the
/// writer: eight bytes are tested in a few arithmetic operations instead of
/// eight comparisons.
internal enum JSONWordMask {
    /// A mask with the high bit set in every byte of `word` that is `"`, `\`
    /// or a control character (below 0x20): the bytes that end a run of plain
    /// string content, and the bytes that need an escape when writing. The
    /// lowest set bit always marks a real hit (borrows only propagate
    /// upwards), so `trailingZeroBitCount / 8` is the first such byte.
    @inline(__always)
    static func quoteBackslashOrControl(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        return (control | hasQuote | hasBackslash) & high
    }
}
