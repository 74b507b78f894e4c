import Foundation  // memcmp

/// The long string values one parse has already made, so a string repeated
/// in the document (API data is full of them: image URLs, dates, the
/// `source` of every post, retweeted text) is validated and allocated once,
/// and every later copy shares its storage.
///
/// Like ``JSONKeyInternTable`` it is direct-mapped: a cheap hash of the
/// string's bytes picks one slot, a slot holds the most recent string that
/// hashed there, and a hit is confirmed by comparing all bytes. No probing,
/// so crafted input can at most make each string cost one extra comparison
/// of its own length. Strings are values, so sharing storage is invisible
/// to callers.
///
/// Only strings of ``minimumLength`` bytes or more are cached: shorter ones
/// are stored inline in the `String` (no allocation), so making them again
/// is cheaper than looking them up. A string with escapes is cached by its
/// raw bytes, escapes included: equal raw bytes decode to equal strings.
/// Its end is not known until its escapes are decoded, so it goes in the
/// slot of its first ``minimumLength`` bytes and is matched by its whole
/// raw text followed by the closing quote (see
/// ``string(in:matchingTextAt:base:count:)``).
internal struct JSONStringCache: ~Copyable {
    /// A string as first seen: where its bytes are in the input.
    struct Entry {
        var offset: Int
        var length: Int
        var string: String
    }

    /// Strings shorter than this are not cached (15 bytes fit inline).
    static let minimumLength = 16

    /// One slot per 512 bytes of input, a power of two between 8 and 2048,
    /// set up when the first long string appears (until then `mask` is 0),
    /// in memory the thread kept from an earlier parse when it is large
    /// enough.
    var slots: UnsafeMutablePointer<Entry>?
    var mask = 0
    /// How many entries `slots` has room for.
    var capacity = 0

    /// A cache whose slots go in the memory `spare` holds, if any.
    init(reusing spare: inout JSONSpareBuffer<Entry>) {
        if let (memory, capacity) = spare.takeAny() {
            slots = memory
            self.capacity = capacity
        }
    }

    deinit {
        if let slots {
            releaseStrings()
            slots.deallocate()
        }
    }

    /// Empties the cache and gives its slots' memory to `spare` for the
    /// thread's next parse.
    mutating func giveMemory(to spare: inout JSONSpareBuffer<Entry>) {
        guard let slots else { return }
        releaseStrings()
        spare.keep(slots, capacity: capacity)
        self.slots = nil
        mask = 0
        capacity = 0
    }

    /// The slot for the `length` (at least ``minimumLength``) bytes at
    /// `start`, in a document of `documentLength` bytes.
    @inline(__always)
    mutating func slot(of start: UnsafePointer<UInt8>, length: Int, documentLength: Int) -> Int {
        if mask == 0 { setUpSlots(documentLength: documentLength) }
        let raw = UnsafeRawPointer(start)
        // The first, middle and last eight bytes, and the length: enough to
        // tell apart the strings of real documents.
        let first = raw.loadUnaligned(as: UInt64.self)
        let middle = raw.loadUnaligned(fromByteOffset: (length - 8) / 2, as: UInt64.self)
        let last = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        return slot(mixing: (first &* 0x9E37_79B9_7F4A_7C15) ^ (middle &* 0xC2B2_AE3D_27D4_EB4F) ^ last ^ UInt64(length))
    }

    /// The slot for a string whose length is not known yet, by its first
    /// ``minimumLength`` bytes at `start` (which must be readable), in a
    /// document of `documentLength` bytes.
    @inline(__always)
    mutating func slot(ofTextAt start: UnsafePointer<UInt8>, documentLength: Int) -> Int {
        if mask == 0 { setUpSlots(documentLength: documentLength) }
        let raw = UnsafeRawPointer(start)
        let first = raw.loadUnaligned(as: UInt64.self)
        let second = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        return slot(mixing: (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F))
    }

    /// The slot of the combined words `h`, its bits mixed first.
    @inline(__always)
    private func slot(mixing h: UInt64) -> Int {
        var h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h) & mask
    }

    /// The cached string in `slot` and its raw length, if the content of the
    /// string that starts at `start` (just after its opening quote) is the
    /// cached string's raw text, in an input of `count` bytes at `base`.
    ///
    /// Equal bytes followed by `"` are enough: the cached text was a whole
    /// valid string's content, so the same bytes scan the same way (no
    /// quote or control character inside, no escape cut off at the end) and
    /// that `"` is the closing quote.
    @inline(__always)
    func string(
        in slot: Int, matchingTextAt start: Int, base: UnsafePointer<UInt8>, count: Int
    ) -> (string: String, length: Int)? {
        let entry = slots.unsafelyUnwrapped + slot
        let length = entry.pointee.length
        guard length != 0, start &+ length < count, base[start &+ length] == UInt8(ascii: "\""),
              memcmp(base + entry.pointee.offset, base + start, length) == 0 else { return nil }
        return (entry.pointee.string, length)
    }

    /// The cached string in `slot` if it has the `length` bytes at `start`
    /// of the input that begins at `base`.
    @inline(__always)
    func string(in slot: Int, matching start: Int, length: Int, base: UnsafePointer<UInt8>) -> String? {
        let entry = slots.unsafelyUnwrapped + slot
        guard entry.pointee.length == length,
              memcmp(base + entry.pointee.offset, base + start, length) == 0 else { return nil }
        return entry.pointee.string
    }

    /// Remembers `string`, made from the `length` bytes at `start`, in `slot`.
    @inline(__always)
    func store(_ string: String, in slot: Int, start: Int, length: Int) {
        slots.unsafelyUnwrapped[slot] = Entry(offset: start, length: length, string: string)
    }

    /// Ends the lifetime of the slots, if they are set up. A slot still empty
    /// holds `""`, which owns nothing, so only the filled ones are released
    /// (a document of 1 MB has 2,048 slots, many of them never filled).
    private func releaseStrings() {
        guard mask != 0, let slots else { return }
        for slot in 0...mask where slots[slot].length != 0 {
            _ = (slots + slot).move()
        }
    }

    /// Sets up empty slots for a document of `documentLength` bytes, in the
    /// memory at hand when it has room for them.
    mutating func setUpSlots(documentLength: Int) {
        var size = 8
        while size < 2048 && size * 512 < documentLength { size &<<= 1 }
        if capacity < size {
            slots?.deallocate()
            slots = .allocate(capacity: size)
            capacity = size
        }
        // Length 0 never matches: only strings of 16 bytes and more are looked up.
        slots.unsafelyUnwrapped.initialize(repeating: Entry(offset: 0, length: 0, string: ""), count: size)
        mask = size - 1
    }
}
