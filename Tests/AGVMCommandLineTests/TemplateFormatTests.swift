import AGViewModel
import Foundation
import Testing

/// Template placeholders with formats, through the public spec API.
@Suite("specs: number and date formats in templates")
struct TemplateFormatTests {
    func render(_ template: String, _ element: JSONValue) throws -> JSONValue? {
        let spec = try PackagingSpec(json: ["fields": [["key": "text", "template": .string(template)]]])
        let result = try SpecPackager(spec: spec).package(document: [element])
        return result.items.first?["text"]
    }

    @Test(arguments: [
        ("{n|fixed:2} EUR", 34.9, "34.90 EUR"),
        ("{n|fixed:0}", 2.5, "3"),
        ("{n|fixed:1}", -0.04, "0.0"),
        ("{n|grouped}", 1_234_567, "1,234,567"),
        ("{n|grouped:2}", 1234.5, "1,234.50"),
        ("{n|grouped}", -1234, "-1,234"),
        ("{n|percent}", 0.125, "13%"),
        ("{n|percent:1}", 0.125, "12.5%"),
        ("{n|percent}", 12, "1,200%"),
        ("{n|fixed:2}", 0.05, "0.05"),
        ("{n|fixed:2}", -0.004, "0.00"),
        ("{n|fixed:0}", -2.5, "-3"),
        ("{n|fixed:3}", -0.0625, "-0.063"),
        // Halves round away from zero at any size, not to even.
        ("{n|fixed:0}", 1_000_000_000_000_000.5, "1000000000000001"),
        ("{n|fixed:1}", 100_000_000_000_000.25, "100000000000000.3"),
        ("{n|grouped:1}", -100_000_000_000_000.25, "-100,000,000,000,000.3"),
        ("{n|fixed:0}", 1e20, "100000000000000000000"),
        ("{n|grouped:2}", 999_999.995_117_187_5, "1,000,000.00"),
        // The halves of the number as written (the shortest text that reads
        // back as the double, as ICU's formatters read doubles), although
        // the double nearest each is a little below it.
        ("{n|grouped:2}", 999_999.995, "1,000,000.00"),
        ("{n|fixed:2}", 2.675, "2.68"),
        ("{n|fixed:2}", 1.005, "1.01"),
        ("{n|fixed:1}", 1.45, "1.5"),
        ("{n|grouped:2}", 8.345, "8.35"),
        ("{n|percent}", 0.285, "29%"),
        ("{n|percent:1}", 0.0005, "0.1%"),
        ("{n|fixed:2}", 0.004_999, "0.00"),
        ("{n|fixed:3}", Double.leastNonzeroMagnitude, "0.000"),
        ("{n|fixed:0}", 0.5, "1"),
        ("{n|fixed:2}", 99.995, "100.00"),
        // Past 15 digits the text is the double's shortest one.
        ("{n|fixed:6}", 9_000_000_000_000.0078125, "9000000000000.008000"),
    ] as [(String, Double, String)])
    func numbers(template: String, value: Double, expected: String) throws {
        let json: JSONValue = value == value.rounded() && abs(value) < 1e15 ? .int(Int64(value)) : .double(value)
        #expect(try render(template, ["n": json]) == .string(expected))
    }

    /// Random decimals of up to 15 significant digits (what a double keeps
    /// exactly as text) round as their text does, halves away from zero.
    @Test func decimalsRoundAsWritten() throws {
        var state: UInt64 = 0x7E57_AB1E
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0 ..< 3_000 {
            let wholeDigits = next(8), fractionDigits = 1 + next(15 - wholeDigits)
            let wholeRandom: String = (0 ..< wholeDigits).map { _ in String(next(10)) }.joined()
            let whole = wholeRandom.drop { (c: Character) in c == "0" }
            let fraction = (0 ..< fractionDigits).map { _ in String(next(10)) }.joined()
            let negative = next(2) == 0
            let decimals = min(next(fractionDigits + 1), 12)
            let text = (negative ? "-" : "") + (whole.isEmpty ? "0" : String(whole)) + "." + fraction
            // Decimal rounding of the text: keep `decimals` digits, then 5+ rounds up.
            var digits = Array((whole.isEmpty ? "0" : String(whole)) + fraction.prefix(decimals)).map { Int(String($0))! }
            if decimals < fraction.count, Int(String(Array(fraction)[decimals]))! >= 5 {
                var i = digits.count - 1
                while i >= 0 && digits[i] == 9 { digits[i] = 0; i -= 1 }
                if i >= 0 { digits[i] += 1 } else { digits.insert(1, at: 0) }
            }
            let wholeCount = digits.count - decimals
            let wholeJoined: String = digits.prefix(wholeCount).map { String($0) }.joined()
            let wholeText = String(wholeJoined.drop { (c: Character) in c == "0" })
            let fractionText = digits.suffix(decimals).map { String($0) }.joined()
            let isZero = digits.allSatisfy { $0 == 0 }
            let expected = (negative && !isZero ? "-" : "") + (wholeText.isEmpty ? "0" : wholeText)
                + (decimals > 0 ? "." + fractionText : "")
            let value = try #require(Double(text))
            #expect(try render("{n|fixed:\(decimals)}", ["n": .double(value)]) == .string(expected), "\(text) fixed:\(decimals)")
        }
    }

