/// Why a value could not be written as JSON text.
///
/// JSON has no NaN or infinity, so a non-finite ``JSONValue/double(_:)``
/// cannot be written; the error names where the value sits:
///
/// ```swift
/// let value: JSONValue = ["scores": [1.5, .double(.infinity)]]
/// do { _ = try value.jsonString() }
/// catch { print(error) }  // scores[1]: cannot write inf: JSON has no NaN or infinity
/// ```
public struct JSONWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path of the offending value (empty for the top-level value).
    public var path: JSONPath
    /// What is wrong, including the path of the offending value.
    public var message: String

    /// Creates an error for the value at `path`.
    public init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
