/// Why a grouping operation rejected its input: applying a change set that
/// does not fit the data reports the inconsistency, as UIKit would.
/// (Packaging data of the wrong shape is a ``PackagingError``.)
public enum GroupingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A change set does not fit the sections it was applied to.
    case invalidChangeSet(String)

    /// A one-line explanation, for logs.
    public var description: String {
        switch self {
        case let .invalidChangeSet(reason):
            return "invalid change set: \(reason)"
        }
    }
}
