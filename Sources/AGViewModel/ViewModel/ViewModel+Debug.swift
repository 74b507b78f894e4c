extension ViewModel: CustomDebugStringConvertible {
    /// The contents, one key per line in key order: JSON values as compact
    /// JSON (long ones cut), nested ViewModels indented, other payloads by
    /// type.
    ///
    /// ```
    /// ViewModel (3 keys) {
    ///   title: "Swift"
    ///   author: ViewModel (1 key) {
    ///     name: "Ann"
    ///   }
    ///   avatar: <payload Avatar>
    /// }
    /// ```
    public var debugDescription: String {
        var out = ""
        var visiting: Set<ObjectIdentifier> = []
        describe(into: &out, indent: "", visiting: &visiting)
        return out
    }

    /// The longest rendering of one JSON value before it is cut.
    private static let valueWidth = 100

    internal func describe(into out: inout String, indent: String, visiting: inout Set<ObjectIdentifier>) {
        visiting.insert(ObjectIdentifier(self))
        defer { visiting.remove(ObjectIdentifier(self)) }
        let entries = orderedEntries()
        out += "ViewModel (\(entries.count) \(entries.count == 1 ? "key" : "keys")) {"
        if entries.isEmpty { out += "}"; return }
        out += "\n"
        let inner = indent + "  "
        for (key, value) in entries {
            out += inner + key + ": "
            switch value {
            case .json(let json):
                out += Self.render(json)
            case .payload(let nested as ViewModel):
                if visiting.contains(ObjectIdentifier(nested)) {
                    out += "<cycle: a ViewModel containing this one>"
                } else {
                    nested.describe(into: &out, indent: inner, visiting: &visiting)
                }
            case .payload(let payload):
                // Any empty array casts to `[ViewModel]`: ask NestedContent.
                if let list = NestedContent.viewModelList(payload) {
                    out += "[\(list.count) ViewModels]"
                } else {
                    out += "<payload \(type(of: payload))>"
                }
            }
            out += "\n"
        }
        out += indent + "}"
    }

    private static func render(_ json: JSONValue) -> String {
        guard let text = try? json.jsonString() else { return json.briefDescription }
        guard text.count > valueWidth else { return text }
        return String(text.prefix(valueWidth - 1)) + "…"
    }
}
