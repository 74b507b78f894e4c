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

    @Test func aSpecThatIsNotJSONIsAPositionedSpecError() {
        let result = Self.run(["convert", "data.json", "--packager", "spec.json"],
                              files: ["data.json": Data("[{\"a\": 1}]".utf8), "spec.json": Self.html])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("spec.json:1:1: error: "), "\(result.error)")
        #expect(result.output.isEmpty)
    }
}
