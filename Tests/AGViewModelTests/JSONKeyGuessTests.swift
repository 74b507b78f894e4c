import Foundation
import Testing
@testable import AGViewModel

/// The parser guesses each object key from the key that followed the
/// previous one last time (and an object's first key from the member it is
/// the value of), and takes the guess when the input has its exact bytes
/// and then `"`. A wrong guess taken would silently rename a key, so these
/// tests feed keys that agree with the guess in every way but one.
@Suite("JSON keys guessed from earlier objects")
struct JSONKeyGuessTests {
    /// Keys of every length the guess treats differently: shorter than a
    /// word, one word, up to two words, with middle bytes, and longer than
    /// the table interns.
    static let lengths = [0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 40, 64, 65, 80]

    static func key(length: Int, seed: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<length).map { alphabet[($0 &* 31 &+ seed &* 17 &+ $0 / 7) % alphabet.count] })
    }

    /// Variants of `key` that a guess of `key` must not be taken for: each
    /// byte changed, one byte short, one byte long, and the text `key`
    /// followed by an escape.
    static func nearMisses(of key: String) -> [String] {
        let bytes = Array(key.utf8)
        var variants: [String] = []
        for position in bytes.indices {
            var changed = bytes
            changed[position] = changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            variants.append(String(decoding: changed, as: UTF8.self))
        }
        variants.append(String(key.dropLast()))
        variants.append(key + "z")
        variants.append(key + "\n")
        return variants
    }

    /// `"key"`, with a character escaped when `escaped`.
    static func quoted(_ key: String, escapingLast escaped: Bool = false) -> String {
        var text = ""
        for (offset, scalar) in key.unicodeScalars.enumerated() {
            if scalar == "\n" {
                text += "\\n"
            } else if escaped && offset == key.unicodeScalars.count - 1 {
                text += String(format: "\\u%04x", scalar.value)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return "\"" + text + "\""
    }

    /// The keys of every object in `value`, in document order.
    static func objectKeys(_ value: JSONValue) -> [[String]] {
        switch value {
        case .object(let object): [object.map(\.key)] + object.flatMap { objectKeys($0.value) }
        case .array(let array): array.flatMap(objectKeys)
        default: []
        }
    }

    @Test("a guess is taken only for its exact bytes followed by a quote")
    func nearMissesAreNotTakenForTheGuess() throws {
        for length in Self.lengths {
            let first = Self.key(length: 3, seed: 1), second = Self.key(length: length, seed: 2)
            let trained = "{" + Self.quoted(first) + ":1," + Self.quoted(second) + ":2}"
            for variant in Self.nearMisses(of: second) where variant != first {
                // The same shape twice, so the guesses are in place, then the variant.
                let text = "[" + trained + "," + trained + ",{" + Self.quoted(first) + ":1," + Self.quoted(variant) + ":2}]"
                let value = try JSONValue(parsing: text)
                #expect(Self.objectKeys(value) == [[first, second], [first, second], [first, variant]],
                        "length \(length), variant \(variant.debugDescription)")
                #expect(value[2]?[variant] == .int(2))
            }
            // The guessed key spelled with an escape is that key all the same.
            let escaped = "[" + trained + "," + trained + ",{" + Self.quoted(first) + ":1,"
                + Self.quoted(second, escapingLast: true) + ":2}]"
            #expect(Self.objectKeys(try JSONValue(parsing: escaped)) == Array(repeating: [first, second], count: 3))
        }
    }

    @Test("what follows a guessed key reads as after any key: spaces, the colon, errors at their place")
    func afterAGuessedKey() throws {
        // Between the key and the value: valid separators and broken ones.
        let separators = [":", ": ", " :", "  :", "\n:", "\t :\n ", "\r\n:", "", " ", ",", "::", " ,:", ";", "}"]
        for length in Self.lengths where length > 0 {
            let first = Self.key(length: 3, seed: 6), second = Self.key(length: length, seed: 7)
            let trained = "{" + Self.quoted(first) + ":1," + Self.quoted(second) + ":2}"
            for separator in separators {
                // The key as the guess reads it, and spelled with an escape,
                // which no guess takes: the reference. Input follows the
                // object, as a guess is only tried with eight bytes after it.
                func document(escaped: Bool) -> String {
                    "[" + trained + "," + trained + ",{" + Self.quoted(first) + ":1,"
                        + Self.quoted(second, escapingLast: escaped) + separator + "3}," + trained + "]"
                }
                let guessed = document(escaped: false), reference = document(escaped: true)
                let shift = guessed.utf8.count - reference.utf8.count
                let label = Comment(rawValue: "length \(length), separator \(separator.debugDescription)")
                switch (Result { try JSONValue(parsing: guessed) }, Result { try JSONValue(parsing: reference) }) {
                case (.success(let value), .success(let expected)):
                    #expect(value == expected, label)
                    #expect(value[2]?[second] == .int(3), label)
                case (.failure(let error as JSONParseError), .failure(let expected as JSONParseError)):
                    #expect(error.message == expected.message, label)
                    #expect(error.offset == expected.offset + shift, label)
                    #expect(error.line == expected.line, label)
                default:
                    Issue.record("one parse failed and the other did not: \(label)")
                }
            }
        }
    }

    @Test("a first key guessed from the enclosing member, near misses included")
    func firstKeysFollowTheEnclosingMember() throws {
        for length in Self.lengths {
            let inner = Self.key(length: length, seed: 3)
            let trained = #"{"user":{"# + Self.quoted(inner) + #":1,"b":2}}"#
            for variant in Self.nearMisses(of: inner) where variant != inner {
                let text = "[" + trained + "," + trained + #",{"user":{"# + Self.quoted(variant) + #":1,"b":2}}]"#
                let value = try JSONValue(parsing: text)
                #expect(value[2]?["user"]?[variant] == .int(1), "length \(length), variant \(variant.debugDescription)")
                #expect(value[2]?["user"]?[inner] == nil)
            }
        }
    }

    @Test("a guessed key cut off by the end of the input is reported, not read past")
    func guessesAtTheEndOfTheInput() throws {
        for length in Self.lengths {
            let first = Self.key(length: 3, seed: 4), second = Self.key(length: length, seed: 5)
            let trained = "{" + Self.quoted(first) + ":1," + Self.quoted(second) + ":2}"
            let prefix = "[" + trained + "," + trained + ",{" + Self.quoted(first) + ":1,\""
            for cut in 0...second.utf8.count {
                let text = prefix + String(second.utf8.prefix(cut))!
                let error = try #require(parseError(text), "length \(length), cut \(cut)")
                #expect(error.offset == text.utf8.count, "length \(length), cut \(cut)")
            }
            // The whole key and its quote as the input's last bytes.
            #expect(parseError(prefix + second + "\"")?.offset == (prefix + second).utf8.count + 1)
        }
    }

    @Test("nested objects keep their own guesses, and the outer object resumes its own")
    func nestedObjects() throws {
        // Statuses and their users alternate, as in an API timeline; the
        // shapes vary from one status to the next.
        var generator = SplitMix64(seed: 0x6B65_7973)
        let statusKeys = ["created_at", "id", "id_str", "text", "user", "retweet_count", "entities", "favorited"]
        let userKeys = ["id", "name", "screen_name", "profile_image_url_https", "followers_count"]
        var statuses: [String] = []
        var expected: [[String]] = []
        for _ in 0..<400 {
            let keys = statusKeys.filter { _ in generator.next() % 8 != 0 }
            var members: [String] = []
            var nested: [[String]] = []
            for key in keys {
                switch key {
                case "user":
                    let inner = userKeys.filter { _ in generator.next() % 6 != 0 }
                    members.append(#""user":{"# + inner.map { "\"\($0)\":0" }.joined(separator: ",") + "}")
                    nested.append(inner)
                case "entities":
                    members.append(#""entities":[{"url":"a","expanded_url":"b"},{"url":"c"}]"#)
                    nested.append(["url", "expanded_url"])
                    nested.append(["url"])
                default:
                    members.append("\"\(key)\":0")
                }
            }
            statuses.append("{" + members.joined(separator: ",") + "}")
            expected.append(keys)
            expected.append(contentsOf: nested)
        }
        let text = #"{"statuses":["# + statuses.joined(separator: ",") + "]}"
        let value = try JSONValue(parsing: text)
        #expect(Self.objectKeys(value) == [["statuses"]] + expected)
        // The same document again, with every guess in place from the first parse.
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test("projected parsing of deeply nested objects")
    func projectedNesting() throws {
        // Keys matched by the projection leave the guess where it was; the
        // objects nested in them still guess from a valid place.
        var text = "1"
        for depth in (0..<40).reversed() { text = "{\"k\(depth)\":\(text),\"x\":[{\"y\":{\"z\":2}}]}" }
        let spec = try PackagingSpec(data: Data(#"""
            {"fields": [{"key": "deep", "path": "k0.k1.k2.k3.k4.k5.k6.k7.k8.k9.k10.k11", "type": "object"}]}
            """#.utf8))
        let packager = SpecPackager(spec: spec)
        let full = try JSONValue(parsing: text)
        for _ in 0..<3 {
            let projected = try packager.parseDocument(Data(text.utf8))
            #expect(projected["k0"]?["k1"]?["k2"]?["k3"]?["k4"]?["k5"]?["k6"]?["k7"]?["k8"]?["k9"]?["k10"]?["k11"]
                    == full["k0"]?["k1"]?["k2"]?["k3"]?["k4"]?["k5"]?["k6"]?["k7"]?["k8"]?["k9"]?["k10"]?["k11"])
        }
    }
}
