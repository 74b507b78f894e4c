#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The object keys parses on one thread have met, so a key repeated across
/// objects, and across documents of the same API, is decoded and hashed
/// only once.
///
/// A two-way table: a hash of the key's bytes picks a pair of slots; a
/// pair taken by two other keys simply means no interning for this one.
/// There is no further probing, so crafted input cannot make lookups slow,
/// and every hit is confirmed by comparing all the key's bytes.
///
/// Each thread keeps one table between parses (see ``take()``), so a small
/// API response pays neither the table's set-up nor hashing its keys again.
/// A table that is full and did not have many of the last parse's keys is
/// cleared when the next parse starts, so it follows the documents being
/// parsed; one full of the keys a document repeats is kept, even when the
/// document also has more one-off keys (ids as keys) than the table holds.
/// The table also carries the thread's remembered object shapes and the
/// scanner's working buffers from one parse to the next.
///
/// API objects repeat their keys in the same order, so each key also
/// remembers the key that followed it last time (``successors``): the
/// scanner checks the input against that key's bytes first, which on a hit
/// skips finding the key's end, hashing it and the slot lookup.
internal final class JSONKeyInternTable {
    /// A key: its first and last eight bytes as ``words(of:length:readableUpTo:)``
    /// gives them (for keys up to 16 bytes they are the whole key), its
    /// length, where a longer key's middle bytes sit in ``middleBytes``, the
    /// string and its hash value.
    struct Entry {
        var first: UInt64
        var last: UInt64
        var length: Int32
        var middleOffset: Int32
        var string: String
        var hash: Int
    }

    /// 2,048 pairs of slots (8 KB) for at most ``maximumEntries`` keys: a
    /// pair is rarely full, so nearly every key an API repeats is interned.
    static let slotCount = 4096
    static let maximumEntries = 768
    /// Entries are allocated as keys arrive, this many at first, so a
    /// thread's table holds memory in proportion to the keys it has met.
    static let initialCapacity = 32
    /// Keys longer than this are not interned.
    static let maximumKeyLength = 64

