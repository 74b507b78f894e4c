/// A growable byte buffer for decoding escaped strings: appends are a
/// capacity check and a store, without the uniqueness checks and generic
/// paths of `Array.append`, which cost more than the copying itself.
internal struct JSONScratchBuffer: ~Copyable {
    private var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        precondition(capacity > 0, "a buffer starts with room for a byte")
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    /// An empty buffer in the memory `spare` keeps, or in new memory when
    /// it keeps none with room for `minimumCapacity` bytes.
    init(reusing spare: inout JSONSpareBuffer<UInt8>, minimumCapacity: Int) {
        (bytes, capacity) = spare.take(minimumCapacity: minimumCapacity)
    }

    deinit {
        if capacity > 0 { bytes.deallocate() }
    }

    /// Empties the buffer and gives its memory to `spare`.
    mutating func giveMemory(to spare: inout JSONSpareBuffer<UInt8>) {
        spare.keep(bytes, capacity: capacity)
        count = 0
        capacity = 0
    }

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

    /// Appends `scalar` (a valid Unicode scalar value) as UTF-8, after one
    /// capacity check for its up to four bytes.
    @inline(__always)
    mutating func appendUTF8(_ scalar: UInt32) {
        if count &+ 4 > capacity { grow(to: count + 4) }
        let out = bytes + count
        if scalar < 0x80 {
            out[0] = UInt8(truncatingIfNeeded: scalar)
            count &+= 1
        } else if scalar < 0x800 {
            out[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar &>> 6)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count &+= 2
        } else if scalar < 0x10000 {
            out[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar &>> 12)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 6 & 0x3F)
            out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count &+= 3
        } else {
            out[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar &>> 18)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 12 & 0x3F)
            out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 6 & 0x3F)
            out[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count &+= 4
        }
    }

    /// Calls `body` with the bytes appended so far.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: bytes, count: count))
    }

    private mutating func grow(to minimum: Int) {
        var newCapacity = max(capacity * 2, 16)
        while newCapacity < minimum { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: count)
        if capacity > 0 { bytes.deallocate() }
        bytes = newBytes
        capacity = newCapacity
    }
}