    @Test func spacesAroundThePathAndTheFormatAreIgnored() throws {
        #expect(try render("{ n | fixed:2 }", ["n": 1.5]) == .string("1.50"))
        #expect(try render("{n |fixed:2}", ["n": 1.5]) == .string("1.50"))
        #expect(try render("{ n }", ["n": "x"]) == .string("x"))
    }

    @Test func numericStringsAreNumbersAndBigIntegersAreExact() throws {
        #expect(try render("{n|fixed:2}", ["n": "3.14159"]) == .string("3.14"))
        #expect(try render("{n|fixed:2}", ["n": "2.675"]) == .string("2.68"))
        #expect(try render("{n|grouped}", ["n": .int(9_007_199_254_740_993)]) == .string("9,007,199,254,740,993"))
        #expect(try render("{n|fixed:0}", ["n": .int(9_007_199_254_740_993)]) == .string("9007199254740993"))
        #expect(try render("{n|grouped:2}", ["n": .int(-9_007_199_254_740_993)]) == .string("-9,007,199,254,740,993.00"))
        #expect(try render("{n|grouped}", ["n": .bigInteger("12345678901234567890")]) == .string("12,345,678,901,234,567,890"))
        #expect(try render("{n|fixed:1}", ["n": .bigInteger("-12345678901234567890")]) == .string("-12345678901234567890.0"))
        // Integers sent as strings (`id_str`) are exact too.
        #expect(try render("{n|grouped}", ["n": "9007199254740993"]) == .string("9,007,199,254,740,993"))
        #expect(try render("{n|fixed:2}", ["n": "12345678901234567890"]) == .string("12345678901234567890.00"))
        #expect(try render("{n|grouped}", ["n": "-000123"]) == .string("-123"))
        #expect(try render("{n|fixed:0}", ["n": "-0"]) == .string("0"))
        // Percentages of integers too: the digits and two zeros.
        #expect(try render("{n|percent:1}", ["n": .int(123_456_789_012_345_678)]) == .string("12,345,678,901,234,567,800.0%"))
        #expect(try render("{n|percent}", ["n": .bigInteger("-12345678901234567890")]) == .string("-1,234,567,890,123,456,789,000%"))
        #expect(try render("{n|percent}", ["n": "0"]) == .string("0%"))
        #expect(try render("{n|percent}", ["n": .int(-3)]) == .string("-300%"))
        // Grouping takes time in proportion to the digits, however many.
        let digits = "1" + String(repeating: "0", count: 99_999)
        let grouped = try #require(try render("{n|grouped}", ["n": .bigInteger(digits)])?.stringValue)
        #expect(grouped.utf8.count == 100_000 + 33_333)
        #expect(grouped.hasPrefix("1,000,000,"))
    }

    @Test(arguments: [
        ("{d|date}", "2024-03-12", "Mar 12, 2024"),
        ("{d|date:long}", "2024-03-12", "March 12, 2024"),
        ("{d|date:full}", "2024-03-12", "Tuesday, March 12, 2024"),
        ("{d|date:full}", "2000-02-29", "Tuesday, February 29, 2000"),
        ("{d|date:long}", "2024-12-31", "December 31, 2024"),
        ("{d|date:full}", "0000-01-01", "Saturday, January 1, 0"),
        ("{d|date:full}", "0001-01-01", "Monday, January 1, 1"),
        ("{d|date:iso}", "2025-01-14T09:12:44Z", "2025-01-14"),
        ("{d|date:iso}", "0099-01-05", "0099-01-05"),
        ("{d|date} {d|time}", "2025-01-14T09:12:44Z", "Jan 14, 2025 09:12"),
        ("{d|time:medium}", "2025-01-14 23:05:09.123+01:00", "23:05:09"),
        ("{d|time:medium}", "2016-12-31T23:59:60Z", "23:59:60"),
        ("{d|time}", "2025-01-14T23:05-0530", "23:05"),
        ("{d|time}", "2025-01-14T23:05+14", "23:05"),
        ("{d|time}", "2025-01-14T23:05-23:59", "23:05"),
    ])
    func dates(template: String, value: String, expected: String) throws {
        #expect(try render(template, ["d": .string(value)]) == .string(expected))
    }

