extension JSONShortestDouble {
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
}
