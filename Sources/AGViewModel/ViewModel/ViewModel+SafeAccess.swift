extension ViewModel: SafeJSONAccess {
    /// Walks `path` from this ViewModel: the first component is a key of
    /// the store; the rest walks into the JSON stored there, or into a
    /// nested ViewModel stored as a payload (`"author.name"` where `author`
    /// holds a ViewModel).
    ///
    /// This gives ViewModels every safe getter: `string(at:)`,
    /// `int(at:default:)`, `read(_:at:)` and the others. At the end of a
    /// path, a nested ViewModel reads as a JSON object of its JSON contents
    /// and an array of ViewModels as an array of such objects. Any other
    /// payload (an image, a formatter) has no JSON form and reads as
    /// missing.
    public func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError> {
        walk(path, depth: 0)
    }

    /// The value at `path`, or `nil`. Builds no error for paths into
    /// stored JSON.
    public func value(at path: JSONPath) -> JSONValue? {
        if case .key(let key)? = path.components.first {
            switch storedValue(forKey: key) {
            case .json(let json)?: return JSONValue.walk(json, path.components.dropFirst())
            case nil: return nil
            case .payload?: break
            }
        }
        return try? lookup(path).get()
    }

    /// The value at the path written in `path`, or `nil`. Builds no error;
    /// a path of plain keys (up to 15 UTF-8 bytes each) into stored JSON
    /// allocates nothing.
    public func value(at path: String) -> JSONValue? {
        // `.some(found)` answers the read; `nil` leaves it to the full lookup.
        let answer: JSONValue?? = path.withContiguousUTF8 { utf8 in
            switch JSONPath.TextShape(utf8: utf8) {
            case .singleKey:
                switch storedValue(forKey: path) {
                case .json(let json)?: return .some(json)
                case nil: return .some(nil)
                case .payload?: return nil
                }
            case .plain:
                guard let (key, rest) = JSONPath.firstKey(ofPlainUTF8: utf8) else {
                    return .some(path.isEmpty ? .object(jsonSnapshot()) : nil)
                }
                switch storedValue(forKey: key) {
                case .json(let json)?: return .some(JSONPath.walk(json, plainUTF8: utf8, from: rest))
                case nil: return .some(nil)
                case .payload?: return nil
                }
            case .needsParsing:
                return nil
            }
        }
        if let answer { return answer }
        // Payloads (nested ViewModels), misses and escaped paths.
        return try? lookup(JSONPath(path)).get()
    }

    private func walk(_ path: JSONPath, depth: Int) -> Result<JSONValue, JSONAccessError> {
        let components = path.components
        guard depth < components.count else { return .success(.object(jsonSnapshot())) }
        guard case .key(let key) = components[depth] else {
            return .failure(JSONAccessError(path: path.prefix(depth), reason: .notAContainer(found: .object)))
        }
        switch storedValue(forKey: key) {
        case nil:
            return .failure(JSONAccessError(missingAt: path.prefix(depth + 1), in: .keys(keyOrder)))
        case .json(let json)?:
            return JSONValue.walk(json, components[(depth + 1)...], fullPath: path, depth: depth + 1)
        case .payload(let payload)?:
            if let nested = payload as? ViewModel {
                return nested.walk(path, depth: depth + 1)
            }
            if let nested = NestedContent.viewModelList(payload) {
                guard depth + 1 < components.count else {
                    return .success(.array(nested.map { .object($0.jsonSnapshot()) }))
                }
                guard case .index(let index) = components[depth + 1] else {
                    return .failure(JSONAccessError(path: path.prefix(depth + 1), reason: .notAContainer(found: .array)))
                }
                guard nested.indices.contains(index) else {
                    return .failure(JSONAccessError(missingAt: path.prefix(depth + 2), in: .count(nested.count)))
                }
                return nested[index].walk(path, depth: depth + 2)
            }
            // A payload that is not JSON (an image, a formatter) has no JSON
            // to read: it reads as absent, never as a crash.
            return .failure(JSONAccessError(path: path.prefix(depth + 1), reason: .missing))
        }
    }

    /// The stored entries in key order. Each value is read through the
    /// single read path, so observation tracking sees every key read.
    internal func orderedEntries() -> [(key: String, value: ViewModelValue)] {
        keys.compactMap { key in storedValue(forKey: key).map { (key: key, value: $0) } }
    }
}
