import Testing
@testable import AGViewModel

@Suite("Near matches for \"did you mean\"")
struct NearMatchTests {
    @Test(arguments: [
        ("help", "help", 0), ("hlep", "help", 1), ("help", "hepl", 1), ("ab", "ba", 1),
        ("abc", "ca", 3), ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3),
        ("screen_nmae", "screen_name", 1), ("convert", "covnert", 1), ("a", "b", 1),
    ])
    func distances(a: String, b: String, expected: Int) {
        #expect(NearMatch.editDistance(Array(a), Array(b), limit: 10) == expected)
        #expect(NearMatch.editDistance(Array(b), Array(a), limit: 10) == expected)
        #expect(NearMatch.editDistance(Array(a), Array(b), limit: expected) == expected)
        if expected > 0 { #expect(NearMatch.editDistance(Array(a), Array(b), limit: expected - 1) == nil) }
    }

    /// The early stop agrees with the full table, on random short words.
    @Test func theLimitNeverHidesADistanceWithinIt() {
        var generator = SplitMix64(seed: 42)
        func word() -> [Character] {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in "abc".randomElement(using: &generator)! }
        }
        for _ in 0..<20_000 {
            let (a, b) = (word(), word())
            let full = NearMatch.editDistance(a, b, limit: 100)!
            for limit in 0...4 {
                #expect(NearMatch.editDistance(a, b, limit: limit) == (full <= limit ? full : nil), "\(a) \(b) \(limit)")
            }
        }
    }

    @Test func closestPrefersTheNearestThenTheFirst() {
        #expect(NearMatch.closest(to: "hlep", in: ["keys", "help", "format"]) == "help")
        #expect(NearMatch.closest(to: "CONVER", in: ["convert", "validate"]) == "convert")
        #expect(NearMatch.closest(to: "xyz", in: ["convert", "validate"]) == nil)
        #expect(NearMatch.closest(to: "ab", in: ["ba", "ac"]) == "ba")
    }
}
