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

    @Test("the ends of the Int64 range read as Int64 values, not as big-integer text")
    func theEndsOfTheInt64RangeAreInt64Values() throws {
        for (text, expected) in [("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
                                 ("9223372036854775806", Int64.max - 1), ("-9223372036854775807", Int64.min + 1)] {
            let value = try JSONValue(parsing: text)
            guard case .int(let n) = value else {
                Issue.record("\(text) parsed as \(value), not an Int64")
                continue
            }
            #expect(n == expected)
        }
        for text in ["9223372036854775808", "-9223372036854775809"] {
            let value = try JSONValue(parsing: text)
            guard case .bigInteger(let digits) = value else {
                Issue.record("\(text) parsed as \(value), not a big integer")
                continue
            }
            #expect(digits == text)
        }
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

    /// Leading fraction zeros and digits past the 19th count in the
    /// exponent, however many there are: a written exponent longer than any
    /// double's is not cut short while they could balance it.
    @Test func longDigitRunsBalanceLongExponents() throws {
        let zeros = String(repeating: "0", count: 999_999)
        #expect(try JSONValue(parsing: "0.\(zeros)1e1000000") == .double(1))
        #expect(try JSONValue(parsing: "-1\(zeros)e-1000000") == .double(-0.1))
        #expect(try JSONValue(parsing: "[1\(zeros)e-999999]") == [.double(1)])
        #expect(try JSONValue(parsing: "1e-99999999999999999999999999") == .double(0))
        #expect(parseError("1e99999999999999999999999999")?.message.contains("too large for a double") == true)
    }

    @Test func doublesTooLargeAreRejected() throws {
        for text in ["1e400", "-1e400", "1e309", "1.8e308", "17976931348623159e292"] {
            let error = try #require(parseError(text), "\(text)")
            #expect(error.message.contains("too large for a double"))
            #expect(error.offset == 0)
        }
    }

    @Test("a long number just past the largest double's rounding boundary is too large, one just before it is the largest double")
    func longNumbersAtTheLargestDoublesRoundingBoundary() throws {
        // The boundary is 2^1024 - 2^970 = 1.79769313486231580793728971405303415079934132710037826936...e308.
        for text in ["179769313486231580793728971405303415079934132710037827e255",
                     "1.79769313486231580793728971405303415079934132710037827e308",
                     "-1797693134862315807937289714053034150799341327100378269362e251"] {
            let error = try #require(parseError(text), "\(text)")
            #expect(error.message.contains("too large for a double"), "\(text)")
            #expect(error.offset == 0)
            #expect(parseError("[\(text)]") != nil, "\(text)")
        }
        for text in ["179769313486231580793728971405303415079934132710037826e255",
                     "1.79769313486231580793728971405303415079934132710037826e308"] {
            #expect(try JSONValue(parsing: text) == .double(.greatestFiniteMagnitude), "\(text)")
            #expect(try JSONValue(parsing: "-" + text) == .double(-.greatestFiniteMagnitude), "\(text)")
        }
    }

    @Test("a number too large for a double is named whole up to forty characters, then cut short")
    func tooLargeNumbersAreNamedUpToFortyCharacters() throws {
        let forty = "1" + String(repeating: "0", count: 35) + "e400"
        #expect(try #require(parseError(forty)).message
            == "number \(forty) is too large for a double (maximum about 1.8e308)")
        let fortyOne = "-" + forty
        #expect(try #require(parseError(fortyOne)).message
            == "number \(fortyOne.prefix(40))… is too large for a double (maximum about 1.8e308)")
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

    /// Digits are read eight at a time where they can be: runs of every
    /// length around multiples of eight, leading zeros, a run ending at the
    /// end of the input or at any other byte, give what the C library gives.
    @Test func digitRunsOfEveryLengthAndEnding() throws {
        var random = SplitMix64(seed: 0x5EED_0008)
        func digits(_ count: Int, firstNonZero: Bool) -> String {
            var text = ""
            for index in 0..<count {
                let low = index == 0 && firstNonZero ? 1 : 0
                text += String(Int.random(in: low...9, using: &random))
            }
            return text
        }
        for integerDigits in 1...26 {
            for fractionDigits in [0, 1, 7, 8, 9, 15, 16, 17, 24, 30] {
                for leadingZeros in [0, 1, 8, 12] where fractionDigits > 0 || leadingZeros == 0 {
                    let integer = integerDigits == 1 && Bool.random(using: &random)
                        ? "0" : digits(integerDigits, firstNonZero: true)
                    var text = integer
                    if fractionDigits > 0 {
                        text += "." + String(repeating: "0", count: leadingZeros) + digits(fractionDigits, firstNonZero: false)
                    }
                    if Bool.random(using: &random) { text += "e" + String(Int.random(in: -30...30, using: &random)) }
                    let negative = Bool.random(using: &random)
                    if negative { text = "-" + text }
                    let expected: JSONValue
                    if fractionDigits == 0 && !text.contains("e") {
                        if let exact = Int64(text) {
                            expected = exact == 0 && negative ? .double(-0.0) : .int(exact)
                        } else {
                            expected = .bigInteger(text)
                        }
                    } else {
                        expected = .double(Double(text)!)
                    }
                    // At the end of the input, then followed by each byte
                    // that may end a number in a document.
                    #expect(try JSONValue(parsing: text) == expected, "\(text)")
                    // From a buffer of exactly the text's size, so a read past
                    // the end shows under the address sanitizer.
                    let exact = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
                    defer { exact.deallocate() }
                    exact.copyBytes(from: text.utf8)
                    #expect(try JSONParser().parse(UnsafeRawBufferPointer(exact)) == expected, "\(text)")
                    #expect(try JSONValue(parsing: "[\(text)]") == .array([expected]), "\(text)")
                    #expect(try JSONValue(parsing: "[\(text),1]") == .array([expected, 1]), "\(text)")
                    #expect(try JSONValue(parsing: "{\"n\":\(text)}") == .object(["n": expected]), "\(text)")
                    #expect(try JSONValue(parsing: "\(text) \n") == expected, "\(text)")
                }
            }
        }
        // A ninth byte that is not a digit but looks close to one.
        for bad in ["12345678:", "1.12345678/", "1234567812345678a", "1.0000000x"] {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: bad) }
        }
    }

    @Test("a number exactly halfway between two doubles rounds to the even one, with up to four fraction digits")
    func exactTiesWithShortFractionsRoundToEven() throws {
        let cases: [(String, Double)] = [
            ("562949953421312.0625", 562949953421312.0),
            ("562949953421312.1875", 562949953421312.25),
            ("562949953421312.3125", 562949953421312.25),
            ("5629499534213120625e-4", 562949953421312.0),
            ("1125899906842624.125", 1125899906842624.0),
            ("1125899906842624.375", 1125899906842624.5),
            ("2251799813685248.25", 2251799813685248.0),
            ("4503599627370496.5", 4503599627370496.0),
            ("4503599627370497.5", 4503599627370498.0),
        ]
        for (text, expected) in cases {
            #expect(Double(text) == expected, "\(text)")
            #expect(try JSONValue(parsing: text) == .double(expected), "\(text)")
            #expect(try JSONValue(parsing: "[-\(text)]") == [.double(-expected)], "\(text)")
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
