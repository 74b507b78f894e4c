// Header fields are read through `withUnsafeMutablePointerToHeader`, not
// `ManagedBuffer.header`: that is a class property, and every access to it
// pays a runtime exclusivity check.

/// The element storage of JSON arrays and objects: a copy-on-write buffer
/// in one heap block (like `Array`), whose release is iterative.
///
/// Releasing a value nested a million levels deep through `Array` recurses
/// once per level and overflows the stack. This buffer's `deinit` instead
/// moves the containers nested in its elements onto one work list and
/// empties each before letting it go, so no release recurses more than one
/// level, whatever the depth.
@usableFromInline
internal struct JSONContainerStorage<Element: JSONContainerElement> {
    /// `nil` for an empty container: no allocation.
    @usableFromInline internal var buffer: ManagedBuffer<JSONContainerHeader, Element>?

    /// Empty storage.
    @inlinable
    internal init() { buffer = nil }

    /// Empty storage with room for `capacity` elements.
    @inlinable
    internal init(minimumCapacity capacity: Int) {
        buffer = capacity > 0 ? Element.makeBuffer(capacity: capacity) : nil
    }

    /// The number of elements.
    @inlinable
    internal var count: Int { buffer?.withUnsafeMutablePointerToHeader { $0.pointee.count } ?? 0 }

    /// The number of elements that fit without reallocating.
    @inlinable
    internal var capacity: Int { buffer?.withUnsafeMutablePointerToHeader { $0.pointee.capacity } ?? 0 }

    /// Calls `body` with the elements (valid only inside `body`).
    @inlinable
    internal func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        guard let buffer else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try buffer.withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// The buffer, its elements and their count, or `nil` when empty. The
    /// pointer stays valid while `owner` is held and the storage is not
    /// mutated (for walks that outlive one closure, as the writer's).
    internal var unsafeElements: (owner: AnyObject, elements: UnsafeMutablePointer<Element>, count: Int)? {
        guard let buffer else { return nil }
        return buffer.withUnsafeMutablePointers { header, elements in (buffer, elements, header.pointee.count) }
    }

    /// The elements, borrowed: valid while the storage they come from is
    /// held elsewhere and not mutated. Taking them is the last use of this
    /// copy, so a caller that only reads through them pays no reference
    /// counting.
    @inline(__always)
    internal var borrowedElements: UnsafeMutableBufferPointer<Element> {
        guard let buffer else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        return buffer.withUnsafeMutablePointers { header, elements in
            UnsafeMutableBufferPointer(start: elements, count: header.pointee.count)
        }
    }

    /// Makes the buffer unique with room for `minimumCapacity` elements,
    /// moving the elements when it was unique and copying them otherwise.
    @inlinable
    internal mutating func makeUniqueAndReserve(_ minimumCapacity: Int) {
        if buffer != nil, isKnownUniquelyReferenced(&buffer!), capacity >= minimumCapacity { return }
        reallocate(capacity: minimumCapacity)
    }

    @usableFromInline
    internal mutating func reallocate(capacity requested: Int) {
        let count = self.count
        let capacity = Swift.max(requested, count)
        guard capacity > 0 else { buffer = nil; return }
        let newBuffer = Element.makeBuffer(capacity: capacity)
        // Checked before `old` is bound: that binding is a second reference,
        // and the buffer would never look unique.
        let unique = buffer != nil && isKnownUniquelyReferenced(&buffer!)
        if let old = buffer {
            newBuffer.withUnsafeMutablePointers { newHeader, target in
                old.withUnsafeMutablePointers { oldHeader, source in
                    if unique {
                        target.moveInitialize(from: source, count: count)
                        oldHeader.pointee.count = 0
                    } else {
                        // A loop of copies, not `initialize(from:count:)`:
                        // that one copies through the runtime, one value
                        // witness call per element.
                        for i in 0..<count { (target + i).initialize(to: source[i]) }
                    }
                }
                newHeader.pointee.count = count
            }
        }
        buffer = newBuffer
    }

