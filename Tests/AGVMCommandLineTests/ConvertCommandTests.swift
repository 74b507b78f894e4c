import AGViewModel
import Foundation
import Testing
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
            #expect(onScreen.hasPrefix("\u{1B}[2K\(books): error: products: missing")
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
}
