import Testing
@testable import AGViewModel

@Suite("JSONParser: invalid UTF-8")
struct JSONParserUTF8Tests {
    /// A quoted string holding `bytes`.
    static func quoted(_ bytes: [UInt8]) -> [UInt8] { [0x22] + bytes + [0x22] }

    @Test(arguments: [
        ([0x80] as [UInt8], "invalid UTF-8: unexpected continuation byte 0x80 without a lead byte"),
        ([0x41, 0xBF], "invalid UTF-8: unexpected continuation byte 0xBF without a lead byte"),
        ([0xC0, 0xAF], "invalid UTF-8: overlong encoding (byte 0xC0 never appears in UTF-8)"),
        ([0xC1, 0xBF], "invalid UTF-8: overlong encoding (byte 0xC1 never appears in UTF-8)"),
        ([0xE0, 0x80, 0xAF], "invalid UTF-8: overlong encoding"),
        ([0xE0, 0x9F, 0xBF], "invalid UTF-8: overlong encoding"),
        ([0xF0, 0x80, 0x80, 0xAF], "invalid UTF-8: overlong encoding"),
        ([0xF0, 0x8F, 0xBF, 0xBF], "invalid UTF-8: overlong encoding"),
        ([0xED, 0xA0, 0x80], "invalid UTF-8: encoded UTF-16 surrogate (U+D800 to U+DFFF)"),
        ([0xED, 0xBF, 0xBF], "invalid UTF-8: encoded UTF-16 surrogate (U+D800 to U+DFFF)"),
        ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8: code point above U+10FFFF"),
        ([0xF5, 0x80, 0x80, 0x80], "invalid UTF-8: byte 0xF5 starts a code point above U+10FFFF"),
        ([0xF8, 0x88, 0x80, 0x80, 0x80], "invalid UTF-8: byte 0xF8 never appears in UTF-8"),
        ([0xFF], "invalid UTF-8: byte 0xFF never appears in UTF-8"),
        ([0xFE], "invalid UTF-8: byte 0xFE never appears in UTF-8"),
        ([0xC3, 0x41], "invalid UTF-8: truncated sequence (byte 0xC3 needs a continuation byte, found 0x41)"),
        ([0xE2, 0x82, 0x41], "invalid UTF-8: truncated sequence (byte 0xE2 needs a continuation byte, found 0x41)"),
        ([0xF0, 0x9F, 0x98, 0x22], "invalid UTF-8: truncated sequence (byte 0xF0 needs a continuation byte, found 0x22)"),
    ])
    func rejectsMalformedSequencesInStrings(bytes: [UInt8], message: String) throws {
        let error = try #require(parseError(bytes: Self.quoted(bytes)))
        #expect(error.message == message)
        // The position is the first byte of the bad sequence.
        let expectedOffset = 1 + (bytes.first == 0x41 ? 1 : 0)
        #expect(error.offset == expectedOffset)
        #expect(error.column == expectedOffset + 1)
    }

    @Test func rejectsSequencesCutOffByTheEndOfInput() throws {
        let error = try #require(parseError(bytes: [0x22, 0x61, 0xE2, 0x82]))
        #expect(error.message == "invalid UTF-8: truncated 3-byte sequence at the end of input")
        #expect(error.offset == 2)
    }

    @Test func aSecondByteOutOfItsLeadsRangeIsNamedEvenAtTheEndOfInput() throws {
        let cases: [([UInt8], String)] = [
            ([0xE0, 0x80], "invalid UTF-8: overlong encoding"),
            ([0xF0, 0x8F], "invalid UTF-8: overlong encoding"),
            ([0xED, 0xA0], "invalid UTF-8: encoded UTF-16 surrogate (U+D800 to U+DFFF)"),
            ([0xF4, 0x90], "invalid UTF-8: code point above U+10FFFF"),
        ]
        for (bytes, message) in cases {
            let error = try #require(parseError(bytes: [0x22] + bytes))
            #expect(error.message == message)
            #expect(error.offset == 1)
        }
    }

