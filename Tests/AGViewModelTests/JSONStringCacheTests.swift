import Foundation
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

    /// Long strings with escapes, as JSON text and as the value they decode to.
    static let escapedStrings: [(json: String, value: String)] = [
        (#"<a href=\"http://twitter.com\" rel=\"nofollow\">Twitter Web Client</a>"#,
         #"<a href="http://twitter.com" rel="nofollow">Twitter Web Client</a>"#),
        (#"https:\/\/pbs.twimg.com\/profile_images\/1\/a_normal.jpg"#,
         "https://pbs.twimg.com/profile_images/1/a_normal.jpg"),
        (#"\u5e78\u305b\u306e\u2606\u304a\u5b88\u308a \ud83d\ude00 caf\u00e9"#, "幸せの☆お守り 😀 café"),
        (#"line one\nline two\ttabbed \\ backslash \"quoted\""#, "line one\nline two\ttabbed \\ backslash \"quoted\""),
    ]

    @Test func repeatedEscapedStringsParseToTheirValues() throws {
        // Repeats interleaved with unique escaped strings, in runs of
        // different lengths, so lookups happen both before and after
        // decoding.
        var json: [String] = [], expected: [JSONValue] = []
        for round in 0..<30 {
            for (i, string) in Self.escapedStrings.enumerated() where (round + i) % 3 != 0 {
                json.append("\"\(string.json)\"")
                expected.append(.string(string.value))
            }
            for unique in 0..<(round % 7) {
                json.append(#""unique \"\#(round)-\#(unique)\" and long enough to cache""#)
                expected.append(.string(#"unique "\#(round)-\#(unique)" and long enough to cache"#))
            }
        }
        #expect(try JSONValue(parsing: "[" + json.joined(separator: ",") + "]") == .array(expected))
    }

    @Test func escapedStringsThatDifferOnlyInOneEscapeStayDistinct() throws {
        // Same length and the same first, middle and last eight bytes; only
        // the escaped byte differs.
        let escapes: [(json: String, value: String)] = [("n", "\n"), ("t", "\t"), ("\"", "\""), ("\\", "\\"), ("/", "/"), ("r", "\r")]
        var json: [String] = [], expected: [JSONValue] = []
        for _ in 0..<5 {
            for (escape, value) in escapes.shuffled() {
                json.append(#""AAAAAAAABB\\#(escape)CCCCCCCCCCCCCCCCDDDDDDDD""#)
                expected.append(.string("AAAAAAAABB\(value)CCCCCCCCCCCCCCCCDDDDDDDD"))
                // The same text without the escape where it has a plain spelling.
                if escape == "/" {
                    json.append(#""AAAAAAAABB/CCCCCCCCCCCCCCCCDDDDDDDD""#)
                    expected.append(.string("AAAAAAAABB/CCCCCCCCCCCCCCCCDDDDDDDD"))
                }
            }
        }
        #expect(try JSONValue(parsing: "[" + json.joined(separator: ",") + "]") == .array(expected))
    }

    /// One JSON spelling of `value`: characters that must be escaped are,
    /// and any other is escaped (`\uXXXX`, a surrogate pair, `\/`) at random.
    static func spelling(of value: String, using random: inout SplitMix64) -> String {
        var json = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": json += #"\""#
            case "\\": json += #"\\"#
            case "\n": json += #"\n"#
            case "/" where Bool.random(using: &random): json += #"\/"#
            case _ where scalar.value < 0x20 || Int.random(in: 0..<4, using: &random) == 0:
                for unit in String(scalar).utf16 { json += String(format: "\\u%04x", unit) }
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json
    }

    @Test func everySpellingOfRepeatedStringsDecodesToItsValue() throws {
        let seed: UInt64 = 0x5EE1_1E5C
        var random = SplitMix64(seed: seed)
        let values = [
            #"<a href="http://twitter.com" rel="nofollow">Twitter Web Client</a>"#,
            "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
            "幸せの☆お守り 😀 café, and some more text",
            "line one\nline two\twith a tab\u{1}",
            "a plain string, long enough to cache",
            #"back\slash and "quotes" and / slashes / here"#,
        ]
        for _ in 0..<100 {
            // A few spellings per value, so raw repeats and differently
            // spelled repeats of one value are both common.
            let spellings = values.map { value in (0..<3).map { _ in Self.spelling(of: value, using: &random) } }
            var json: [String] = [], expected: [JSONValue] = []
            for _ in 0..<40 {
                let i = Int.random(in: 0..<values.count, using: &random)
                json.append("\"" + spellings[i].randomElement(using: &random)! + "\"")
                expected.append(.string(values[i]))
            }
            let parsed = try JSONValue(parsing: "[" + json.joined(separator: ",") + "]")
            #expect(parsed == .array(expected), "seed \(seed)")
            if parsed != .array(expected) { return }
        }
    }

    /// Escaped strings with an error, each long enough to be cached.
    static let badEscapedStrings: [[UInt8]] = {
        func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
        var list: [[UInt8]] = []
        list.append(utf8(#""a bad escape \q in a long string""#))
        list.append(utf8(#""a control character \n then "#) + [0x0A] + utf8(#" in a long string""#))
        list.append(utf8(#""bad UTF-8 \n then "#) + [0xE2, 0x28, 0xA1] + utf8(#" in a long string""#))
        list.append(utf8(#""a surrogate \n then "#) + [0xED, 0xA0, 0x80] + utf8(#" in a long string""#))
        list.append(utf8(#""a bad hex escape \u12G4 in a long string""#))
        list.append(utf8(#""unterminated \n and long, at the end of input"#))
        list.append(utf8(#""ends in the middle of an escape \"#))
        return list
    }()

    /// Errors in an escaped string come out as they do without repeats
    /// before it: same message, at the same place in the string.
    @Test(arguments: badEscapedStrings)
    func errorsInEscapedStringsAfterRepeats(bad: [UInt8]) throws {
        let alone = try #require(parseError(bytes: [0x5B] + bad + [0x5D]))
        let repeats = (0..<20).map { _ in "\"\(Self.escapedStrings[0].json)\"" }.joined(separator: ",")
        let prefix = Array("[\(repeats),".utf8)
        let afterRepeats = try #require(parseError(bytes: prefix + bad + [0x5D]))
        #expect(afterRepeats.message == alone.message)
        #expect(afterRepeats.offset == alone.offset - 1 + prefix.count)
    }

    // An escaped string is looked up by its first 16 bytes before its end
    // is known, and matches a cached one only when the cached text is
    // followed by the closing quote. Strings that extend, shorten or end
    // differently from a cached one, in every order, keep their own values.
    @Test func escapedStringsSharingACachedTextAsPrefixStayDistinct() throws {
        let base = #"a shared \"prefix\" of twenty bytes"#
        let texts = [
            base, base + "x", base + #"\n"#, base + #"\\"#, base + #"\\\""#, base + #"\u00e9"#,
            String(base.dropLast()), String(base.prefix(17)), #"a shared \"prefix\" of twenty bytez"#,
            #"\u0061 shared \"prefix\" of twenty bytes"#,
        ]
        // The value each decodes to, by Foundation.
        func decoded(_ text: String) throws -> String {
            try #require(JSONSerialization.jsonObject(with: Data("\"\(text)\"".utf8), options: .fragmentsAllowed) as? String)
        }
        var generator = SplitMix64(seed: 11)
        for _ in 0..<40 {
            let order = (0..<30).map { _ in texts[Int(generator.next() % UInt64(texts.count))] }
            let json = "[" + order.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let expected = JSONValue.array(JSONArray(try order.map { .string(try decoded($0)) }))
            #expect(try JSONValue(parsing: json) == expected)
        }
    }

    // A repeat is matched before its end is scanned: at the end of input,
    // after a lone surrogate, and with its first escape past the 16 bytes
    // it is looked up by, it must read and fail exactly as a first copy.
    @Test func escapedRepeatsAtTheEdges() throws {
        let text = #"a string of some length \n with an escape"#
        let unterminated = #"["\#(text)","\#(text)"#
        let unclosed = unterminated + "\""
        #expect(parseError(unterminated)?.message == "unexpected end of input in string (missing closing '\"')")
        #expect(parseError(unterminated)?.offset == unterminated.utf8.count)
        #expect(parseError(unclosed)?.message == "unexpected end of input, expected ',' or ']' after array element")
        #expect(parseError(unclosed)?.offset == unclosed.utf8.count)
        let lone = #"sixteen bytes or more \ud83d"#
        #expect(try JSONValue(parsing: #"["\#(lone)","\#(lone)\ude00","\#(lone)"]"#)
            == ["sixteen bytes or more \u{FFFD}", "sixteen bytes or more 😀", "sixteen bytes or more \u{FFFD}"])
        let late = "twenty plain bytes.." + #"\n"#
        #expect(try JSONValue(parsing: #"["\#(late)","\#(late)x","\#(late)"]"#)
            == ["twenty plain bytes..\n", "twenty plain bytes..\nx", "twenty plain bytes..\n"])
    }

    @Test func anInvalidRepeatOfAValidEscapedStringIsStillRejected() throws {
        let valid = Array("\"\(Self.escapedStrings[1].json)\"".utf8)
        var invalid = valid
        invalid[12] = 0xFF
        let repeats: [UInt8] = Array(Array(repeating: valid, count: 5).joined(separator: [0x2C]))
        var bytes: [UInt8] = [0x5B]
        bytes += repeats
        bytes += [0x2C]
        bytes += invalid
        bytes += [0x5D]
        let error = try #require(parseError(bytes: bytes))
        #expect(error.offset == 1 + repeats.count + 1 + 12)
        #expect(error.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
    }

    @Test func anInvalidRepeatOfAValidLongStringIsStillRejected() throws {
        let valid = Array("\"this string is long enough to cache\"".utf8)
        var invalid = valid
        invalid[10] = 0xFF
        let error = try #require(parseError(bytes: [0x5B] + valid + [0x2C] + invalid + [0x5D]))
        #expect(error.offset == 1 + valid.count + 1 + 10)
        #expect(error.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
    }

    @Test func stringsThatDifferOnlyInTheirLastByteStayDistinct() throws {
        // 36 strings of one length that share all but their last byte, in
        // a small document (8 slots): many share a slot with one that is
        // equal but for that byte.
        let strings = (Array("0123456789") + Array("abcdefghijklmnopqrstuvwxyz")).map {
            "a string of one length, and number " + String($0)
        }
        let all = strings + strings.reversed() + strings
        let json = "[" + all.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: json) == .array(JSONArray(all.map { .string($0) })))
    }

    @Test func escapedStringsOfBackslashesAndQuotesStayDistinct() throws {
        // Runs of escaped backslashes, with or without an escaped quote at
        // the end, share their first 16 raw bytes and so their slot; each
        // raw text is a shift of the one before by one byte.
        var json: [String] = [], expected: [JSONValue] = []
        for _ in 0..<3 {
            for pairs in 8...12 {
                let backslashes = String(repeating: #"\\"#, count: pairs)
                json.append("\"\(backslashes)\"")
                expected.append(.string(String(repeating: "\\", count: pairs)))
                json.append("\"\(backslashes.dropLast())\"\"")
                expected.append(.string(String(repeating: "\\", count: pairs - 1) + "\""))
            }
        }
        #expect(try JSONValue(parsing: "[" + json.joined(separator: ",") + "]") == .array(JSONArray(expected)))
    }
}
