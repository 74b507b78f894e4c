import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("agvm validate and format")
struct ValidateAndFormatTests {
    @Test func validateAcceptsTheFixtures() {
        let io = CapturedIO()
        let files = ["books.json", "feed.json", "products.json"].map(fixture)
        #expect(CommandLineTool.run(arguments: ["validate"] + files, io: io.io) == 0)
        #expect(io.error.isEmpty)
        #expect(io.output == files.map { "\($0): ok\n" }.joined())
    }

    @Test func validateReportsEveryBadFileWithItsPosition() {
        let io = CapturedIO(files: [
            "good.json": Data("[1]".utf8),
            "comma.json": Data("{\n  \"a\": 1,\n}".utf8),
            "utf8.json": Data([0x22, 0xFF, 0x22]),
        ])
        #expect(io.run("validate", "comma.json", "good.json", "utf8.json") == 1)
        #expect(io.error == """
        comma.json:3:1: error: trailing comma is not allowed before '}'
        utf8.json:1:2: error: invalid UTF-8: byte 0xFF never appears in UTF-8

        """)
        #expect(io.output == "good.json: ok\n")
    }

    @Test func unreadableFilesExitOneWithoutATrace() {
        let io = CapturedIO()
        #expect(io.run("validate", "/nonexistent/x.json") == 1)
        #expect(io.error == "/nonexistent/x.json: error: cannot read: No such file or directory\n")
        let dir = CapturedIO()
        #expect(dir.run("format", NSTemporaryDirectory()) == 1)
        #expect(dir.error.contains(": error: cannot read: "))
    }

    /// An archive given where JSON is read: the parse error, then where
    /// to read it instead; a JSON file that merely starts oddly gets no note.
    @Test func anArchiveGivenForJSONPointsToInspect() throws {
        let archive = try ArchiveEncoder().encode(.viewModel(ViewModel(["title": "Dune"]))).data
        let note = "x.agvm: note: this is an AGViewModel archive, not JSON; read it with 'agvm inspect x.agvm'\n"
        for arguments in [["validate", "x.agvm"], ["format", "x.agvm"], ["convert", "x.agvm"], ["keys", "x.agvm", "--module", "M"]] {
            let io = CapturedIO(files: ["x.agvm": archive])
            #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 1)
            #expect(io.error == "x.agvm:1:1: error: unexpected byte 0x89, expected a JSON value\n" + note, "\(arguments)")
        }
        let stdin = CapturedIO(standardInput: archive)
        #expect(stdin.run("convert", "-") == 1)
        #expect(stdin.error.hasSuffix("<stdin>: note: this is an AGViewModel archive, not JSON; read it with 'agvm inspect -'\n"))
        let binary = CapturedIO(files: ["x.bin": Data([0x89, 0x50, 0x4E, 0x47])])
        #expect(binary.run("validate", "x.bin") == 1)
        #expect(!binary.error.contains("note:"))
    }

    @Test func validateReadsStandardInput() {
        let io = CapturedIO(standardInput: Data("[1, 2".utf8))
        #expect(io.run("validate", "-") == 1)
        #expect(io.error == "<stdin>:1:6: error: unexpected end of input, expected ',' or ']' after array element\n")
    }

    @Test func formatIsPrettyByDefault() {
        let io = CapturedIO(standardInput: Data(#"{"b": [1, {}], "a": "x"}"#.utf8))
        #expect(io.run("format", "-") == 0)
        #expect(io.output == "{\n  \"b\": [\n    1,\n    {}\n  ],\n  \"a\": \"x\"\n}\n")
    }

    @Test func formatCompactsIndentsAndSorts() {
        let input = Data(#"{"b": [1, {}], "a": "x"}"#.utf8)
        let compact = CapturedIO(standardInput: input)
        #expect(compact.run("format", "--compact", "--sort-keys", "-") == 0)
        #expect(compact.output == #"{"a":"x","b":[1,{}]}"# + "\n")
        let indented = CapturedIO(standardInput: input)
        #expect(indented.run("format", "--indent", "4", "-") == 0)
        #expect(indented.output.hasPrefix("{\n    \"b\": [\n        1,"))
    }

    @Test func formatOutputParsesBackToTheFixture() throws {
        for name in ["books.json", "feed.json", "products.json"] {
            let io = CapturedIO()
            #expect(io.run("format", "--pretty", fixture(name)) == 0)
            let original = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: fixture(name))))
            #expect(try JSONValue(parsing: io.output) == original)
        }
    }

    @Test func formatRejectsInvalidInputWithItsPosition() {
        let io = CapturedIO(files: ["bad.json": Data("[01]".utf8)])
        #expect(io.run("format", "bad.json") == 1)
        #expect(io.error == "bad.json:1:2: error: leading zeros are not allowed in numbers\n")
        #expect(io.output.isEmpty)
    }
}
