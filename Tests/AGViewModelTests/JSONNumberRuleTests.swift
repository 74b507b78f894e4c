import Foundation
import Testing
@testable import AGViewModel

/// `true` when `a` and `b` hold the same cases all the way down (the
/// representation, which `==` ignores for numbers).
func sameRepresentation(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case let (.int(x), .int(y)): return x == y
    case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
    case let (.bigInteger(x), .bigInteger(y)): return x == y
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy { sameRepresentation($0, $1) }
    case let (.object(x), .object(y)):
        return x.keys == y.keys && zip(x.values, y.values).allSatisfy { sameRepresentation($0, $1) }
    default: return a == b && a.kind == b.kind
    }
}

@Suite("One number rule")
struct JSONNumberRuleTests {
    @Test func integerDoubleAndExponentSpellingsAreOneNumber() throws {
        let spellings = ["1", "1.0", "1e0", "10e-1", "0.1e1", "1.000"]
        let values = try spellings.map { try JSONValue(parsing: $0) }
        for value in values {
            #expect(value == values[0])
            #expect(value.hashValue == values[0].hashValue)
            #expect(value == 1)
            #expect(value == 1.0)
        }
        #expect(Set(values).count == 1)
        // The representation is kept for writing back.
        #expect(try values[0].jsonString() == "1")
        #expect(try values[1].jsonString() == "1.0")
    }

    @Test func differentNumbersStayDifferent() {
        #expect(JSONValue.int(1) != .double(1.5))
        #expect(JSONValue.int(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
        #expect(JSONValue.int(.max) != .double(0x1p63))
        // Beyond 2^53 a double is the decimal of its shortest text
        // (9.223372036854776e+18), as JSON writes it, not its binary value.
        #expect(JSONValue.bigInteger("9223372036854776000") == .double(0x1p63))
        #expect(JSONValue.bigInteger("9223372036854775808") != .double(0x1p63))
        #expect(JSONValue.int(9_007_199_254_740_992) == .double(0x1p53))
        #expect(JSONValue.int(1) != .string("1"))
        #expect(JSONValue.int(0) != .bool(false))
        #expect(JSONValue.int(1) != .bool(true))
    }

    @Test func negativeZeroEqualsZeroButKeepsItsSign() throws {
        let negative = try JSONValue(parsing: "-0.0")
        #expect(negative == 0)
        #expect(negative == .double(0))
        #expect(negative.hashValue == JSONValue.int(0).hashValue)
        #expect(try negative.jsonString() == "-0.0")
        #expect(try JSONValue(parsing: "-0") == 0)
    }

    @Test func bigIntegersCompareByValue() {
        #expect(JSONValue.bigInteger("18446744073709551615") == JSONValue(UInt64.max))
        #expect(JSONValue.bigInteger("100000000000000000000") == .double(1e20))
        #expect(JSONValue.bigInteger("100000000000000000000").hashValue == JSONValue.double(1e20).hashValue)
        #expect(JSONValue.bigInteger("-100000000000000000000") == .double(-1e20))
        #expect(JSONValue.bigInteger("100000000000000000001") != .double(1e20))
        // Text that is not canonical still means its number.
        #expect(JSONValue.bigInteger("5") == 5)
        #expect(JSONValue.bigInteger("-0") == 0)
        #expect(JSONValue.bigInteger("0005") == .int(5))
        #expect(JSONValue.bigInteger("5").hashValue == JSONValue.int(5).hashValue)
    }

    @Test func exactDigitsOfLargeDoubles() {
        #expect(JSONNumber.exactDigits(of: 0x1p63) == "9223372036854775808")
        #expect(JSONNumber.exactDigits(of: 1e20) == "100000000000000000000")
        #expect(JSONNumber.exactDigits(of: 0x1p100) == "1267650600228229401496703205376")
        #expect(JSONNumber.exactDigits(of: 1e23) == "99999999999999991611392")
    }

    @Test func nanEqualsItselfSoSetsWork() {
        let nan = JSONValue.double(.nan)
        #expect(nan == nan)
        #expect(Set([nan, nan]).count == 1)
        #expect(nan != .double(1))
    }

