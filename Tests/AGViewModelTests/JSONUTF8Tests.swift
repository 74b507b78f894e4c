import Testing
@testable import AGViewModel

@Suite("UTF-8 checked once, strings copied unchecked")
struct JSONUTF8Tests {
    /// The standard library's own validator: the oracle.
    static func standardKind(_ bytes: [UInt8]) -> JSONUTF8.Kind {
        guard String(validating: bytes, as: UTF8.self) != nil else { return .illFormed }
        return bytes.allSatisfy { $0 < 0x80 } ? .ascii : .multibyte
    }

    static func kind(_ bytes: [UInt8]) -> JSONUTF8.Kind {
        bytes.withUnsafeBufferPointer { JSONUTF8.kind(of: $0) }
    }

    /// `sequence` alone (checked byte by byte near the end), and after
    /// nine ASCII bytes (a word of ASCII first) followed by one to four
    /// more: with fewer than four bytes left a sequence is checked byte by
    /// byte, otherwise as a word.
    static func placements(of sequence: [UInt8]) -> [[UInt8]] {
        let before = Array("abcdefghi".utf8)
        return [sequence] + ["w", "wx", "wxy", "wxyz"].map { before + sequence + Array($0.utf8) }
    }

    /// Bytes on each side of every boundary that matters after a lead byte:
    /// ASCII, continuation bytes (80...BF) and the narrower second-byte
    /// ranges of E0, ED, F0 and F4.
    static let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]

    /// Every input in `placements` whose verdict differs from the oracle's.
    static func disagreements(_ sequences: some Sequence<[UInt8]>) -> [[UInt8]] {
        var found: [[UInt8]] = []
        for sequence in sequences {
            for input in placements(of: sequence) where kind(input) != standardKind(input) {
                found.append(input)
            }
        }
        return found
    }

    @Test func agreesWithTheStandardLibraryOnEveryOneAndTwoByteInput() {
        var sequences: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for lead in 0...255 {
            for second in 0...255 { sequences.append([UInt8(lead), UInt8(second)]) }
        }
        #expect(Self.disagreements(sequences).prefix(5) == [])
    }

    @Test(arguments: 0xE0...0xEF)
    func agreesWithTheStandardLibraryOnThreeByteInputs(lead: Int) {
        var sequences: [[UInt8]] = []
        for second in 0...255 {
            for third in Self.edges { sequences.append([UInt8(lead), UInt8(second), third]) }
        }
        #expect(Self.disagreements(sequences).prefix(5) == [])
    }

    /// F5...FF never lead; F8 and FF stand for them.
    @Test(arguments: [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF])
    func agreesWithTheStandardLibraryOnFourByteInputs(lead: Int) {
        // The fourth byte: each side of the continuation range.
        let fourths: [UInt8] = [0x7F, 0x80, 0xBF, 0xC0]
        var sequences: [[UInt8]] = []
        for second in 0...255 {
            for third in Self.edges {
                for fourth in fourths { sequences.append([UInt8(lead), UInt8(second), third, fourth]) }
            }
        }
        #expect(Self.disagreements(sequences).prefix(5) == [])
    }

    @Test func runsOfThreeByteCharactersEndAnywhere() {
        // CJK text stays on the three-byte loop; it must leave it at the
        // end of input (fewer than four bytes left) and at any other byte.
        let han = Array("漢字仮名交じり文".utf8)
        for length in 0...han.count {
            let run = Array(han.prefix(length))
            for input in Self.placements(of: run) {
                #expect(Self.kind(input) == Self.standardKind(input), "\(input)")
            }
            for tail: [UInt8] in [[0x80], [0xE3], [0xE3, 0x81], [0xED, 0xA0, 0x80], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80]] {
                let input = run + tail
                #expect(Self.kind(input) == Self.standardKind(input), "\(input)")
            }
        }
    }

    @Test func agreesWithTheStandardLibraryOnRandomText() {
        let seed: UInt64 = 0x5EED_0F_C0DE
        var random = SplitMix64(seed: seed)
        let scalars: [String] = ["a", "~", "é", "ß", "€", "漢", "\u{FFFD}", "\u{D7FF}", "\u{E000}", "😀", "\u{10FFFF}", "\u{10000}", "\u{0800}", "\u{07FF}"]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...24, using: &random) {
                bytes += Array(scalars.randomElement(using: &random)!.utf8)
            }
            // One time in two, break it: change, drop or insert a byte.
            if !bytes.isEmpty, Bool.random(using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8.random(in: 0x80...0xFF, using: &random), at: at)
                }
            }
            #expect(Self.kind(bytes) == Self.standardKind(bytes), "seed \(seed): \(bytes)")
        }
    }

    @Test func emptyInputIsASCII() {
        #expect(Self.kind([]) == .ascii)
        #expect(JSONUTF8.kind(of: UnsafeBufferPointer(start: nil, count: 0)) == .ascii)
    }

    /// A string whose ASCII flag were wrong would still compare equal but
    /// count UTF-16 units as bytes, so every count is checked as well.
    @Test(arguments: [
        "short", "a plain ASCII string longer than fifteen bytes",
        "é", "café au lait, longer than fifteen bytes", "漢字仮名交じり文と English text",
        "emoji 😀 and more emoji 😀😀", "escaped\n\"quote\" and ASCII only, longer than fifteen",
        "escaped\t漢字 with non-ASCII text", String(repeating: "x", count: 200) + "é",
    ])
    func parsedStringsMatchTheirText(text: String) throws {
        let parsed = try JSONValue(parsing: JSONValue.string(text).jsonData())
        let string = try #require(parsed.stringValue)
        #expect(string == text)
        #expect(string.utf8.count == text.utf8.count)
        #expect(string.utf16.count == text.utf16.count)
        #expect(string.unicodeScalars.count == text.unicodeScalars.count)
        #expect(string.count == text.count)
        #expect(Array(string.utf16) == Array(text.utf16))
    }

    @Test(arguments: [true, false])
    func uncheckedStringsKeepTheirASCIIFlag(isASCII: Bool) {
        let text = isASCII ? "plain ASCII text, more than fifteen bytes" : "非 ASCII text, more than fifteen bytes"
        let bytes = Array(text.utf8)
        let string = bytes.withUnsafeBufferPointer { JSONUTF8.string(unchecked: $0, isASCII: isASCII) }
        #expect(string == text)
        #expect(string.utf16.count == text.utf16.count)
        #expect(string.count == text.count)
    }
}
