/// The containers a teardown has still to take apart: a plain buffer that
/// grows by doubling, so pushing and popping checks no uniqueness (an
/// `Array` would, on every container of the document).
@usableFromInline
internal struct JSONTeardownStack: ~Copyable {
    private var values: UnsafeMutablePointer<JSONValue>
    private var capacity: Int
    private var count = 0

    @usableFromInline
    init() {
        capacity = 16
        values = .allocate(capacity: capacity)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
    }

    @usableFromInline
    mutating func append(_ value: consuming JSONValue) {
        if count == capacity { grow() }
        (values + count).initialize(to: value)
        count &+= 1
    }

    /// Removes and returns the last value, or `nil` when empty.
    @usableFromInline
    mutating func popLast() -> JSONValue? {
        guard count > 0 else { return nil }
        count &-= 1
        return (values + count).move()
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newValues = UnsafeMutablePointer<JSONValue>.allocate(capacity: newCapacity)
        newValues.moveInitialize(from: values, count: count)
        values.deallocate()
        values = newValues
        capacity = newCapacity
    }
}