    @Test func rejectsInvalidUTF8InKeysAndAfterLongASCIIRuns() throws {
        let key = try #require(parseError(bytes: Array(#"{"ab"#.utf8) + [0xFF] + Array(#"": 1}"#.utf8)))
        #expect(key.offset == 4)
        #expect(key.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
        // The bad byte sits after several 8-byte words of plain ASCII.
        let long = Array("\"0123456789abcdefghijklmnopqrstuvwxyz".utf8) + [0xC0, 0x80, 0x22]
        let error = try #require(parseError(bytes: long))
        #expect(error.offset == 37)
    }

    @Test func rejectsInvalidUTF8InsideEscapedStrings() throws {
        let error = try #require(parseError(bytes: Array(#""\n"#.utf8) + [0xED, 0xA0, 0x80, 0x22]))
        #expect(error.message == "invalid UTF-8: encoded UTF-16 surrogate (U+D800 to U+DFFF)")
        #expect(error.offset == 3)
    }

    // Raw content of escaped strings is checked once, at the end: bad UTF-8
    // must still come out at its own position and before later errors.
    @Test func badUTF8InEscapedStringsIsReportedInInputOrder() throws {
        let beforeBadEscape = try #require(parseError(bytes: Array(#""a\n"#.utf8) + [0xC3, 0x28] + Array(#"\q""#.utf8)))
        #expect(beforeBadEscape.message == "invalid UTF-8: truncated sequence (byte 0xC3 needs a continuation byte, found 0x28)")
        #expect(beforeBadEscape.offset == 4)
        let beforeEnd = try #require(parseError(bytes: Array(#""\t"#.utf8) + [0xFF, 0x41]))
        #expect(beforeEnd.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
        #expect(beforeEnd.offset == 3)
        let beforeControl = try #require(parseError(bytes: Array(#""\t"#.utf8) + [0xE2, 0x82, 0x0A, 0x22]))
        #expect(beforeControl.offset == 3)
        // Cut off by an escape: the escape's backslash is the bad byte.
        let cutByEscape = try #require(parseError(bytes: Array(#""x"#.utf8) + [0xE2, 0x82] + Array(#"\n""#.utf8)))
        #expect(cutByEscape.message == "invalid UTF-8: truncated sequence (byte 0xE2 needs a continuation byte, found 0x5C)")
        #expect(cutByEscape.offset == 2)
        // Valid raw text around escapes, past several 8-byte words.
        let text = "日本語のテキスト\n続き"
        #expect(try JSONValue(parsing: #""日本語のテキスト\n続き""#) == .string(text))
        let badEscape = try #require(parseError(bytes: Array(#""日本\q""#.utf8)))
        #expect(badEscape.offset == 7)
    }

    @Test func rejectsNonASCIIBytesOutsideStrings() throws {
        let error = try #require(parseError(bytes: [0x5B, 0xC3, 0xA9, 0x5D]))
        #expect(error.message == "unexpected byte 0xC3, expected a JSON value")
        #expect(error.offset == 1)
    }

