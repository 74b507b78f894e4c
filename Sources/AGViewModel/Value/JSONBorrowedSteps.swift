/// Steps of a path read taken in place: each step points into the elements
/// of the container before it instead of copying that container, so a read
/// through several containers costs no reference counting until the value
/// found is copied out.
///
/// A pointer stays valid while the value the walk started from is held and
/// nothing mutates the containers on the way, which is the case for the
/// duration of one read.
extension UnsafePointer where Pointee == JSONValue {
    /// The value of member `key` when this is an object that has one;
    /// `hash`, when given, is the key's hash value.
    @inline(__always)
    internal func member(forKey key: String, hash: Int?) -> UnsafePointer<JSONValue>? {
        guard case .object(let object) = pointee, let position = object.index(forKey: key, hash: hash) else { return nil }
        return UnsafePointer(JSONObject.Member.value(at: object._members.borrowedElements.baseAddress.unsafelyUnwrapped + position))
    }

    /// Element `index` when this is an array that long.
    @inline(__always)
    internal func element(at index: Int) -> UnsafePointer<JSONValue>? {
        guard case .array(let array) = pointee, array.indices.contains(index) else { return nil }
        return UnsafePointer(array.storage.borrowedElements.baseAddress.unsafelyUnwrapped + index)
    }

    /// The value `components` lead to from this one, stepping in place;
    /// `keyHashes`, when given, holds each key's hash value at the
    /// component's position (see ``JSONHashedPath``).
    @inline(__always)
    internal func descendant(
        at components: ArraySlice<JSONPath.Component>, keyHashes: [Int]? = nil
    ) -> UnsafePointer<JSONValue>? {
        var current = self
        for position in components.indices {
            let next = switch components[position] {
            case .key(let key): current.member(forKey: key, hash: keyHashes?[position])
            case .index(let index): current.element(at: index)
            }
            guard let next else { return nil }
            current = next
        }
        return current
    }
}
