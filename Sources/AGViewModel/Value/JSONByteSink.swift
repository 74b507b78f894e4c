import Foundation

/// A growable output buffer of bytes for ``JSONWriter``: appends without
/// the per-element checks of `Array.append`, grows with `realloc` (which
/// moves large buffers by remapping pages, not copying them), and hands the
/// result over as `[UInt8]` in one copy or as `Data` in none.
internal struct JSONByteSink: ~Copyable {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if count &+ n > capacity { grow(toHold: count + n) }
    }

    mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let memory = realloc(base, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends one byte; the caller has reserved room.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Appends `n` bytes from `source`.
    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        (base + count).update(from: source, count: n)
        count &+= n
    }

    /// Appends the bytes of an ASCII literal.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends `n` copies of `byte`.
    @inline(__always)
    mutating func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + count).update(repeating: byte, count: n)
        count &+= n
    }

    /// The bytes written so far.
    func bytes() -> [UInt8] {
        let source = base
        let n = count
        return [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            if n > 0 { buffer.baseAddress!.update(from: source, count: n) }
            initialized = n
        }
    }

    /// The bytes written, as `Data` that takes over the buffer (trimmed to
    /// size) instead of copying it.
    consuming func data() -> Data {
        let count = self.count
        let base = self.base
        discard self
        guard count > 0 else {
            free(base)
            return Data()
        }
        let trimmed = realloc(base, count) ?? UnsafeMutableRawPointer(base)
        return Data(bytesNoCopy: trimmed, count: count, deallocator: .free)
    }
}
