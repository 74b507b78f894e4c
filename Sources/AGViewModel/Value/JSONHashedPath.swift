/// A path whose keys are hashed once, for reading the same path from many
/// objects (a packaging spec's fields, applied to every item): a step into
/// an object with a hash index then costs no hashing of its key.
///
/// Hash values are Swift's own, seeded per process, so a hashed path lives
/// in memory only and is never stored.
internal struct JSONHashedPath: Sendable {
    /// The path.
    let path: JSONPath
    /// The hash value of each key component (`0` for indices).
    let keyHashes: [Int]

    init(_ path: JSONPath) {
        self.path = path
        keyHashes = path.components.map { component in
            if case .key(let key) = component { key.hashValue } else { 0 }
        }
    }
}

extension JSONObject {
    /// The position of `key`, whose hash value is `hash`, or `nil`.
    @inlinable
    internal func index(forKey key: String, hash: Int) -> Int? {
        if let index = _index { return index.find(key, hash: hash, in: _members) }
        return linearIndex(forKey: key)
    }

    /// The position of `key`, found with its hash value `hash` when given.
    @inline(__always)
    internal func index(forKey key: String, hash: Int?) -> Int? {
        if let hash { index(forKey: key, hash: hash) } else { index(forKey: key) }
    }

    /// Walks `path` from this object: ``lookup(_:)`` without hashing keys.
    internal func lookup(_ path: JSONHashedPath) -> Result<JSONValue, JSONAccessError> {
        lookup(path.path, keyHashes: path.keyHashes)
    }

    /// The value at `path`, or `nil`: ``value(at:)-(JSONPath)`` without
    /// hashing keys; builds no error.
    internal func value(at path: JSONHashedPath) -> JSONValue? {
        let components = path.path.components
        guard case .key(let first)? = components.first else {
            return components.isEmpty ? .object(self) : nil
        }
        guard let position = index(forKey: first, hash: path.keyHashes[0]) else { return nil }
        guard components.count > 1 else { return _members[position].value }
        return withExtendedLifetime(self) {
            UnsafePointer(JSONObject.Member.value(at: _members.borrowedElements.baseAddress.unsafelyUnwrapped + position))
                .descendant(at: components.dropFirst(), keyHashes: path.keyHashes)?.pointee
        }
    }
}
