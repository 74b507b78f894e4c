/// Why a safe read of JSON (or of a ViewModel key) gave no value.
///
/// Safe getters return `nil` or a default; their `read(_:at:)` counterparts
/// throw this error so you can see API drift when debugging:
///
/// ```swift
/// do { let n = try json.read(Int.self, at: "user.followers_count") }
/// catch { print(error) }  // user.followers_count: expected an integer, found string "12k"
/// ```
public struct JSONAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// Nothing is stored at the path (a missing key or an index out of range).
        case missing
        /// The value is JSON `null`.
        case null
        /// A step of the path needed an object or array and found another kind.
        case notAContainer(found: JSONValue.Kind)
        /// The value exists but cannot be read as the requested type.
        case typeMismatch(expected: String, found: JSONValue.Kind, value: String)
    }

    /// The path that was read, or the prefix of it where the walk stopped.
    public var path: JSONPath
    /// The reason.
    public var reason: Reason

    /// Creates an error.
    public init(path: JSONPath, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A one-line explanation, for logs.
    public var description: String {
        let at = path.components.isEmpty ? "value" : path.description
        switch reason {
        case .missing: return "\(at): missing"
        case .null: return "\(at): null"
        case .notAContainer(let found): return "\(at): cannot descend into \(found.rawValue)"
        case .typeMismatch(let expected, let found, let value):
            return "\(at): expected \(expected), found \(found.rawValue) \(value)"
        }
    }
}
