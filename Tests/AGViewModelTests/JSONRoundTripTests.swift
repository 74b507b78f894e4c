import Testing
@testable import AGViewModel

/// Generates random JSON values from a seed: every kind, tricky strings,
/// extreme numbers and occasional deep nesting.
struct JSONValueGenerator {
    var random: SplitMix64
    /// Containers left to make for the current value, so sizes stay small.
    var budget = 0

    static let pieces: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1F}",
        "\u{7F}", "é", "ß", "€", "中文", "日本語", "😀", "👩‍👩‍👧", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}",
        "\u{2028}", "\u{FEFF}", "\\u0041", "plain ascii text that runs past a word boundary",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func string() -> String {
        var s = ""
        for _ in 0..<int(0...6) { s += Self.pieces[int(0...Self.pieces.count - 1)] }
        return s
    }

    mutating func double() -> Double {
        switch int(0...5) {
        case 0: return [0.0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                        .leastNormalMagnitude, 0.1, 1e-5, 1e21, 1e22, 1e23, 9007199254740993.0][int(0...12)]
        case 1: return Double(int(-1000...1000)) / 8
        default:
            while true {
                let d = Double(bitPattern: random.next())
                if d.isFinite { return d }
            }
        }
    }

    mutating func scalar() -> JSONValue {
        switch int(0...7) {
        case 0: return .null
        case 1: return .bool(int(0...1) == 1)
        case 2: return .int([Int64.max, .min, 0, -1, 505874924095815681][int(0...4)])
        case 3: return .int(Int64(bitPattern: random.next()) >> int(0...63))
        case 4: return .double(double())
        case 5:
            var digits = String(int(1...9))
            for _ in 0..<int(19...40) { digits += String(int(0...9)) }
            return .bigInteger((int(0...1) == 1 ? "-" : "") + digits)
        default: return .string(string())
        }
    }

    /// A random value of at most about 40 containers.
    mutating func value() -> JSONValue {
        budget = 40
        return value(depth: 0)
    }

    mutating func value(depth: Int) -> JSONValue {
        if depth >= 6 || budget <= 0 || int(0...2) == 0 { return scalar() }
        budget -= 1
        switch int(0...19) {
        case 0:
            // A deep chain.
            var chain = scalar()
            for _ in 0..<int(50...300) { chain = int(0...1) == 0 ? [chain] : ["k": chain] }
            return chain
        case 1...9:
            return .array((0..<int(0...8)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<int(0...16) { object[string()] = value(depth: depth + 1) }
            return .object(object)
        }
    }
}

/// `true` when `a` and `b` have objects with keys in the same order at
/// every level (equality already ignores order).
func sameKeyOrder(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy { sameKeyOrder($0, $1) }
    case let (.object(x), .object(y)):
        return x.keys == y.keys && zip(x.values, y.values).allSatisfy { sameKeyOrder($0, $1) }
    default:
        return true
    }
}

@Suite("JSON round trip")
struct JSONRoundTripTests {
    static let optionSets: [JSONWriter.Options] = [
        .compact, .pretty, .init(sortedKeys: true), .init(pretty: true, indent: 3, sortedKeys: true),
    ]

    @Test(arguments: [UInt64(1), 2, 3, 0xDEAD_BEEF, 0x5EED_5EED])
    func parseOfWriteGivesTheSameValue(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<30 {
            let value = generator.value()
            for options in Self.optionSets {
                let text = try JSONWriter(options: options).write(value)
                let back = try JSONParser(options: .init(maximumDepth: 2000)).parse(text)
                #expect(back == value, "seed \(seed), options \(options)")
                if !options.sortedKeys {
                    #expect(sameKeyOrder(back, value), "key order, seed \(seed)")
                }
                // Writing again gives the same text: output is deterministic.
                #expect(try JSONWriter(options: options).write(back) == text)
            }
        }
    }

    @Test func negativeZeroAndIntVersusDoubleSurvive() throws {
        let value: JSONValue = [.double(-0.0), .int(1), .double(1), .double(1e300), .int(.min)]
        let back = try JSONValue(parsing: value.jsonString())
        #expect(back == value)
        guard case .double(let zero)? = back[0] else {
            Issue.record("expected a double")
            return
        }
        #expect(zero.sign == .minus)
        #expect(back[1]?.kind == .int)
        #expect(back[2]?.kind == .double)
    }
}
