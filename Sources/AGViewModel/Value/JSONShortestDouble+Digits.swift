/// Decimal digits of integers, for doubles and integers alike.
extension JSONShortestDouble {
    /// How many decimal digits `f` has (a few comparisons, no loop).
    @inline(__always)
    static func digitCount(_ f: UInt64) -> Int {
        if f < 100_000_000 { return digitCount(UInt32(truncatingIfNeeded: f)) }
        if f < 10_000_000_000_000_000 { return 8 &+ digitCount(UInt32(truncatingIfNeeded: f / 100_000_000)) }
        if f < 100_000_000_000_000_000 { return 17 }
        if f < 1_000_000_000_000_000_000 { return 18 }
        return f < 10_000_000_000_000_000_000 ? 19 : 20
    }

    /// How many decimal digits `v` (below 10^8) has.
    @inline(__always)
    static func digitCount(_ v: UInt32) -> Int {
        if v < 10_000 { return v < 100 ? (v < 10 ? 1 : 2) : (v < 1_000 ? 3 : 4) }
        return v < 1_000_000 ? (v < 100_000 ? 5 : 6) : (v < 10_000_000 ? 7 : 8)
    }

    /// The `n` decimal digits of `f` at `out`, eight at a time. Writes up to
    /// 7 bytes of scratch past `out + n`, which the caller has room for and
    /// overwrites. Returns the first eight bytes written as a word (lowest
    /// byte first; past the `n` digits, zeros), so that a caller can edit
    /// them in a register instead of reading back what was just stored.
    @inline(__always) @discardableResult
    static func writeDigits(_ f: UInt64, count n: Int, to out: UnsafeMutablePointer<UInt8>) -> UInt64 {
        if n <= 8 {
            let word = eightDigits(UInt32(truncatingIfNeeded: f)) &>> UInt64(8 &* (8 &- n))
            store(word, at: out)
            return word
        } else if n <= 16 {
            let (high, low) = f.quotientAndRemainder(dividingBy: 100_000_000)
            let first = eightDigits(UInt32(truncatingIfNeeded: high)) &>> UInt64(8 &* (16 &- n))
            let second = eightDigits(UInt32(truncatingIfNeeded: low))
            store(first, at: out)
            store(second, at: out + (n &- 8))
            return n == 16 ? first : first | second &<< UInt64(8 &* (n &- 8))
        } else {
            let (high, rest) = f.quotientAndRemainder(dividingBy: 10_000_000_000_000_000)
            let (middle, low) = rest.quotientAndRemainder(dividingBy: 100_000_000)
            let first: UInt64
            if n == 17 {
                // The longest shortest double: one leading digit.
                first = high &+ UInt64(UInt8(ascii: "0"))
                out.pointee = UInt8(truncatingIfNeeded: first)
            } else {
                first = eightDigits(UInt32(truncatingIfNeeded: high)) &>> UInt64(8 &* (24 &- n))
                store(first, at: out)
            }
            let second = eightDigits(UInt32(truncatingIfNeeded: middle))
            store(second, at: out + (n &- 16))
            store(eightDigits(UInt32(truncatingIfNeeded: low)), at: out + (n &- 8))
            return first | second &<< UInt64(8 &* (n &- 16))
        }
    }

    /// The eight ASCII digits of `v` (below 10^8, with leading zeros), most
    /// significant first in memory. `v / 10^6` as a 57-bit fixed-point
    /// number gives the first two digits in its integer part; each further
    /// pair comes from multiplying the fraction by 100: four multiplications
    /// and four table reads, no division. (The multiplier is rounded up; the
    /// error stays below what could change a digit for every `v` below 10^8:
    /// checked over the whole range once, and by a test at both ends of it
    /// and at random.)
    @inline(__always)
    static func eightDigits(_ v: UInt32) -> UInt64 {
        let fraction: UInt64 = (1 &<< 57) &- 1
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        var y = UInt64(v) &* ((1 &<< 57) / 1_000_000 &+ 1)
        let a = UInt64(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: y &>> 57) &* 2, as: UInt16.self))
        y = (y & fraction) &* 100
        let b = UInt64(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: y &>> 57) &* 2, as: UInt16.self))
        y = (y & fraction) &* 100
        let c = UInt64(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: y &>> 57) &* 2, as: UInt16.self))
        y = (y & fraction) &* 100
        let d = UInt64(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: y &>> 57) &* 2, as: UInt16.self))
        return UInt64(littleEndian: a | b &<< 16 | c &<< 32 | d &<< 48)
    }

    /// "00" through "99".
    static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Stores the eight bytes of `word` at `out`, lowest byte first.
    @inline(__always)
    static func store(_ word: UInt64, at out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// The decimal digits of `f` (no leading zeros) at `out`; returns their count.
    @inline(__always)
    static func writeDigits(_ f: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let n = digitCount(f)
        writeDigits(f, count: n, to: out)
        return n
    }
}
