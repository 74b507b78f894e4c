import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

@Suite("agvm: tree rendering, width and colour")
struct TreeRendererTests {
    func manager() -> Manager {
        let header = ViewModel(["title": "Books"])
        let item = ViewModel(["id": 1042, "title": "Swift Concurrency by Example", "rating": 4.6,
                              "inStock": true, "series": nil, "tags": ["swift", "ios"]])
        return Manager(sections: [Section(items: [item], header: header)], common: ViewModel(["page": 2]))
    }

    @Test func rendersSectionsItemsKeysTypesAndCounts() {
        let text = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(manager: manager(), title: "books.json")
        #expect(text == """
            books.json · 1 section · 1 item
            ├─ common · 1 key
            │  page  int  2
            └─ section 0 · Books · 1 item
               ├─ header · 1 key
               │  title  string  "Books"
               └─ item 0 · 6 keys
                  id       int       1042
                  title    string    "Swift Concurrency by Example"
                  rating   double    4.6
                  inStock  bool      true
                  series   null      null
                  tags     array(2)  ["swift","ios"]

            """)
    }

    @Test func valuesAreCutToTheWidthWithAnEllipsis() {
        for width in [30, 40, 52] {
            let text = TreeRenderer(style: OutputStyle(width: width, colors: false)).render(manager: manager(), title: "books.json")
            for line in text.split(separator: "\n") {
                #expect(DisplayWidth.of(line) <= width, "\(width): \(line)")
            }
            #expect(text.contains("…"))
        }
        let cut = TreeRenderer(style: OutputStyle(width: 40, colors: false)).render(manager: manager(), title: "books.json")
        // 6 + 7 + 2 + 8 + 2 = 25 columns before the value leave 15 for it.
        #expect(cut.contains("      title    string    \"Swift Concurr…\n"))
        // Short values are not touched.
        #expect(cut.contains("      id       int       1042\n"))
    }

    @Test func evenDeepLinesStayWithinAVeryNarrowWidth() {
        let text = TreeRenderer(style: OutputStyle(width: 12, colors: false)).render(manager: manager(), title: "a-long-title.json")
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(line) <= 12, "\(line)") }
    }

    @Test func wideCharactersCountTwoColumnsAndAreNeverSplit() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("田中") == 4)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.cut("田中太郎", to: 6) == "田中…")
        #expect(DisplayWidth.cut("田中太郎", to: 5) == "田中…")
        #expect(DisplayWidth.cut("abc", to: 3) == "abc")
        #expect(DisplayWidth.cut("👍🏽👍🏽", to: 3) == "👍🏽…")
    }

    @Test func controlCharactersInKeysAndTitlesAreEscaped() {
        let item = ViewModel(["a\nb": 1, "t\u{1B}[31mred": 2, "tab\there": 3, "del\u{7F}": 4])
        let manager = Manager(sections: [Section(items: [item], header: ViewModel(["title": "two\nlines"]))])
        let text = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(manager: manager, title: "x.json")
        #expect(text == #"""
            x.json · 1 section · 1 item
            └─ section 0 · two\nlines · 1 item
               ├─ header · 1 key
               │  title  string  "two\nlines"
               └─ item 0 · 4 keys
                  a\nb            int  1
                  t\u001B[31mred  int  2
                  tab\there       int  3
                  del\u007F       int  4

            """#)
        #expect(TreeRenderer.printable("plain é 田") == "plain é 田")
        #expect(TreeRenderer.printable("a\u{2028}b\u{202E}c") == #"a\u2028b\u202Ec"#)
    }

    @Test func controlCharactersInValuesAreEscaped() {
        // JSON text escapes C0 controls only; C1 (CSI), DEL, separators and
        // direction overrides would reach the terminal raw.
        let item = ViewModel(["k": "a\u{202E}b\u{9B}31mc\u{2028}d\u{7F}", "list": ["x\u{85}y"]])
        let text = TreeRenderer(style: OutputStyle(width: 60, colors: false))
            .render(manager: Manager(sections: [Section(items: [item])]), title: "x.json")
        #expect(text.contains(#"k     string    "a\u202Eb\u009B31mc\u2028d\u007F""#), "\(text)")
        #expect(text.contains(#"["x\u0085y"]"#), "\(text)")
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || (0x2028...0x202E).contains($0.value) })
    }

    @Test func colourWrapsRolesInANSIAndPlainOutputHasNone() {
        let colored = TreeRenderer(style: OutputStyle(width: nil, colors: true)).render(manager: manager(), title: "books.json")
        #expect(colored.contains("\u{1B}[36mtitle\u{1B}[0m"))           // keys cyan
        #expect(colored.contains("\u{1B}[32m\"Swift Concurrency by Example\"\u{1B}[0m"))  // strings green
        #expect(colored.contains("\u{1B}[1mbooks.json\u{1B}[0m"))       // title bold
        let plain = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(manager: manager(), title: "books.json")
        #expect(!plain.contains("\u{1B}"))
        // Colour changes nothing but the escapes.
        let stripped = colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }

    /// Past the deepest level a tree shows, one row says more is hidden;
    /// an empty ViewModel there needs none.
    @Test func levelsPastTheDeepestShownAreMarked() {
        func chain(_ levels: Int, innermost: ViewModel) -> ViewModel {
            var current = innermost
            for _ in 0 ..< levels {
                let outer = ViewModel()
                outer[value: "a"] = .payload(current)
                current = outer
            }
            return current
        }
        let renderer = TreeRenderer(style: OutputStyle(width: nil, colors: false))
        let depth = TreeRenderer.maximumDepth
        let deep = renderer.render(record: .viewModel(chain(depth + 5, innermost: ViewModel(["x": 1]))), title: "v")
        #expect(deep.components(separatedBy: "deeper levels not shown").count == 2, "\(deep)")
        let exact = renderer.render(record: .viewModel(chain(depth, innermost: ViewModel(["x": 1]))), title: "v")
        #expect(exact.contains("x  int  1") && !exact.contains("deeper levels"))
        let emptyBelow = renderer.render(record: .viewModel(chain(depth + 1, innermost: ViewModel())), title: "v")
        #expect(!emptyBelow.contains("deeper levels"))
    }

    @Test func nestedViewModelsAndListsAreIndentedUnderTheirKey() {
        let author = ViewModel(["name": "Ann"])
        let root = ViewModel(["id": 1])
        root[value: "author"] = .payload(author)
        root[value: "editions"] = .payload([ViewModel(["year": 2020]), ViewModel()])
        let text = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(record: .viewModel(root), title: "viewModel")
        #expect(text == """
            viewModel · ViewModel · 3 keys
            id        int          1
            author    ViewModel    1 key
              name  string  "Ann"
            editions  [ViewModel]  2 items
              [0]  ViewModel  1 key
                year  int  2020
              [1]  ViewModel  0 keys

            """)
    }

    @Test func styleFollowsTheTerminalTheEnvironmentAndTheOptions() {
        var io = CapturedIO().io
        #expect(OutputStyle.resolve(widthOption: nil, toFile: false, io: io) == OutputStyle(width: 80, colors: false))
        io.isOutputTerminal = true
        io.terminalColumns = { 132 }
        #expect(OutputStyle.resolve(widthOption: nil, toFile: false, io: io) == OutputStyle(width: 132, colors: true))
        // Files get neither colour nor the terminal's width.
        #expect(OutputStyle.resolve(widthOption: nil, toFile: true, io: io) == OutputStyle(width: 80, colors: false))
        io.environment = ["NO_COLOR": "1", "COLUMNS": "100"]
        #expect(OutputStyle.resolve(widthOption: nil, toFile: false, io: io) == OutputStyle(width: 100, colors: false))
        // An empty NO_COLOR does not count (no-color.org); --width wins, 0 is unlimited.
        io.environment = ["NO_COLOR": ""]
        #expect(OutputStyle.resolve(widthOption: 0, toFile: false, io: io) == OutputStyle(width: nil, colors: true))
        #expect(OutputStyle.resolve(widthOption: 60, toFile: false, io: io).width == 60)
    }

    @Test func wideKeysAreAlignedAndCutByTheirColumns() {
        let item = ViewModel(["名前": "a long value that certainly needs to be cut", "id": 1])
        let manager = Manager(sections: [Section(items: [item])])
        let text = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(manager: manager, title: "x.json")
        #expect(text.contains("\n      名前  string  \"a long value"), "\(text)")
        #expect(text.contains("\n      id    int     1\n"), "\(text)")
        let cut = TreeRenderer(style: OutputStyle(width: 40, colors: false)).render(manager: manager, title: "x.json")
        let widths = cut.split(separator: "\n").map { DisplayWidth.of($0) }
        #expect(widths.max() == 40, "\(cut)")
    }

    /// Text of almost no width (zero-width spaces, a letter with many
    /// combining marks) still cannot make a line longer than its width
    /// allows: cut text keeps at most eight scalars a column.
    @Test func textOfNoWidthIsCutByItsScalars() {
        let zeroWidth = String(repeating: "\u{200B}", count: 100_000)
        let marks = "a" + String(repeating: "\u{301}", count: 100_000)
        #expect(DisplayWidth.cut(zeroWidth, to: 80).unicodeScalars.count == 80 * 8)
        #expect(DisplayWidth.cut(marks, to: 80).unicodeScalars.count == 80 * 8)
        let item = ViewModel(JSONObject([(zeroWidth, 1), ("value", .string(marks))]))
        let text = TreeRenderer(style: OutputStyle(width: 40, colors: false)).render(manager: Manager(sections: [Section(items: [item])]), title: "x.json")
        #expect(text.unicodeScalars.count < 2_000, "\(text.unicodeScalars.count) scalars")
    }

    @Test func theFirstLevelPastTheDeepestShownIsMarked() {
        var current = ViewModel(["x": 1])
        for _ in 0 ..< TreeRenderer.maximumDepth + 1 {
            let outer = ViewModel()
            outer[value: "a"] = .payload(current)
            current = outer
        }
        let text = TreeRenderer(style: OutputStyle(width: nil, colors: false)).render(record: .viewModel(current), title: "v")
        #expect(text.contains("deeper levels not shown"))
        #expect(!text.contains("x  int  1"))
    }

    @Test func isolatesAndDirectionMarksAreEscaped() {
        #expect(TreeRenderer.printable("a\u{2066}b\u{2069}c\u{200E}d\u{200F}") == #"a\u2066b\u2069c\u200Ed\u200F"#)
        #expect(DisplayWidth.of("\u{200B}") == 0)
    }
}
