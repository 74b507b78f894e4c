import Foundation
import Testing
import AGViewModel

/// The parser keeps state per thread (interned keys, object shapes, spare
/// buffers, string caches). Parsing from many tasks at once must give every
/// task the same values as one parse alone; CI runs this suite under the
/// thread sanitizer.
@Suite("JSON parser concurrency", .timeLimit(.minutes(2)))
struct JSONParserConcurrencyTests {
    /// Documents that exercise the per-thread state: repeated and escaped
    /// keys, objects changing shape mid-array and growing past the index
    /// threshold, strings with escapes and non-ASCII text, numbers of every
    /// kind, nesting.
    static func documents() -> [Data] {
        var random = SplitMix64(seed: 7)
        var documents: [String] = []
        for d in 0 ..< 24 {
            var elements: [String] = []
            for e in 0 ..< 20 {
                let width = Int(random.next() % 16) + (e % 3 == 0 ? 12 : 1)
                let members = (0 ..< width).map { k -> String in
                    let key = k % 5 == 0 ? "k\\u00e9\(k)" : "key\(k % (d + 3))_\(k)"
                    let value: String
                    switch random.next() % 6 {
                    case 0: value = "\(Int64(bitPattern: random.next()))"
                    case 1: value = "\(Double(random.next() % 1_000_000) / 1_000)e\(Int(random.next() % 40) - 20)"
                    case 2: value = #""text \"\#(e)\" \u2603 日本 \#(k)""#
                    case 3: value = "[1, 2.5, null, true, {\"deep\": [\"x\"]}]"
                    case 4: value = "184467440737095516150"
                    default: value = "{\"id\": \(e), \"name\": \"n\(k)\"}"
                    }
                    return "\"\(key)\": \(value)"
                }
                elements.append("{" + members.joined(separator: ", ") + "}")
            }
            documents.append("{\"page\": \(d), \"items\": [" + elements.joined(separator: ",\n") + "]}")
        }
        return documents.map { Data($0.utf8) }
    }

    @Test func parsesFromManyTasksMatchOneParseAlone() async throws {
        let documents = Self.documents()
        let expected = try documents.map { try JSONParser().parse($0) }
        let texts = try expected.map { try $0.jsonString() }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0 ..< 8 {
                group.addTask {
                    var mismatches = 0
                    for round in 0 ..< 3 {
                        for index in documents.indices {
                            let i = (index + task * 3 + round) % documents.count
                            guard let value = try? JSONParser().parse(documents[i]),
                                  value == expected[i], (try? value.jsonString()) == texts[i] else {
                                mismatches += 1
                                continue
                            }
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
