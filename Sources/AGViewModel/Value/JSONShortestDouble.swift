/// The shortest decimal text that reads back as a given double, written
/// straight into a byte buffer, spelled exactly as Swift's `description`:
/// `5.0`, `0.0001`, `9007199254740992.0`, `1e-05`, `1.7976931348623157e+308`.
///
/// The digits come from Raffaello Giulietti's Schubfach algorithm: the
/// shortest decimal in the rounding interval of the double, and of those the
/// closest to it (ties to an even last digit), from three 128-bit products
/// with a power of ten. The power of ten comes from the parser's table of
/// powers of five (``JSONDecimalConversion/powersOfFive``).
internal enum JSONShortestDouble {
    /// The longest text is 24 bytes (`-2.2250738585072014e-308`).
    static let maximumLength = 32

    /// Writes finite `d` at `out` and returns the number of bytes. (Not
    /// inlined: inlined into the writer's loop it crowds out the string
    /// writer's inlining, which costs strings more than the call costs
    /// doubles.)
    @inline(never)
    static func write(_ d: Double, to out: UnsafeMutablePointer<UInt8>, powers: UnsafePointer<UInt64>) -> Int {
        var p = out
        if d.sign == .minus {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        if d == 0 {
            p[0] = UInt8(ascii: "0"); p[1] = UInt8(ascii: "."); p[2] = UInt8(ascii: "0")
            return p + 3 - out
        }
        let magnitude = d.magnitude
        guard magnitude >= 0x1p-970 else {
            // Below about 1e-292 the digits need 10^-k beyond the table's
            // 10^308: the standard library writes those (same text).
            var text = JSONDoubleText(destination: out)
            d.write(to: &text)
            return text.count
        }
        let (significand, exponent) = shortestDecimal(d, powers: powers)
        // Swift's rule: decimal notation from 0.0001 up to 2^53, else exponential.
        if magnitude < 0.0001 || magnitude > 9_007_199_254_740_992 {
            return p + writeExponential(significand, exponent, to: p) - out
        }
        return p + writeDecimal(significand, exponent, to: p) - out
    }

    /// `f * 10^k` with `f` the shortest digits (no trailing zeros) for
    /// finite, non-zero `d`.
    @inline(__always)
    static func shortestDecimal(_ d: Double, powers: UnsafePointer<UInt64>) -> (UInt64, Int) {
        let bits = d.bitPattern
        let fraction = bits & ((1 << 52) - 1)
        let biased = Int((bits >> 52) & 0x7FF)
        var (f, k): (UInt64, Int)
        if biased == 0 {
            (f, k) = schubfach(c: fraction, q: -1074, dk: 0, powers: powers)  // subnormal (not reached: see write)
        } else {
            let c = fraction | (1 << 52)
            let q = biased - 1075
            if q < 0 && q > -53 && (c >> UInt64(-q)) << UInt64(-q) == c {
                // A small integer: its digits are exact.
                (f, k) = (c >> UInt64(-q), 0)
            } else if fraction != 0 && q >= dragonboxSmallestExponent {
                (f, k) = dragonbox(c: c, q: q, powers: powers)
            } else {
                // A power of two (its interval is lopsided), or beyond the
                // power-of-ten table for Dragonbox's index.
                (f, k) = schubfach(c: c, q: q, dk: 0, powers: powers)
            }
        }
        while f >= 10 && f % 10 == 0 {
            f /= 10
            k += 1
        }
        return (f, k)
    }

    /// The smallest binary exponent whose Dragonbox power of ten,
    /// 10^(2 - floor(q * log10(2))), is in the table (up to 10^308).
    static let dragonboxSmallestExponent = -1016

    /// The shortest-closest decimal `(f, k)` of `c * 2^q` (a normal double
    /// that is not a power of two), by Junekey Jeon's Dragonbox: one
    /// 64x128-bit product gives the upper end of the rounding interval
    /// scaled by a power of ten with two digits to spare; dividing by 1000
    /// and comparing the remainder with the interval's width decides almost
    /// every case, and only ties and the shortest-digit boundary need a
    /// second product's parity bit.
    @inline(__always)
    static func dragonbox(
        c: UInt64, q: Int, powers: UnsafePointer<UInt64> = JSONDecimalConversion.powersOfFive
    ) -> (UInt64, Int) {
        let minusK = floorLog10Pow2(q) &- 2
        let (cacheHigh, cacheLow) = dragonboxCache(-minusK, powers: powers)
        let beta = q &+ floorLog2Pow10(-minusK)  // 6...9 for doubles
        let delta = cacheHigh &>> UInt64(63 &- beta)
        let twiceC = c &<< 1
        let (z, zLow) = multiplyUpper128((twiceC | 1) &<< UInt64(beta), cacheHigh, cacheLow)
        let endpointsIncluded = c & 1 == 0
        var s = z / 1000
        var r = z &- s &* 1000
        var needsSmallerDivisor: Bool
        if r < delta {
            // Inside the interval; the right end only counts when included.
            needsSmallerDivisor = r == 0 && zLow == 0 && !endpointsIncluded
            if needsSmallerDivisor {
                s &-= 1
                r = 1000
            }
        } else if r > delta {
            needsSmallerDivisor = true
        } else {
            // At the left end: compare fractional parts.
            let (parity, isInteger) = multiplyParity(twiceC &- 1, cacheHigh, cacheLow, beta: beta)
            needsSmallerDivisor = !(parity || (isInteger && endpointsIncluded))
        }
        guard needsSmallerDivisor else { return (s, minusK &+ 3) }
        // One more digit: the closest value to the double, ties to even.
        s &*= 10
        var distance = r &- delta / 2 &+ 50
        let approximateParity = (distance ^ 50) & 1 != 0
        let divisible = distance % 100 == 0
        distance /= 100
        s &+= distance
        if divisible {
            let (parity, isInteger) = multiplyParity(twiceC, cacheHigh, cacheLow, beta: beta)
            if parity != approximateParity || (isInteger && s & 1 != 0) { s &-= 1 }
        }
        return (s, minusK &+ 2)
    }

    /// 10^k normalized to 128 bits and rounded up, as Dragonbox needs it,
    /// from the parser's table (exact for 0...55, floor + 1 for -27...-1,
    /// floor elsewhere).
    @inline(__always)
    static func dragonboxCache(_ k: Int, powers table: UnsafePointer<UInt64>) -> (UInt64, UInt64) {
        let index = 2 &* (k &- JSONDecimalConversion.smallestPowerOfTen)
        var high = table[index]
        var low = table[index &+ 1]
        if k < -27 || k > 55 {
            low &+= 1
            if low == 0 { high &+= 1 }
        }
        return (high, low)
    }

    /// The upper 128 bits of the 192-bit product of `x` and `high:low`.
    @inline(__always)
    static func multiplyUpper128(_ x: UInt64, _ high: UInt64, _ low: UInt64) -> (UInt64, UInt64) {
        let (h, l) = x.multipliedFullWidth(by: high)
        let middle = x.multipliedFullWidth(by: low).high
        let (sum, carry) = l.addingReportingOverflow(middle)
        return (h &+ (carry ? 1 : 0), sum)
    }

    /// The parity of the integer part of `x * (high:low) * 2^(beta - 128)`
    /// and whether that product is an integer (from the lower 128 bits of
    /// the 192-bit product).
    @inline(__always)
    static func multiplyParity(_ x: UInt64, _ high: UInt64, _ low: UInt64, beta: Int) -> (Bool, Bool) {
        let (h, l) = x.multipliedFullWidth(by: low)
        let upper = x &* high &+ h
        let parity = (upper &>> UInt64(64 &- beta)) & 1 != 0
        let isInteger = (upper &<< UInt64(beta)) | (l &>> UInt64(64 &- beta)) == 0
        return (parity, isInteger)
    }

    /// floor(q * log10(2)), floor(q * log10(3/4 * 2)), floor(e * log2(10)).
    @inline(__always) static func floorLog10Pow2(_ q: Int) -> Int { (q &* 661_971_961_083) &>> 41 }
    @inline(__always) static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        (q &* 661_971_961_083 &- 274_743_187_321) &>> 41
    }
    @inline(__always) static func floorLog2Pow10(_ e: Int) -> Int { (e &* 913_124_641_741) &>> 38 }

