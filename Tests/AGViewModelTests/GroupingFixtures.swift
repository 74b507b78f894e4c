import Foundation
@testable import AGViewModel

/// Shared helpers for the grouping tests (Section, Manager, ChangeSet).
enum GroupingFixtures {
    /// The integer in `value`, or `nil`.
    static func int(_ value: JSONValue?) -> Int64? {
        if case .int(let i)? = value { return i }
        return nil
    }

    /// The string in `value`, or `nil`.
    static func string(_ value: JSONValue?) -> String? {
        if case .string(let s)? = value { return s }
        return nil
    }

    /// Items with the given `id`s.
    static func items(_ ids: [Int64]) -> [ViewModel] {
        ids.map { ViewModel(["id": .int($0)]) }
    }

    /// The `id`s of a section's items (`-1` where missing).
    static func ids(_ section: Section) -> [Int64] {
        section.map { int($0["id"]) ?? -1 }
    }

    /// A deterministic, seedable generator (SplitMix64), so property tests
    /// reproduce from the seed they print.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
