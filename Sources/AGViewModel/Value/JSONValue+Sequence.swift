/// Iterating a value: `for (key, value) in json`.
///
/// An object yields its members in order; an array yields its elements,
/// each with its index written as a string key (`"0"`, `"1"`, …); any other
/// value yields nothing. The iterator shares the value's storage, nothing is
/// copied:
///
/// ```swift
/// for (key, value) in user { print(key, value) }          // members in order
/// for (_, element) in tags { print(element) }             // elements
/// for element in json.arrayValue ?? [] { print(element) } // elements, typed as JSONValue
/// ```
extension JSONValue: Sequence {
    /// A member of an object, or an element of an array with its index as
    /// the key.
    public typealias Element = (key: String, value: JSONValue)

    /// Walks the members or elements of a value.
    public struct Iterator: IteratorProtocol {
        @usableFromInline internal let value: JSONValue
        @usableFromInline internal var position = 0

        @inlinable
        internal init(_ value: JSONValue) { self.value = value }

        /// The next member or element, or `nil` at the end.
        @inlinable
        public mutating func next() -> (key: String, value: JSONValue)? {
            switch value {
            case .array(let array):
                guard position < array.count else { return nil }
                defer { position += 1 }
                return (String(position), array[position])
            case .object(let object):
                guard position < object.count else { return nil }
                defer { position += 1 }
                let member = object._members[position]
                return (member.key, member.value)
            default:
                return nil
            }
        }
    }

    /// An iterator over the members or elements.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(self) }

    /// The number of members or elements: exact, not an estimate.
    @inlinable
    public var underestimatedCount: Int { count }
}
