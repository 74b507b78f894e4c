import Foundation
import Testing
@testable import AGViewModel

/// The writer walks containers with an explicit stack and writes the
/// leaves of a document (containers of scalars) without one: its output
/// must be the same text a plain recursive writer produces, in every
/// layout, and errors must still name the right path.
@Suite("JSONWriter: layout against a recursive reference")
struct JSONWriterLayoutTests {
    /// A recursive writer with the documented rules, as simple as possible.
    static func reference(_ value: JSONValue, pretty: Bool, indent: Int, sorted: Bool, level: Int = 0) -> String {
        func newline(_ level: Int) -> String { pretty ? "\n" + String(repeating: " ", count: level * indent) : "" }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .bigInteger(let text): return text
        case .string(let s): return quoted(s)
        case .array(let array):
            guard !array.isEmpty else { return "[]" }
            let items = array.map { newline(level + 1) + reference($0, pretty: pretty, indent: indent, sorted: sorted, level: level + 1) }
            return "[" + items.joined(separator: ",") + newline(level) + "]"
        case .object(let object):
            guard !object.isEmpty else { return "{}" }
            var members = Array(object)
            if sorted { members.sort { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) } }
            let items = members.map { member in
                newline(level + 1) + quoted(member.key) + (pretty ? ": " : ":")
                    + reference(member.value, pretty: pretty, indent: indent, sorted: sorted, level: level + 1)
            }
            return "{" + items.joined(separator: ",") + newline(level) + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Random documents: leaves of every kind, containers of scalars only,
    /// containers mixing scalars and containers, empty containers.
    static func randomValue(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let pick = Int.random(in: 0..<(depth > 0 ? 12 : 8), using: &random)
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random))
        case 3: return .double(Double(bitPattern: random.next() & ~(0x7FF << 52) | (UInt64.random(in: 900...1150, using: &random) << 52)))
        case 4: return .string(["", "a", "é\"\\\n", "\u{1}x😀", "plain text"].randomElement(using: &random)!)
        case 5: return .bigInteger("18446744073709551616")
        case 6: return .array(JSONArray())
        case 7: return .object(JSONObject())
        case 8, 9:
            let count = Int.random(in: 1...5, using: &random)
            return .array(JSONArray((0..<count).map { _ in randomValue(depth: depth - 1, using: &random) }))
        default:
            var object = JSONObject()
            for i in 0..<Int.random(in: 1...5, using: &random) {
                object[["b", "a", "é", "B", "aa"][i] + String(i)] = randomValue(depth: depth - 1, using: &random)
            }
            return .object(object)
        }
    }

    @Test func randomDocumentsMatchTheReferenceInEveryLayout() throws {
        var random = SplitMix64(seed: 0x11A7_0017)
        for _ in 0..<2_000 {
            let value = Self.randomValue(depth: 5, using: &random)
            for (pretty, indent, sorted) in [(false, 2, false), (false, 2, true), (true, 2, false), (true, 3, true)] {
                let options = JSONWriter.Options(pretty: pretty, indent: indent, sortedKeys: sorted)
                #expect(try value.jsonString(options: options)
                    == Self.reference(value, pretty: pretty, indent: indent, sorted: sorted))
            }
        }
    }

    @Test func aNonFiniteDoubleInALeafNamesItsPathAtAnyDepth() throws {
        let cases: [(JSONValue, String)] = [
            ([["x": 1, "y": .double(.infinity)]], "[0].y"),
            (["points": [[0.5, 1.5], [2.5, .double(.nan)]]], "points[1][1]"),
            ([[1, 2], ["a": ["b": [true, .double(-.infinity)]]]], "[1].a.b[1]"),
        ]
        for (value, path) in cases {
            for options in [JSONWriter.Options(), .pretty, .init(sortedKeys: true)] {
                #expect(throws: JSONWriteError.self) { try value.jsonString(options: options) }
                do {
                    _ = try value.jsonBytes(options: options)
                } catch {
                    #expect(error.path.description == path)
                }
            }
        }
    }

    /// A big integer's text is written verbatim only when it is an
    /// integer's digits; other text would not be JSON.
    @Test func aBigIntegerThatIsNotAnIntegerNamesItsPath() throws {
        for text in ["abc", "", "+5", "007", "1.5", "-", "1e5", " 1"] {
            let cases: [(JSONValue, String)] = [
                (.bigInteger(text), ""),
                (["n": .bigInteger(text)], "n"),
                ([1, ["a": [true, .bigInteger(text)]]], "[1].a[1]"),
            ]
            for (value, path) in cases {
                for options in [JSONWriter.Options(), .pretty, .init(sortedKeys: true)] {
                    do {
                        let written = try value.jsonString(options: options)
                        Issue.record("\(text): wrote \(written)")
                    } catch {
                        #expect(error.path.description == path)
                        #expect(error.message.contains("cannot write big integer"))
                    }
                }
            }
            #expect(JSONValue.bigInteger(text).description == text)
        }
        for text in ["0", "-0", "123456789012345678901234567890", "-98765432109876543210"] {
            #expect(try JSONValue.bigInteger(text).jsonString() == text)
        }
    }

    @Test("a big integer's bad text is quoted whole up to forty characters, then cut short")
    func aBadBigIntegerIsQuotedUpToFortyCharacters() throws {
        let forty = String(repeating: "x", count: 40)
        do {
            _ = try JSONValue.bigInteger(forty).jsonString()
            Issue.record("\(forty) must not be written")
        } catch {
            #expect(error.message == "top-level value: cannot write big integer \"\(forty)\": not an integer's digits")
        }
        do {
            _ = try JSONValue.array([.bigInteger(forty + "y")]).jsonString()
            Issue.record("\(forty)y must not be written")
        } catch {
            #expect(error.message == "[0]: cannot write big integer \"\(forty)…\": not an integer's digits")
        }
    }

    /// Points (arrays of one to four doubles inside an array) take a path of
    /// their own in compact output: the longest and the strangest doubles
    /// must come out there exactly as anywhere else.
    @Test func extremeDoublesInPointsMatchTheReference() throws {
        var edges: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, 2 * .leastNonzeroMagnitude, 2.2250738585072014e-308,
            Double.leastNormalMagnitude.nextDown, 1.7976931348623157e308, 9007199254740992, 9007199254740994, 1e-4, 1e-4.nextDown, 1e16, 1e17,
            123456789012345680, 0.1, 1.0 / 3.0, 2.0.squareRoot(), 0x1p-970, 0x1p-1000, 0x1p-1074,
        ]
        edges += edges.map { -$0 }
        edges += edges.map(\.nextUp) + edges.map(\.nextDown)
        edges = edges.filter(\.isFinite)
        var random = SplitMix64(seed: 0x9017_75)
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...4, using: &random)
            let points = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                JSONValue.array(JSONArray((0..<count).map { _ in
                    .double(Bool.random(using: &random)
                        ? edges.randomElement(using: &random)!
                        : Double(bitPattern: random.next() & ~(UInt64(1) << 63 | 0x7FF << 52)
                            | UInt64.random(in: 0...0x7FE, using: &random) << 52))
                }))
            }
            let value = JSONValue.array(JSONArray([.array(JSONArray(points)), .int(.min)]))
            let expected = Self.reference(value, pretty: false, indent: 2, sorted: false)
            #expect(try value.jsonString() == expected)
            #expect(try String(decoding: value.jsonData(), as: UTF8.self) == expected)
            #expect(try JSONValue(parsing: Data(expected.utf8)) == value)
        }
    }

    /// Doubles side by side are written two at a time: runs of every
    /// length, broken by other values, at the top of an array and inside
    /// points, must match the reference in every layout; a NaN or an
    /// infinity anywhere in a run is still named by its own index.
    @Test func runsOfDoublesMatchTheReference() throws {
        var random = SplitMix64(seed: 0x2D0B_1E5)
        let others: [JSONValue] = [.int(7), .string("x"), .null, .bool(false), .array(JSONArray()), [1.5, "y"]]
        for _ in 0..<3_000 {
            let elements = (0..<Int.random(in: 1...9, using: &random)).map { _ -> JSONValue in
                guard Int.random(in: 0..<5, using: &random) > 0 else { return others.randomElement(using: &random)! }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return .double([0, -0.0, .leastNonzeroMagnitude, 0x1p-1000, 1e-5, 0x1p53.nextUp, 1e300].randomElement(using: &random)!)
                case 1: return .double(Double(Int64.random(in: -99_999_999...99_999_999, using: &random)) / 1_000)
                default:
                    return .double(Double(bitPattern: random.next() & ~(0x7FF << 52)
                        | UInt64.random(in: 900...1150, using: &random) << 52))
                }
            }
            for value in [JSONValue.array(JSONArray(elements)), .array([.array(JSONArray(elements)), .int(1)])] {
                for (pretty, sorted) in [(false, false), (true, false), (false, true)] {
                    let options = JSONWriter.Options(pretty: pretty, indent: 2, sortedKeys: sorted)
                    #expect(try value.jsonString(options: options)
                        == Self.reference(value, pretty: pretty, indent: 2, sorted: sorted))
                }
            }
        }
        for count in 1...6 {
            for bad in 0..<count {
                for nonFinite in [Double.nan, .infinity, -.infinity] {
                    var doubles = JSONArray((0..<count).map { .double(Double($0) + 0.25) })
                    doubles[bad] = .double(nonFinite)
                    for (value, path) in [(JSONValue.array(doubles), "[\(bad)]"), ([.array(doubles)], "[0][\(bad)]")] {
                        #expect(throws: JSONWriteError.self) { try value.jsonBytes() }
                        do {
                            _ = try value.jsonBytes()
                        } catch {
                            #expect(error.path.description == path)
                        }
                    }
                }
            }
        }
    }

    @Test func integersOfEveryLengthAreExact() throws {
        var random = SplitMix64(seed: 0x1D16_175)
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 1...18 {
            power *= 10
            values += [power, power - 1, power + 1, -power, -(power - 1)]
        }
        for _ in 0..<5_000 { values.append(Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random)) }
        let written = try JSONValue.array(JSONArray(values.map { .int($0) })).jsonString()
        #expect(written == "[" + values.map { String($0) }.joined(separator: ",") + "]")
        for value in values.prefix(200) {
            #expect(try JSONValue.object(JSONObject([("n", .int(value))])).jsonString() == "{\"n\":\(value)}")
        }
    }

    @Test func eightDigitBlocksAreExact() {
        var random = SplitMix64(seed: 0x8D16_1757)
        let values = Array(0..<200_000) + Array(99_800_000..<100_000_000)
            + (0..<200_000).map { _ in Int.random(in: 0..<100_000_000, using: &random) }
        for v in values {
            let word = UInt64(littleEndian: JSONShortestDouble.eightDigits(UInt32(v)))
            var rest = v
            for byte in (0..<8).reversed() {
                guard Int((word >> UInt64(8 * byte)) & 0xFF) == 0x30 + rest % 10 else {
                    Issue.record("\(v): byte \(byte) is wrong")
                    return
                }
                rest /= 10
            }
        }
    }

    @Test func deeplyNestedLeavesAreWrittenWithoutRecursion() throws {
        let depth = 100_000
        var value: JSONValue = [1.5, "x"]
        for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(JSONObject([("k", value)])) }
        var opens = "", closes = ""
        for level in (0..<depth).reversed() { opens += level % 2 == 0 ? "[" : #"{"k":"# }
        for level in 0..<depth { closes += level % 2 == 0 ? "]" : "}" }
        #expect(try value.jsonString() == opens + #"[1.5,"x"]"# + closes)
    }

    @Test func indentationIsBoundedAtBothEnds() throws {
        let value: JSONValue = ["a": [1]]
        #expect(try value.jsonString(options: .init(pretty: true, indent: -5)) == "{\n\"a\": [\n1\n]\n}")
        let wide = try value.jsonString(options: .init(pretty: true, indent: .max))
        #expect(wide == (try value.jsonString(options: .init(pretty: true, indent: 64))))
        #expect(wide.contains("\n" + String(repeating: " ", count: 128) + "1\n"))
    }

    @Test func dataTakesTheBufferOverWithTheSameBytes() throws {
        for value: JSONValue in [[], [:], "", 0, ["a": [1, 2.5, "x"]], .array(JSONArray(repeating: 0.1, count: 10_000))] {
            let data = try value.jsonData()
            #expect(data == Data(try value.jsonBytes()))
            #expect(try JSONValue(parsing: data) == value)
        }
    }
}
