/// One number rule: a JSON number is one value however it was written,
/// parsed or decoded.
///
/// `1`, `1.0`, `1e0` and `.bigInteger("1")` are `==` and hash alike, and so
/// are `1e20` and `.bigInteger("100000000000000000000")`: numbers compare by
/// the decimal value they write as, across ``JSONValue/int(_:)``,
/// ``JSONValue/double(_:)`` and ``JSONValue/bigInteger(_:)``. The case a
/// number is stored in is kept and decides how it is written back (`1.0`
/// stays `1.0`), so a value read from a parser, a `Decoder`, an archive or a
/// literal compares equal to the same number from any other route.
///
/// Three choices the rule makes:
/// - A double is the decimal of its shortest round-trip text, which is how
///   JSON writes it: `.double(1.9011924315268797e18)` equals
///   `.int(1901192431526879700)`, the integer a `JSONDecoder` reads back
///   from that text, although the double's binary value ends in `744`.
///   Below 2^53 and for fractions this is the double's exact value anyway.
/// - `-0.0 == 0`, as in IEEE 754 and Swift's `Double` (the sign is kept
///   for writing).
/// - A NaN (which JSON cannot hold, but code can store) equals another NaN,
///   so `==` stays reflexive and sets and dictionaries of values work.
extension JSONValue: Equatable {
    /// Values are equal when they have the same kind and content; all
    /// numbers are one kind and compare by exact value. Objects compare
    /// their members regardless of order (JSON objects are unordered).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        equal(lhs, rhs, depth: 0)
    }

    /// How deep `==` and hashing recurse (`depth` counts containers
    /// entered). Below it they recurse, which is fastest; deeper values,
    /// which a parser with a raised depth limit can build, are compared
    /// with a work list and hashed no deeper, so no depth overflows the stack.
    internal static let recursionDepthLimit = 128

    /// `==` at nesting `depth`.
    internal static func equal(_ lhs: JSONValue, _ rhs: JSONValue, depth: Int) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)):
            depth < recursionDepthLimit ? JSONArray.equal(a, b, depth: depth + 1) : equalWithoutRecursion(lhs, rhs)
        case let (.object(a), .object(b)):
            depth < recursionDepthLimit ? JSONObject.equal(a, b, depth: depth + 1) : equalWithoutRecursion(lhs, rhs)
        default:
            if let a = JSONNumber(lhs), let b = JSONNumber(rhs) { a == b } else { false }
        }
    }

    /// `==` of values of any depth, with a work list of pairs to compare.
    private static func equalWithoutRecursion(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        var pending = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case let (.array(x), .array(y)):
                guard x.count == y.count else { return false }
                if x.storage.buffer === y.storage.buffer { continue }
                for i in 0..<x.count { pending.append((x[i], y[i])) }
            case let (.object(x), .object(y)):
                guard x.count == y.count else { return false }
                for (key, value) in x {
                    guard let j = y.index(forKey: key) else { return false }
                    pending.append((value, y[j].value))
                }
            case (.array, _), (.object, _), (_, .array), (_, .object):
                return false
            default:
                // Scalars: no recursion.
                guard equal(a, b, depth: 0) else { return false }
            }
        }
        return true
    }
}

extension JSONValue: Hashable {
    /// Hashes consistently with `==`: equal numbers hash alike whatever
    /// their case, and object member order does not matter.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 0)
    }

    /// `hash(into:)` at nesting `depth`: containers past the recursion
    /// limit add only their kind and count (equal values still hash alike).
    internal func hash(into hasher: inout Hasher, depth: Int) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int, .double, .bigInteger: JSONNumber(self)!.hash(into: &hasher)
        case .string(let s): hasher.combine(5); hasher.combine(s)
        case .array(let a): hasher.combine(6); a.hash(into: &hasher, depth: depth + 1)
        case .object(let o): hasher.combine(7); o.hash(into: &hasher, depth: depth + 1)
        }
    }
}

/// A number reduced to a canonical form for comparison: every value has
/// exactly one form, so comparing forms compares values.
internal enum JSONNumber: Hashable {
    /// An integer in the `Int64` range, whatever case held it.
    case integer(Int64)
    /// A double that is not an integer in the `Int64` range (a fraction, a
    /// huge magnitude, a NaN or an infinity).
    case double(Double)
    /// An integer outside the `Int64` range: sign and digits without
    /// leading zeros (or, for text that is not an integer, the text itself).
    case big(negative: Bool, digits: Substring)

    init?(_ value: JSONValue) {
        switch value {
        case .int(let i): self = .integer(i)
        case .double(let d):
            if let i = Int64(exactly: d), d.magnitude < 0x1p53 {
                self = .integer(i)
            } else if let text = Self.decimalIntegerText(of: d) {
                self = JSONNumber(integerText: text)
            } else {
                self = .double(d)
            }
        case .bigInteger(let text): self = JSONNumber(integerText: text)
        default: return nil
        }
    }

    /// The number, when it is an integer in the `Int64` range. A double of
    /// magnitude 2^53 or more is the integer its shortest text spells, as
    /// for `==`.
    var int64: Int64? {
        if case .integer(let i) = self { i } else { nil }
    }

