import Foundation
import Testing
@testable import AGViewModel

@Suite("JSONParser: nesting depth")
struct JSONParserDepthTests {
    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func nestedObjects(_ depth: Int) -> String {
        String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
    }

    @Test func theDefaultLimitIs512() {
        #expect(JSONParser.Options().maximumDepth == 512)
    }

    @Test func acceptsNestingAtTheLimit() throws {
        var value = try JSONValue(parsing: Self.nestedArrays(512))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == 512)
        #expect(try JSONValue(parsing: Self.nestedObjects(512)) != .null)
    }

    @Test func rejectsOneLevelMoreWithThePositionOfTheOpeningBracket() throws {
        let error = try #require(parseError(Self.nestedArrays(513)))
        #expect(error.offset == 512)
        #expect(error.message == "nesting is deeper than the maximum depth of 512 arrays and objects")
        let objects = try #require(parseError(Self.nestedObjects(513)))
        #expect(objects.offset == 512 * 5)
    }

    @Test func theLimitIsConfigurable() throws {
        let options = JSONParser.Options(maximumDepth: 3)
        #expect(parseError("[[[1]]]", options: options) == nil)
        #expect(parseError("[{\"a\":[1]}]", options: options) == nil)
        let error = try #require(parseError("[[[[1]]]]", options: options))
        #expect(error.offset == 3)
        #expect(error.message.contains("maximum depth of 3"))
    }

    @Test func aMillionLevelsGiveAnErrorNotACrash() throws {
        let error = try #require(parseError(String(repeating: "[", count: 1_000_000)))
        #expect(error.offset == 512)
        let objects = try #require(parseError(String(repeating: "{\"k\":", count: 1_000_000)))
        #expect(objects.offset == 512 * 5)
    }

    @Test func aMillionLevelsOnASmallStackThreadGiveAnError() throws {
        let stackSize = 64 * 1024
        let deep = Data(String(repeating: "[{\"a\":", count: 1_000_000).utf8)
        let run = onSmallStackThread(stackSize: stackSize) { () -> String in
            do {
                _ = try JSONParser().parse(deep)
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(run == "1:1537: error: nesting is deeper than the maximum depth of 512 arrays and objects")
    }

    @Test func documentsAtTheLimitWorkOnASmallStackThread() throws {
        // Parse, write and release a 512-deep value where the stack is small.
        let text = Self.nestedObjects(512)
        let run = onSmallStackThread(stackSize: 256 * 1024) { () -> Bool in
            guard let value = try? JSONValue(parsing: text) else { return false }
            return (try? value.jsonString()) == text
        }
        #expect(run == true)
    }

    @Test func unlimitedDepthStillNeverRecurses() throws {
        // With the limit lifted, depth costs heap, not stack: parse a deep
        // document on a small stack, and write it back there too.
        let depth = 20_000
        let text = Self.nestedArrays(depth)
        let run = onSmallStackThread(stackSize: 128 * 1024) { () -> Int in
            guard let value = try? JSONValue(parsing: text, options: .init(maximumDepth: .max)),
                  let written = try? value.jsonString() else { return -1 }
            _ = consume value   // released here, on the small stack
            return written == text ? depth : -2
        }
        #expect(run == depth)
    }
}
