import Testing
@testable import AGViewModel

/// The parser shares one copy of a long string value repeated in a
/// document; these check that sharing never confuses different strings.
@Suite("JSONParser: repeated long strings")
struct JSONStringCacheTests {
    @Test func repeatedLongStringsParseToEqualValues() throws {
        let url = "https://abs.twimg.com/images/themes/theme1/bg.png"
        let text = "幸せの☆お守り、一に止まると書いて正しい"
        let items = (0..<50).map { i in #"{"u": "\#(url)", "t": "\#(text)", "n": \#(i)}"# }
        let value = try JSONValue(parsing: "[" + items.joined(separator: ", ") + "]")
        let array = try #require(value.arrayValue)
        #expect(array.count == 50)
        for (i, item) in array.enumerated() {
            #expect(item == ["u": .string(url), "t": .string(text), "n": .int(Int64(i))])
        }
    }

    @Test func stringsThatDifferOnlyAwayFromTheirEdgesStayDistinct() throws {
        // Same length and the same first, middle and last eight bytes: the
        // cache's hash cannot tell them apart, the byte comparison must.
        let strings = (0..<40).map { i -> String in
            let digit = String(i % 10), tens = String(i / 10)
            return "AAAAAAAA" + tens + "BBB" + "CCCCCCCC" + "DDD" + digit + "EEEEEEEE"
        }
        let json = "[" + (strings + strings.reversed()).map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let value = try JSONValue(parsing: json)
        #expect(value == .array((strings + strings.reversed()).map { .string($0) }))
    }

    @Test func stringsAroundTheCachedLengthAndWithEscapesReadBack() throws {
        for length in [14, 15, 16, 17, 31, 32, 33] {
            let plain = String(repeating: "x", count: length)
            let escaped = String(repeating: "y", count: length) + "\\n"
            let json = #"["\#(plain)", "\#(escaped)", "\#(plain)", "\#(escaped)", "\#(plain)x"]"#
            let expected: JSONValue = [.string(plain), .string(String(repeating: "y", count: length) + "\n"),
                                       .string(plain), .string(String(repeating: "y", count: length) + "\n"),
                                       .string(plain + "x")]
            #expect(try JSONValue(parsing: json) == expected, "length \(length)")
        }
    }

    @Test func anInvalidRepeatOfAValidLongStringIsStillRejected() throws {
        let valid = Array("\"this string is long enough to cache\"".utf8)
        var invalid = valid
        invalid[10] = 0xFF
        let error = try #require(parseError(bytes: [0x5B] + valid + [0x2C] + invalid + [0x5D]))
        #expect(error.offset == 1 + valid.count + 1 + 10)
        #expect(error.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
    }
}
