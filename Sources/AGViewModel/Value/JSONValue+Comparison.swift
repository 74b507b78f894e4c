/// Ordering of numbers and strings: `json["price"]! < 10`,
/// `values.sorted(by: <)` for values of one kind.
///
/// Numbers compare by exact value across ``JSONValue/int(_:)``,
/// ``JSONValue/double(_:)`` and ``JSONValue/bigInteger(_:)`` (the one
/// number rule); strings compare as Swift strings. Other kinds, and values
/// of different kinds, and NaN, are unordered: `<` and `>` are `false`, while `<=`
/// and `>=` are `==`. So these operators are a partial order and
/// `JSONValue` is deliberately not `Comparable`.
extension JSONValue {
    /// `true` when both are numbers or both strings and `lhs` orders first.
    public static func < (lhs: JSONValue, rhs: JSONValue) -> Bool {
        order(lhs, rhs) == .less
    }

    /// `true` when both are numbers or both strings and `lhs` orders last.
    public static func > (lhs: JSONValue, rhs: JSONValue) -> Bool {
        order(lhs, rhs) == .greater
    }

    /// `lhs < rhs` or `lhs == rhs`.
    public static func <= (lhs: JSONValue, rhs: JSONValue) -> Bool {
        order(lhs, rhs) == .less || lhs == rhs
    }

    /// `lhs > rhs` or `lhs == rhs`.
    public static func >= (lhs: JSONValue, rhs: JSONValue) -> Bool {
        order(lhs, rhs) == .greater || lhs == rhs
    }

    private enum Order { case less, greater, same, unordered }

    /// Whether this is a NaN double, which orders with nothing.
    private var isNaN: Bool {
        if case .double(let d) = self { return d.isNaN }
        return false
    }

    /// A number's nearest double; a big integer beyond the doubles' range
    /// is an infinity of its sign, so it orders past every double.
    private var roundedToDouble: Double {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .bigInteger(let text): Double(text) ?? 0
        default: 0
        }
    }

    /// The number as the one number rule sees it: an integral double at or
    /// beyond 2^53 becomes the integer its shortest text spells, so `<`
    /// agrees with `==`.
    private var decimalNumber: JSONValue {
        guard case .double(let d) = self, let text = JSONNumber.decimalIntegerText(of: d) else { return self }
        switch JSONNumber(integerText: text) {
        case .integer(let i): return .int(i)
        default: return .bigInteger(text)
        }
    }

    private static func order(_ lhs: JSONValue, _ rhs: JSONValue) -> Order {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)):
            return a < b ? .less : (b < a ? .greater : .same)
        case let (.int(a), .int(b)):
            return a < b ? .less : (b < a ? .greater : .same)
        default:
            guard lhs.isNumber, rhs.isNumber, !lhs.isNaN, !rhs.isNaN else { return .unordered }
            if lhs == rhs { return .same }
            return numericLess(lhs.decimalNumber, rhs.decimalNumber) ? .less : .greater
        }
    }

    /// Exact `<` for two unequal numbers of any case.
    private static func numericLess(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.int(a), .double(b)): return doubleLess(a, b)
        case let (.double(a), .int(b)): return !doubleLess(b, a)  // unequal, so not (b < a) means a < b
        default:
            // Doubles and big integers: compare as doubles, breaking ties of
            // the rounding by the exact integer text.
            let a = lhs.roundedToDouble, b = rhs.roundedToDouble
            if a != b { return a < b }
            // A big integer past the doubles' range meets an infinity of its
            // sign here: the infinity is the larger magnitude.
            if case .double(let d) = lhs, d.isInfinite { return d < 0 }
            if case .double(let d) = rhs, d.isInfinite { return d > 0 }
            if case .bigInteger(let text) = lhs, case .bigInteger(let other) = rhs {
                return bigLess(text, other)
            }
            return bigLessMixed(lhs, rhs)
        }
    }

    /// Exact `Int64 < Double`.
    private static func doubleLess(_ a: Int64, _ b: Double) -> Bool {
        if b.isNaN { return false }
        if b >= 0x1p63 { return true }
        if b < -0x1p63 { return false }
        let floor = b.rounded(.down)
        let f = Int64(floor)  // in range after the checks above
        return a < f || (a == f && floor < b)
    }

    /// Exact `<` of two integers written as decimal text.
    private static func bigLess(_ a: String, _ b: String) -> Bool {
        func split(_ text: String) -> (negative: Bool, digits: Substring) {
            var digits = text[...]
            var negative = false
            if let first = digits.first, first == "-" || first == "+" {
                negative = first == "-"
                digits = digits.dropFirst()
            }
            digits = digits.drop(while: { $0 == "0" })
            return (negative && !digits.isEmpty, digits)
        }
        let (n1, d1) = split(a), (n2, d2) = split(b)
        if n1 != n2 { return n1 }
        if d1 == d2 { return false }
        let magnitudeLess = d1.count != d2.count ? d1.count < d2.count : d1 < d2
        return n1 ? !magnitudeLess : magnitudeLess
    }

    /// A big integer against a double or integer that rounds to the same
    /// double: compare the exact integers.
    private static func bigLessMixed(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        func text(_ v: JSONValue) -> String {
            switch v {
            case .bigInteger(let t): return t
            case .int(let i): return String(i)
            case .double(let d):
                let whole = d.rounded(.towardZero)  // finite: infinities are ordered before
                return (d < 0 ? "-" : "") + JSONNumber.exactDigits(of: whole.magnitude)
            default: return "0"
            }
        }
        let a = text(lhs), b = text(rhs)
        if a == b {
            // Equal integer parts: only a double's fraction can differ.
            if case .double(let d) = lhs { return d < d.rounded(.towardZero) }
            if case .double(let d) = rhs { return d > d.rounded(.towardZero) }
            return false
        }
        return bigLess(a, b)
    }
}
