extension JSONShortestDouble {
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
}
