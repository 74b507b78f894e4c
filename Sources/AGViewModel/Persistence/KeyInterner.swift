import Foundation

/// Assigns archive key numbers in first-seen order: an open-addressing table
/// over a cheap seeded hash of the key's UTF-8 bytes.
///
/// The standard `Dictionary<String, Int>` hashes with SipHash, which was the
/// largest single cost of writing an archive (keys are short and repeat
/// constantly). The seed is random per encoding run, so crafted keys cannot
/// force collisions; numbering does not depend on it, so output stays
/// deterministic.
internal struct KeyInterner {
    private var slots: [Int32]           // 0 = empty, else key number + 1
    private var hashes: [UInt64] = []    // by key number, for growing
    private var starts: [Int] = [0]      // key number n's bytes: storage[starts[n] ..< starts[n + 1]]
    private var storage: [UInt8] = []
    private let seed = UInt64.random(in: .min ... .max) | 1

    init() {
        slots = [Int32](repeating: 0, count: 64)
    }

    /// The number of `key` if it was seen before; otherwise records it and
    /// returns `nil`, passing its UTF-8 bytes to `whenNew`.
    @inline(__always)
    mutating func number(for key: String, whenNew: (UnsafeBufferPointer<UInt8>) -> Void) -> Int? {
        var key = key
        return key.withUTF8 { utf8 in
            let hash = Self.hash(utf8, seed: seed)
            let mask = slots.count - 1
            var i = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = Int(slots[i])
                if slot == 0 { break }
                if hashes[slot - 1] == hash, equals(slot - 1, utf8) { return slot - 1 }
                i = (i + 1) & mask
            }
            let number = hashes.count
            storage.append(contentsOf: utf8)
            starts.append(storage.count)
            hashes.append(hash)
            slots[i] = Int32(truncatingIfNeeded: number + 1)
            if hashes.count * 2 > slots.count { grow() }
            whenNew(utf8)
            return nil
        }
    }

    @inline(__always)
    private func equals(_ number: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[number]
        guard starts[number + 1] - start == utf8.count else { return false }
        return storage.withUnsafeBufferPointer { stored in
            utf8.count == 0 || memcmp(stored.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0
        }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for (number, hash) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: hash) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = Int32(truncatingIfNeeded: number + 1)
        }
        slots = bigger
    }

    /// A multiply-xorshift hash, eight bytes at a time.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        let n = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        while n - i >= 8 {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
            h = (h ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        }
        h ^= h >> 29
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 32)
    }
}
