/// Why a Foundation or `Any` value could not become a ``JSONValue``: the
/// path of the first offending value and what it was.
///
/// ```swift
/// do { _ = try JSONValue(["when": Date()] as [String: Any]) }
/// catch { print(error) }  // when: Date is not a JSON value
/// ```
public struct JSONConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value sits inside the converted value (empty for the value itself).
    public var path: JSONPath
    /// The type of the value that has no JSON form, as Swift names it.
    public var typeName: String
    /// Why it has no JSON form, when more specific than its type
    /// ("not a finite number", "a dictionary key that is not a string").
    public var detail: String?

    /// Creates an error.
    public init(path: JSONPath, typeName: String, detail: String? = nil) {
        self.path = path
        self.typeName = typeName
        self.detail = detail
    }

    /// A one-line explanation: `items[2].when: Date is not a JSON value`.
    public var description: String {
        let at = path.components.isEmpty ? "value" : path.description
        if let detail { return "\(at): \(typeName) is not a JSON value (\(detail))" }
        return "\(at): \(typeName) is not a JSON value"
    }
}
