/// The scanner's open containers, innermost last: a plain buffer that
/// grows by doubling. `Array` would check its buffer's uniqueness on every
/// push and pop, once or twice per container of the document.
internal struct JSONFrameStack: ~Copyable {
    /// An open array or object.
    struct Frame {
        /// `true` for an object, `false` for an array.
        var isObject: Bool
        /// Where its first element sits on the value stack.
        var valueStart: Int
        /// Where its first key sits on the key stack (objects).
        var keyStart: Int
    }

    private var frames: UnsafeMutablePointer<Frame>
    private var capacity: Int
    /// The number of open containers.
    private(set) var count = 0

    init(capacity: Int = 32) {
        self.capacity = capacity
        frames = .allocate(capacity: capacity)
    }

    deinit {
        frames.deallocate()
    }

    /// The innermost open container, if any.
    var last: Frame? {
        @inline(__always) get { count > 0 ? frames[count &- 1] : nil }
    }

    @inline(__always)
    mutating func append(_ frame: Frame) {
        if count == capacity { grow() }
        (frames + count).initialize(to: frame)
        count &+= 1
    }

    /// Removes and returns the innermost open container; there must be one.
    @inline(__always)
    mutating func removeLast() -> Frame {
        precondition(count > 0, "no open container")
        count &-= 1
        return frames[count]
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newFrames = UnsafeMutablePointer<Frame>.allocate(capacity: newCapacity)
        newFrames.moveInitialize(from: frames, count: count)
        frames.deallocate()
        frames = newFrames
        capacity = newCapacity
    }
}