    /// The shortest-closest decimal `(f, k)` of `c * 2^q`.
    @inline(__always)
    static func schubfach(
        c: UInt64, q: Int, dk: Int, powers: UnsafePointer<UInt64> = JSONDecimalConversion.powersOfFive
    ) -> (UInt64, Int) {
        let out: UInt64 = c & 1
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if c != 1 << 52 || q == -1074 {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            // At a power of two the interval below is half as wide.
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let h = UInt64(q &+ floorLog2Pow10(-k) &+ 2)
        let (g1, g0) = tenToThe(-k, powers: powers)
        let vb = roundToOdd(g1, g0, cb << h)
        let vbl = roundToOdd(g1, g0, cbl << h)
        let vbr = roundToOdd(g1, g0, cbr << h)
        let s = vb >> 2
        if s >= 100 {
            let sp10 = s / 10 * 10
            let tp10 = sp10 + 10
            let upInside = vbl + out <= sp10 << 2
            let wpInside = (tp10 << 2) + out <= vbr
            if upInside != wpInside { return (upInside ? sp10 : tp10, k) }
        }
        let uInside = vbl + out <= s << 2
        let wInside = ((s + 1) << 2) + out <= vbr
        if uInside != wInside { return (uInside ? s : s + 1, k &+ dk) }
        let mid = (s << 2) + 2
        let roundDown = vb < mid || (vb == mid && s & 1 == 0)
        return (roundDown ? s : s + 1, k &+ dk)
    }

    /// 10^e as a 126-bit `g = g1 * 2^63 + g0` in [2^125, 2^126), rounded
    /// up (floor + 1), from the 128-bit power-of-five table.
    @inline(__always)
    static func tenToThe(_ e: Int, powers table: UnsafePointer<UInt64>) -> (UInt64, UInt64) {
        let index = 2 &* (e &- JSONDecimalConversion.smallestPowerOfTen)
        var high = table[index]
        var low = table[index &+ 1]
        if e < 0 && e >= -27 {
            // Those entries are floor + 1 already: take the floor back.
            if low == 0 { high &-= 1 }
            low &-= 1
        }
        // (T >> 2) + 1, split into 63-bit halves.
        let g = (high >> 2, (high << 62) | (low >> 2))
        var g1 = g.0 << 1 | g.1 >> 63
        var g0 = (g.1 & (UInt64.max >> 1)) &+ 1
        if g0 >> 63 != 0 {
            g0 = 0
            g1 &+= 1
        }
        return (g1, g0)
    }

    /// `g * cp / 2^126`, rounded to odd.
    @inline(__always)
    static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let (y1, y0) = g1.multipliedFullWidth(by: cp)
        let z = (y0 >> 1) &+ x1
        let vbp = y1 &+ (z >> 63)
        return vbp | (((z & (UInt64.max >> 1)) &+ (UInt64.max >> 1)) >> 63)
    }

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
    /// overwrites.
    @inline(__always)
    static func writeDigits(_ f: UInt64, count n: Int, to out: UnsafeMutablePointer<UInt8>) {
        if n <= 8 {
            store(eightDigits(UInt32(truncatingIfNeeded: f)) &>> UInt64(8 &* (8 &- n)), at: out)
        } else if n <= 16 {
            let (high, low) = f.quotientAndRemainder(dividingBy: 100_000_000)
            store(eightDigits(UInt32(truncatingIfNeeded: high)) &>> UInt64(8 &* (16 &- n)), at: out)
            store(eightDigits(UInt32(truncatingIfNeeded: low)), at: out + (n &- 8))
        } else {
            let (high, rest) = f.quotientAndRemainder(dividingBy: 10_000_000_000_000_000)
            let (middle, low) = rest.quotientAndRemainder(dividingBy: 100_000_000)
            if n == 17 {
                // The longest shortest double: one leading digit.
                out.pointee = UInt8(truncatingIfNeeded: high) &+ UInt8(ascii: "0")
            } else {
                store(eightDigits(UInt32(truncatingIfNeeded: high)) &>> UInt64(8 &* (24 &- n)), at: out)
            }
            store(eightDigits(UInt32(truncatingIfNeeded: middle)), at: out + (n &- 16))
            store(eightDigits(UInt32(truncatingIfNeeded: low)), at: out + (n &- 8))
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

    /// `1e-05`, `1.5e+300`: one digit, the rest after a point, a signed
    /// exponent of at least two digits.
    @inline(__always)
    static func writeExponential(_ f: UInt64, _ k: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Digits at out + 1, then the first moved before the point.
        let n = writeDigits(f, to: out + 1)
        out[0] = out[1]
        var p = 1
        if n > 1 {
            out[1] = UInt8(ascii: ".")
            p = n + 1
        }
        var e = n &+ k &- 1
        out[p] = UInt8(ascii: "e")
        out[p + 1] = e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        p += 2
        e = abs(e)
        if e >= 100 {
            out[p] = UInt8(truncatingIfNeeded: e / 100) &+ UInt8(ascii: "0")
            p += 1
            e %= 100
        }
        out[p] = UInt8(truncatingIfNeeded: e / 10) &+ UInt8(ascii: "0")
        out[p + 1] = UInt8(truncatingIfNeeded: e % 10) &+ UInt8(ascii: "0")
        return p + 2
    }

    /// `123.45`, `0.0001`, `100.0`: plain decimal with at least one digit
    /// on each side of the point.
    @inline(__always)
    static func writeDecimal(_ f: UInt64, _ k: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if k >= 0 {
            // An integer: digits, k zeros, ".0" (at most 16 digits here).
            let n = writeDigits(f, to: out)
            var p = n
            for _ in 0..<k {
                out[p] = UInt8(ascii: "0")
                p += 1
            }
            out[p] = UInt8(ascii: ".")
            out[p + 1] = UInt8(ascii: "0")
            return p + 2
        }
        let n = digitCount(f)
        let point = n &+ k   // digits before the point
        if point <= 0 {
            // 0.000ddd
            out[0] = UInt8(ascii: "0")
            out[1] = UInt8(ascii: ".")
            var p = 2
            while p < 2 &- point {
                out[p] = UInt8(ascii: "0")
                p &+= 1
            }
            writeDigits(f, count: n, to: out + p)
            return p &+ n
        }
        // ddd.ddd: the digits one byte apart, then the point between.
        writeDigits(f, count: n, to: out + 1)
        var i = 0
        while i < point {
            out[i] = out[i &+ 1]
            i &+= 1
        }
        out[point] = UInt8(ascii: ".")
        return n &+ 1
    }
}

extension JSONByteSink {
    /// Appends the shortest text that reads back as `d` (finite), exactly
    /// as `d.description` spells it.
    @inline(__always)
    mutating func append(shortest d: Double, powers: UnsafePointer<UInt64>) {
        reserve(JSONShortestDouble.maximumLength)
        count &+= JSONShortestDouble.write(d, to: base + count, powers: powers)
    }
}