    /// The number, when it is an integer from 0 to `UInt64.max`.
    var uint64: UInt64? {
        switch self {
        case .integer(let i): UInt64(exactly: i)
        case .big(negative: false, let digits): UInt64(digits)
        default: nil
        }
    }

    /// Whether `utf8` is an integer in JSON's grammar, `-?(0|[1-9][0-9]*)`:
    /// the text a ``JSONValue/bigInteger(_:)`` may hold to be written or
    /// archived.
    static func isIntegerText<Bytes: Collection>(_ utf8: Bytes) -> Bool where Bytes.Element == UInt8 {
        var digits = utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard let first = digits.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return false }
        if first == UInt8(ascii: "0") { return digits.count == 1 }
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    init(integerText text: String) {
        var digits = text[...]
        var negative = false
        if let first = digits.first, first == "-" || first == "+" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            self = .big(negative: false, digits: text[...])
            return
        }
        digits = digits.drop(while: { $0 == "0" })
        if digits.isEmpty { self = .integer(0); return }
        if digits.utf8.count <= 19, let magnitude = UInt64(digits) {
            if !negative, magnitude <= UInt64(Int64.max) { self = .integer(Int64(magnitude)); return }
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                self = .integer(Int64(bitPattern: 0 &- magnitude)); return
            }
        }
        self = .big(negative: negative, digits: digits)
    }

    static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a == b || (a.isNaN && b.isNaN)
        case let (.big(n1, d1), .big(n2, d2)): n1 == n2 && d1 == d2
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(2)
        switch self {
        case .integer(let i): hasher.combine(i)
        case .double(let d): hasher.combine(d.isNaN ? .nan : d)
        case let .big(negative, digits): hasher.combine(negative); hasher.combine(digits)
        }
    }

    /// The integer an integral double at or beyond 2^53 writes as: the
    /// digits of its shortest round-trip text, padded with zeros
    /// (`1.9011924315268797e+18` is `1901192431526879700`). `nil` for a
    /// fraction, a NaN, an infinity or a smaller magnitude.
    static func decimalIntegerText(of d: Double) -> String? {
        guard d.isFinite, d.magnitude >= 0x1p53 else { return nil }
        // Swift's description is the shortest round-trip text, for example
        // "-1.9011924315268797e+18" (an integral double this large always
        // has an exponent of at least its digit count less one).
        let text = d.description
        // 2^53 itself is written without an exponent: "9007199254740992.0".
        guard let e = text.firstIndex(of: "e") else {
            return String(text.prefix(while: { $0 != "." }))
        }
        guard let exponent = Int(text[text.index(after: e)...]) else { return nil }
        let mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        let parts = mantissa.drop(while: { $0 == "-" }).split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first ?? "", fraction = parts.count > 1 ? parts[1] : ""
        let zeros = exponent - fraction.count
        guard zeros >= 0 else { return nil }
        return (negative ? "-" : "") + whole + fraction + String(repeating: "0", count: zeros)
    }

    /// The exact decimal digits of an integral, finite, non-negative double.
    static func exactDigits(of d: Double) -> String {
        if d < 0x1p63 { return String(UInt64(d)) }
        // d = significand · 2^shift with a 53-bit significand: build the
        // binary integer in 32-bit limbs, then divide out base 10^9.
        let shift = Int(d.exponent) - Double.significandBitCount
        var limbs: [UInt32] = []  // little-endian
        let significand = d.significandBitPattern | (1 << UInt64(Double.significandBitCount))
        let wide = [UInt32(truncatingIfNeeded: significand), UInt32(truncatingIfNeeded: significand >> 32)]
        limbs.append(contentsOf: repeatElement(0, count: shift / 32))
        let bits = shift % 32
        var carry: UInt32 = 0
        for limb in wide {
            let v = (UInt64(limb) << UInt64(bits)) | UInt64(carry)
            limbs.append(UInt32(truncatingIfNeeded: v))
            carry = UInt32(truncatingIfNeeded: v >> 32)
        }
        if carry != 0 { limbs.append(carry) }
        return decimalDigits(ofLimbs: limbs)
    }

    /// The decimal digits of the unsigned integer in 64-bit `words`,
    /// least significant first.
    static func decimalDigits(ofWords words: [UInt64]) -> String {
        var limbs: [UInt32] = []
        for word in words {
            limbs.append(UInt32(truncatingIfNeeded: word))
            limbs.append(UInt32(truncatingIfNeeded: word >> 32))
        }
        return decimalDigits(ofLimbs: limbs)
    }

    /// The decimal digits of the unsigned integer in 32-bit `limbs`,
    /// least significant first.
    private static func decimalDigits(ofLimbs limbs: [UInt32]) -> String {
        var limbs = limbs
        var chunks: [UInt32] = []  // base 10^9, little-endian
        while limbs.last == 0 { limbs.removeLast() }
        while !limbs.isEmpty {
            var remainder: UInt64 = 0
            for i in limbs.indices.reversed() {
                let v = (remainder << 32) | UInt64(limbs[i])
                limbs[i] = UInt32(v / 1_000_000_000)
                remainder = v % 1_000_000_000
            }
            chunks.append(UInt32(remainder))
            while limbs.last == 0 { limbs.removeLast() }
        }
        var text = String(chunks.last ?? 0)
        for chunk in chunks.dropLast().reversed() {
            let part = String(chunk)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
