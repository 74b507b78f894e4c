#if !FUZZING
// The fuzz targets compile this file into the library's own module with
// `-D FUZZING`; the test target imports the library instead.
@testable import AGViewModel
#endif

/// A second JSON parser, written for clarity rather than speed, that the
/// fuzz target and the tests compare ``JSONParser`` against: it must accept
/// exactly the documents this one accepts and read them to the same value.
///
/// It shares no code with the real parser. It follows RFC 8259 byte by byte
/// and, where the RFC leaves a choice, the rules ``JSONParser`` documents: one
/// leading byte-order mark, the last of duplicate keys wins at the first
/// one's position, lone surrogate escapes become U+FFFD, `Int64` or exact
/// big-integer text for integers, `-0` as a double, doubles out of range
/// rejected, 512 levels of nesting. It recurses once per level, which that
/// limit keeps small.
struct ReferenceJSONParser {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Where the document was found invalid, once it was.
    private(set) var failureOffset: Int?
    private let maximumDepth = 512

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The document's value, or `nil` when it is not valid JSON (then
    /// ``failureOffset`` says where that was found).
    mutating func parseDocument() -> JSONValue? {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard let value = parseValue(depth: 0) else { return nil }
        skipWhitespace()
        guard position == bytes.count else { return fail() }
        return value
    }

    private mutating func fail<T>(at offset: Int? = nil) -> T? {
        if failureOffset == nil { failureOffset = offset ?? position }
        return nil
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func parseValue(depth: Int) -> JSONValue? {
        guard let byte = current else { return fail() }
        switch byte {
        case UInt8(ascii: "n"): return parseLiteral("null", .null)
        case UInt8(ascii: "t"): return parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return parseLiteral("false", .bool(false))
        case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return parseNumber()
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { return fail() }
            return parseArray(depth: depth + 1)
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else { return fail() }
            return parseObject(depth: depth + 1)
        default: return fail()
        }
    }

    private mutating func parseLiteral(_ text: String, _ value: JSONValue) -> JSONValue? {
        for expected in text.utf8 {
            guard current == expected else { return fail() }
            position += 1
        }
        return value
    }

    private mutating func parseArray(depth: Int) -> JSONValue? {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(JSONArray(elements))
        }
        while true {
            skipWhitespace()
            guard let element = parseValue(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(JSONArray(elements))
            default: return fail()
            }
        }
    }

    private mutating func parseObject(depth: Int) -> JSONValue? {
        position += 1
        var keys: [String] = []
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(uniqueKeys: keys, values: values))
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { return fail() }
            guard let key = parseString() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return fail() }
            position += 1
            skipWhitespace()
            guard let value = parseValue(depth: depth) else { return nil }
            // A linear search: keys compare as `String`s, canonical
            // equivalence included, without hashing.
            if let existing = keys.firstIndex(of: key) {
                values[existing] = value
            } else {
                keys.append(key)
                values.append(value)
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(JSONObject(uniqueKeys: keys, values: values))
            default: return fail()
            }
        }
    }

    private func isDigit(at offset: Int) -> Bool {
        offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
    }

    private mutating func parseNumber() -> JSONValue? {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard isDigit(at: position) else { return fail() }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            while isDigit(at: position) { position += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard isDigit(at: position) else { return fail() }
            while isDigit(at: position) { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard isDigit(at: position) else { return fail() }
            while isDigit(at: position) { position += 1 }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger {
            if text == "-0" { return .double(-0.0) }
            if let integer = Int64(text) { return .int(integer) }
            return .bigInteger(text)
        }
        guard let double = Double(text), double.isFinite else { return fail(at: start) }
        return .double(double)
    }

    private mutating func parseHexQuad() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    private mutating func parseString() -> String? {
        position += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = current else { return fail() }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(scalars)
            case 0..<0x20:
                return fail()
            case UInt8(ascii: "\\"):
                guard let scalar = parseEscape() else { return nil }
                scalars.append(scalar)
            case 0..<0x80:
                scalars.append(Unicode.Scalar(byte))
                position += 1
            default:
                guard let scalar = parseMultibyteSequence() else { return fail() }
                scalars.append(scalar)
            }
        }
    }

    /// The escape at `position` (a backslash), decoded.
    private mutating func parseEscape() -> Unicode.Scalar? {
        position += 1
        guard let letter = current else { return fail() }
        position += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): break
        default: return fail(at: position - 1)
        }
        guard let unit = parseHexQuad() else { return fail() }
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate makes a pair only with a low one escaped
            // right after it; alone, it is replaced.
            let afterHigh = position
            if current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                position += 2
                if let low = parseHexQuad(), (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                }
            }
            position = afterHigh
            return "\u{FFFD}"
        case 0xDC00...0xDFFF:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(unit)
        }
    }

    /// The well-formed UTF-8 sequence at `position` (Unicode table 3-7), or
    /// `nil`.
    private mutating func parseMultibyteSequence() -> Unicode.Scalar? {
        let lead = bytes[position]
        let continuationCount: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: continuationCount = 1; scalar = UInt32(lead & 0x1F)
        case 0xE0: continuationCount = 2; secondRange = 0xA0...0xBF; scalar = UInt32(lead & 0x0F)
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2; scalar = UInt32(lead & 0x0F)
        case 0xED: continuationCount = 2; secondRange = 0x80...0x9F; scalar = UInt32(lead & 0x0F)
        case 0xF0: continuationCount = 3; secondRange = 0x90...0xBF; scalar = UInt32(lead & 0x07)
        case 0xF1...0xF3: continuationCount = 3; scalar = UInt32(lead & 0x07)
        case 0xF4: continuationCount = 3; secondRange = 0x80...0x8F; scalar = UInt32(lead & 0x07)
        default: return nil
        }
        for index in 1...continuationCount {
            guard position + index < bytes.count else { return nil }
            let byte = bytes[position + index]
            guard (index == 1 ? secondRange : 0x80...0xBF).contains(byte) else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        position += continuationCount + 1
        return Unicode.Scalar(scalar)
    }
}
