import Foundation

/// How a template placeholder formats its value: `{price.amount|fixed:2}`.
///
/// Output is the same on every machine (no locale): `.` for decimals, `,`
/// between thousands, English month and weekday names.
///
/// | Format | Reads | Example value → text |
/// |---|---|---|
/// | `fixed:N` | a number | `34.9` → `34.90` (`N` decimals, 0–12) |
/// | `grouped`, `grouped:N` | a number | `1234567` → `1,234,567`; `grouped:2`: `1,234.50` |
/// | `percent`, `percent:N` | a fraction | `0.125` → `13%`; `percent:1`: `12.5%` |
/// | `date`, `date:STYLE` | ISO-8601 text | `2024-03-12` → `Mar 12, 2024` (STYLE `iso`, `medium`, `long`, `full`) |
/// | `time`, `time:short`, `time:medium` | ISO-8601 date and time | `2025-01-14T09:12:44Z` → `09:12`; `time:medium`: `09:12:44` |
/// | `uppercase`, `lowercase`, `trim` | text | as the field formats |
///
/// Halves of the number's shortest decimal text (the number as written,
/// for up to 15 significant digits) round away from zero (`2.5` → `3`,
/// `2.675` with `fixed:2` → `2.68`). Integers are written from
/// their digits, exact at any size; other numbers are read as a `double`
/// field reads them (numeric strings too). Dates are read as written,
/// without converting time zones.
internal enum SpecTemplateFormat: Sendable, Hashable {
    case fixed(decimals: Int)
    case grouped(decimals: Int)
    case percent(decimals: Int)
    case date(DateStyle)
    case time(withSeconds: Bool)
    case text(PackagingSpec.Format)

    /// A named date style.
    enum DateStyle: String, Sendable, Hashable, CaseIterable {
        /// `2024-03-12`.
        case iso
        /// `Mar 12, 2024`.
        case medium
        /// `March 12, 2024`.
        case long
        /// `Tuesday, March 12, 2024`.
        case full
    }

    /// Every format's spelling, for messages.
    static let spellings = "fixed:N, grouped[:N], percent[:N], date[:iso|medium|long|full], time[:short|medium], uppercase, lowercase, trim"

    /// Parses `name` or `name:argument`.
    init(parsing text: String) throws(SpecTemplateError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        func decimals(default value: Int?) throws(SpecTemplateError) -> Int {
            guard let argument else {
                guard let value else { throw SpecTemplateError("\"\(name)\" needs a number of decimals, as in \"\(name):2\"") }
                return value
            }
            // Digits only: `Int` would also take `+2` and `-0`.
            guard argument.utf8.allSatisfy({ (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) }),
                  let count = Int(argument), (0 ... 12).contains(count) else {
                throw SpecTemplateError("\"\(name):\(argument)\": decimals must be a whole number from 0 to 12")
            }
            return count
        }
        func noArgument() throws(SpecTemplateError) {
            if let argument { throw SpecTemplateError("\"\(name)\" takes no argument, found \":\(argument)\"") }
        }
        switch name {
        case "fixed": self = .fixed(decimals: try decimals(default: nil))
        case "grouped": self = .grouped(decimals: try decimals(default: 0))
        case "percent": self = .percent(decimals: try decimals(default: 0))
        case "date":
            guard let argument else { self = .date(.medium); return }
            guard let style = DateStyle(rawValue: argument) else {
                throw SpecTemplateError("unknown date style \"\(argument)\"; expected iso, medium, long or full")
            }
            self = .date(style)
        case "time":
            switch argument {
            case nil, "short"?: self = .time(withSeconds: false)
            case "medium"?: self = .time(withSeconds: true)
            case let other?: throw SpecTemplateError("unknown time style \"\(other)\"; expected short or medium")
            }
        default:
            guard let format = PackagingSpec.Format(rawValue: name) else {
                let names = ["fixed", "grouped", "percent", "date", "time", "uppercase", "lowercase", "trim"]
                throw SpecTemplateError("unknown format \"\(name)\"\(PackagingSpecError.suggestion(for: name, in: names)); "
                    + "expected one of \(Self.spellings)")
            }
            try noArgument()
            self = .text(format)
        }
    }

    /// What the format reads, for messages.
    var expectedDescription: String {
        switch self {
        case .fixed, .grouped, .percent: Double.expectedDescription
        case .date: "an ISO-8601 date"
        case .time: "an ISO-8601 date and time"
        case .text: String.expectedDescription
        }
    }