    @Test func hashingAgreesWithEqualityOnRandomNumbers() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let i = Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random)
            // A double joins when its shortest text spells i (always below 2^53).
            let double = Double(exactly: i).flatMap { d in
                (JSONNumber.decimalIntegerText(of: d) ?? String(i)) == String(i) ? d : nil
            }
            let forms: [JSONValue] = [.int(i), .bigInteger(String(i))] + (double.map { [JSONValue.double($0)] } ?? [])
            for a in forms {
                for b in forms {
                    #expect(a == b)
                    #expect(a.hashValue == b.hashValue)
                }
            }
        }
    }

    /// `==` makes numbers interchangeable, so an integer read must not tell
    /// equal numbers apart: a double of 2^53 or more reads as the integer its
    /// shortest text spells (the integer it is `==` to), not its binary value.
    @Test func equalNumbersReadAsTheSameInteger() throws {
        let double = try JSONValue(parsing: "1.9011924315268797e18")
        let integer = try JSONValue(parsing: "1901192431526879700")
        #expect(double == integer)
        #expect(double.int64Value == 1_901_192_431_526_879_700)
        #expect(double.uint64Value == 1_901_192_431_526_879_700)
        #expect(JSONValue.array([double]).int64(at: "[0]") == 1_901_192_431_526_879_700)
        #expect(JSONValue.double(-0x1p62).int64Value == -4_611_686_018_427_388_000)
        // 2^63 spells 9223372036854776000: beyond Int64, within UInt64.
        #expect(JSONValue.double(0x1p63).int64Value == nil)
        #expect(JSONValue.double(0x1p63).uint64Value == 9_223_372_036_854_776_000)
        #expect(JSONValue.double(0x1p64).uint64Value == nil)
        // -2^63 spells -9223372036854776000, below Int64.min: not == .int(.min).
        #expect(JSONValue.double(-0x1p63).int64Value == nil)
        #expect(JSONValue.double(-0x1p63) != .int(.min))
        #expect(JSONValue.double(-0x1p60).uint64Value == nil)
        #expect(JSONValue.double(1e300).int64Value == nil)

        var random = SplitMix64(seed: 77)
        for _ in 0..<5000 {
            // Integral doubles of every magnitude up to 2^64, both signs.
            let magnitude = Double(random.next() >> Int.random(in: 0...63, using: &random))
            let d = random.next() & 1 == 0 ? magnitude : -magnitude
            let value = JSONValue.double(d)
            if let i = value.int64Value {
                #expect(JSONValue.int(i) == value, "\(d)")
                #expect(JSONValue.int(i).hashValue == value.hashValue, "\(d)")
            } else {
                #expect(d.magnitude >= 0x1p63, "\(d) is in Int64's range but read as nil")
            }
            if let u = value.uint64Value {
                #expect(JSONValue(u) == value, "\(d)")
            } else {
                #expect(d < 0 || d >= 0x1p64, "\(d) is in UInt64's range but read as nil")
            }
        }
    }

    @Test func orderingComparesNumbersAcrossCases() {
        #expect(JSONValue.int(1) < .double(1.5))
        #expect(JSONValue.double(1.5) < .int(2))
        #expect(!(JSONValue.double(2) < .int(2)))
        #expect(JSONValue.double(2) <= .int(2))
        #expect(JSONValue.int(.max) < .bigInteger("9223372036854775808"))
        #expect(JSONValue.bigInteger("-9223372036854775809") < .int(.min))
        #expect(JSONValue.bigInteger("100000000000000000001") > .double(1e20))
        #expect(JSONValue.string("abc") < "abd")
        #expect(!(JSONValue.bool(false) < .bool(true)))
        #expect(JSONValue.bool(true) <= .bool(true))
        #expect(!(JSONValue.int(1) < "2"))
        #expect([JSONValue.int(3), .double(1.5), .bigInteger("99999999999999999999")].sorted(by: <)
                == [1.5, 3, .bigInteger("99999999999999999999")])
        // Beyond the doubles' range, by sign.
        let huge = JSONValue.bigInteger("1" + String(repeating: "0", count: 400))
        let negativeHuge = JSONValue.bigInteger("-1" + String(repeating: "0", count: 400))
        #expect(huge > 5 && !(huge < 5) && huge > 1e308 && !(huge < 1.5))
        #expect(negativeHuge < -5 && !(negativeHuge > -5) && negativeHuge < huge)
        #expect(huge < .bigInteger("2" + String(repeating: "0", count: 400)))
        #expect([huge, 3, 0.5, negativeHuge].sorted(by: <) == [negativeHuge, 0.5, 3, huge])
        #expect(huge < .double(.infinity) && !(huge > .double(.infinity)))
        #expect(negativeHuge > .double(-.infinity) && .double(-.infinity) < negativeHuge)
        // NaN orders with nothing.
        let nan = JSONValue.double(.nan)
        for other: JSONValue in [5.0, 1, nan, .bigInteger("99999999999999999999")] {
            #expect(!(nan < other) && !(nan > other) && !(other < nan) && !(other > nan))
        }
    }

    /// Integer reads of numeric strings read the digits, never a rounded
    /// double: no truncation, no clamping, exact past 2^53.
    @Test func integersFromStringsAreExact() {
        let document: JSONValue = [
            "tiny": "1e-400", "fraction": "4503599627370496.5", "belowMin": "-9223372036854775809",
            "exact": "9007199254740993.0", "unsignedMax": "18446744073709551615.0", "hex": "0x10", "half": "1.5",
            "whole": "3.0", "exponent": "1e3", "negativeZero": "-0.0", "plus": "+7", "huge": "1e20", "text": "12abc",
        ]
        #expect(document.int(at: "tiny") == nil)
        #expect(document.int(at: "fraction") == nil)
        #expect(document.int64(at: "belowMin") == nil)
        #expect(document.int64(at: "exact") == 9_007_199_254_740_993)
        #expect(document.uint64(at: "unsignedMax") == .max)
        #expect(document.int(at: "hex") == nil && document.int(at: "half") == nil && document.int(at: "text") == nil)
        #expect(document.int(at: "whole") == 3 && document.int(at: "exponent") == 1000)
        #expect(document.int(at: "negativeZero") == 0 && document.int(at: "plus") == 7)
        #expect(document.int64(at: "huge") == nil && document.uint64(at: "huge") == nil)
        #expect(UInt64.read(from: "1e19") == 10_000_000_000_000_000_000)
        // Doubles read decimal text only.
        #expect(document.double(at: "hex") == nil && Double.read(from: "0x1p3") == nil && Double.read(from: "infinity") == nil)
        #expect(document.double(at: "half") == 1.5 && Double.read(from: ".5") == 0.5 && Double.read(from: "-2e-3") == -0.002)
    }

    /// A long run of digits balances a long exponent: the exponent is
    /// never cut short while the digits could still bring it back.
    @Test func longDigitRunsBalanceLongExponents() {
        let zeros = String(repeating: "0", count: 100_000)
        let tenth = "1\(zeros)e-100001", one = "1\(zeros)0e-100001", alsoOne = "0.\(zeros)1e100001"
        #expect(Int64.read(from: .string(tenth)) == nil)
        #expect(Int64.read(from: .string(one)) == 1)
        #expect(Int64.read(from: .string(alsoOne)) == 1)
        #expect(UInt64.read(from: .string(alsoOne)) == 1)
        #expect(Int64.read(from: .string("1e99999999999999999999999999")) == nil)
        #expect(Int64.read(from: .string("0e99999999999999999999999999")) == 0)
    }

    @Test func codableRoundTripsAreEqual() throws {
        let values: [JSONValue] = [
            2.0, -0.0, [1.0], ["price": 35.0], 35, 1e300, 0.1, .int(.min), .int(.max),
            JSONValue(UInt64.max), .bigInteger("-9223372036854775809"),
            .bigInteger("123456789012345678901234567890"), ["a": [1, 2.5, "x", nil, true]],
            // 38 digits that round to 1e38 as a double, and 1e38 itself.
            .bigInteger("-99999999999999999999999999999999999999"), .bigInteger("99999999999999999999999999999999999999"), 1e38,
        ]
        for value in values {
            let data = try JSONEncoder().encode(value)
            let back = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(back == value, "\(value) came back as \(back)")
            // Foundation's text parses to the same value with our parser.
            #expect(try JSONValue(parsing: data) == value)
        }
    }

    @Test func anIntegerBeyondDoublesRangeCannotBeEncoded() throws {
        let huge = JSONValue.bigInteger("1" + String(repeating: "0", count: 400))
        #expect {
            try JSONEncoder().encode(["id": huge] as JSONValue)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["id"] && context.debugDescription.contains("401 digits")
        }
        // Written by the library's own writer, it is exact.
        #expect(try JSONValue(parsing: huge.jsonString()) == huge)
    }

    @Test func decoderAndParserAgreeOnTheSameDocument() throws {
        let text = #"{"price": 35.0, "n": 1e2, "big": 18446744073709551615, "neg": -0.0, "list": [1.0, 2]}"#
        let parsed = try JSONValue(parsing: text)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(parsed == decoded)
        #expect(decoded["big"] == .bigInteger("18446744073709551615"))
    }

    @Test func literalsAgreeWithTheParser() throws {
        let literal: JSONValue = ["a": 1.0, "b": 2, "c": [0.5]]
        #expect(literal == (try JSONValue(parsing: #"{"a": 1, "b": 2.0, "c": [5e-1]}"#)))
    }
}

