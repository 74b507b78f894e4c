import Foundation
import Testing
@testable import AGViewModel

/// The writer's doubles against Swift's own `description` text, which the
/// writer has always produced: same bytes for every double.
@Suite("JSONWriter: double text")
struct JSONDoubleTextTests {
    func expectDescriptionText(_ d: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            #expect(try JSONValue.double(d).jsonString() == "\(d)", sourceLocation: sourceLocation)
            #expect(try JSONValue.array([.double(d), .int(1)]).jsonString() == "[\(d),1]", sourceLocation: sourceLocation)
            // Two doubles side by side are written as a pair: in a longer
            // array, and as a point (an array of doubles only), either side.
            #expect(try JSONValue.array([.double(d), .double(-d), .int(1)]).jsonString() == "[\(d),\(-d),1]",
                    sourceLocation: sourceLocation)
            let x = -65.613616999999977
            #expect(try JSONValue.array([[.double(d), 0.1], [.double(x), .double(d)]]).jsonString()
                    == "[[\(d),0.1],[\(x),\(d)]]", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(d): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func randomBitPatterns() {
        var random = SplitMix64(seed: 0x5EED_0D07)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: random.next())
            if d.isFinite { expectDescriptionText(d) }
        }
    }

    @Test func randomDecimalLookingValues() {
        // Values like coordinates and prices: few digits, many magnitudes.
        var random = SplitMix64(seed: 0x5EED_0D08)
        for _ in 0..<20_000 {
            let digits = Double(Int64.random(in: -99_999_999...99_999_999, using: &random))
            let scale = Double(sign: .plus, exponent: 0, significand: 1)
                * pow(10, Double(Int.random(in: -30...30, using: &random)))
            expectDescriptionText(digits * scale)
            expectDescriptionText(Double(Float(digits * scale)))
        }
    }

    @Test func edgeValues() {
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1e-5, 1e-4, 0.001, 1e15, 1e16,
                                1e17, 1e21, 1e22, 1e23, 9007199254740992, 9007199254740994, 18014398509481984,
                                Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude,
                                Double.leastNormalMagnitude, Double.leastNormalMagnitude.nextDown,
                                Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
                                Double.pi, Double.ulpOfOne, 123456789012345680, 2.2250738585072014e-308,
                                -65.613616999999977, 1.7976931348623157e308, 4.35, 2.675, 1e300, 1e-300]
        for exponent in -1074...1023 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values.append(power)
            values.append(power.nextUp)
            values.append(power.nextDown)
        }
        for power in -325...308 {
            let d = Double("1e\(power)")!
            values.append(d)
            values.append(d.nextUp)
            values.append(d.nextDown)
        }
        for d in values where d.isFinite { expectDescriptionText(d) }
    }

    /// Plain decimals with every split of up to 17 digits around the point
    /// (1 to 16 before it), where the writer moves the integer digits as
    /// words: each split, with random digits and with nines and zeros.
    @Test func everyPointPosition() {
        var random = SplitMix64(seed: 0x5EED_0D09)
        for before in 1...16 {
            for after in 1...(17 - before) {
                for trial in 0..<40 {
                    var text = ""
                    for i in 0..<(before + after) {
                        if i == before { text += "." }
                        let digit: UInt64 = switch trial {
                        case 0: 9
                        case 1: i == 0 || i == before + after - 1 ? 1 : 0
                        default: i == 0 ? 1 + random.next() % 9 : random.next() % 10
                        }
                        text += String(digit)
                    }
                    let d = Double(text)!
                    expectDescriptionText(d)
                    expectDescriptionText(-d)
                }
            }
        }
    }

    /// The writer's two shortest-digit algorithms, Dragonbox (most doubles)
    /// and Schubfach (powers of two, the smallest exponents), agree on every
    /// normal double that both handle.
    @Test func dragonboxAndSchubfachAgree() {
        var random = SplitMix64(seed: 0xD4A6_0B0C)
        var checked = 0
        for i in 0..<300_000 {
            var bits = random.next()
            if i % 2 == 1 {
                // Short decimals and their neighbours: where ties and the
                // shorter-digit boundary are decided.
                let d = Double(Int64(bitPattern: bits) >> 40) * 1e-6
                bits = (i % 4 == 1 ? d : d.nextUp).bitPattern
            }
            let fraction = bits & ((1 << 52) - 1)
            let biased = Int((bits >> 52) & 0x7FF)
            let q = biased - 1075
            guard biased != 0, biased != 0x7FF, fraction != 0,
                  q >= JSONShortestDouble.dragonboxSmallestExponent else { continue }
            let c = fraction | (1 << 52)
            var (f, k) = JSONShortestDouble.dragonbox(c: c, q: q)
            var (g, l) = JSONShortestDouble.schubfach(c: c, q: q, dk: 0)
            while f >= 10 && f % 10 == 0 { f /= 10; k += 1 }
            while g >= 10 && g % 10 == 0 { g /= 10; l += 1 }
            #expect(f == g && k == l, "\(Double(bitPattern: bits)): dragonbox \(f)e\(k), schubfach \(g)e\(l)")
            checked += 1
        }
        #expect(checked > 250_000)
    }
}
