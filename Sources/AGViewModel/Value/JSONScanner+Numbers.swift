/// Number scanning: exact integers, big-integer text, and correctly rounded
/// doubles (Clinger's exact fast path, then Eisel-Lemire on the scanned
/// digits; the standard library's conversion only when neither can decide).
extension JSONScanner {
    /// Exact powers of ten representable in a `Double` (10^0 ... 10^22).
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses the number at `pos` following the RFC 8259 grammar
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(__always)
    mutating func parseNumber() throws(JSONScanFailure) -> JSONValue {
        let start = pos
        var p = pos
        let negative = base[p] == UInt8(ascii: "-")
        if negative {
            p += 1
            guard p < count else {
                throw JSONScanFailure(offset: p, message: "unexpected end of input, expected a digit after '-'")
            }
        }
        // Integer part. Up to 19 digits always fit in UInt64.
        var mantissa: UInt64 = 0
        var digits = 0            // significant digits read into `mantissa` or dropped
        var droppedDigits = 0     // integer digits that did not fit
        var droppedNonZero = false  // some digit that did not fit is not 0
        let first = base[p]
        if first == UInt8(ascii: "0") {
            p += 1
            if p < count, base[p] &- UInt8(ascii: "0") < 10 {
                throw JSONScanFailure(offset: p - 1, message: "leading zeros are not allowed in numbers")
            }
        } else if first &- UInt8(ascii: "1") < 9 {
            while digits &+ 8 <= 19, let eight = eightDigits(at: p) {
                mantissa = mantissa &* 100_000_000 &+ eight
                digits &+= 8
                p &+= 8
            }
            if digits &+ 4 <= 19, let four = fourDigits(at: p) {
                mantissa = mantissa &* 10_000 &+ four
                digits &+= 4
                p &+= 4
            }
            while p < count {
                let d = base[p] &- UInt8(ascii: "0")
                if d >= 10 { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                } else {
                    droppedDigits += 1
                    droppedNonZero = droppedNonZero || d != 0
                }
                digits += 1
                p += 1
            }
        } else {
            if negative && hasPrefix("Infinity", at: p) {
                throw JSONScanFailure(offset: start, message: "-Infinity is not valid JSON")
            }
            throw JSONScanFailure(offset: p, message: "expected a digit after '-', found \(describeByte(at: p))")
        }
        let integerEnd = p

        // Fraction and exponent.
        var isInteger = true
        var exponent = 0          // power of ten to apply to `mantissa`
        exponent += droppedDigits
        if p < count && base[p] == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            let fractionStart = p
            if digits == 0 {
                // Leading zeros of 0.000123 are not significant; past them,
                // every digit is.
                while p < count && base[p] == UInt8(ascii: "0") {
                    exponent -= 1
                    p &+= 1
                }
            }
            while digits &+ 8 <= 19, let eight = eightDigits(at: p) {
                mantissa = mantissa &* 100_000_000 &+ eight
                digits &+= 8
                exponent &-= 8
                p &+= 8
            }
            if digits &+ 4 <= 19, let four = fourDigits(at: p) {
                mantissa = mantissa &* 10_000 &+ four
                digits &+= 4
                exponent &-= 4
                p &+= 4
            }
            while p < count {
                let d = base[p] &- UInt8(ascii: "0")
                if d >= 10 { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                    exponent -= 1
                } else {
                    digits += 1
                    droppedNonZero = droppedNonZero || d != 0
                }
                p += 1
            }
            if p == fractionStart {
                if p >= count {
                    throw JSONScanFailure(offset: p, message: "unexpected end of input, expected a digit after the decimal point")
                }
                throw JSONScanFailure(offset: p, message: "expected a digit after the decimal point, found \(describeByte(at: p))")
            }
        }
        if p < count && (base[p] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            p += 1
            var exponentNegative = false
            if p < count && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) {
                exponentNegative = base[p] == UInt8(ascii: "-")
                p += 1
            }
            let exponentStart = p
            var written = 0
            while p < count {
                let d = base[p] &- UInt8(ascii: "0")
                if d >= 10 { break }
                // Saturates far beyond any double and any input's length:
                // the exponent also counts leading fraction zeros and
                // dropped digits, which can be as many as the input has.
                if written < NumericText.exponentLimit { written = written &* 10 &+ Int(d) }
                p += 1
            }
            if p == exponentStart {
                if p >= count {
                    throw JSONScanFailure(offset: p, message: "unexpected end of input, expected a digit in the exponent")
                }
                throw JSONScanFailure(offset: p, message: "expected a digit in the exponent, found \(describeByte(at: p))")
            }
            exponent += exponentNegative ? -written : written
        }
        pos = p

        if isInteger {
            if digits <= 19 {
                if negative {
                    if mantissa == 0 { return .double(-0.0) }
                    if mantissa <= UInt64(Int64.max) + 1 { return .int(Int64(bitPattern: 0 &- mantissa)) }
                } else if mantissa <= UInt64(Int64.max) {
                    return .int(Int64(mantissa))
                }
            }
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: integerEnd - start), as: UTF8.self)
            return .bigInteger(text)
        }

        // Clinger's fast path: an exactly representable mantissa times an
        // exactly representable power of ten rounds correctly in one step.
        if digits <= 19 && droppedDigits == 0 && mantissa <= (1 << 53) {
            if mantissa == 0 { return .double(negative ? -0.0 : 0.0) }
            if exponent >= -22 && exponent <= 22 {
                var d = Double(mantissa)
                if exponent < 0 {
                    d /= Self.exactPowersOfTen[-exponent]
                } else {
                    d *= Self.exactPowersOfTen[exponent]
                }
                return .double(negative ? -d : d)
            }
        }
        let table: UnsafePointer<UInt64>
        if let loaded = powersOfFive {
            table = loaded
        } else {
            table = JSONDecimalConversion.powersOfFive
            powersOfFive = table
        }
        if let d = JSONDecimalConversion.double(mantissa: mantissa, powerOfTen: exponent, table: table) {
            if !droppedNonZero
                || JSONDecimalConversion.double(mantissa: mantissa &+ 1, powerOfTen: exponent, table: table) == d {
                // Digits dropped beyond the 19th only matter when they could
                // move the value across a rounding boundary: when the
                // truncated and the rounded-up mantissa agree, so does the
                // full one.
                if d.isFinite { return .double(negative ? -d : d) }
                throw tooLarge(start: start, end: p)
            }
        }
        return .double(try slowDouble(start: start, end: p))
    }

    /// The value of the eight bytes at `p` if they are all decimal digits
    /// (the first most significant), else `nil`.
    ///
    /// One test and three multiplications instead of eight steps: adding
    /// 0x46 sets a byte's high bit when it is above `9`, subtracting 0x30
    /// when it is below `0` (a carry or borrow across bytes comes only from
    /// a byte that is flagged itself). The digits are then combined in
    /// pairs, the pairs in fours, and the fours into the result.
    @inline(__always)
    func eightDigits(at p: Int) -> UInt64? {
        guard p &+ 8 <= count else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
        guard ((word &+ 0x4646_4646_4646_4646) | (word &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080 == 0 else {
            return nil
        }
        var value = word &- 0x3030_3030_3030_3030
        // Each 16-bit lane: 10 * first digit + second digit.
        value = value &* 10 &+ (value >> 8)
        // The pairs of lanes 0 and 2 times 10^6 and 100, those of lanes 1
        // and 3 times 10^4 and 1, summed in the high 32 bits.
        let pairs: UInt64 = 0x0000_00FF_0000_00FF
        value = ((value & pairs) &* (100 &+ (1_000_000 << 32))
            &+ ((value >> 16) & pairs) &* (1 &+ (10_000 << 32))) >> 32
        return value & 0xFFFF_FFFF
    }

    /// The value of the four bytes at `p` if they are all decimal digits,
    /// else `nil`: ``eightDigits(at:)`` on half a word.
    @inline(__always)
    func fourDigits(at p: Int) -> UInt64? {
        guard p &+ 4 <= count else { return nil }
        let word = UInt32(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt32.self))
        guard ((word &+ 0x4646_4646) | (word &- 0x3030_3030)) & 0x8080_8080 == 0 else { return nil }
        var value = word &- 0x3030_3030
        value = value &* 10 &+ (value >> 8)
        return UInt64(value & 0xFF) &* 100 &+ UInt64((value >> 16) & 0xFF)
    }

    /// The error for a number beyond the double range.
    func tooLarge(start: Int, end: Int) -> JSONScanFailure {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return JSONScanFailure(offset: start, message:
            "number \(shown) is too large for a double (maximum about 1.8e308)")
    }

    /// Converts the number text exactly with the standard library, for the
    /// rare values the fast conversions cannot decide, and rejects values
    /// beyond the double range.
    func slowDouble(start: Int, end: Int) throws(JSONScanFailure) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        guard let d = Double(text) else {
            throw JSONScanFailure(offset: start, message: "invalid number '\(text)'")
        }
        guard d.isFinite else { throw tooLarge(start: start, end: end) }
        return d
    }
}
