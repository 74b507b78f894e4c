/// A growable byte buffer for decoding escaped strings: appends are a
/// capacity check and a store, without the uniqueness checks and generic
/// paths of `Array.append`, which cost more than the copying itself.
internal struct JSONScratchBuffer: ~Copyable {
    private var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        bytes[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(contentsOf source: UnsafeBufferPointer<UInt8>) {
        let n = source.count
        guard n > 0 else { return }
        if count + n > capacity { grow(to: count + n) }
        (bytes + count).update(from: source.baseAddress!, count: n)
        count &+= n
    }

    /// Calls `body` with the bytes appended so far.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: bytes, count: count))
    }

    private mutating func grow(to minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }
}
