import Foundation
import Testing
@testable import AGViewModel

@Suite("JSONWriter")
struct JSONWriterTests {
    static let sample: JSONValue = ["title": "Swift", "price": 9.5, "tags": ["a", 1, nil, true], "empty": [:], "none": []]

    @Test func compactHasNoWhitespace() throws {
        #expect(try Self.sample.jsonString()
            == #"{"title":"Swift","price":9.5,"tags":["a",1,null,true],"empty":{},"none":[]}"#)
    }

    @Test func prettyIndentsTwoSpacesByDefault() throws {
        let expected = """
        {
          "title": "Swift",
          "price": 9.5,
          "tags": [
            "a",
            1,
            null,
            true
          ],
          "empty": {},
          "none": []
        }
        """
        #expect(try Self.sample.jsonString(options: .pretty) == expected)
    }

    @Test func indentIsConfigurable() throws {
        let value: JSONValue = ["a": [1]]
        #expect(try value.jsonString(options: .init(pretty: true, indent: 4)) == "{\n    \"a\": [\n        1\n    ]\n}")
        #expect(try value.jsonString(options: .init(pretty: true, indent: 0)) == "{\n\"a\": [\n1\n]\n}")
        #expect(try value.jsonString(options: .init(pretty: true, indent: -3)) == "{\n\"a\": [\n1\n]\n}")
    }

    @Test func sortedKeysUseUTF8ByteOrderAtEveryLevel() throws {
        let value: JSONValue = ["b": 1, "é": 2, "a": ["z": 1, "B": 2], "aa": 3, "B": 4]
        #expect(try value.jsonString(options: .init(sortedKeys: true))
            == #"{"B":4,"a":{"B":2,"z":1},"aa":3,"b":1,"é":2}"#)
        // Insertion order is kept otherwise.
        #expect(try value.jsonString() == #"{"b":1,"é":2,"a":{"z":1,"B":2},"aa":3,"B":4}"#)
    }

    @Test func escapesQuotesBackslashesAndControlCharactersOnly() throws {
        let text = "\"\\/\n\r\t\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F} é€😀\u{2028}"
        #expect(try JSONValue.string(text).jsonString()
            == #""\"\\/\n\r\t\b\f\u0000\u0001\u001f"# + "\u{7F} é€😀\u{2028}\"")
    }

    @Test func escapesInLongStringsAcrossWordBoundaries() throws {
        let text = String(repeating: "abcdefg\"", count: 5) + String(repeating: "x", count: 13) + "\n"
        let written = try JSONValue.string(text).jsonString()
        #expect(written == "\"" + String(repeating: "abcdefg\\\"", count: 5) + String(repeating: "x", count: 13) + "\\n\"")
        #expect(try JSONValue(parsing: written) == .string(text))
    }

    @Test func keysAreEscapedToo() throws {
        let value: JSONValue = ["a\"b\n": 1]
        #expect(try value.jsonString() == #"{"a\"b\n":1}"#)
    }

    @Test func integersAreExact() throws {
        #expect(try JSONValue.int(.max).jsonString() == "9223372036854775807")
        #expect(try JSONValue.int(.min).jsonString() == "-9223372036854775808")
        #expect(try JSONValue.int(0).jsonString() == "0")
        #expect(try JSONValue.int(-42).jsonString() == "-42")
        #expect(try JSONValue.int(505874924095815681).jsonString() == "505874924095815681")
    }

    @Test func bigIntegersAreWrittenVerbatim() throws {
        #expect(try JSONValue.bigInteger("18446744073709551616").jsonString() == "18446744073709551616")
    }

    @Test(arguments: [
        (5.0, "5.0"), (0.1, "0.1"), (1e-05, "1e-05"), (1e300, "1e+300"), (-0.0, "-0.0"),
        (0.0, "0.0"), (1e16, "1e+16"), (123456.789, "123456.789"),
        (Double.leastNonzeroMagnitude, "5e-324"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func doublesUseTheShortestFormThatReadsBackAsADouble(value: Double, text: String) throws {
        let written = try JSONValue.double(value).jsonString()
        #expect(written == text)
        let back = try JSONValue(parsing: written)
        guard case .double(let d) = back else {
            Issue.record("\(text) read back as \(back)")
            return
        }
        #expect(d.bitPattern == value.bitPattern)
    }

    @Test func nonFiniteDoublesThrowWithThePathOfTheValue() throws {
        let value: JSONValue = ["stats": ["scores": [1.5, .double(.nan)]]]
        do {
            _ = try value.jsonString()
            Issue.record("NaN must not be written")
        } catch {
            #expect(error.path == "stats.scores[1]")
            #expect(error.message == "stats.scores[1]: cannot write nan: JSON has no NaN or infinity")
        }
        do {
            _ = try JSONValue.double(-.infinity).jsonString(options: .pretty)
            Issue.record("infinity must not be written")
        } catch {
            #expect(error.path.components.isEmpty)
            #expect(error.message == "top-level value: cannot write -inf: JSON has no NaN or infinity")
        }
    }

    @Test func sortedOutputNamesTheRightPathOnError() throws {
        let value: JSONValue = ["b": 1, "a": ["c": .double(.infinity)]]
        #expect(throws: JSONWriteError.self) { try value.jsonString(options: .init(sortedKeys: true)) }
        do {
            _ = try value.jsonString(options: .init(sortedKeys: true))
        } catch {
            #expect(error.path == "a.c")
        }
    }

    @Test func dataAndBytesMatchTheString() throws {
        let text = try Self.sample.jsonString()
        #expect(try Self.sample.jsonData() == Data(text.utf8))
        #expect(try Self.sample.jsonBytes() == Array(text.utf8))
    }

    @Test func foundationReadsWhatWeWrite() throws {
        let value: JSONValue = ["text": "line\nbreak \"quoted\" é😀\u{1}", "n": [1, -2.5, 1e-7], "ok": true]
        let data = try value.jsonData(options: .pretty)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["text"] as? String == "line\nbreak \"quoted\" é😀\u{1}")
        #expect(object["ok"] as? Bool == true)
    }
}

extension JSONWriterTests {
    // U+212B ANGSTROM SIGN (E2 84 AB) sorts after U+00C6 (C3 86) by bytes,
    // though it normalizes to U+00C5, which String's < puts first.
    @Test("sorted keys follow UTF-8 byte order for keys not in NFC too")
    func sortedKeysUseByteOrderForKeysNotInNFC() throws {
        let value: JSONValue = ["\u{212B}": 1, "\u{00C6}": 2]
        let text = try value.jsonString(options: .init(sortedKeys: true))
        #expect(text == "{\"\u{00C6}\":2,\"\u{212B}\":1}")
    }

    @Test("a string many times the writer's first buffer is written whole")
    func aHugeStringIsWrittenWhole() throws {
        let long = String(repeating: "abcdefgh", count: 512 * 1024)  // 4 MB in one write
        let value: JSONValue = [.string(long), "end"]
        let bytes = try value.jsonBytes()
        #expect(bytes.count == long.utf8.count + 10)
        #expect(try JSONValue(parsing: bytes) == value)
    }
}