    @Test func valuesTheFormatCannotReadLeaveNoValue() throws {
        for (template, value) in [("{d|date}", "2023-02-29"), ("{d|date}", "1900-02-29"), ("{d|date}", "2100-02-29"), ("{d|date}", "yesterday"), ("{d|time}", "2024-03-12"),
                                  ("{d|date}", "2024-03-12T25:00"), ("{n|fixed:2}", "many"),
                                  ("{d|time}", "2024-03-12T09:12:44.Z"), ("{d|time}", "2024-03-12T24:00"), ("{d|time}", "2024-03-12T09:12:61"),
                                  // Offsets: a colon without minutes, out of range, cut short.
                                  ("{d|time}", "2024-03-12T09:12+01:"), ("{d|date}", "2024-03-12T09:12:44-99:99"),
                                  ("{d|time}", "2024-03-12T09:12+24:00"), ("{d|time}", "2024-03-12T09:12+01:60"),
                                  ("{d|time}", "2024-03-12T09:12+1"), ("{d|time}", "2024-03-12T09:12+0100Z")] as [(String, String)] {
            #expect(try render(template, ["d": .string(value), "n": .string(value)]) == nil, "\(template) \(value)")
        }
        #expect(try render("{n|fixed:2}", ["n": true]) == nil)
    }

    @Test func aRequiredTemplateSaysWhatTheFormatExpected() throws {
        let spec = try PackagingSpec(json: ["fields": [["key": "when", "template": "{d|date}", "required": true]]])
        let result = try SpecPackager(spec: spec).package(document: [["d": 5]])
        #expect(result.skipped.map(\.description).first?.contains("expected an ISO-8601 date") == true)
    }

    @Test(arguments: [
        ("{n|fixed}", #"bad template "{n|fixed}": "fixed" needs a number of decimals, as in "fixed:2""#),
        ("{n|fixed:13}", #"bad template "{n|fixed:13}": "fixed:13": decimals must be a whole number from 0 to 12"#),
        ("{n|fixed:+2}", #"bad template "{n|fixed:+2}": "fixed:+2": decimals must be a whole number from 0 to 12"#),
        ("{n|grouped:-0}", #"bad template "{n|grouped:-0}": "grouped:-0": decimals must be a whole number from 0 to 12"#),
        ("{n|money}", #"bad template "{n|money}": unknown format "money"; expected one of fixed:N, grouped[:N], percent[:N], date[:iso|medium|long|full], time[:short|medium], uppercase, lowercase, trim"#),
        ("{n|fixd:2}", #"bad template "{n|fixd:2}": unknown format "fixd" (did you mean "fixed"?); expected one of fixed:N, grouped[:N], percent[:N], date[:iso|medium|long|full], time[:short|medium], uppercase, lowercase, trim"#),
        ("{n|FIXED:2}", #"bad template "{n|FIXED:2}": unknown format "FIXED" (did you mean "fixed"?); expected one of fixed:N, grouped[:N], percent[:N], date[:iso|medium|long|full], time[:short|medium], uppercase, lowercase, trim"#),
        ("{d|date:short}", #"bad template "{d|date:short}": unknown date style "short"; expected iso, medium, long or full"#),
        ("{s|trim:1}", #"bad template "{s|trim:1}": "trim" takes no argument, found ":1""#),
    ])
    func badFormatsAreRejectedWhenTheSpecLoads(template: String, message: String) {
        do {
            _ = try PackagingSpec(json: ["fields": [["key": "t", "template": .string(template)]]])
            Issue.record("accepted \(template)")
        } catch {
            #expect(error.description == "<spec>: error: fields[0] (key \"t\"): \(message)")
        }
    }
}