    /// `value` formatted, or `nil` when it is not what the format reads.
    func apply(to value: JSONValue) -> String? {
        switch self {
        case .fixed(let decimals):
            if let text = Self.integer(value, decimals: decimals, grouping: false) { return text }
            return Double.read(from: value).flatMap { Self.number($0, decimals: decimals, grouping: false) }
        case .grouped(let decimals):
            if let text = Self.integer(value, decimals: decimals, grouping: true) { return text }
            return Double.read(from: value).flatMap { Self.number($0, decimals: decimals, grouping: true) }
        case .percent(let decimals):
            if let text = Self.integer(value, decimals: decimals, grouping: true, shift: 2) { return text + "%" }
            return Double.read(from: value).flatMap { Self.number($0, decimals: decimals, grouping: true, shift: 2) }.map { $0 + "%" }
        case .date(let style):
            guard case .string(let text) = value, let date = ISODateText(parsing: text) else { return nil }
            return date.formatted(style)
        case .time(let withSeconds):
            guard case .string(let text) = value, let date = ISODateText(parsing: text), let hour = date.hour else { return nil }
            let minutes = Self.two(hour) + ":" + Self.two(date.minute)
            return withSeconds ? minutes + ":" + Self.two(date.second) : minutes
        case .text(let format):
            return String.read(from: value).map { format.apply(to: $0) }
        }
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// An integer value (`int`, `bigInteger`, or a string of decimal
    /// digits such as an `id_str`) written from its digits, times 10 to the
    /// power `shift`, with `decimals` zeros, optionally grouped; `nil` for
    /// other values.
    static func integer(_ value: JSONValue, decimals: Int, grouping: Bool, shift: Int = 0) -> String? {
        let text: String
        switch value {
        case .int(let whole): text = String(whole)
        case .bigInteger(let digits): text = digits
        case .string(let string):
            guard let digits = integerText(string) else { return nil }
            text = digits
        default: return nil
        }
        let negative = text.hasPrefix("-")
        var digits = negative ? String(text.dropFirst()) : text
        if digits != "0" { digits += String(repeating: "0", count: shift) }
        let whole = grouping ? group(digits, negative: negative) : (negative ? "-" : "") + digits
        return decimals > 0 ? whole + "." + String(repeating: "0", count: decimals) : whole
    }

    /// `text` as an integer's canonical digits (`-` and digits, no leading
    /// zeros), when it is an optional `-` and one or more ASCII digits.
    private static func integerText(_ text: String) -> String? {
        var utf8 = Substring(text).utf8
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let digits = utf8.drop { $0 == UInt8(ascii: "0") }
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + String(Substring(digits))
    }

    /// `value` with `decimals` decimals, optionally grouped, after moving
    /// its decimal point `shift` places right (`2` for a percentage); `nil`
    /// for NaN and infinities.
    ///
    /// Halves round away from zero (`12.5` → `13`), as people expect, not
    /// to even as printf does, and they are the halves of the number as
    /// written: the shortest decimal text that reads back as `value` is
    /// rounded, so `2.675` gives `2.68` although the double nearest 2.675
    /// is a little below it.
    static func number(_ value: Double, decimals: Int, grouping: Bool, shift: Int = 0) -> String? {
        guard value.isFinite else { return nil }
        var (digits, point) = decimalDigits(of: value.magnitude)
        point += shift
        // The digits up to the last decimal shown, then the one after them
        // decides: 5 or more rounds up, away from zero.
        let kept = point + decimals
        var result = [UInt8](repeating: 0, count: max(kept, 0))
        for i in 0 ..< min(max(kept, 0), digits.count) { result[i] = digits[i] }
        if kept >= 0, kept < digits.count, digits[kept] >= 5 {
            var i = result.count - 1
            while i >= 0 && result[i] == 9 {
                result[i] = 0
                i -= 1
            }
            if i >= 0 { result[i] += 1 } else { result.insert(1, at: 0) }
        }
        if result.count <= decimals {
            result.insert(contentsOf: [UInt8](repeating: 0, count: decimals + 1 - result.count), at: 0)
        }
        let wholeCount = result.count - decimals
        var whole = result[..<wholeCount].drop { $0 == 0 }.map { Character(String($0)) }
        if whole.isEmpty { whole = ["0"] }
        let fraction = result[wholeCount...].map { Character(String($0)) }
        let negative = value < 0 && result.contains { $0 != 0 }
        var text = grouping ? group(String(whole), negative: negative) : (negative ? "-" : "") + String(whole)
        if decimals > 0 { text += "." + String(fraction) }
        return text
    }

    /// The decimal digits of the shortest text that reads back as the
    /// finite, non-negative `magnitude`, without leading zeros, and how many
    /// of them come before the decimal point (negative or past the digits
    /// for small and large numbers): `2.675` → `([2, 6, 7, 5], 1)`,
    /// `0.004` → `([4], -2)`, `1e20` → `([1], 21)`, `0` → `([], 0)`.
    static func decimalDigits(of magnitude: Double) -> (digits: [UInt8], point: Int) {
        guard magnitude > 0 else { return ([], 0) }
        // Swift's description is the shortest round-trip text: `2.675`,
        // `123.0`, `1e-05`, `1.5e+20`.
        let text = magnitude.description.utf8
        let e = text.firstIndex(of: UInt8(ascii: "e"))
        let exponent = e.map { Int(String(decoding: text[text.index(after: $0)...], as: UTF8.self))! } ?? 0
        var digits: [UInt8] = []
        var dot: Int?
        for byte in text[..<(e ?? text.endIndex)] {
            if byte == UInt8(ascii: ".") {
                dot = digits.count
            } else {
                digits.append(byte - UInt8(ascii: "0"))
            }
        }
        var point = (dot ?? digits.count) + exponent
        while digits.first == 0 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        return (digits, point)
    }

    /// Digits with `,` between thousands.
    static func group(_ digits: String, negative: Bool) -> String {
        let bytes = Array(digits.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 3 + 1)
        if negative { out.append(UInt8(ascii: "-")) }
        for (i, byte) in bytes.enumerated() {
            if i > 0 && (bytes.count - i) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An ISO-8601 date, optionally with a time, as written:
/// `2024-03-12`, `2025-01-14T09:12:44Z`, `2025-01-14 09:12:44.5+01:00`.
internal struct ISODateText: Hashable {
    var year: Int, month: Int, day: Int
    var hour: Int?, minute = 0, second = 0

    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for b in bytes[range] {
                guard (48 ... 57).contains(b) else { return nil }
                value = value * 10 + Int(b - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == 45, bytes[7] == 45,
              let year = number(0 ..< 4), let month = number(5 ..< 7), let day = number(8 ..< 10),
              (1 ... 12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year) else { return nil }
        self.year = year; self.month = month; self.day = day
        guard bytes.count > 10 else { return }
        guard bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,  // T, t, space
              let hour = number(11 ..< 13), bytes.count >= 16, bytes[13] == 58, let minute = number(14 ..< 16),
              hour < 24, minute < 60 else { return nil }
        self.hour = hour; self.minute = minute
        var i = 16
        if i < bytes.count, bytes[i] == 58 {
            guard let second = number(i + 1 ..< i + 3), second < 61 else { return nil }
            self.second = second
            i += 3
            if i < bytes.count, bytes[i] == 46 || bytes[i] == 44 {  // fraction
                i += 1
                let start = i
                while i < bytes.count, (48 ... 57).contains(bytes[i]) { i += 1 }
                guard i > start else { return nil }
            }
        }
        // Zone: Z, or ±HH:MM / ±HHMM / ±HH.
        if i < bytes.count {
            if bytes[i] == 90 || bytes[i] == 122 { i += 1 }
            else if bytes[i] == 43 || bytes[i] == 45 {
                // Offsets run from -23:59 to +23:59; a colon needs minutes.
                guard let hours = number(i + 1 ..< i + 3), hours < 24 else { return nil }
                i += 3
                let colon = i < bytes.count && bytes[i] == 58
                if colon { i += 1 }
                if colon || i < bytes.count {
                    guard let minutes = number(i ..< i + 2), minutes < 60 else { return nil }
                    i += 2
                }
            }
        }
        guard i == bytes.count else { return nil }
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The day of the week, 0 for Sunday (Sakamoto's method).
    var weekday: Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        // Shifted by 400 years (the calendar's cycle), so January and
        // February of year 0 divide a positive year.
        let y = (month < 3 ? year - 1 : year) + 400
        return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
    }

    func formatted(_ style: SpecTemplateFormat.DateStyle) -> String {
        let monthName = Self.monthNames[month - 1]
        switch style {
        case .iso:
            let pad = { (n: Int, width: Int) in String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        case .medium: return "\(monthName.prefix(3)) \(day), \(year)"
        case .long: return "\(monthName) \(day), \(year)"
        case .full: return "\(Self.weekdayNames[weekday]), \(monthName) \(day), \(year)"
        }
    }
}