    @Test func acceptsTheEdgesOfEveryValidRange() throws {
        let valid: [[UInt8]] = [
            [0xC2, 0x80], [0xDF, 0xBF],                       // U+0080, U+07FF
            [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],           // U+0800, U+D7FF
            [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],           // U+E000, U+FFFF
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], // U+10000, U+10FFFF
        ]
        for bytes in valid {
            let value = try JSONValue(parsing: Self.quoted(bytes))
            #expect(value == .string(String(decoding: bytes, as: UTF8.self)))
        }
    }

    // Non-ASCII content is scanned eight bytes at a time and checked once,
    // when the string is made: these pin down that bad bytes are still found
    // anywhere in a long string and reported before any later error.

    @Test func rejectsInvalidUTF8InsideLongNonASCIIText() throws {
        let text = Array("日本語のテキスト".utf8)  // 24 bytes of 3-byte sequences
        for (cut, bad) in [(0, [0xFF] as [UInt8]), (7, [0xC0, 0x80]), (12, [0xED, 0xA0, 0x80]), (24, [0xE2, 0x82])] {
            let bytes = [0x22] + text[..<cut] + bad + text[cut...] + [0x22]
            let error = try #require(parseError(bytes: bytes), "cut \(cut)")
            // A cut inside a sequence is reported at that sequence's lead byte.
            let lead = cut % 3 == 0 ? cut : cut - cut % 3
            #expect(error.offset == 1 + lead, "cut \(cut)")
            #expect(error.message.hasPrefix("invalid UTF-8"), "cut \(cut)")
        }
    }

    @Test func reportsBadUTF8BeforeALaterEscapeControlCharacterOrEndOfInput() throws {
        let prefix = Array("\"ünïcödé and more".utf8) + [0xFF]
        let escape = try #require(parseError(bytes: prefix + Array(#"\n""#.utf8)))
        let control = try #require(parseError(bytes: prefix + [0x0A, 0x22]))
        let end = try #require(parseError(bytes: prefix + Array("abc".utf8)))
        for error in [escape, control, end] {
            #expect(error.offset == prefix.count - 1)
            #expect(error.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
        }
        // Valid non-ASCII text before them: the later error is reported.
        let valid = Array("\"ünïcödé and more".utf8)
        #expect(parseError(bytes: valid + [0x0A, 0x22])?.message.hasPrefix("unescaped control character") == true)
        #expect(parseError(bytes: valid)?.message == "unexpected end of input in string (missing closing '\"')")
    }

    @Test func readsNonASCIIStringsOfEveryLengthAroundWordBoundaries() throws {
        let pieces = ["a", "é", "日", "😀", "\\n", "\\u00e9", "bc"]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var json = "\""
            var expected = ""
            for _ in 0..<Int(generator.next() % 24) {
                let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                json += piece
                expected += piece == "\\n" ? "\n" : piece == "\\u00e9" ? "é" : piece
            }
            json += "\""
            let parsed = try #require(try JSONValue(parsing: json).stringValue)
            #expect(parsed == expected, "\(json)")
            // Counts that trust the string's own ASCII flag: set wrongly on
            // "é", they would count bytes.
            #expect(parsed.count == expected.count, "\(json)")
            #expect(parsed.utf16.count == expected.utf16.count, "\(json)")
        }
    }

    // ASCII text whose escapes decode to non-ASCII scalars, short and long
    // (small and heap strings): the string must not be marked ASCII.
    @Test func asciiTextWithNonASCIIEscapesReadsAsThoseScalars() throws {
        let escapes = [(#"\u00e9"#, "é"), (#"\u65e5"#, "日"), (#"\ud83d\ude00"#, "😀"), (#"\ud800"#, "\u{FFFD}"), (#"\n"#, "\n")]
        for (escape, scalar) in escapes {
            for padding in [0, 1, 7, 8, 15, 16, 40] {
                let text = String(repeating: "a", count: padding)
                let expected = text + scalar + text
                let parsed = try #require(try JSONValue(parsing: "\"\(text)\(escape)\(text)\"").stringValue)
                #expect(parsed == expected, "\(escape) \(padding)")
                #expect(parsed.count == expected.count, "\(escape) \(padding)")
                #expect(parsed.utf16.count == expected.utf16.count, "\(escape) \(padding)")
                #expect(parsed.unicodeScalars.count == expected.unicodeScalars.count, "\(escape) \(padding)")
            }
        }
    }

    // Escaped strings skip the UTF-8 check of their decoded bytes when the
    // raw content is ASCII, so a bad byte anywhere after an escape, at any
    // offset within the words the scan reads, must still be found.
    @Test func findsBadUTF8AfterAnEscapeAtEveryOffset() throws {
        for escape in [#"\n"#, #"\u00e9"#, #"\""#] {
            for before in 0..<20 {
                for after in [0, 3, 11] {
                    let bytes = Array("\"ab\(escape)".utf8) + Array(repeating: UInt8(ascii: "x"), count: before)
                        + [0xFF] + Array(repeating: UInt8(ascii: "y"), count: after) + [0x22]
                    let error = try #require(parseError(bytes: bytes), "\(escape) \(before) \(after)")
                    #expect(error.message == "invalid UTF-8: byte 0xFF never appears in UTF-8")
                    #expect(error.offset == 3 + escape.utf8.count + before)
                }
            }
        }
    }
}
