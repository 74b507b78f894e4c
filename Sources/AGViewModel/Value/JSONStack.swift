/// A last-in, first-out buffer that grows by doubling, for the parser's
/// open containers and the teardown's work list. An `Array` would check
/// its buffer's uniqueness on every push and pop: once or twice per
/// container of a document.
@usableFromInline
internal struct JSONStack<Element>: ~Copyable {
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    @usableFromInline
    init(capacity: Int = 16) {
        precondition(capacity > 0, "a stack starts with room for an element")
        self.capacity = capacity
        elements = .allocate(capacity: capacity)
    }

    /// An empty stack in the memory `spare` keeps, or in new memory when
    /// it keeps none with room for `minimumCapacity` elements.
    init(reusing spare: inout JSONSpareBuffer<Element>, minimumCapacity: Int) {
        (elements, capacity) = spare.take(minimumCapacity: minimumCapacity)
    }

    deinit {
        elements.deinitialize(count: count)
        if capacity > 0 { elements.deallocate() }
    }

    /// Empties the stack and gives its memory to `spare`.
    mutating func giveMemory(to spare: inout JSONSpareBuffer<Element>) {
        elements.deinitialize(count: count)
        count = 0
        spare.keep(elements, capacity: capacity)
        capacity = 0
    }

    /// The last element, if any.
    var last: Element? {
        @inline(__always) get { count > 0 ? elements[count &- 1] : nil }
    }

    @usableFromInline @inline(__always)
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (elements + count).initialize(to: element)
        count &+= 1
    }

    /// Removes and returns the last element; there must be one.
    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast() on an empty stack")
        count &-= 1
        return (elements + count).move()
    }

    /// Removes and returns the last element, or `nil` when empty.
    @usableFromInline @inline(__always)
    mutating func popLast() -> Element? {
        count > 0 ? removeLast() : nil
    }

    private mutating func grow() {
        let newCapacity = max(capacity * 2, 16)
        let newElements = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newElements.moveInitialize(from: elements, count: count)
        if capacity > 0 { elements.deallocate() }
        elements = newElements
        capacity = newCapacity
    }
}
