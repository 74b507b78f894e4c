import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("bounded error messages")
struct MessageBoundsTests {
    @Test func deepPathsAreElidedInTheMiddle() {
        let deep = String(repeating: "[0]", count: 512)
        let shown = MessageBounds.path(deep)
        #expect(shown.hasPrefix("[0][0]"))
        #expect(shown.hasSuffix("[0] (512 levels)"))
        #expect(shown.contains("…"))
        #expect(shown.count <= MessageBounds.pathLimit + 20)
    }

    @Test func shortPathsAreWhole() {
        #expect(MessageBounds.path("statuses[3].user.screen_name") == "statuses[3].user.screen_name")
    }

    @Test func mixedPathsKeepTheirEnds() {
        let path = "root" + String(repeating: ".child[1]", count: 100) + ".leaf\\.name"
        let shown = MessageBounds.path(path)
        #expect(shown.hasPrefix("root.child[1]"))
        #expect(shown.hasSuffix(".leaf\\.name (202 levels)"))
    }

    @Test func aLongFirstKeyIsCutWithOneEllipsis() {
        let shown = MessageBounds.path(String(repeating: "k", count: 100) + ".b.c.d")
        #expect(shown == String(repeating: "k", count: MessageBounds.pathLimit / 2) + "….b.c.d (4 levels)")
    }

    @Test func archiveErrorsAreBounded() {
        let error = ArchiveError.cannotEncode(path: String(repeating: "[0]", count: 512), reason: "nesting deeper than 512 levels")
        #expect(error.description.count < 160)
        #expect(error.description.hasSuffix("(512 levels): nesting deeper than 512 levels"))
    }

    @Test func longLinesAreCut() {
        let line = String(repeating: "x", count: 5000)
        let cut = MessageBounds.line(line)
        #expect(cut.count == 400)
        #expect(cut.contains("…"))
        #expect(MessageBounds.line("short") == "short")
    }

    /// A character can hold any number of scalars: one letter with
    /// 100,000 combining marks is one character, but is still cut.
    @Test func aCharacterOfManyScalarsIsCut() {
        let marks = "a" + String(repeating: "\u{301}", count: 100_000) + "z"
        let cut = MessageBounds.line(marks)
        #expect(cut.unicodeScalars.count == 4 * 400)
        #expect(cut.unicodeScalars.first == "a" && cut.unicodeScalars.last == "z")
        #expect(cut.unicodeScalars.contains("…"))
    }
}

extension MessageBoundsTests {
    @Test func aPathOfExactlyTheLimitIsWhole() {
        let path = "ab" + String(repeating: ".b", count: (MessageBounds.pathLimit - 2) / 2)
        #expect(path.count == MessageBounds.pathLimit)
        #expect(MessageBounds.path(path) == path)
    }

    @Test func aLongPathOfFewKeysKeepsBothEnds() {
        let path = String(repeating: "a", count: 50) + "." + String(repeating: "b", count: 50)
            + "." + String(repeating: "c", count: 50)
        let shown = MessageBounds.path(path)
        #expect(shown.hasPrefix(String(repeating: "a", count: 20)))
        #expect(shown.hasSuffix(String(repeating: "c", count: 20)))
        #expect(shown.contains("…"))
        #expect(shown.count <= MessageBounds.pathLimit)
    }

    @Test func aZeroLineLimitShowsTheTextWhole() {
        #expect(MessageBounds.line("abcdefghij", limit: 0) == "abcdefghij")
    }
}

extension MessageBoundsTests {
    /// A quoted key keeps to its limit whatever its escapes take.
    @Test func quotedKeysKeepToTheirLimit() {
        let key = String(repeating: "\u{1}", count: 200)
        let q = MessageBounds.quotedKey(key)
        #expect(q.count <= MessageBounds.pathLimit, "length \(q.count)")
        let quotes = String(repeating: "\"", count: 200)
        #expect(MessageBounds.quotedKey(quotes).count <= MessageBounds.pathLimit, "length \(MessageBounds.quotedKey(quotes).count)")
    }
}