extension JSONNumberRuleTests {
    @Test("ordering is strict between equal numbers and holds at the ends of the ranges")
    func orderingAtTheEdges() {
        #expect(!(JSONValue.int(2) < .int(2)) && !(JSONValue.int(2) > .int(2)))
        #expect(JSONValue.int(2) <= .int(2) && JSONValue.int(2) >= .int(2))
        #expect(JSONValue.double(2) >= .int(2) && JSONValue.int(3) >= .double(2.5))
        #expect(JSONValue.string("a") >= "a" && !(JSONValue.string("a") >= "b"))
        #expect(JSONValue.int(.max) < .double(.infinity) && JSONValue.double(.infinity) > .int(5))
        #expect(JSONValue.double(-.infinity) < .int(.min))
        // Big integers that round to the same double order by their digits.
        #expect(JSONValue.bigInteger("99999999999999999999") < .bigInteger("100000000000000000000"))
        #expect(JSONValue.bigInteger("-100000000000000000000") < .bigInteger("-99999999999999999999"))
    }

    @Test("big integer text in the Int64 range, with a sign or leading zeros, is the same integer")
    func bigIntegerTextInRangeIsTheInteger() {
        let min = JSONValue.bigInteger("-9223372036854775808")
        #expect(min == .int(.min))
        #expect(min.hashValue == JSONValue.int(.min).hashValue)
        let padded = JSONValue.bigInteger("000000000000000000000005")
        #expect(padded == 5)
        #expect(padded.hashValue == JSONValue.int(5).hashValue)
    }

