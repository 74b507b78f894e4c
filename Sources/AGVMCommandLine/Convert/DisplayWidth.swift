/// How many terminal columns text takes, and cutting text to a number of
/// columns: what the tree renderer needs to keep lines within the width.
///
/// An approximation of `wcwidth` that needs no tables from the system:
/// East Asian wide and fullwidth characters and emoji take two columns,
/// combining marks and joiners none, everything else one. Within a
/// grapheme cluster, what a terminal draws as one glyph counts once: an
/// emoji with `U+FE0F` (which makes `❤` an emoji, two columns), a person
/// or hand with its skin tone, up to four emoji joined by `U+200D`, a
/// flag's two regional indicators, a Hangul syllable's jamo. Anything more
/// in the cluster (a run of leading jamo, a longer chain, a skin tone on
/// an emoji that takes none) counts in full: a line must not come out
/// wider than counted. Cuts fall between `Character`s, so a cut never
/// splits a grapheme cluster.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII, most keys and values: a column per byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one character takes: 0, 1 or 2 for one drawn glyph,
    /// more for a cluster of several.
    static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        var total = 0
        // The glyph being drawn: its width, whether it is an emoji, and
        // how many emoji are joined into it.
        var glyphWidth = 0, glyphIsEmoji = false, glyphMayBeEmoji = false, joinedEmoji = 0
        var joining = false, pendingIndicator = false, inSyllable = false, glyphIsModifierBase = false
        for scalar in character.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x200D:
                joining = glyphIsEmoji
                continue
            case 0xFE0F:
                // Emoji presentation: the glyph before is drawn two wide.
                if glyphMayBeEmoji, !glyphIsEmoji {
                    if glyphWidth == 1 { total += 1 }
                    (glyphWidth, glyphIsEmoji, joinedEmoji) = (2, true, max(joinedEmoji, 1))
                }
                continue
            case 0x1F3FB ... 0x1F3FF where glyphIsModifierBase:
                if glyphWidth == 1 { total += 1 }
                (glyphWidth, glyphIsEmoji, joinedEmoji) = (2, true, max(joinedEmoji, 1))
                continue  // a skin tone on the person or hand before it
            case 0x1F1E6 ... 0x1F1FF where pendingIndicator:
                pendingIndicator = false
                continue  // the second half of a flag
            case 0x1160 ... 0x11FF where inSyllable:
                continue  // a vowel or final of the syllable begun
            default:
                break
            }
            if isZeroWidth(scalar) { continue }
            let isEmoji = scalar.properties.isEmojiPresentation || (0x1F1E6 ... 0x1F1FF).contains(value)
            if joining, isEmoji || scalar.properties.isEmoji, joinedEmoji < 4 {
                joinedEmoji += 1
                joining = false
                continue  // drawn into the glyph before
            }
            joining = false
            let width = isWide(scalar) || isEmoji ? 2 : 1
            total += width
            (glyphWidth, glyphIsEmoji, joinedEmoji) = (width, isEmoji, isEmoji ? 1 : 0)
            glyphMayBeEmoji = scalar.properties.isEmoji
            glyphIsModifierBase = scalar.properties.isEmojiModifierBase
            pendingIndicator = (0x1F1E6 ... 0x1F1FF).contains(value)
            inSyllable = (0x1100 ... 0x115F).contains(value)
        }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    /// Zero-width scalars (combining marks, U+200B) take no column, so the
    /// scalars kept are bounded too: at most `scalarsPerColumn` a column.
    static func cut(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let scalarLimit = columns.multipliedReportingOverflow(by: scalarsPerColumn).overflow ? .max : columns * scalarsPerColumn
        guard of(text) > columns || text.unicodeScalars.count > scalarLimit else { return text }
        var kept = String.UnicodeScalarView()
        var used = 0, keptScalars = 0
        characters: for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            for scalar in character.unicodeScalars {
                if keptScalars >= scalarLimit - 1 { break characters }
                kept.append(scalar)
                keptScalars += 1
            }
            used += width
        }
        return String(kept) + "…"
    }

    /// The most Unicode scalars a column of cut text holds on average.
    static let scalarsPerColumn = 8

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A,
             0x064B...0x065F, 0x200B...0x200F, 0x20D0...0x20FF, 0xFE00...0xFE0F,
             0xFE20...0xFE2F, 0xE0000...0xE01EF:
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
