/// How many terminal columns text takes, and cutting text to a number of
/// columns: what the tree renderer needs to keep lines within the width.
///
/// An approximation of `wcwidth` that needs no tables from the system:
/// East Asian wide and fullwidth characters and emoji take two columns,
/// combining marks and joiners none, everything else one. A cluster of
/// several such characters (a joined emoji sequence, a run of jamo) counts
/// them all: a terminal may draw them apart, and a line must not come out
/// wider than counted. Cuts fall between `Character`s, so a cut never
/// splits a grapheme cluster.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one character takes: 0, 1 or 2 for one drawn character,
    /// more for a cluster of several.
    static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        var total = 0
        for scalar in character.unicodeScalars where !isZeroWidth(scalar) {
            // A flag is a pair of regional indicators, drawn two columns wide.
            total += isWide(scalar) && !(0x1F1E6 ... 0x1F1FF).contains(scalar.value) ? 2 : 1
        }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    static func cut(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A,
             0x064B...0x065F, 0x200B...0x200F, 0x20D0...0x20FF, 0xFE00...0xFE0F,
             0xFE20...0xFE2F, 0x1F3FB...0x1F3FF, 0xE0000...0xE01EF:
            return true
        default:
            return scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .enclosingMark
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
             0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