    /// Appends `element`, doubling the capacity when full.
    @inlinable
    internal mutating func append(_ element: Element) {
        let count = self.count
        if buffer == nil || !isKnownUniquelyReferenced(&buffer!) || capacity == count {
            reallocate(capacity: count == 0 ? 4 : Swift.max(count * 2, capacity))
        }
        buffer!.withUnsafeMutablePointers { header, elements in
            (elements + count).initialize(to: element)
            header.pointee.count = count + 1
        }
    }

    /// The element at `position`.
    @inlinable
    internal subscript(position: Int) -> Element {
        _read {
            precondition(position >= 0 && position < count, "index out of range")
            let elements = buffer.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0 }
            yield elements[position]
        }
        _modify {
            precondition(position >= 0 && position < count, "index out of range")
            makeUniqueAndReserve(count)
            let elements = buffer.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0 }
            yield &elements[position]
        }
    }

    /// Replaces the elements in `range` with `newElements`, in place when
    /// the buffer is unique and large enough.
    @inlinable
    internal mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C)
    where C.Element == Element {
        let count = self.count
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        let inserted = newElements.count
        let newCount = count - range.count + inserted
        if newCount > capacity {
            reallocate(capacity: Swift.max(newCount, count * 2))
        } else {
            makeUniqueAndReserve(newCount)
        }
        guard let buffer else { return }
        buffer.withUnsafeMutablePointers { header, elements in
            let tail = count - range.upperBound
            let removed = elements + range.lowerBound
            // Releasing JSON values runs no outside code, so the removed
            // elements can go before the tail moves.
            removed.deinitialize(count: range.count)
            (removed + inserted).moveInitialize(from: elements + range.upperBound, count: tail)
            var target = removed
            for element in newElements {
                target.initialize(to: element)
                target += 1
            }
            header.pointee.count = newCount
        }
    }
}

/// The count and capacity at the head of a container's buffer.
///
/// Stored in 32 bits each: with the object header, the elements start 24
/// bytes into the block instead of 32, which is what a pair of numbers in
/// canada.json or a small object needs to fit the next smaller malloc size.
/// A container of more than `UInt32.max` elements (about 100 GB) traps.
@usableFromInline
internal struct JSONContainerHeader {
    @usableFromInline var storedCount: UInt32
    @usableFromInline var storedCapacity: UInt32

    @inlinable
    init(count: Int, capacity: Int) {
        precondition(capacity <= Int(UInt32.max), "a JSON array or object holds at most \(UInt32.max) elements")
        storedCount = UInt32(truncatingIfNeeded: count)
        storedCapacity = UInt32(truncatingIfNeeded: capacity)
    }

    /// The number of elements initialized.
    @inlinable
    var count: Int {
        get { Int(storedCount) }
        // Never above the capacity, which fits in 32 bits.
        set { storedCount = UInt32(truncatingIfNeeded: newValue) }
    }

    /// The number of elements the buffer has room for.
    @inlinable
    var capacity: Int { Int(storedCapacity) }
}

/// An element of a JSON container: a value (arrays) or a member (objects).
@usableFromInline
internal protocol JSONContainerElement {
    /// A new, empty buffer with room for `capacity` elements, of the class
    /// whose `deinit` releases this element type iteratively.
    static func makeBuffer(capacity: Int) -> ManagedBuffer<JSONContainerHeader, Self>

    /// Moves the value this element holds into `value`.
    static func moveValue(from element: UnsafeMutablePointer<Self>) -> JSONValue

    /// The value this element holds, borrowed.
    static func value(at element: UnsafeMutablePointer<Self>) -> UnsafeMutablePointer<JSONValue>

    /// Ends the lifetime of the element at `element`. Moving it out and
    /// dropping it releases its fields with direct calls; `deinitialize`
    /// in place is compiled (Swift 6.3, release) to an indirect call
    /// through the type's value witness table.
    static func destroy(_ element: UnsafeMutablePointer<Self>)
}

extension JSONContainerStorage {
    /// When this storage is the only reference to its buffer, moves the
    /// values of its elements out (leaving it empty) and appends those that
    /// are containers to `pending`.
    @usableFromInline
    internal mutating func moveNestedContainers(into pending: inout JSONStack<JSONValue>) {
        guard buffer != nil, isKnownUniquelyReferenced(&buffer!) else { return }
        buffer!.withUnsafeMutablePointers { header, elements in
            JSONContainerTeardown.moveContainers(from: elements, count: header.pointee.count, into: &pending)
            header.pointee.count = 0
        }
    }
}

