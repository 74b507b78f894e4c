/// The elements of a JSON array: a random-access, mutable,
/// range-replaceable collection of ``JSONValue``s with value semantics.
///
/// It reads like a Swift array (`items.count`, `items[0]`, `for item in
/// items`, `items.map`, `items.append(1)`) and converts to one with
/// `Array(items)`; `JSONValue.array(swiftArray)` builds a value from one.
/// Unlike a Swift array, releasing a value nested to any depth never
/// recurses: a million nested arrays are released in a loop.
public struct JSONArray: Sendable {
    @usableFromInline internal var storage: JSONContainerStorage<JSONValue>

    /// The most elements an array holds (`UInt32.max`, about 100 GB of
    /// values). Setting by index or path past it changes nothing.
    public static let maximumCount = Int(UInt32.max)

    /// An empty array.
    @inlinable
    public init() { storage = JSONContainerStorage() }

    /// An empty array with room for `capacity` elements.
    @inlinable
    public init(minimumCapacity capacity: Int) { storage = JSONContainerStorage(minimumCapacity: capacity) }

    /// The elements of `elements`, in order.
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == JSONValue {
        storage = JSONContainerStorage(minimumCapacity: elements.underestimatedCount)
        for element in elements { storage.append(element) }
    }

    @inlinable
    internal init(storage: JSONContainerStorage<JSONValue>) { self.storage = storage }
}

extension JSONArray: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// Positions are offsets from 0, as in `Array`.
    public typealias Index = Int
    /// The valid positions, `0..<count`.
    public typealias Indices = Range<Int>

    /// `0`.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements: the position after the last.
    @inlinable public var endIndex: Int { storage.count }
    /// The number of elements.
    @inlinable public var count: Int { storage.count }
    /// Whether there is no element.
    @inlinable public var isEmpty: Bool { storage.count == 0 }
    /// `0..<count`.
    @inlinable public var indices: Range<Int> { 0..<storage.count }
    /// `i + 1`.
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    /// `i - 1`.
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    /// The element at `position`.
    @inlinable
    public subscript(position: Int) -> JSONValue {
        _read { yield storage[position] }
        _modify { yield &storage[position] }
    }

    /// Replaces the element at `position` with `element` and returns the
    /// one it held, in place.
    internal mutating func exchangeElement(at position: Int, with element: JSONValue) -> JSONValue {
        var element = element
        swap(&element, &storage[position])
        return element
    }

    /// Replaces the elements in `subrange` with `newElements`.
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == JSONValue {
        storage.replaceSubrange(subrange, with: newElements)
    }

    /// Makes room for at least `minimumCapacity` elements.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        storage.makeUniqueAndReserve(minimumCapacity)
    }

    /// Adds `newElement` at the end.
    @inlinable
    public mutating func append(_ newElement: JSONValue) {
        storage.append(newElement)
    }

    /// Calls `body` with the elements, which are always contiguous.
    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<JSONValue>) throws -> R) rethrows -> R? {
        try storage.withUnsafeBufferPointer(body)
    }
}

extension JSONArray: ExpressibleByArrayLiteral {
    /// An array of the literal's elements.
    @inlinable
    public init(arrayLiteral elements: JSONValue...) {
        self.init(elements)
    }
}

extension JSONArray: Hashable {
    /// Arrays are equal when their elements are, pairwise (numbers compare
    /// by value, as in ``JSONValue``).
    public static func == (a: JSONArray, b: JSONArray) -> Bool {
        equal(a, b, depth: 1)
    }

    /// `==` of arrays entered at nesting `depth` (see `JSONValue.equal`).
    internal static func equal(_ a: JSONArray, _ b: JSONArray, depth: Int) -> Bool {
        guard a.count == b.count else { return false }
        if a.storage.buffer === b.storage.buffer { return true }
        for i in 0..<a.count where !JSONValue.equal(a[i], b[i], depth: depth) { return false }
        return true
    }

    /// Hashes the elements, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 1)
    }

    /// `hash(into:)` at nesting `depth`: past the recursion limit, the
    /// count alone.
    internal func hash(into hasher: inout Hasher, depth: Int) {
        hasher.combine(count)
        guard depth < JSONValue.recursionDepthLimit else { return }
        for element in self { element.hash(into: &hasher, depth: depth) }
    }
}

extension JSONArray: CustomStringConvertible, CustomDebugStringConvertible {
    /// The array as JSON text.
    public var description: String { JSONValue.array(self).description }
    /// The array as JSON text.
    public var debugDescription: String { description }
}

extension JSONValue {
    /// An array value holding the elements of a Swift array.
    @inlinable
    public static func array(_ elements: [JSONValue]) -> JSONValue {
        .array(JSONArray(elements))
    }
}
