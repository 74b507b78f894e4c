import Testing
@testable import AGViewModel

/// An invalid document and where and why it must be rejected.
struct Rejection: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var offset: Int
    var message: String
    var testDescription: String { text.debugDescription }

    init(_ text: String, _ line: Int, _ column: Int, _ offset: Int, _ message: String) {
        self.text = text
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }
}

@Suite("JSONParser: rejections")
struct JSONParserErrorTests {
    @Test(arguments: [
        // Empty and truncated input.
        Rejection("", 1, 1, 0, "unexpected end of input, expected a JSON value"),
        Rejection("   ", 1, 4, 3, "unexpected end of input, expected a JSON value"),
        Rejection("[1,2", 1, 5, 4, "unexpected end of input, expected ',' or ']' after array element"),
        Rejection("{\"a\":1", 1, 7, 6, "unexpected end of input, expected ',' or '}' after object member"),
        Rejection("{\"a\"", 1, 5, 4, "unexpected end of input, expected ':' after object key"),
        Rejection("{", 1, 2, 1, "unexpected end of input, expected a string key or '}'"),
        Rejection("[", 1, 2, 1, "unexpected end of input, expected a JSON value"),
        Rejection("\"abc", 1, 5, 4, "unexpected end of input in string (missing closing '\"')"),
        Rejection("tru", 1, 4, 3, "unexpected end of input in literal 'true'"),
        Rejection("-", 1, 2, 1, "unexpected end of input, expected a digit after '-'"),
        Rejection("1.", 1, 3, 2, "unexpected end of input, expected a digit after the decimal point"),
        Rejection("1e", 1, 3, 2, "unexpected end of input, expected a digit in the exponent"),
        // Trailing commas.
        Rejection("[1,]", 1, 4, 3, "trailing comma is not allowed before ']'"),
        Rejection("[1, 2,\n]", 2, 1, 7, "trailing comma is not allowed before ']'"),
        Rejection("{\"a\":1,}", 1, 8, 7, "trailing comma is not allowed before '}'"),
        // Missing separators.
        Rejection("[1 2]", 1, 4, 3, "expected ',' or ']' after array element, found character '2'"),
        Rejection("{\"a\":1 \"b\":2}", 1, 8, 7, "expected ',' or '}' after object member, found character '\"'"),
        Rejection("{\"a\" 1}", 1, 6, 5, "expected ':' after object key, found character '1'"),
        Rejection("[\"a\":1]", 1, 5, 4, "expected ',' or ']' after array element, found character ':'"),
        Rejection("{1:2}", 1, 2, 1, "expected a string key in double quotes or '}', found character '1'"),
        Rejection("{\"a\":1,2}", 1, 8, 7, "expected a string key in double quotes after ',', found character '2'"),
        Rejection("{\"a\":}", 1, 6, 5, "unexpected character '}', expected a JSON value"),
        Rejection("[,1]", 1, 2, 1, "unexpected character ',', expected a JSON value"),
        // Numbers.
        Rejection("01", 1, 1, 0, "leading zeros are not allowed in numbers"),
        Rejection("[-012]", 1, 3, 2, "leading zeros are not allowed in numbers"),
        Rejection("+1", 1, 1, 0, "a number cannot start with '+'"),
        Rejection(".5", 1, 1, 0, "a number needs a digit before the decimal point"),
        Rejection("1.e5", 1, 3, 2, "expected a digit after the decimal point, found character 'e'"),
        Rejection("1e+", 1, 4, 3, "unexpected end of input, expected a digit in the exponent"),
        Rejection("-a", 1, 2, 1, "expected a digit after '-', found character 'a'"),
        Rejection("1e400", 1, 1, 0, "number 1e400 is too large for a double (maximum about 1.8e308)"),
        Rejection("[0, -1.5e309]", 1, 5, 4, "number -1.5e309 is too large for a double (maximum about 1.8e308)"),
        Rejection("0x1F", 1, 2, 1, "unexpected character 'x' after the JSON value"),
        // Not JSON: comments, NaN, Infinity, single quotes, bare words.
        Rejection("// note\n1", 1, 1, 0, "comments are not allowed in JSON"),
        Rejection("[1, /* two */ 2]", 1, 5, 4, "comments are not allowed in JSON"),
        Rejection("{/*x*/}", 1, 2, 1, "comments are not allowed in JSON"),
        Rejection("NaN", 1, 1, 0, "NaN is not valid JSON"),
        Rejection("[Infinity]", 1, 2, 1, "Infinity is not valid JSON"),
        Rejection("-Infinity", 1, 1, 0, "-Infinity is not valid JSON"),
        Rejection("'a'", 1, 1, 0, "strings must be in double quotes, not single quotes"),
        Rejection("{'a': 1}", 1, 2, 1, "object keys must be in double quotes, not single quotes"),
        Rejection("undefined", 1, 1, 0, "unexpected character 'u', expected a JSON value (strings must be in double quotes)"),
        Rejection("trux", 1, 4, 3, "invalid literal, expected 'true'"),
        Rejection("falsy", 1, 5, 4, "invalid literal, expected 'false'"),
        Rejection("[fals]", 1, 6, 5, "invalid literal, expected 'false'"),
        Rejection("[nulL]", 1, 5, 4, "invalid literal, expected 'null'"),
        Rejection("nul", 1, 4, 3, "unexpected end of input in literal 'null'"),
        Rejection("True", 1, 1, 0, "unexpected character 'T', expected a JSON value (true, false and null are lowercase)"),
        Rejection("[False]", 1, 2, 1, "unexpected character 'F', expected a JSON value (true, false and null are lowercase)"),
        Rejection("{\"a\": Null}", 1, 7, 6, "unexpected character 'N', expected a JSON value (true, false and null are lowercase)"),
        Rejection("# Title", 1, 1, 0, "unexpected character '#', expected a JSON value"),
        Rejection("\u{7F}", 1, 1, 0, "unexpected byte 0x7F, expected a JSON value"),
        // Strings.
        Rejection("\"a\nb\"", 1, 3, 2, "unescaped control character U+000A in string (write it as \\n)"),
        Rejection("\"a\tb\"", 1, 3, 2, "unescaped control character U+0009 in string (write it as \\t)"),
        Rejection("\"\u{1}\"", 1, 2, 1, "unescaped control character U+0001 in string (write it as \\u0001)"),
        Rejection("\"\\x\"", 1, 2, 1, "invalid escape sequence '\\x' (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
        Rejection("\"\\u12G4\"", 1, 6, 5, "invalid \\u escape: expected 4 hexadecimal digits, found character 'G'"),
        Rejection("\"\\u12", 1, 6, 5, "unexpected end of input in \\u escape"),
        Rejection("\"\\u 123\"", 1, 4, 3, "invalid \\u escape: expected 4 hexadecimal digits, found space"),
        Rejection("\"\\é\"", 1, 2, 1, "invalid escape sequence: '\\' followed by byte 0xC3"),
        Rejection("\"abcé", 1, 7, 6, "unexpected end of input in string (missing closing '\"')"),
        Rejection("[1\u{7F}]", 1, 3, 2, "expected ',' or ']' after array element, found byte 0x7F"),
        // Garbage after the value, and positions on later lines.
        Rejection("[1] x", 1, 5, 4, "unexpected character 'x' after the JSON value"),
        Rejection("{} {}", 1, 4, 3, "unexpected character '{' after the JSON value"),
        Rejection("[1]\n]", 2, 1, 4, "unexpected character ']' after the JSON value"),
        Rejection("{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 11, 22, "invalid literal, expected 'true'"),
        Rejection("[1,\r\n 2,\r\n x]", 3, 2, 11, "unexpected character 'x', expected a JSON value (strings must be in double quotes)"),
        Rejection("[1,\r 2,\r x]", 3, 2, 9, "unexpected character 'x', expected a JSON value (strings must be in double quotes)"),
        Rejection("[1,\r\r\n\n x]", 4, 2, 8, "unexpected character 'x', expected a JSON value (strings must be in double quotes)"),
        Rejection("[1,\r\n", 2, 1, 5, "unexpected end of input, expected a JSON value"),
        Rejection("1\u{0}", 1, 2, 1, "unexpected byte 0x00 after the JSON value"),
        Rejection("[\u{FEFF}1]", 1, 2, 1, "unexpected byte 0xEF, expected a JSON value"),
    ])
    func rejectsWithPositionAndMessage(_ rejection: Rejection) throws {
        let error = try #require(parseError(rejection.text))
        #expect(error.message == rejection.message)
        #expect(error.line == rejection.line)
        #expect(error.column == rejection.column)
        #expect(error.offset == rejection.offset)
    }

    @Test func descriptionIsCompilerStyle() throws {
        let error = try #require(parseError("[1,]"))
        #expect(error.description == "1:4: error: trailing comma is not allowed before ']'")
    }

    @Test func columnsAfterAByteOrderMarkIgnoreIt() throws {
        let error = try #require(parseError(bytes: [0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)))
        #expect(error.offset == 6)
        #expect(error.column == 4)
    }

    @Test func columnsOnLaterLinesAfterAByteOrderMarkCountFromTheLineStart() throws {
        let error = try #require(parseError(bytes: [0xEF, 0xBB, 0xBF] + Array("[\n  1,]".utf8)))
        #expect(error.offset == 9)
        #expect(error.line == 2)
        #expect(error.column == 5)
    }

    @Test func onlyOneLeadingByteOrderMarkIsSkipped() throws {
        let error = try #require(parseError(bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("1".utf8)))
        #expect(error.offset == 3)
    }

    @Test func everyPrefixOfAValidDocumentIsRejectedWithoutCrashing() throws {
        let text = #"{"a": [1, -2.5e+3, "x\u00e9\n", true, false, null, {"b": {}}], "c": "😀"}"#
        let bytes = Array(text.utf8)
        #expect(throws: Never.self) { try JSONValue(parsing: bytes) }
        for end in 0..<bytes.count {
            let error = parseError(bytes: Array(bytes[..<end]))
            #expect(error != nil, "prefix of \(end) bytes must be rejected")
            if let error { #expect(error.offset <= end) }
        }
    }
}

extension JSONParserErrorTests {
    @Test("printable ASCII up to '~' is named as a character in errors")
    func tildeIsDescribedAsACharacter() throws {
        let error = try #require(parseError("~"))
        #expect(error.message == "unexpected character '~', expected a JSON value")
    }

    @Test("a stray continuation byte where a value should start gets no quoting hint")
    func strayContinuationByteAtValueStart() throws {
        let error = try #require(parseError(bytes: [0x80]))
        #expect(error.message == "unexpected byte 0x80, expected a JSON value")
        #expect(error.offset == 0)
    }

    @Test("a raw backspace in a string suggests the short escape \\b")
    func rawBackspaceSuggestsTheShortEscape() throws {
        let error = try #require(parseError("\"a\u{08}b\""))
        #expect(error.message == "unescaped control character U+0008 in string (write it as \\b)")
        #expect(error.offset == 2)
    }
}