/// The iterative release shared by both buffer classes.
@usableFromInline
internal enum JSONContainerTeardown {
    /// Releases `count` elements, and everything nested in them, with a
    /// work list instead of recursion.
    @usableFromInline
    static func release<Element: JSONContainerElement>(_ elements: UnsafeMutablePointer<Element>, count: Int) {
        // Most containers hold only scalars: release them as they are.
        if !containsContainers(elements, count: count) {
            destroy(elements, count: count)
            return
        }
        var pending = JSONStack<JSONValue>()
        moveContainers(from: elements, count: count, into: &pending)
        while var value = pending.popLast() {
            if var array = takeArray(from: &value) {
                array.storage.moveNestedContainers(into: &pending)
            } else if var object = takeObject(from: &value) {
                object._members.moveNestedContainers(into: &pending)
            }
        }
    }

    /// The array in `value`, leaving `null` there so the result holds the
    /// only reference this loop has.
    @inline(__always)
    private static func takeArray(from value: inout JSONValue) -> JSONArray? {
        guard case .array(let array) = value else { return nil }
        value = .null
        return array
    }

    /// The object in `value`, leaving `null` there.
    @inline(__always)
    private static func takeObject(from value: inout JSONValue) -> JSONObject? {
        guard case .object(let object) = value else { return nil }
        value = .null
        return object
    }

    /// Whether an element holds an array or an object.
    @inline(__always)
    static func containsContainers<Element: JSONContainerElement>(_ elements: UnsafeMutablePointer<Element>, count: Int) -> Bool {
        for i in 0..<count where Element.value(at: elements + i).pointee.isContainer { return true }
        return false
    }

    /// Moves the elements out; scalars are released here, containers with
    /// elements go to `pending`.
    @usableFromInline
    static func moveContainers<Element: JSONContainerElement>(
        from elements: UnsafeMutablePointer<Element>, count: Int, into pending: inout JSONStack<JSONValue>
    ) {
        for i in 0..<count {
            // Read in place (no copy, no reference counting): only a
            // container holding containers is moved to `pending`; anything
            // else is released right here, one level deeper at most.
            if JSONContainerTeardown.holdsContainers(Element.value(at: elements + i)) {
                pending.append(Element.moveValue(from: elements + i))
            } else {
                Element.destroy(elements + i)
            }
        }
    }

    /// Ends the lifetime of `count` elements, one at a time:
    /// `deinitialize(count:)` calls the runtime's `swift_arrayDestroy`, which
    /// destroys each element through its value witness table.
    @inline(__always)
    static func destroy<Element: JSONContainerElement>(_ elements: UnsafeMutablePointer<Element>, count: Int) {
        for i in 0..<count { Element.destroy(elements + i) }
    }

    @inline(__always)
    static func holdsContainers(_ value: UnsafeMutablePointer<JSONValue>) -> Bool {
        switch value.pointee {
        case .array(let array): array.storage.containsContainers
        case .object(let object): object._members.containsContainers
        default: false
        }
    }
}

extension JSONValue {
    @inline(__always)
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

extension JSONContainerStorage {
    /// Whether an element holds an array or an object.
    @inline(__always)
    internal var containsContainers: Bool {
        guard let buffer else { return false }
        return buffer.withUnsafeMutablePointers { header, elements in
            JSONContainerTeardown.containsContainers(elements, count: header.pointee.count)
        }
    }
}

/// The buffer of a JSON array.
@usableFromInline
internal final class JSONArrayBuffer: ManagedBuffer<JSONContainerHeader, JSONValue> {
    deinit {
        withUnsafeMutablePointers { header, elements in
            JSONContainerTeardown.release(elements, count: header.pointee.count)
        }
    }
}

/// The buffer of a JSON object's members.
@usableFromInline
internal final class JSONMemberBuffer: ManagedBuffer<JSONContainerHeader, JSONObject.Member> {
    deinit {
        withUnsafeMutablePointers { header, elements in
            JSONContainerTeardown.release(elements, count: header.pointee.count)
        }
    }
}

extension JSONValue: JSONContainerElement {
    @inlinable
    static func makeBuffer(capacity: Int) -> ManagedBuffer<JSONContainerHeader, JSONValue> {
        JSONArrayBuffer.create(minimumCapacity: capacity) { _ in JSONContainerHeader(count: 0, capacity: capacity) }
    }

