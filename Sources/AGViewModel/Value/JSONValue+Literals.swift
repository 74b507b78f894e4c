extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal of any size, stored exactly: `.int` when it fits
    /// in `Int64`, otherwise its decimal text as `.bigInteger`
    /// (`let id: JSONValue = 18446744073709551615`).
    public init(integerLiteral value: StaticBigInt) {
        if value.bitWidth <= 64 {
            self = .int(Int64(truncatingIfNeeded: value[0]))
            return
        }
        // Two's-complement words, least significant first.
        let negative = value.signum() < 0
        let count = (value.bitWidth + UInt.bitWidth - 1) / UInt.bitWidth
        var words = (0..<count).map { UInt64(value[$0]) }
        if negative {
            var carry: UInt64 = 1
            for i in words.indices {
                let (sum, overflow) = (~words[i]).addingReportingOverflow(carry)
                words[i] = sum
                carry = overflow ? 1 : 0
            }
        }
        self = .bigInteger((negative ? "-" : "") + JSONNumber.decimalDigits(ofWords: words))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

/// Interpolated string literals are strings too:
/// `ViewModel(["title": "Book \(number)"])`.
extension JSONValue: ExpressibleByStringInterpolation {}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal: `["a", 1, nil]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object literal, members in source order: `["title": "Swift"]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
