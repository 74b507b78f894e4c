/// Why a grouping operation rejected its input.
///
/// Packaging data from outside (a parsed API response) reports the first
/// element of the wrong shape instead of trapping; applying a change set
/// that does not fit the data reports the inconsistency, as UIKit would.
public enum GroupingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value at `path` (indices from the top-level array; empty for the
    /// top level itself) should have been an array.
    case expectedArray(path: [Int], found: JSONValue.Kind)
    /// The value at `path` should have been an object.
    case expectedObject(path: [Int], found: JSONValue.Kind)
    /// A change set does not fit the sections it was applied to.
    case invalidChangeSet(String)

    /// A one-line explanation, for logs.
    public var description: String {
        func at(_ path: [Int]) -> String {
            path.isEmpty ? "the value" : "element " + path.map { "[\($0)]" }.joined()
        }
        switch self {
        case let .expectedArray(path, found):
            return "\(at(path)) is \(found.rawValue), expected an array"
        case let .expectedObject(path, found):
            return "\(at(path)) is \(found.rawValue), expected an object"
        case let .invalidChangeSet(reason):
            return "invalid change set: \(reason)"
        }
    }
}
