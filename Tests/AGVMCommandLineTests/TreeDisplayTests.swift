import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

/// `agvm convert`'s tree keeps within the width, says where it cut, shows
/// keys unambiguously and keeps errors off the progress line.
@Suite("agvm convert: tree width, cuts, escapes and progress")
struct TreeDisplayTests {
    private func convert(_ json: String, _ arguments: String...) -> (CapturedIO, Int32) {
        let captured = CapturedIO(standardInput: Data(json.utf8))
        let status = CommandLineTool.run(arguments: ["convert", "-"] + arguments, io: captured.io)
        return (captured, status)
    }

    /// Every character drawn as an emoji by default takes two columns, a
    /// flag (two regional indicators) too.
    @Test func emojiPresentationCharactersTakeTwoColumns() {
        for text in ["⚡", "✅", "❌", "⭐", "⌚", "🀄", "🆎", "🟠", "🇯🇵"] {
            let character = Character(text)
            #expect(character.unicodeScalars.contains { $0.properties.isEmojiPresentation })
            #expect(DisplayWidth.of(character) == 2, "\(text)")
        }
    }

    @Test func aLineOfEmojiStaysWithinTheWidth() {
        let (captured, status) = convert(#"[{"w": "\#(String(repeating: "⚡", count: 40))"}]"#, "--width", "40")
        #expect(status == 0)
        let row = captured.output.split(separator: "\n").first { $0.contains("⚡") }!
        // ⚡ (U+26A1, East Asian Width W, Emoji_Presentation) takes two columns.
        let columns = row.reduce(0) { $0 + ($1 == "⚡" ? 2 : 1) }
        #expect(columns <= 40, "\(columns) columns: \(row)")
    }

    /// What a terminal draws as one glyph counts once: an emoji with a
    /// skin tone or `U+FE0F`, a flag, up to four emoji joined by `U+200D`,
    /// a Hangul syllable in jamo. A lone skin tone is an emoji of its own.
    @Test(arguments: [
        ("\u{1F3FD}", 2), ("\u{1F44D}\u{1F3FD}", 2), ("\u{2764}\u{FE0F}", 2), ("\u{2764}", 1), ("1\u{FE0F}\u{20E3}", 2),
        ("\u{1F1EF}\u{1F1F5}", 2), ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 2),
        ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}", 2),
        ("\u{1100}\u{1161}\u{11A8}", 2), ("e\u{0301}", 1), ("\"\u{1F3FB}", 3),
        ("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", 2), ("\u{1F3C3}\u{200D}\u{2640}\u{FE0F}", 2),
        ("\u{1F9D1}\u{200D}\u{2695}\u{FE0F}", 2), ("\u{1F469}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F468}", 2),
        ("\u{1F43B}\u{200D}\u{2744}\u{FE0F}", 2), ("\u{1F575}\u{FE0F}\u{200D}\u{2640}\u{FE0F}", 2),
        ("\u{270C}\u{1F3FD}", 2), ("\u{1F575}\u{1F3FD}", 2), ("\u{1F355}\u{1F3FD}", 4),
        ("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}", 2), ("#\u{FE0F}\u{20E3}", 2), ("\u{00A9}", 1),
    ])
    func clustersCountAsDrawn(text: String, columns: Int) {
        #expect(text.count == 1 || text.hasPrefix("\""), "one cluster")
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func skinToneSwatchesStayWithinTheWidth() {
        let tones = (0..<12).flatMap { _ in ["\u{1F3FB}", "\u{1F3FC}", "\u{1F3FD}", "\u{1F3FE}", "\u{1F3FF}"] }
        let (captured, status) = convert("[{\"tones\": [\(tones.map { "\"\($0)\"" }.joined(separator: ","))]}]", "--width", "40")
        #expect(status == 0)
        for line in captured.output.split(separator: "\n") where line.contains("tones") {
            let drawn = line.unicodeScalars.reduce(0) { $0 + ((0x1F3FB...0x1F3FF).contains($1.value) ? 2 : 1) }
            #expect(drawn <= 40, "\(drawn) columns: \(line)")
        }
    }

    /// One grapheme cluster can be arbitrarily wide (a run of 60 Hangul
    /// leading jamo is one Character): it is measured in full, and left out
    /// with a `…` when it does not fit.
    @Test func oneLongGraphemeClusterIsStillCutToTheWidth() {
        let jamo = String(repeating: "\u{1100}", count: 60)
        #expect(jamo.count == 1, "one grapheme cluster")
        #expect(DisplayWidth.of(Character("\u{1100}")) == 2)
        let (captured, status) = convert(#"[{"j": "\#(jamo)"}]"#, "--width", "40")
        #expect(status == 0)
        for line in captured.output.split(separator: "\n") {
            let columns = line.unicodeScalars.reduce(0) { $0 + ($1 == "\u{1100}" ? 2 : 1) }
            #expect(columns <= 40, "\(columns) columns: \(line)")
        }
    }

    /// A label whose title fills the width exactly still shows that the
    /// counts after it were cut.
    @Test func aLabelCutAfterItsTitleSaysSo() {
        let manager = Manager(sections: [Section(items: [ViewModel(["a": 1])])])
        func render(width: Int) -> [Substring] {
            TreeRenderer(style: OutputStyle(width: width, colors: false))
                .render(manager: manager, title: "<stdin>").split(separator: "\n")
        }
        // "<stdin>" is 7 columns. Either the counts or a mark that something was cut.
        let root = render(width: 7).first.map(String.init) ?? ""
        #expect(root.contains("·") || root.hasSuffix("…"), "root line: \(root)")
        let item = render(width: 12).first { $0.contains("item") }.map(String.init) ?? ""  // "   └─ item 0" fills 12
        #expect(item.contains("·") || item.hasSuffix("…"), "item line: \(item)")
    }

    /// Narrower than 20 columns a tree's own lines do not fit: `--width`
    /// refuses it, and a narrower terminal or `COLUMNS` gets 20.
    @Test func treesAreAtLeastTwentyColumnsWide() {
        for width in ["1", "19", "10001", "-1"] {
            let (captured, status) = convert(#"[{"a": 1}]"#, "--width", width)
            #expect(status == 2)
            #expect(captured.error == "agvm: invalid value '\(width)' for '--width': expected 0 (no limit) or a whole number from 20 to 10000; see 'agvm convert --help'\n")
        }
        let captured = CapturedIO(standardInput: Data(#"[{"name": "a long enough value to be cut somewhere"}]"#.utf8))
        var io = captured.io
        io.environment = ["COLUMNS": "5"]
        #expect(CommandLineTool.run(arguments: ["convert", "-"], io: io) == 0)
        let widths = captured.output.split(separator: "\n").map { DisplayWidth.of($0) }
        #expect(widths.max() == 20)
    }

    /// A key holding ESC and a key holding the six characters `\u001B`
    /// print as two different rows: backslashes are escaped too.
    @Test func aKeyWithAControlCharacterIsNotShownAsAnotherKey() {
        let (captured, status) = convert(#"[{"\u001b": 1, "\\u001B": 2}]"#, "--width", "0")
        #expect(status == 0)
        let rows = captured.output.split(separator: "\n").filter { $0.contains(" int ") }
            .map { String($0.drop { $0 == " " }.prefix { $0 != " " }) }
        #expect(rows.count == 2)
        #expect(Set(rows).count == 2, "two keys shown as \(rows)")
    }

    /// Every bidirectional control is escaped, the Arabic letter mark
    /// U+061C included.
    @Test func everyBidiControlIsEscaped() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isBidiControl else { continue }
            #expect(TreeRenderer.printable(String(scalar)) != String(scalar), "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    /// An input that cannot be read has its error written after the
    /// progress line is erased, as every other error is.
    @Test func aReadErrorIsNotWrittenOntoTheProgressLine() {
        let captured = CapturedIO()
        var io = captured.io
        io.isErrorTerminal = true
        let books = fixture("books.json")
        let status = CommandLineTool.run(arguments: ["convert", books, "/nonexistent/missing.json"], io: io)
        #expect(status == 1)
        #expect(captured.error.contains("\r\u{1B}[2K/nonexistent/missing.json: error: cannot read"), "\(captured.error.debugDescription)")
    }
}
