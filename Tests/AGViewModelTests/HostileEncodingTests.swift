import Foundation
import Testing
@testable import AGViewModel

/// Bytes that are not the UTF-8 JSON they claim to be: invalid UTF-8, byte-order
/// marks, NUL bytes, empty documents and files that are not JSON at all.
/// Each is accepted or rejected with an error at the offending byte.
@Suite("Hostile input: encodings and non-JSON")
struct HostileEncodingTests {
    /// `bytes` is rejected at `offset`, with a line and column that match
    /// and a message containing `message` (unless empty).
    static func expectError(_ bytes: [UInt8], offset: Int, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = parseError(bytes: bytes) else {
            Issue.record("accepted \(bytes.prefix(16).map { String($0, radix: 16) })", sourceLocation: sourceLocation)
            return
        }
        #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation)
        let problems = bytes.withUnsafeBytes { FuzzInvariants.checkParseError(error, in: $0) }
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        if !message.isEmpty {
            #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Invalid UTF-8

    /// Every kind of invalid UTF-8, with what the error says about it.
    static let invalidUTF8: [([UInt8], String)] = [
        ([0x80], "continuation byte"),                  // continuation without a lead
        ([0xBF], "continuation byte"),
        ([0xC0, 0xAF], "overlong"),                     // overlong two-byte '/'
        ([0xC1, 0xBF], "overlong"),
        ([0xE0, 0x80, 0xAF], "overlong"),               // overlong three-byte
        ([0xF0, 0x80, 0x80, 0xAF], "overlong"),         // overlong four-byte
        ([0xED, 0xA0, 0x80], "surrogate"),              // U+D800
        ([0xED, 0xBF, 0xBF], "surrogate"),              // U+DFFF
        ([0xF4, 0x90, 0x80, 0x80], "above U+10FFFF"),   // U+110000
        ([0xF5, 0x80, 0x80, 0x80], "U+10FFFF"),
        ([0xFE], "0xFE"),
        ([0xFF], "0xFF"),
        ([0xC3], "truncated"),                          // cut off by the closing quote
        ([0xE2, 0x82], "truncated"),
        ([0xF0, 0x9F, 0x98], "truncated"),
        ([0xE2, 0x28, 0xA1], "truncated"),              // lead followed by ASCII
    ]

    @Test func everyKindOfInvalidUTF8InAStringIsRejectedAtItsFirstByte() {
        for (bad, message) in Self.invalidUTF8 {
            // In a value, after a newline so the line counts too.
            Self.expectError(Array("[\n\"ok ".utf8) + bad + Array("\"]".utf8), offset: 6, message: message)
            // In a key.
            Self.expectError(Array("{\"".utf8) + bad + Array("\": 1}".utf8), offset: 2, message: message)
            // After a long ASCII run and next to an escape (other scanning paths).
            let run = Array(repeating: UInt8(ascii: "a"), count: 100)
            Self.expectError([UInt8(ascii: "\"")] + run + Array("\\n".utf8) + bad + [UInt8(ascii: "\"")],
                             offset: 103, message: message)
        }
    }

    @Test func invalidUTF8OutsideStringsIsRejected() {
        for (bad, _) in Self.invalidUTF8 {
            let hex = "0x" + String(bad[0], radix: 16, uppercase: true)
            Self.expectError(Array("[1, ".utf8) + bad + Array("]".utf8), offset: 4, message: "unexpected byte \(hex)")
        }
    }

    @Test func truncatedSequencesAtTheEndOfInputAreRejected() {
        for bad: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            let bytes = Array("\"abc".utf8) + bad
            guard let error = parseError(bytes: bytes) else { Issue.record("accepted"); continue }
            #expect(error.offset >= 4 && error.offset <= bytes.count)
        }
    }

    // MARK: Byte-order marks

    @Test func oneLeadingUTF8ByteOrderMarkIsSkipped() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8)) == ["a": 1])
        // Anywhere else it is an error, columns counted after the leading one.
        Self.expectError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8), offset: 3, message: "0xEF")
        Self.expectError(Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("{}".utf8), offset: 1, message: "0xEF")
        // Inside a string it is just U+FEFF.
        #expect(try JSONValue(parsing: Array("\"".utf8) + [0xEF, 0xBB, 0xBF] + Array("\"".utf8)) == "\u{FEFF}")
        // A byte-order mark alone is an empty document.
        Self.expectError([0xEF, 0xBB, 0xBF], offset: 3, message: "end of input")
    }

    /// `{"a":1}` in another Unicode encoding.
    static func encoded(_ text: String, as encoding: String.Encoding) -> [UInt8] {
        Array(text.data(using: encoding)!)
    }

    @Test func utf16AndUTF32DocumentsAreRejectedWithAnEncodingHint() {
        let text = "{\"a\":1}"
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + Self.encoded(text, as: .utf16LittleEndian), "UTF-16"),
            ([0xFE, 0xFF] + Self.encoded(text, as: .utf16BigEndian), "UTF-16"),
            ([0xFF, 0xFE, 0x00, 0x00] + Self.encoded(text, as: .utf32LittleEndian), "UTF-32"),
            ([0x00, 0x00, 0xFE, 0xFF] + Self.encoded(text, as: .utf32BigEndian), "UTF-32"),
            (Self.encoded(text, as: .utf16LittleEndian), "UTF-16"),  // without a byte-order mark
            (Self.encoded(text, as: .utf16BigEndian), "UTF-16"),
            (Self.encoded(text, as: .utf32LittleEndian), "UTF-32"),
            (Self.encoded(text, as: .utf32BigEndian), "UTF-32"),
        ]
        for (bytes, encoding) in cases {
            guard let error = parseError(bytes: bytes) else { Issue.record("accepted \(encoding)"); continue }
            #expect(error.offset < 4)
            #expect(error.message.contains(encoding) && error.message.contains("UTF-8"), "\(error.message)")
        }
    }

    // MARK: NUL bytes

    @Test func escapedNULWorksAndRoundTrips() throws {
        let value = try JSONValue(parsing: #"{"a\u0000b": "x\u0000y"}"#)
        #expect(value == ["a\u{0}b": "x\u{0}y"])
        let written = try value.jsonString()
        #expect(written == #"{"a\u0000b":"x\u0000y"}"#)
        #expect(try JSONValue(parsing: written) == value)
        let archive = try ArchiveEncoder().encode(.value(value)).data
        guard case .value(let restored) = try ArchiveDecoder().decode(archive) else { Issue.record("not a value"); return }
        #expect(restored == value)
    }

    @Test func rawNULBytesAreControlCharacterErrors() {
        Self.expectError(Array("[\"a".utf8) + [0] + Array("b\"]".utf8), offset: 3, message: "U+0000")
        Self.expectError(Array("{\"k".utf8) + [0] + Array("\": 1}".utf8), offset: 3, message: "U+0000")
        Self.expectError(Array("[1,".utf8) + [0] + Array("2]".utf8), offset: 3, message: "0x00")
        Self.expectError(Array("{}".utf8) + [0], offset: 2, message: "after the JSON value")
        Self.expectError([0], offset: 0, message: "0x00")
    }

    @Test func aRunOfNULBytesGetsNoEncodingHint() throws {
        let error = try #require(parseError(bytes: [0, 0, 0, 0]))
        #expect(error.message == "unexpected byte 0x00, expected a JSON value")
    }

    // MARK: Empty documents

    @Test func emptyAndBlankDocumentsAreRejectedAtTheirEnd() {
        Self.expectError([], offset: 0, message: "end of input")
        Self.expectError(Array("   ".utf8), offset: 3, message: "end of input")
        Self.expectError(Array(" \n\t\r\n  ".utf8), offset: 7, message: "end of input")
        guard let error = parseError(" \n\t\r\n  ") else { Issue.record("accepted"); return }
        #expect(error.line == 3 && error.column == 3)
    }

    // MARK: Not JSON at all

    @Test func aPNGIsRejectedAtItsFirstByte() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        var generator = SplitMix64(seed: 8)
        png += (0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        Self.expectError(png, offset: 0, message: "0x89")
    }

    @Test func anHTMLErrorPageIsRejectedAtItsFirstByte() {
        let page = """
        <!DOCTYPE html>
        <html><head><title>502 Bad Gateway</title></head>
        <body><h1>Bad Gateway</h1></body></html>
        """
        Self.expectError(Array(page.utf8), offset: 0, message: "'<'")
        // Leading whitespace moves the position with it.
        guard let error = parseError("\n\n  " + page) else { Issue.record("accepted"); return }
        #expect(error.line == 3 && error.column == 3)
    }

    @Test func plainTextAndOtherNearMissesAreRejected() {
        Self.expectError(Array("Internal Server Error".utf8), offset: 0, message: "'I'")
        Self.expectError(Array("{'a': 1}".utf8), offset: 1, message: "double quotes")
        Self.expectError(Array("{\"a\": 1} {\"b\": 2}".utf8), offset: 9, message: "after the JSON value")
        Self.expectError(Array("[1, 2, 3".utf8), offset: 8, message: "end of input")
    }

    @Test func randomBytesNeverCrashAndErrorsStayInside() {
        var generator = SplitMix64(seed: 42)
        for length in 0 ..< 2000 {
            let bytes = (0 ..< length % 64).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            if let error = parseError(bytes: bytes) {
                let problems = bytes.withUnsafeBytes { FuzzInvariants.checkParseError(error, in: $0) }
                #expect(problems.isEmpty, "\(bytes): \(problems)")
            }
        }
    }
}
