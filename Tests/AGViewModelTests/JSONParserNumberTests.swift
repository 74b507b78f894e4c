import Foundation
import Testing
@testable import AGViewModel

@Suite("JSONParser: numbers")
struct JSONParserNumberTests {
    @Test func integersThatFitInt64AreExact() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(.min))
        #expect(try JSONValue(parsing: "505874924095815681") == .int(505874924095815681))
        #expect(try JSONValue(parsing: "-1") == .int(-1))
        #expect(try JSONValue(parsing: "0") == .int(0))
    }

    @Test(arguments: [
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "-99999999999999999999999999999999999999",
    ])
    func integersBeyondInt64KeepTheirExactText(text: String) throws {
        #expect(try JSONValue(parsing: text) == .bigInteger(text))
        #expect(try JSONValue(parsing: "[\(text)]") == [.bigInteger(text)])
        #expect(try JSONValue.bigInteger(text).jsonString() == text)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        for text in ["-0", "-0.0", "-0e5"] {
            guard case .double(let d) = try JSONValue(parsing: text) else {
                Issue.record("\(text) must be a double")
                continue
            }
            #expect(d == 0 && d.sign == .minus, "\(text)")
        }
    }

    @Test(arguments: [
        ("1.5", 1.5),
        ("1.0", 1.0),
        ("1e5", 1e5),
        ("1E+2", 100.0),
        ("1e-2", 0.01),
        ("0.1", 0.1),
        ("0.000001", 1e-6),
        ("-2.5e-3", -0.0025),
        ("5e-324", Double.leastNonzeroMagnitude),
        ("4.9406564584124654e-324", Double.leastNonzeroMagnitude),
        ("2.2250738585072014e-308", Double.leastNormalMagnitude),
        ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
        ("-1.7976931348623157e308", -Double.greatestFiniteMagnitude),
        ("1e22", 1e22),
        ("1e23", 1e23),
        ("9007199254740993.0", 9007199254740992.0),
        ("3.14159265358979323846264338327950288", Double.pi),
        ("100000000000000000000000e-3", 1e20),
        ("0.30000000000000004", 0.30000000000000004),
        ("1e-400", 0.0),
        ("123456789012345678901234567890e-10", 12345678901234567890.1234567890),
    ])
    func fractionsAndExponentsAreCorrectlyRoundedDoubles(text: String, expected: Double) throws {
        #expect(try JSONValue(parsing: text) == .double(expected))
    }

    @Test func doublesTooLargeAreRejected() throws {
        for text in ["1e400", "-1e400", "1e309", "1.8e308", "17976931348623159e292"] {
            let error = try #require(parseError(text), "\(text)")
            #expect(error.message.contains("too large for a double"))
            #expect(error.offset == 0)
        }
    }

    @Test func randomDecimalTextMatchesTheCLibrary() throws {
        // Exercises both the exact fast path and the strtod fallback.
        var random = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...20, using: &random)
            var mantissa = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<digits { mantissa += String(Int.random(in: 0...9, using: &random)) }
            let point = Int.random(in: 0...mantissa.count, using: &random)
            if point < mantissa.count && point > 0 {
                mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
            }
            let exponent = Int.random(in: -40...40, using: &random)
            let text = "\(mantissa)e\(exponent)"
            #expect(try JSONValue(parsing: text) == .double(Double(text)!), "\(text)")
        }
    }

    @Test func randomDoublesReadBackExactlyFromTheirShortestText() throws {
        var random = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<3000 {
            let d = Double(bitPattern: random.next())
            guard d.isFinite else { continue }
            let value = try JSONValue(parsing: JSONValue.double(d).jsonString())
            guard case .double(let back) = value else {
                Issue.record("\(d) did not read back as a double")
                continue
            }
            #expect(back.bitPattern == d.bitPattern, "\(d)")
        }
    }
}
