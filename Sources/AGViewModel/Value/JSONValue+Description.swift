extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, so `print(value)` and string
    /// interpolation show what an API would send: `"Swift"`, `9.5`,
    /// `{"id":1}`. A non-finite double (which JSON cannot hold) shows as
    /// `nan`, `inf` or `-inf` instead of failing, and a big integer whose
    /// text is not an integer shows its text.
    public var description: String {
        if let text = try? jsonString() { return text }
        // Only non-finite doubles and big integers that are not integers
        // make the writer fail; show them plainly.
        switch self {
        case .double(let d): return d.description
        case .bigInteger(let text): return text
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.map { JSONValue.string($0.key).description + ":" + $0.value.description }
                .joined(separator: ",") + "}"
        default: return "null"
        }
    }
}
