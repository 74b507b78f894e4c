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
    /// What the walk found where the value was missing, kept for the
    /// message and worked out only when asked: the object's keys, or the
    /// array's length. Not part of the error's identity.
    internal var surroundings: MissingValueSurroundings?

    /// Creates an error.
    public init(path: JSONPath, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A ``Reason/missing`` error at `path`, which found `surroundings`.
    internal init(missingAt path: JSONPath, in surroundings: MissingValueSurroundings) {
        self.init(path: path, reason: .missing)
        self.surroundings = surroundings
    }

    /// For a missing key: the key of the same object that looks most like
    /// it (the same but for case and `_`, `-` or spaces, or within one
    /// edit per four characters, none for keys under four), as an API
    /// renaming or a misspelt key would leave it; `nil`
    /// when none does or the error is of another kind.
    ///
    /// ```swift
    /// try status.read(Int.self, at: "user.followers_count")
    /// // user.followers_count: missing (did you mean "followersCount"?)
    /// ```
    public var suggestion: String? {
        guard reason == .missing, case .key(let key)? = path.components.last else { return nil }
        return surroundings?.keyResembling(key)
    }

    /// A one-line explanation, for logs.
    public var description: String {
        let at = path.components.isEmpty ? "value" : path.description
        switch reason {
        case .missing:
            if let suggestion { return "\(at): missing (did you mean \(JSONValue.string(suggestion).briefDescription)?)" }
            if case .count(let count)? = surroundings {
                return "\(at): missing (" + (count == 0 ? "the array is empty)" : "the array has \(count) element\(count == 1 ? "" : "s"))")
            }
            return "\(at): missing"
        case .null: return "\(at): null"
        case .notAContainer(let found): return "\(at): cannot descend into \(found.rawValue)"
        case .typeMismatch(let expected, let found, let value):
            return "\(at): expected \(expected), found \(found.rawValue) \(value)"
        }
    }
}

extension JSONAccessError {
    /// Errors are equal when their paths and reasons are: what surrounded
    /// a missing value only shapes the message.
    public static func == (left: JSONAccessError, right: JSONAccessError) -> Bool {
        left.path == right.path && left.reason == right.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(reason)
    }
}
