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
}