    @Test("every NaN hashes alike, as every NaN is equal")
    func nanPayloadsHashAlike() {
        let nan = JSONValue.double(.nan), negative = JSONValue.double(-.nan)
        let payload = JSONValue.double(Double(nan: 7, signaling: false))
        #expect(nan == negative && nan == payload)
        #expect(nan.hashValue == negative.hashValue && nan.hashValue == payload.hashValue)
        #expect(Set([nan, negative, payload]).count == 1)
    }
}

extension JSONNumberRuleTests {
    /// An integer of more digits than `Decimal` holds is encoded as the
    /// nearest double, never as another integer.
    @Test func integersLongerThanDecimalsAreEncodedAsTheNearestDouble() throws {
        for text in ["999999999999999999999999999999999999999", "400000000000000000000000000000000000001"] {
            let data = try JSONEncoder().encode([JSONValue.bigInteger(text)] as JSONValue)
            #expect(try JSONValue(parsing: data) == [.double(Double(text)!)], "\(text)")
            #expect(try JSONDecoder().decode(JSONValue.self, from: data) == [.double(Double(text)!)], "\(text)")
        }
    }

    /// Big integer text in the `Int64` range is encoded as that integer,
    /// so it comes back as the integer through property-list coders too.
    @Test func bigIntegerTextInTheInt64RangeIsEncodedAsAnInteger() throws {
        for text in ["-5", "-007", "-9223372036854775808"] {
            let value: JSONValue = ["n": .bigInteger(text)]
            let data = try PropertyListEncoder().encode(value)
            let decoded = try PropertyListDecoder().decode(JSONValue.self, from: data)
            #expect(decoded["n"]?.int64Value == Int64(text), "\(text) came back as \(decoded)")
        }
    }
}
