import AGViewModel
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import AGVMCommandLine

/// `agvm convert` in-process, with a controllable terminal and environment.
@Suite("agvm convert: terminal behaviour")
struct ConvertCommandTests {
    let books = fixture("books.json")
    let feed = fixture("feed.json")

    func run(_ arguments: [String], configure: (inout ToolIO) -> Void = { _ in }) -> (CapturedIO, Int32) {
        let captured = CapturedIO()
        var io = captured.io
        configure(&io)
        return (captured, CommandLineTool.run(arguments: arguments, io: io))
    }

    @Test func aProgressLineShowsOnATerminalForSeveralInputsAndIsErased() {
        let (captured, status) = run(["convert", books, feed]) { $0.isErrorTerminal = true }
        #expect(status == 0)
        #expect(captured.error.contains("\r\u{1B}[2Kagvm: converting 1/2: \(books)…"))
        #expect(captured.error.contains("\r\u{1B}[2Kagvm: converting 2/2: \(feed)…"))
        #expect(captured.error.hasSuffix("\r\u{1B}[2K"), "erased at the end")
        #expect(!captured.output.contains("converting"))
    }

    @Test func noProgressInPipesOrForOneSmallInput() {
        let (piped, _) = run(["convert", books, feed])
        #expect(piped.error.isEmpty)
        let (single, _) = run(["convert", books]) { $0.isErrorTerminal = true }
        #expect(single.error.isEmpty)
    }