    @inlinable
    static func moveValue(from element: UnsafeMutablePointer<JSONValue>) -> JSONValue {
        element.move()
    }

    @inlinable
    static func value(at element: UnsafeMutablePointer<JSONValue>) -> UnsafeMutablePointer<JSONValue> {
        element
    }

    @inlinable
    static func destroy(_ element: UnsafeMutablePointer<JSONValue>) {
        _ = element.move()
    }
}

extension JSONObject.Member: JSONContainerElement {
    @inlinable
    static func makeBuffer(capacity: Int) -> ManagedBuffer<JSONContainerHeader, JSONObject.Member> {
        JSONMemberBuffer.create(minimumCapacity: capacity) { _ in JSONContainerHeader(count: 0, capacity: capacity) }
    }

    @inlinable
    static func moveValue(from element: UnsafeMutablePointer<JSONObject.Member>) -> JSONValue {
        element.move().value
    }

    @inlinable
    static func value(at element: UnsafeMutablePointer<JSONObject.Member>) -> UnsafeMutablePointer<JSONValue> {
        UnsafeMutableRawPointer(element).advanced(by: MemoryLayout<JSONObject.Member>.offset(of: \.value)!)
            .assumingMemoryBound(to: JSONValue.self)
    }

    @inlinable
    static func destroy(_ element: UnsafeMutablePointer<JSONObject.Member>) {
        _ = element.move()
    }
}

// Value semantics by copy-on-write: every mutation first makes the buffer
// unique, so a shared buffer is only ever read.
extension JSONContainerStorage: @unchecked Sendable {}

extension JSONContainerStorage: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    @usableFromInline typealias Index = Int
    @usableFromInline typealias Indices = Range<Int>

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }
    @inlinable var indices: Range<Int> { 0..<count }
    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable func index(after i: Int) -> Int { i + 1 }
    @inlinable func index(before i: Int) -> Int { i - 1 }

    @inlinable
    mutating func reserveCapacity(_ minimumCapacity: Int) { makeUniqueAndReserve(minimumCapacity) }
}

extension JSONContainerStorage: ExpressibleByArrayLiteral {
    @inlinable
    init(arrayLiteral elements: Element...) {
        self.init(minimumCapacity: elements.count)
        for element in elements { append(element) }
    }
}

extension JSONContainerStorage {
    /// Storage of exactly `count` elements moved from `source` (the
    /// parser's value stack): one allocation, no retain/release.
    @inlinable
    init(moving source: UnsafeMutablePointer<Element>, count: Int) {
        guard count > 0 else { buffer = nil; return }
        let newBuffer = Element.makeBuffer(capacity: count)
        newBuffer.withUnsafeMutablePointers { header, elements in
            // An element at a time: most containers are small, and a
            // `memmove` call costs more than a few moves.
            for i in 0..<count { (elements + i).initialize(to: (source + i).move()) }
            header.pointee.count = count
        }
        buffer = consume newBuffer
    }
}

extension JSONContainerStorage where Element == JSONObject.Member {
    /// Members of exactly `count` keys and values moved pairwise from the
    /// parser's key and value stacks.
    @inlinable
    init(pairingKeys keys: UnsafeMutablePointer<String>, values: UnsafeMutablePointer<JSONValue>, count: Int) {
        guard count > 0 else { buffer = nil; return }
        let newBuffer = Element.makeBuffer(capacity: count)
        defer { buffer = newBuffer }
        newBuffer.withUnsafeMutablePointers { header, members in
            for i in 0..<count {
                (members + i).initialize(to: JSONObject.Member(key: (keys + i).move(), value: (values + i).move()))
            }
            header.pointee.count = count
        }
    }
}
