/// The keys one parse has already met, so a key repeated across objects (the
/// usual shape of API data) is decoded and hashed only once.
///
/// A direct-mapped table: a cheap hash of the key's bytes picks one slot; a
/// slot taken by another key simply means no interning for this one. There
/// is no probing, so crafted input cannot make lookups slow, and every hit
/// is confirmed by comparing the bytes.
internal struct JSONKeyInternTable: ~Copyable {
    /// A key as first seen: where its bytes are in the input, the string and
    /// its hash value.
    struct Entry {
        var offset: Int
        var length: Int
        var string: String
        var hash: Int
        /// The key's first and last eight bytes as ``words(of:length:readableUpTo:)``
        /// gives them: for keys up to 16 bytes, equal words mean equal keys.
        var first: UInt64
        var last: UInt64
    }

    static let slotCount = 1024
    static let maximumEntries = 768
    /// Keys longer than this are not interned.
    static let maximumKeyLength = 64

    /// Entry index + 1 per slot, 0 for empty; allocated on first use.
    var slots: UnsafeMutablePointer<Int32>?
    var entries: [Entry] = []

    init() {}

    deinit { slots?.deallocate() }

    /// The first and last eight bytes of the `length` bytes at `start`
    /// (`end` bounds safe reads); shorter keys give their bytes, zero-padded,
    /// and a zero `last`.
    @inline(__always)
    static func words(of start: UnsafePointer<UInt8>, length: Int, readableUpTo end: UnsafePointer<UInt8>) -> (first: UInt64, last: UInt64) {
        var first: UInt64 = 0
        var last: UInt64 = 0
        if length >= 8 {
            first = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            last = UnsafeRawPointer(start + (length - 8)).loadUnaligned(as: UInt64.self)
        } else if end - start >= 8 {
            let word = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            first = UInt64(littleEndian: word) & ((1 << UInt64(length * 8)) &- 1)
        } else {
            for i in 0..<length { first |= UInt64(start[i]) << UInt64(i * 8) }
        }
        return (first, last)
    }

    /// The cheap hash of a key with `words` and `length`.
    @inline(__always)
    static func slot(first: UInt64, last: UInt64, length: Int) -> Int {
        var h = (first ^ (last &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & (slotCount - 1)
    }

    /// `true` when the `length` bytes at `a` and `b` are equal.
    @inline(__always)
    static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, length: Int) -> Bool {
        var i = 0
        while i + 8 <= length {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
                != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
            i += 8
        }
        while i < length {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}

extension JSONScanner {
    /// Reads the key at `pos` (which holds `"`) when it is plain ASCII
    /// without escapes, from the intern table when possible. Returns `nil`
    /// (leaving `pos` alone) for any other key, which the general string
    /// parser then handles, errors included.
    @inline(__always)
    mutating func internKey() -> (String, Int)? {
        let start = pos + 1
        var p = start
        var stopped = false
        while p &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let mask = Self.stringStopMask(word)
            if mask != 0 {
                p &+= mask.trailingZeroBitCount &>> 3
                stopped = true
                break
            }
            p &+= 8
        }
        if !stopped {
            while p < count {
                let c = base[p]
                if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                p += 1
            }
        }
        guard p < count, base[p] == UInt8(ascii: "\"") else { return nil }
        let length = p - start
        pos = p + 1
        guard length <= JSONKeyInternTable.maximumKeyLength else {
            let key = String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
            return (key, key.hashValue)
        }
        let slots: UnsafeMutablePointer<Int32>
        if let existing = internedKeys.slots {
            slots = existing
        } else {
            slots = .allocate(capacity: JSONKeyInternTable.slotCount)
            slots.initialize(repeating: 0, count: JSONKeyInternTable.slotCount)
            internedKeys.slots = slots
        }
        let (first, last) = JSONKeyInternTable.words(of: base + start, length: length, readableUpTo: base + count)
        let slot = JSONKeyInternTable.slot(first: first, last: last, length: length)
        let entryIndex = Int(slots[slot])
        if entryIndex != 0 {
            let hit = internedKeys.entries.withUnsafeBufferPointer { entries -> Bool in
                let entry = entries[entryIndex - 1]
                // Up to 16 bytes the two words cover the key; longer keys
                // compare their middle too.
                return entry.length == length && entry.first == first && entry.last == last
                    && (length <= 16 || JSONKeyInternTable.equalBytes(
                        base + entry.offset + 8, base + start + 8, length: length - 16))
            }
            if hit {
                let entry = internedKeys.entries[entryIndex - 1]
                return (entry.string, entry.hash)
            }
        }
        let key = String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
        let hash = key.hashValue
        if entryIndex == 0 && internedKeys.entries.count < JSONKeyInternTable.maximumEntries {
            internedKeys.entries.append(.init(offset: start, length: length, string: key, hash: hash,
                                              first: first, last: last))
            slots[slot] = Int32(internedKeys.entries.count)
        }
        return (key, hash)
    }
}
