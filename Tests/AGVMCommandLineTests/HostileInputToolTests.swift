import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

/// The tool on files that are not what they claim to be: each gives one
/// positioned `FILE[:LINE:COLUMN]: error: ...` line and exit status 1,
/// never a crash or partial output.
@Suite("agvm on hostile input")
struct HostileInputToolTests {
    static let png: Data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52])
        + Data((0 ..< 256).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    static let html = Data("<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)
    static let utf16 = Data([0xFF, 0xFE]) + "{\"a\": 1}".data(using: .utf16LittleEndian)!

    /// Runs the tool with canned files; returns status, output and error.
    static func run(_ arguments: [String], files: [String: Data]) -> (status: Int32, output: String, error: String) {
        let io = CapturedIO(files: files)
        let status = CommandLineTool.run(arguments: arguments, io: io.io)
        return (status, io.output, io.error)
    }

    @Test(arguments: [
        ("image.png", png, "image.png:1:1: error: unexpected byte 0x89"),
        ("error.html", html, "error.html:1:1: error: unexpected character '<'"),
        ("utf16.json", utf16, "utf16.json:1:1: error: "),
        ("empty.json", Data(), "empty.json:1:1: error: unexpected end of input"),
        ("nul.json", Data("{\"a\": \"x\0y\"}".utf8), "nul.json:1:9: error: unescaped control character U+0000"),
    ])
    func validateAndConvertReportThePosition(name: String, data: Data, expected: String) {
        for command in ["validate", "convert"] {
            let result = Self.run([command, name], files: [name: data])
            #expect(result.status == 1, "\(command) \(name)")
            #expect(result.error.hasPrefix(expected), "\(command) \(name): \(result.error)")
            #expect(result.error.split(separator: "\n").count == 1, "one error line: \(result.error)")
            #expect(result.output.isEmpty, "\(command) \(name) printed output")
        }
    }

    @Test func utf16InputIsNamedAsSuch() {
        let result = Self.run(["validate", "utf16.json"], files: ["utf16.json": Self.utf16])
        #expect(result.error.contains("UTF-16LE") && result.error.contains("must be UTF-8"), "\(result.error)")
    }

    @Test(arguments: [("image.png", png), ("error.html", html), ("books.json", Data("{\"a\": 1}".utf8)), ("empty", Data())])
    func inspectRejectsFilesThatAreNotArchives(name: String, data: Data) {
        let result = Self.run(["inspect", name], files: [name: data])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(name): error: "), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    /// Keys, values and file names reach messages escaped and bounded: an
    /// escape sequence cannot restyle the terminal, nor a line break start
    /// a line that reads as another message.
    @Test func dataInMessagesIsEscaped() {
        let keys = Self.run(["keys", "n.json", "--module", "N"],
                            files: ["n.json": Data(#"{"a\u001b[31mRED\nfake: error: x": null}"#.utf8)])
        #expect(keys.status == 0)
        #expect(keys.error == "n.json: note: a\\u001B[31mRED\\nfake: error: x: null in every sample; typed as JSONValue\n",
                "\(keys.error)")

        let spec = #"{"fields": [{"key": "t", "path": "t", "type": "int", "required": true}]}"#
        let convert = Self.run(["convert", "d.json", "--packager", "s.json"],
                               files: ["d.json": Data(#"[{"t": "\u001b[2J\nfake"}]"#.utf8), "s.json": Data(spec.utf8)])
        #expect(!convert.error.contains("\u{1B}") && !convert.error.dropLast().contains("\n"), "\(convert.error)")
        #expect(convert.error.contains(#"\u001B[2J\nfake"#), "\(convert.error)")

        let longKey = String(repeating: "k", count: 100_000)
        let long = Self.run(["keys", "l.json", "--module", "L"], files: ["l.json": Data(#"{"\#(longKey)": null}"#.utf8)])
        #expect(long.error.count < 500, "\(long.error.count) characters")

        let name = "bad\u{1B}]0;title\u{07}.json"
        let missing = Self.run(["validate", name], files: [:])
        #expect(missing.status == 1)
        #expect(!missing.error.contains("\u{1B}") && !missing.error.contains("\u{07}"), "\(missing.error)")
    }

    @Test func aSpecThatIsNotJSONIsAPositionedSpecError() {
        let result = Self.run(["convert", "data.json", "--packager", "spec.json"],
                              files: ["data.json": Data("[{\"a\": 1}]".utf8), "spec.json": Self.html])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("spec.json:1:1: error: "), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func keysRejectsAnInvalidSampleWithItsPosition() {
        let result = Self.run(["keys", "bad.json", "--module", "M"], files: ["bad.json": Data(#"{"a": 1,}"#.utf8)])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("bad.json:1:9: error: "), "\(result.error)")
        #expect(result.output.isEmpty)
    }
}
