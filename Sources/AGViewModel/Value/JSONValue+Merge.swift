/// Deep merge: combining a value with an update, such as a partial API
/// response or a settings override.
///
/// The policy:
/// - **Objects merge recursively.** Members of both sides are merged key by
///   key; members only in `self` stay where they are, members only in
///   `other` are appended in `other`'s order.
/// - **Everything else: `other` wins.** Arrays are replaced as a whole (not
///   concatenated, not merged by index), scalars are replaced, and an
///   object meeting a non-object is replaced.
/// - **`null` is a value**: a `null` in `other` sets `null`, it does not
///   delete the member (unlike JSON Merge Patch, RFC 7396). Remove members
///   with ``JSONValue/removeValue(at:)-(JSONPath)``.
///
/// ```swift
/// var settings: JSONValue = ["theme": ["color": "blue", "size": 12], "tags": ["a"]]
/// settings.merge(["theme": ["size": 14], "tags": ["b"]])
/// // {"theme":{"color":"blue","size":14},"tags":["b"]}
/// ```
extension JSONValue {
    /// Merges `other` into this value by the deep-merge policy above.
    public mutating func merge(_ other: JSONValue) {
        guard case .object(let update) = other, case .object(var object) = self else {
            self = other
            return
        }
        self = .null  // drop our reference so `object` mutates in place
        object.merge(update)
        self = .object(object)
    }

    /// This value with `other` merged in by the deep-merge policy above.
    public func merging(_ other: JSONValue) -> JSONValue {
        var result = self
        result.merge(other)
        return result
    }
}

extension JSONObject {
    /// Merges the members of `other` into this object: objects under the
    /// same key merge recursively, any other value from `other` replaces
    /// the one here (see ``JSONValue/merge(_:)``).
    public mutating func merge(_ other: JSONObject) {
        // One frame per level of objects being merged, not one call: values
        // as deep as their builder made them merge on any stack. Each
        // object being merged into is taken out of its parent meanwhile, so
        // it is held once and changes in place.
        struct Frame {
            var object: JSONObject
            let update: JSONObject
            var next = 0
            /// Where `object` goes back in the frame below.
            let position: Int
        }
        var frames = [Frame(object: self, update: other, position: -1)]
        self = JSONObject()
        while !frames.isEmpty {
            let top = frames.count - 1
            guard frames[top].next < frames[top].update.count else {
                let done = frames.removeLast()
                if frames.isEmpty {
                    self = done.object
                } else {
                    _ = frames[top - 1].object.exchangeValue(at: done.position, with: .object(done.object))
                }
                continue
            }
            let (key, value) = frames[top].update[frames[top].next]
            frames[top].next += 1
            if case .object(let update) = value, let position = frames[top].object.index(forKey: key),
               case .object = frames[top].object[position].value,
               case .object(let object) = frames[top].object.exchangeValue(at: position, with: .null) {
                frames.append(Frame(object: object, update: update, position: position))
            } else {
                frames[top].object[key] = value
            }
        }
    }

    /// This object with the members of `other` merged in (see
    /// ``merge(_:)``).
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        result.merge(other)
        return result
    }
}
