import Foundation
import Testing
@testable import AGViewModel

/// `\uXXXX` escapes, as escaped API output spells all non-ASCII text: every
/// code unit, surrogate pairs, and each bad digit with its position.
@Suite("JSONParser: every \\u escape")
struct JSONParserUnicodeEscapeTests {
    /// What `\uXXXX` with code unit `unit` reads as on its own.
    static func expectedText(_ unit: UInt32) -> String {
        (0xD800..<0xE000).contains(unit) ? "\u{FFFD}" : String(Unicode.Scalar(unit)!)
    }

    @Test func everyCodeUnitInEitherCase() throws {
        var mismatches: [String] = []
        for unit in UInt32(0)...0xFFFF {
            let lower = String(format: "%04x", unit), upper = String(format: "%04X", unit)
            let expected = Self.expectedText(unit)
            // Alone, and between a raw run and another escape.
            let alone = try JSONValue(parsing: "\"\\u\(lower)\"")
            let amid = try JSONValue(parsing: "[\"ab\\u\(upper)cd\\n\"]")
            if alone != .string(expected) || amid != [.string("ab" + expected + "cd\n")] {
                mismatches.append(lower)
            }
        }
        #expect(mismatches.isEmpty, "wrong text for \\u\(mismatches.prefix(10))")
    }

    @Test func surrogatePairsMakeOneScalar() throws {
        for high in stride(from: UInt32(0xD800), through: 0xDBFF, by: 0x33) {
            for low in [UInt32(0xDC00), 0xDC01, 0xDD1E, 0xDFFE, 0xDFFF] {
                let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                let text = String(format: "\"x\\u%04X\\u%04x\"", high, low)
                #expect(try JSONValue(parsing: text) == .string("x" + String(Unicode.Scalar(scalar)!)), "\(text)")
            }
        }
    }

    @Test func aBadEscapeAfterAHighSurrogateIsReportedAtItsDigit() throws {
        let error = try #require(parseError(#""\uD800\u12""#))
        #expect(error.offset == 11)
    }

    @Test func eachBadDigitIsReportedWhereItIs() throws {
        for position in 0..<4 {
            for bad in ["G", "g", "/", ":", "@", "`", " ", "\"", "\u{7F}", "é"] {
                var digits = Array("00a0")
                digits[position] = Character(bad)
                let text = "[\"ok\\u\(String(digits))\"]"
                let error = try #require(parseError(text), "\(text)")
                #expect(error.offset == 6 + position, "\(text)")
                #expect(error.message.hasPrefix("invalid \\u escape: expected 4 hexadecimal digits, found"), "\(text)")
            }
        }
    }

    @Test func escapesCutOffByTheEndOfInput() throws {
        for cut in ["\"\\u", "\"\\u0", "\"\\u00", "\"\\u00e", "\"\\u00e9", "\"\\uD800\\u", "\"\\uD800\\uDC"] {
            let error = try #require(parseError(cut), "\(cut)")
            #expect(error.offset == cut.utf8.count, "\(cut)")
        }
    }
}
