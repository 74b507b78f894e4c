import Foundation
import Testing
@testable import AGViewModel

/// The parser's double conversion against the standard library's exact
/// `Double(String)`, bit for bit, on random and adversarial decimal text.
@Suite("JSONParser: decimal to double conversion")
struct JSONDecimalConversionTests {
    /// Parses `text` and compares its bits with `Double(text)`.
    func expectSameBits(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let expected = Double(text) else {
            Issue.record("Double(\(text)) failed", sourceLocation: sourceLocation)
            return
        }
        guard expected.isFinite else {
            #expect(throws: JSONParseError.self, "\(text)", sourceLocation: sourceLocation) {
                try JSONValue(parsing: text)
            }
            return
        }
        do {
            let value = try JSONValue(parsing: text)
            guard case .double(let d) = value else {
                Issue.record("\(text) parsed as \(value), not a double", sourceLocation: sourceLocation)
                return
            }
            #expect(d.bitPattern == expected.bitPattern, "\(text): \(d) != \(expected)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(text): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `count` random decimal digits, the first non-zero.
    func randomDigits(_ count: Int, using random: inout SplitMix64) -> String {
        var digits = String(Int.random(in: 1...9, using: &random))
        for _ in 1..<max(count, 1) { digits += String(Int.random(in: 0...9, using: &random)) }
        return digits
    }

    @Test func randomMantissasAcrossTheWholeExponentRange() {
        var random = SplitMix64(seed: 0x5EED_D0B1)
        for _ in 0..<20_000 {
            let digits = randomDigits(Int.random(in: 1...24, using: &random), using: &random)
            let point = Int.random(in: 1...digits.count, using: &random)
            var text = digits
            if point < digits.count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            }
            let exponent = Int.random(in: -345...310, using: &random)
            text += "e\(exponent)"
            if Bool.random(using: &random) { text = "-" + text }
            expectSameBits(text)
        }
    }

    @Test func shortestTextOfRandomDoubles() {
        // Every double's shortest text, and the 17-digit text next to it.
        var random = SplitMix64(seed: 0x5EED_D0B2)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: random.next())
            guard d.isFinite else { continue }
            expectSameBits("\(d)")
            expectSameBits(String(format: "%.17e", d))
            expectSameBits(String(format: "%.19e", d))
        }
    }

    @Test func halfwayCasesBetweenAdjacentDoubles() {
        // The exact midpoint between two doubles (ties to even), and the
        // numbers just below and above it in the 20th-40th digit.
        var random = SplitMix64(seed: 0x5EED_D0B3)
        var samples: [Double] = [1, 2, 1e22, 1e23, 9007199254740992, 0.1, 1e-300, 1e300,
                                 Double.leastNormalMagnitude, Double.greatestFiniteMagnitude / 2]
        for _ in 0..<400 {
            samples.append(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
        }
        for d in samples where d.isFinite && d > 0 {
            let next = d.nextUp
            guard next.isFinite else { continue }
            // The midpoint as an exact decimal: (d + next) / 2 has at most
            // 1100 digits; Foundation's Decimal is not exact enough, so use
            // the 40-significant-digit text, which is the midpoint itself for
            // small exponents and a near-tie otherwise.
            let midpoint = d / 2 + next / 2
            for format in ["%.40e", "%.25e", "%.20e", "%.19e", "%.18e"] {
                expectSameBits(String(format: format, midpoint))
            }
        }
        // Exact ties with small mantissas: 2^53 + 1, + 3, and friends.
        for text in ["9007199254740993", "9007199254740995", "9007199254740993.0", "9007199254740993e0",
                     "90071992547409930e-1", "900719925474099300000e-5", "1.00000000000000011102230246251565404236316680908203125",
                     "1.00000000000000011102230246251565404236316680908203124",
                     "1.00000000000000011102230246251565404236316680908203126",
                     "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072013e-308",
                     "2.22507385850720138309e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
                     "2.4703282292062328e-324", "7.4109846876186982e-324", "1e-324", "3e-324",
                     "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
                     "179769313486231580793728971405301e276", "9007199254740992.5", "0.500000000000000166533453693773481063544750213623046875",
                     "3.0540316373077275e-300", "8.41e21", "5.0216813883093446e-308",
                     "7e-27", "7.2057594037927933e16", "1.448997445238699", "12345678901234567890",
                     "9999999999999999999e-342", "9999999999999999999e-343", "1e-342", "1e-343",
                     "18446744073709551615e0", "18446744073709551616e-1", "10000000000000000000000000000000000000001e-40"] {
            // Integer text stays an integer: test it as a fraction.
            let decimal = text.contains(".") || text.contains("e") ? text : text + ".0"
            expectSameBits(decimal)
            expectSameBits("-" + decimal)
        }
    }

    @Test func nineteenAndTwentyDigitMantissas() {
        var random = SplitMix64(seed: 0x5EED_D0B4)
        for _ in 0..<10_000 {
            let count = Int.random(in: 18...22, using: &random)
            var digits = randomDigits(count, using: &random)
            if Bool.random(using: &random) {
                // Runs of 9s and 0s that make the truncated mantissa carry.
                let run = Int.random(in: 1...count - 1, using: &random)
                let fill: Character = Bool.random(using: &random) ? "9" : "0"
                digits = String(digits.prefix(count - run)) + String(repeating: fill, count: run)
            }
            let exponent = Int.random(in: -330...290, using: &random)
            expectSameBits("\(digits.prefix(1)).\(digits.dropFirst())e\(exponent)")
            expectSameBits("\(digits)e\(exponent)")
        }
    }

    @Test func subnormalsAndTheEdgesOfTheRange() {
        var random = SplitMix64(seed: 0x5EED_D0B5)
        for _ in 0..<5_000 {
            let d = Double(bitPattern: random.next() & 0x000F_FFFF_FFFF_FFFF)  // subnormal
            expectSameBits("\(d)")
            expectSameBits(String(format: "%.17e", d))
            expectSameBits(String(format: "%.20e", d))
        }
        for exponent in [-400, -344, -343, -342, -341, -330, -325, -324, -323, -310, -308, -307,
                         300, 306, 307, 308, 309, 310, 400, 99999, -99999] {
            for mantissa in ["1", "2.5", "4.9406564584124654", "9.999999999999999999", "1.7976931348623157",
                             "0.0000000000000000000001", "123456789012345678901"] {
                expectSameBits("\(mantissa)e\(exponent)")
            }
        }
        expectSameBits("0e999999")
        expectSameBits("0.000e-999999")
        expectSameBits("0." + String(repeating: "0", count: 400) + "1")
        expectSameBits("1" + String(repeating: "0", count: 308) + ".0")
        expectSameBits("1" + String(repeating: "0", count: 309) + ".0")
        expectSameBits("0." + String(repeating: "9", count: 800))
    }
}
