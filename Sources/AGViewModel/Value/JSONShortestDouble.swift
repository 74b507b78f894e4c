/// The shortest decimal text that reads back as a given double, written
/// straight into a byte buffer, spelled exactly as Swift's `description`:
/// `5.0`, `0.0001`, `9007199254740992.0`, `1e-05`, `1.7976931348623157e+308`.
///
/// The digits are the shortest decimal in the rounding interval of the
/// double, and of those the closest to it (ties to an even last digit):
/// Junekey Jeon's Dragonbox finds them for almost every double
/// (``dragonbox(c:q:powers:)``), Raffaello Giulietti's Schubfach for powers
/// of two and the smallest exponents (``schubfach(c:q:dk:powers:)``). Both
/// take their power of ten from the parser's table of powers of five
/// (``JSONDecimalConversion/powersOfFive``); the digits are then written
/// eight at a time (``writeDigits(_:count:to:)``). Each search is a chain
/// of dependent multiplications, so doubles side by side (a point's
/// coordinates, runs in an array) are searched two at a time
/// (``writePair(_:_:to:powers:)``) for the processor to overlap.
internal enum JSONShortestDouble {
    /// The longest text is 24 bytes (`-2.2250738585072014e-308`).
    static let maximumLength = 32

    /// Writes finite `d` at `out` and returns the number of bytes. (Not
    /// inlined: inlined into the writer's loop it crowds out the string
    /// writer's inlining, which costs strings more than the call costs
    /// doubles.)
    @inline(never)
    static func write(_ d: Double, to out: UnsafeMutablePointer<UInt8>, powers: UnsafePointer<UInt64>) -> Int {
        guard isSearched(d) else { return writeUnsearched(d, to: out) }
        return writeSearched(d, shortestDecimal(d, powers: powers), to: out)
    }

    /// Writes finite `a`, a comma and finite `b` at `out` and returns the
    /// number of bytes: two doubles side by side (a point's coordinates, or
    /// two of a run in an array). Both digit searches run
    /// before either is written, so that the processor overlaps two chains
    /// of dependent multiplications instead of waiting on each in turn.
    @inline(never)
    static func writePair(_ a: Double, _ b: Double, to out: UnsafeMutablePointer<UInt8>, powers: UnsafePointer<UInt64>) -> Int {
        guard isSearched(a), isSearched(b) else {
            let n = write(a, to: out, powers: powers)
            out[n] = UInt8(ascii: ",")
            return n &+ 1 &+ write(b, to: out + (n &+ 1), powers: powers)
        }
        let first = shortestDecimal(a, powers: powers)
        let second = shortestDecimal(b, powers: powers)
        var p = out + writeSearched(a, first, to: out)
        p.pointee = UInt8(ascii: ",")
        p += 1
        p += writeSearched(b, second, to: p)
        return p - out
    }

    /// Whether `d`'s digits come from ``shortestDecimal(_:powers:)``: not
    /// zero, and not below the power-of-ten table.
    @inline(__always)
    static func isSearched(_ d: Double) -> Bool {
        d.magnitude >= 0x1p-970
    }

    /// Writes zero, or a double too small for the power-of-ten table.
    static func writeUnsearched(_ d: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard d == 0 else {
            // Below about 1e-292 the digits need 10^-k beyond the table's
            // 10^308: the standard library writes those (same text).
            var text = JSONDoubleText(destination: out)
            d.write(to: &text)
            return text.count
        }
        var p = out
        if d.sign == .minus {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        p[0] = UInt8(ascii: "0"); p[1] = UInt8(ascii: "."); p[2] = UInt8(ascii: "0")
        return p + 3 - out
    }

    /// Writes `d` (see ``isSearched(_:)``) from its shortest decimal.
    @inline(__always)
    static func writeSearched(_ d: Double, _ decimal: (UInt64, Int), to out: UnsafeMutablePointer<UInt8>) -> Int {
        var p = out
        if d.sign == .minus {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        let magnitude = d.magnitude
        if magnitude < 0.0001 || magnitude > 9_007_199_254_740_992 {
            return p + writeExponential(decimal.0, decimal.1, to: p) - out
        }
        return p + writeDecimal(decimal.0, decimal.1, to: p) - out
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
            (f, k) = schubfach(c: fraction, q: -1074, dk: 0, powers: powers)  // subnormal (not reached: see isSearched)
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

    /// floor(q * log10(2)), floor(q * log10(3/4 * 2)), floor(e * log2(10)).
    /// In `Int64`: the constants do not fit a 32-bit `Int` (watchOS's arm64_32).
    @inline(__always) static func floorLog10Pow2(_ q: Int) -> Int { Int(truncatingIfNeeded: (Int64(q) &* 661_971_961_083) &>> 41) }
    @inline(__always) static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        Int(truncatingIfNeeded: (Int64(q) &* 661_971_961_083 &- 274_743_187_321) &>> 41)
    }
    @inline(__always) static func floorLog2Pow10(_ e: Int) -> Int { Int(truncatingIfNeeded: (Int64(e) &* 913_124_641_741) &>> 38) }

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
        // ddd.ddd: the digits one byte on, then their first eight bytes
        // again with the point in its place (the digits' word edited in a
        // register: reading back bytes just stored as other words stalls).
        let leading = writeDigits(f, count: n, to: out + 1)
        if point < 8 {
            let shift = UInt64(8 &* point)
            let before = (1 &<< shift) &- 1
            store(leading & before | UInt64(UInt8(ascii: ".")) &<< shift | (leading & ~before) &<< 8, at: out)
        } else {
            var i = 0
            while i < point {
                out[i] = out[i &+ 1]
                i &+= 1
            }
            out[point] = UInt8(ascii: ".")
        }
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

    /// Appends the shortest texts of `a` and `b` (both finite) with a comma
    /// between (see ``JSONShortestDouble/writePair(_:_:to:powers:)``).
    @inline(__always)
    mutating func append(shortest a: Double, _ b: Double, powers: UnsafePointer<UInt64>) {
        reserve(2 &* JSONShortestDouble.maximumLength &+ 1)
        count &+= JSONShortestDouble.writePair(a, b, to: base + count, powers: powers)
    }
}
