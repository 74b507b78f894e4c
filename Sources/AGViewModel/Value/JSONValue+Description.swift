extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, so `print(value)` and string
    /// interpolation show what an API would send: `"Swift"`, `9.5`,
    /// `{"id":1}`. A non-finite double (which JSON cannot hold) shows as
    /// `nan`, `inf` or `-inf` instead of failing, and a big integer whose
    /// text is not an integer shows its text.
    public var description: String {
        if let text = try? jsonString() { return text }
        return plainDescription(depth: 0)
    }

    /// The text for a value the writer refuses: only non-finite doubles and
    /// big integers that are not integers make it fail, and they show
    /// plainly. Containers past the recursion limit show as `[…]` or `{…}`.
    private func plainDescription(depth: Int) -> String {
        if let text = try? jsonString() { return text }
        switch self {
        case .double(let d): return d.description
        case .bigInteger(let text): return text
        case .array(let elements):
            guard depth < JSONValue.recursionDepthLimit else { return "[…]" }
            return "[" + elements.map { $0.plainDescription(depth: depth + 1) }.joined(separator: ",") + "]"
        case .object(let object):
            guard depth < JSONValue.recursionDepthLimit else { return "{…}" }
            return "{" + object.map { JSONValue.string($0.key).description + ":" + $0.value.plainDescription(depth: depth + 1) }
                .joined(separator: ",") + "}"
        default: return "null"
        }
    }
}
