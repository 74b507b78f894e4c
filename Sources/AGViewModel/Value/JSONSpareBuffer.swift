/// Memory one parse leaves to the next parse on the same thread: room for
/// elements, none of them initialized.
///
/// The scanner's working buffers (the value and key stacks, the open
/// containers, the escape buffer, the string cache's slots) are kept this
/// way, so a thread that has parsed before parses a small response without
/// allocating any of them, and a large document does not grow them again
/// from their first size.
///
/// A buffer larger than ``maximumBytes`` is freed, not kept: a thread holds
/// at most that much per buffer (six buffers, so 96 KB), however large a
/// document it once parsed, and only as much as its documents needed. That
/// covers the buffers of a typical API response (the string cache's slots
/// up to a 256 KB document). A larger document allocates what it needs
/// beyond that again (under 0.5% of its parse), and the thread does not
/// hold it afterwards: a 632 KB feed would otherwise leave its 64 KB of
/// string cache slots behind.
///
/// A plain value, so moving it in and out of the thread's table involves
/// no deinitializer, and optimized builds check no exclusivity at run time:
/// whoever holds it owns the memory and must pass it on or call
/// ``deallocate()``.
internal struct JSONSpareBuffer<Element> {
    /// The largest buffer kept, in bytes.
    static var maximumBytes: Int { 16 * 1024 }

    private var memory: UnsafeMutablePointer<Element>?
    private var capacity = 0

    init() {}

    /// Frees the kept memory.
    mutating func deallocate() {
        memory?.deallocate()
        memory = nil
        capacity = 0
    }

    /// The kept memory when it has room for `minimumCapacity` elements,
    /// else new memory for exactly that many; uninitialized either way. The
    /// caller owns the memory until it gives it to ``keep(_:capacity:)``.
    /// Kept memory too small to use stays kept: free it with
    /// ``deallocate()`` when no later `take` will want it.
    mutating func take(minimumCapacity: Int) -> (memory: UnsafeMutablePointer<Element>, capacity: Int) {
        if capacity >= minimumCapacity, let kept = takeAny() { return kept }
        return (.allocate(capacity: minimumCapacity), minimumCapacity)
    }

    /// The kept memory whatever its size, or `nil` when none is kept.
    mutating func takeAny() -> (memory: UnsafeMutablePointer<Element>, capacity: Int)? {
        guard let memory else { return nil }
        let kept = capacity
        self.memory = nil
        capacity = 0
        return (memory, kept)
    }

    /// Keeps `newMemory` (room for `newCapacity` elements, none initialized)
    /// for the next ``take(minimumCapacity:)``; frees it instead when it is
    /// over ``maximumBytes`` or no larger than the memory already kept.
    /// Returns whether it was kept.
    @discardableResult
    mutating func keep(_ newMemory: UnsafeMutablePointer<Element>, capacity newCapacity: Int) -> Bool {
        guard newCapacity * MemoryLayout<Element>.stride <= Self.maximumBytes,
              newCapacity > capacity else {
            newMemory.deallocate()
            return false
        }
        memory?.deallocate()
        memory = newMemory
        capacity = newCapacity
        return true
    }
}