    /// Entry index + 1 per slot, 0 for empty.
    let slots: UnsafeMutablePointer<UInt16>
    /// The entry index + 1 of the key that followed each key in its object
    /// last time (at the key's entry index + 1; at 0, what followed a key not
    /// interned), then from ``objectStart`` on, of the first key of the last
    /// object that was the value of each key (0 + ``objectStart`` for objects
    /// not in an object). 0 where nothing is known. Only a guess: a hit is
    /// confirmed byte by byte.
    let successors: UnsafeMutablePointer<UInt16>
    /// Where ``successors`` of objects' first keys begin.
    static let objectStart = maximumEntries + 1
    var entries: UnsafeMutablePointer<Entry>
    var capacity = JSONKeyInternTable.initialCapacity
    var count = 0
    /// The middle bytes of the keys longer than 16 bytes, one after another.
    var middleBytes: UnsafeMutablePointer<UInt8>
    var middleCapacity = 256
    var middleCount = 0
    /// Whether more than one key in eight of the thread's last parse was
    /// not in the table.
    var missedManyKeys = false
    /// The object shapes the thread's last parse remembered (see
    /// ``JSONScanner/closeObject()``); they depend only on key hash values,
    /// which hold for the whole process.
    var shapes: [ObjectShape] = []
    /// The scanner's buffers from the thread's last parse; owned by the
    /// table until ``takeSpareBuffers()``. Only ever read or assigned whole
    /// (never `inout`), so optimized builds drop the run-time exclusivity
    /// checks of a class's stored property.
    private var spareBuffers = JSONScanner.SpareBuffers()

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
        successors = .allocate(capacity: 2 * Self.objectStart)
        successors.initialize(repeating: 0, count: 2 * Self.objectStart)
        entries = .allocate(capacity: capacity)
        middleBytes = .allocate(capacity: middleCapacity)
    }

    deinit {
        var spares = spareBuffers
        spares.deallocate()
        entries.deinitialize(count: count)
        entries.deallocate()
        middleBytes.deallocate()
        slots.deallocate()
        successors.deallocate()
    }

    /// The kept scanner buffers, leaving none kept.
    func takeSpareBuffers() -> JSONScanner.SpareBuffers {
        let taken = spareBuffers
        spareBuffers = JSONScanner.SpareBuffers()
        return taken
    }

    /// Keeps `buffers` for the thread's next parse.
    func keepSpareBuffers(_ buffers: JSONScanner.SpareBuffers) {
        var replaced = spareBuffers
        spareBuffers = buffers
        replaced.deallocate()
    }

    func removeAll() {
        entries.deinitialize(count: count)
        count = 0
        middleCount = 0
        slots.update(repeating: 0, count: Self.slotCount)
        successors.update(repeating: 0, count: 2 * Self.objectStart)
    }

    /// The entry index + 1 of the key with `words` and `length` (at least
    /// ``maximumKeyLength`` bytes readable at `start`) in `slot` or the
    /// other slot of its pair, or 0 if this table does not have it.
    ///
    /// Slots are only ever emptied all at once, and a key goes in the first
    /// slot of its pair when that is free: so when the first slot is empty,
    /// the key is in neither.
    @inline(__always)
    func lookup(slot: Int, first: UInt64, last: UInt64, length: Int, start: UnsafePointer<UInt8>) -> Int {
        let index = Int(slots[slot])
        guard index != 0 else { return 0 }
        if matches(index, first: first, last: last, length: length, start: start) { return index }
        return lookup(inSecondSlot: slot | 1, first: first, last: last, length: length, start: start)
    }

    /// ``lookup(slot:first:last:length:start:)`` in the second slot of a
    /// pair, for a key whose first slot holds another key (rare: kept out
    /// of line, so the usual case stays small where it is inlined).
    @inline(never)
    func lookup(inSecondSlot slot: Int, first: UInt64, last: UInt64, length: Int, start: UnsafePointer<UInt8>) -> Int {
        let index = Int(slots[slot])
        guard index != 0 && matches(index, first: first, last: last, length: length, start: start) else { return 0 }
        return index
    }

    /// Whether the entry at `index` − 1 is the key with `words` and `length` at `start`.
    @inline(__always)
    private func matches(_ index: Int, first: UInt64, last: UInt64, length: Int, start: UnsafePointer<UInt8>) -> Bool {
        let entry = entries + (index - 1)
        guard Int(entry.pointee.length) == length && entry.pointee.first == first && entry.pointee.last == last else {
            return false
        }
        return length <= 16 || Self.equalBytes(middleBytes + Int(entry.pointee.middleOffset), start + 8, length: length - 16)
    }

    /// `true` when the `length` bytes at `start` are those of the key in
    /// `entry`, which has that length; at least eight bytes must be readable.
    @inline(__always)
    func bytes(at start: UnsafePointer<UInt8>, length: Int, match entry: UnsafeMutablePointer<Entry>) -> Bool {
        let word = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
        if length < 8 {
            return UInt64(littleEndian: word) & ((1 &<< UInt64(length &* 8)) &- 1) == entry.pointee.first
        }
        return word == entry.pointee.first
            && UnsafeRawPointer(start + (length &- 8)).loadUnaligned(as: UInt64.self) == entry.pointee.last
            && (length <= 16 || Self.equalBytes(middleBytes + Int(entry.pointee.middleOffset), start + 8, length: length &- 16))
    }

    /// Remembers a key in `slot`, or the other slot of its pair, unless both
    /// or the table are taken; its entry index + 1, or 0 when not remembered.
    /// Out of line: a key is met for the first time once per thread.
    @inline(never)
    func insert(_ string: String, hash: Int, slot: Int, first: UInt64, last: UInt64, length: Int, start: UnsafePointer<UInt8>) -> Int {
        guard count < Self.maximumEntries else { return 0 }
        let slot = slots[slot] == 0 ? slot : slot | 1
        guard slots[slot] == 0 else { return 0 }
        if count == capacity { growEntries() }
        let middleOffset = middleCount
        if length > 16 {
            if middleCount + (length - 16) > middleCapacity { growMiddleBytes(toHold: length - 16) }
            (middleBytes + middleCount).initialize(from: start + 8, count: length - 16)
            middleCount += length - 16
        }
        (entries + count).initialize(to: Entry(first: first, last: last, length: Int32(length),
                                                middleOffset: Int32(middleOffset), string: string, hash: hash))
        count += 1
        slots[slot] = UInt16(count)
        return count
    }

    /// Doubles the entries' capacity, up to ``maximumEntries``.
    func growEntries() {
        let newCapacity = min(capacity * 2, Self.maximumEntries)
        let newEntries = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        newEntries.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = newEntries
        capacity = newCapacity
    }

    /// Doubles the middle bytes' capacity until `extra` more bytes fit.
    func growMiddleBytes(toHold extra: Int) {
        var newCapacity = middleCapacity * 2
        while newCapacity < middleCount + extra { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.initialize(from: middleBytes, count: middleCount)
        middleBytes.deallocate()
        middleBytes = newBytes
        middleCapacity = newCapacity
    }

    // MARK: One table per thread

    /// The calling thread's table (a new one if it has none, or if it is in
    /// use further up the stack). Give it back with ``giveBack()``.
    static func take() -> JSONKeyInternTable {
        let key = threadKey
        if let raw = pthread_getspecific(key) {
            pthread_setspecific(key, nil)
            let table = Unmanaged<JSONKeyInternTable>.fromOpaque(raw).takeRetainedValue()
            if table.count == maximumEntries && table.missedManyKeys { table.removeAll() }
            return table
        }
        return JSONKeyInternTable()
    }

    /// The calling thread's kept table, left in place (for tests).
    static var threadTable: JSONKeyInternTable? {
        pthread_getspecific(threadKey).map { Unmanaged<JSONKeyInternTable>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Whether the table has `key`, as the parser would find it.
    func contains(_ key: String) -> Bool {
        var bytes = Array(key.utf8)
        let length = bytes.count
        guard length <= Self.maximumKeyLength else { return false }
        bytes += repeatElement(0, count: Self.maximumKeyLength)  // readable past the key, as in a document
        return bytes.withUnsafeBufferPointer { buffer in
            let start = buffer.baseAddress!
            let (first, last) = Self.words(of: start, length: length, readableUpTo: start + buffer.count)
            return lookup(slot: Self.slot(first: first, last: last, length: length), first: first, last: last,
                          length: length, start: start) != 0
        }
    }

    /// Keeps this table for the calling thread's next parse.
    func giveBack() {
        let key = Self.threadKey
        guard pthread_getspecific(key) == nil else { return }
        pthread_setspecific(key, Unmanaged.passRetained(self).toOpaque())
    }

    /// The thread-specific slot; a thread's table is released when the
    /// thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw = raw as UnsafeMutableRawPointer? else { return }
            Unmanaged<JSONKeyInternTable>.fromOpaque(raw).release()
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

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

    /// The hash of a key with `words` and `length`: the first slot of its
    /// pair.
    ///
    /// The words are combined so that no difference between two keys cancels
    /// out (for keys of eight bytes, both words are the whole key), then
    /// mixed so that every bit of them moves the slot: keys that differ only
    /// in their last byte (`address1`, `address2`, ids as keys) spread over
    /// the table like any others.
    @inline(__always)
    static func slot(first: UInt64, last: UInt64, length: Int) -> Int {
        var h = first ^ ((last &* 0x9E37_79B9_7F4A_7C15) &>> 32 | (last &* 0x9E37_79B9_7F4A_7C15) &<< 32) ^ UInt64(length)
        h ^= h &>> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h &>> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h &>> 33
        return Int(truncatingIfNeeded: h &>> UInt64(64 - slotCount.trailingZeroBitCount)) & ~1
    }

    /// `true` when the `length` bytes at `a` and `b` are equal.
    @inline(__always)
    static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard length >= 8 else {
            var i = 0
            while i < length {
                if a[i] != b[i] { return false }
                i += 1
            }
            return true
        }
        // Whole words, the last one overlapping the one before it.
        var i = 0
        while i &+ 8 < length {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
                != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
            i &+= 8
        }
        return UnsafeRawPointer(a + (length &- 8)).loadUnaligned(as: UInt64.self)
            == UnsafeRawPointer(b + (length &- 8)).loadUnaligned(as: UInt64.self)
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
        assert(previousKey >= 0 && previousKey < 2 * JSONKeyInternTable.objectStart)
        let guess = Int(internedKeys.successors[previousKey])
        if guess != 0 {
            let entry = internedKeys.entries + (guess &- 1)
            let length = Int(entry.pointee.length)
            if start &+ length &+ 8 <= count
                && internedKeys.bytes(at: base + start, length: length, match: entry)
                && base[start &+ length] == UInt8(ascii: "\"") {
                pos = start &+ length &+ 1
                previousKey = guess
                return (entry.pointee.string, entry.pointee.hash)
            }
        }
        if start &+ 8 <= count {
            // Keys shorter than eight bytes (most of them) end in their
            // first word, which is then the key's `first` word as well.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
            let mask = Self.stringStopMask(word)
            if mask != 0 {
                let length = mask.trailingZeroBitCount &>> 3
                guard base[start &+ length] == UInt8(ascii: "\"") else { return nil }
                pos = start &+ length &+ 1
                let first = word & ((1 &<< UInt64(length &* 8)) &- 1)
                return internedKey(start: start, length: length, first: first, last: 0)
            }
        }
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
            previousKey = 0
            let key = String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
            return (key, key.hashValue)
        }
        let (first, last) = JSONKeyInternTable.words(of: base + start, length: length, readableUpTo: base + count)
        return internedKey(start: start, length: length, first: first, last: last)
    }

    /// The interned key of `length` bytes at `start`, whose words are
    /// `first` and `last`: from the table, or made, hashed and remembered.
    /// It becomes the key that follows ``previousKey``.
    @inline(__always)
    mutating func internedKey(start: Int, length: Int, first: UInt64, last: UInt64) -> (String, Int) {
        let slot = JSONKeyInternTable.slot(first: first, last: last, length: length)
        let index = internedKeys.lookup(slot: slot, first: first, last: last, length: length, start: base + start)
        if index != 0 {
            internedKeys.successors[previousKey] = UInt16(truncatingIfNeeded: index)
            previousKey = index
            let entry = internedKeys.entries + (index &- 1)
            return (entry.pointee.string, entry.pointee.hash)
        }
        keysMissed &+= 1
        let key = String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
        let hash = key.hashValue
        let inserted = internedKeys.insert(key, hash: hash, slot: slot, first: first, last: last, length: length, start: base + start)
        if inserted != 0 { internedKeys.successors[previousKey] = UInt16(truncatingIfNeeded: inserted) }
        previousKey = inserted
        return (key, hash)
    }
}
