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
        ("{n|fixed:6}", 9_000_000_000_000.0078125, "9000000000000.007813"),
        ("{n|fixed:12}", 9_000_000.0001220703125, "9000000.000122070313"),
        ("{n|grouped:2}", 999_999.995_117_187_5, "1,000,000.00"),
        ("{n|grouped:2}", 999_999.995, "999,999.99"),  // just below the half, as a double
        ("{n|fixed:2}", 2.675, "2.67"),
    ] as [(String, Double, String)])
    func numbers(template: String, value: Double, expected: String) throws {
        let json: JSONValue = value == value.rounded() && abs(value) < 1e15 ? .int(Int64(value)) : .double(value)
        #expect(try render(template, ["n": json]) == .string(expected))
    }

    @Test func numericStringsAreNumbersAndBigIntegersAreExact() throws {
        #expect(try render("{n|fixed:2}", ["n": "3.14159"]) == .string("3.14"))
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
        ("{d|date:full}", "0000-01-01", "Saturday, January 1, 0"),
        ("{d|date:full}", "0001-01-01", "Monday, January 1, 1"),
        ("{d|date:iso}", "2025-01-14T09:12:44Z", "2025-01-14"),
        ("{d|date} {d|time}", "2025-01-14T09:12:44Z", "Jan 14, 2025 09:12"),
        ("{d|time:medium}", "2025-01-14 23:05:09.123+01:00", "23:05:09"),
    ])
    func dates(template: String, value: String, expected: String) throws {
        #expect(try render(template, ["d": .string(value)]) == .string(expected))
    }

    @Test func valuesTheFormatCannotReadLeaveNoValue() throws {
        for (template, value) in [("{d|date}", "2023-02-29"), ("{d|date}", "yesterday"), ("{d|time}", "2024-03-12"),
                                  ("{d|date}", "2024-03-12T25:00"), ("{n|fixed:2}", "many")] as [(String, String)] {
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
        ("{n|money}", #"bad template "{n|money}": unknown format "money"; expected one of fixed:N, grouped[:N], percent[:N], date[:iso|medium|long|full], time[:medium], uppercase, lowercase, trim"#),
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