    @Test func warningsAreNotMixedIntoTheProgressLine() {
        let products = fixture("products.json")
        let (captured, status) = run(["convert", books, products, "-p", fixture("specs/products.spec.json")]) {
            $0.isErrorTerminal = true
        }
        #expect(status == 1, "books.json does not fit the products spec")
        // Each message is written after the progress line was erased, so on
        // screen it starts at column 0 and no progress text remains on it.
        let lines = captured.error.split(separator: "\n").filter { $0.contains("warning:") || $0.contains("error:") }
        #expect(lines.count == 2)
        for line in lines {
            let onScreen = line.split(separator: "\r", omittingEmptySubsequences: false).last ?? ""
            #expect(onScreen.hasPrefix("\u{1B}[2K\(books): error: packaging with \(fixture("specs/products.spec.json")): products: missing")
                    || onScreen.hasPrefix("\u{1B}[2K\(products): warning: item 2:"), "\(line)")
        }
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        let (terminal, _) = run(["convert", books]) { $0.isOutputTerminal = true }
        #expect(terminal.output.contains("\u{1B}[36m"))
        let (noColor, _) = run(["convert", books]) {
            $0.isOutputTerminal = true
            $0.environment = ["NO_COLOR": "1"]
        }
        #expect(!noColor.output.contains("\u{1B}"))
        let (piped, _) = run(["convert", books])
        #expect(!piped.output.contains("\u{1B}"))
    }

    @Test func theTerminalWidthIsUsedOnATerminal() {
        let (captured, _) = run(["convert", books]) {
            $0.isOutputTerminal = true
            $0.environment = ["NO_COLOR": "1"]
            $0.terminalColumns = { 60 }
        }
        let widths = captured.output.split(separator: "\n").map { DisplayWidth.of($0) }
        #expect(widths.max() == 60)
    }

    @Test func widthOnlyAppliesToTrees() {
        let (captured, status) = run(["convert", books, "--to", "json", "--width", "40"])
        #expect(status == 2)
        #expect(captured.error == "agvm: '--width' applies to '--to tree' only; see 'agvm convert --help'\n")
    }

    @Test(arguments: ["/dev/stdout", "/dev/fd/1"])
    func anArchiveIsNotWrittenToATerminalStandardOutput(path: String) {
        let (captured, status) = run(["convert", books, "--to", "archive", "-o", path]) { $0.isOutputTerminal = true }
        #expect(status == 2)
        #expect(captured.outputData.isEmpty)
        #expect(captured.error == "agvm: '--to archive' cannot write to a terminal ('-o \(path)'): archives are binary; give '-o FILE' or a pipe; see 'agvm convert --help'\n")
    }

    @Test func anArchiveIsWrittenToStandardOutputThatIsAPipe() throws {
        let (captured, status) = run(["convert", books, "--to", "archive", "-o", "/dev/stdout"])
        #expect(status == 0)
        #expect(captured.error.isEmpty)
        guard case .manager(let manager) = try ArchiveDecoder().decode(captured.outputData) else {
            Issue.record("not a manager archive")
            return
        }
        #expect(manager.sections.first?.items.isEmpty == false)
    }

    #if os(Linux)
    @Test func anArchiveIsNotWrittenToATerminalDeviceNamedByPath() throws {
        // A pseudo-terminal: its secondary side is a terminal named by path.
        let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(primary >= 0, "no pseudo-terminals here")
        defer { close(primary) }
        var number: UInt32 = 0, locked: Int32 = 0
        try #require(ioctl(primary, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        try #require(ioctl(primary, 0x4004_5431 /* TIOCSPTLCK */, &locked) == 0)
        let secondary = "/dev/pts/\(number)"
        let (captured, status) = run(["convert", books, "--to", "archive", "-o", secondary])
        #expect(status == 2)
        #expect(captured.error.contains("cannot write to a terminal ('-o \(secondary)')"))
        // A tree is text: it is written to the same device.
        let (tree, treeStatus) = run(["convert", books, "-o", secondary])
        #expect(treeStatus == 0, Comment(rawValue: tree.error))
        var buffer = [UInt8](repeating: 0, count: 256)
        #expect(read(primary, &buffer, buffer.count) > 0, "the tree reached the terminal")
    }
    #endif

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("agvm-\(UUID().uuidString)-\(name)").path
    }

    @Test func aFileGetsNeitherColourNorTheTerminalWidth() throws {
        let out = temporaryPath("tree.txt")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (captured, status) = run(["convert", books, "-o", out]) {
            $0.isOutputTerminal = true
            $0.terminalColumns = { 200 }
        }
        #expect(status == 0)
        #expect(captured.output.isEmpty)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!text.contains("\u{1B}"))
        #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 80 })
    }

    @Test func theProgressLineIsErasedBeforeAnErrorAndNotAgain() {
        let captured = CapturedIO(files: ["bad.json": Data("[1,".utf8)])
        var io = captured.io
        io.isErrorTerminal = true
        #expect(CommandLineTool.run(arguments: ["convert", books, "bad.json"], io: io) == 1)
        #expect(captured.error.hasPrefix("\r\u{1B}[2Kagvm: converting 1/2: \(books)…"
            + "\r\u{1B}[2Kagvm: converting 2/2: bad.json…\r\u{1B}[2Kbad.json:1:"), "\(captured.error)")
        #expect(captured.error.hasSuffix("\n"), "nothing is erased after the message")
        #expect(captured.output.isEmpty)
    }

    @Test func oneLargeInputShowsProgressWithoutACounter() {
        let large = Data((#"[{"a": ""# + String(repeating: "x", count: ProgressLine.largeInput) + #""}]"#).utf8)
        let captured = CapturedIO(files: ["large.json": large])
        var io = captured.io
        io.isErrorTerminal = true
        #expect(CommandLineTool.run(arguments: ["convert", "large.json", "--to", "json"], io: io) == 0)
        #expect(captured.error == "\r\u{1B}[2Kagvm: converting: large.json…\r\u{1B}[2K")
    }

    @Test func columnsThatAreNotPositiveAreIgnored() {
        let (plain, _) = run(["convert", books])
        for columns in ["0", "-5"] {
            let (captured, status) = run(["convert", books]) { $0.environment = ["COLUMNS": columns] }
            #expect(status == 0)
            #expect(captured.output == plain.output, "COLUMNS=\(columns)")
        }
    }

    @Test func standardInputIsTitledStdin() throws {
        let json = Data(#"[{"a": 1}]"#.utf8)
        let tree = CapturedIO(standardInput: json)
        #expect(tree.run("convert", "-") == 0)
        #expect(tree.output.hasPrefix("<stdin> · 1 section · 1 item\n"), "\(tree.output)")

        let out = temporaryPath("stdin.agvm")
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(CapturedIO(standardInput: json).run("convert", "-", "--to", "archive", "-o", out) == 0)
        let inspect = CapturedIO(standardInput: try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(inspect.run("inspect", "-") == 0)
        #expect(inspect.output.hasPrefix("<stdin> · archive format "), "\(inspect.output)")
    }

    @Test func theArchiveChecksumAlwaysShowsEightHexDigits() throws {
        var archive: Data?
        for n in 0 ..< 4096 {
            let data = try ArchiveEncoder(keys: .everything).encode(.value(.int(Int64(n)))).data
            if try ArchiveDecoder().header(of: data).payloadChecksum < 0x1000_0000 {
                archive = data
                break
            }
        }
        let data = try #require(archive)
        let checksum = try ArchiveDecoder().header(of: data).payloadChecksum
        let written = "0x" + String(repeating: "0", count: 8 - String(checksum, radix: 16).count)
            + String(checksum, radix: 16, uppercase: true)
        let tree = CapturedIO(standardInput: data)
        #expect(tree.run("inspect", "-") == 0)
        #expect(tree.output.contains("CRC-32 \(written)"), "\(tree.output)")
        let json = CapturedIO(standardInput: data)
        #expect(json.run("inspect", "-", "--to", "json") == 0)
        #expect(json.output.contains("\"\(written)\""), "\(json.output)")
    }

    /// The spec reads only `id_str`, so the projected parse leaves out the
    /// key a hint would name: the tool reports from a full parse.
    @Test func aMissingKeyIsReportedWithTheKeyItMayHaveMeant() {
        let spec = #"{"items": "rows", "fields": [{"key": "id", "path": "id_str", "type": "string", "required": true}]}"#
        let io = CapturedIO(files: [
            "spec.json": Data(spec.utf8),
            "rows.json": Data(#"{"rows": [{"id_str": "1"}, {"idStr": "2"}]}"#.utf8),
            "renamed.json": Data(#"{"Rows": []}"#.utf8),
        ])
        #expect(io.run("convert", "rows.json", "-p", "spec.json", "--to", "json") == 0)
        #expect(io.error == #"rows.json: warning: item 1: required key "id" (path id_str) has no value: id_str: missing (did you mean "idStr"?)"# + "\n")
        #expect(io.output.contains(#""id": "1""#), "\(io.output)")
        let renamed = CapturedIO(files: io.files)
        #expect(renamed.run("convert", "renamed.json", "-p", "spec.json") == 1)
        #expect(renamed.error == #"renamed.json: error: packaging with spec.json: rows: missing (did you mean "Rows"?)"# + "\n")
    }

    @Test func anUnreadableSpecFailsTheRunAndWritesNothing() {
        let io = CapturedIO()
        #expect(io.run("convert", books, "-p", "/nonexistent/spec.json") == 1)
        #expect(io.error == "/nonexistent/spec.json: error: cannot read: No such file or directory\n")
        #expect(io.output.isEmpty)
    }

    @Test func aManagerTooDeepToArchiveFailsAndWritesNoFile() {
        let levels = 509
        let json = #"[{"a": "# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}]"
        let out = temporaryPath("deep.agvm")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let io = CapturedIO(files: ["deep.json": Data(json.utf8)])
        #expect(io.run("convert", "deep.json", "--to", "archive", "-o", out) == 1)
        #expect(io.error.hasPrefix("deep.json: error: cannot archive "), "\(io.error)")
        #expect(io.error.hasSuffix("nesting deeper than 512 levels\n"), "\(io.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
