/// The hash index of a large ``JSONObject``: key → member position.
///
/// An open-addressing table of 64-bit slots, each holding the upper 32 bits
/// of the key's `hashValue` and the member's position + 1 (0 marks an empty
/// slot). Keys themselves stay in the object's members, so the index costs
/// one allocation, and the parser can fill it from hash values it already
/// knows instead of hashing every key again. Hash values are Swift's own
/// (per-process seeded SipHash), so crafted keys cannot force collisions.
@usableFromInline
internal struct JSONKeyIndex: Sendable {
    /// A power of two in size. The mask is derived from it rather than
    /// stored: an eight-byte index keeps ``JSONObject`` at 16 bytes and so
    /// every ``JSONValue`` at 24 (32 with a stored mask).
    @usableFromInline internal var slots: [UInt64]

    /// An empty index with room for `count` keys at a load factor of at most 1/2.
    @usableFromInline
    internal init(capacity count: Int) {
        var size = 16
        while size < count * 2 { size &<<= 1 }
        slots = [UInt64](repeating: 0, count: size)
    }

    /// Slot count − 1: a hash value's bits that pick its first slot.
    @inlinable internal var mask: Int { slots.count &- 1 }

    /// How many keys fit before the table must grow.
    @inlinable internal var capacity: Int { slots.count / 2 }

    @inlinable
    internal static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000
    }

    /// The position of `key` (whose hash value is `hash`) in `members`, or `nil`.
    @inlinable
    internal func find(_ key: String, hash: Int, in members: JSONObject.Members) -> Int? {
        let tag = Self.tag(hash)
        let mask = self.mask
        var i = hash & mask
        while true {
            let slot = slots[i]
            if slot == 0 { return nil }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let position = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if members[position].key == key { return position }
            }
            i = (i &+ 1) & mask
        }
    }

    /// Records `position` for `key` unless the key is already present; then
    /// returns the existing position instead.
    @inlinable
    @discardableResult
    internal mutating func insert(_ key: String, hash: Int, position: Int, in members: JSONObject.Members) -> Int? {
        let tag = Self.tag(hash)
        let mask = self.mask
        var i = hash & mask
        while true {
            let slot = slots[i]
            if slot == 0 {
                slots[i] = tag | UInt64(truncatingIfNeeded: position + 1)
                return nil
            }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let existing = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if members[existing].key == key { return existing }
            }
            i = (i &+ 1) & mask
        }
    }

    /// Forgets the member at `position` (whose key has hash value `hash`)
    /// and moves every later position down by one, as removing that member
    /// from `members` does; call it before the removal, while `members`
    /// still holds it. The slots after the freed one shift back where their
    /// keys' probes reach them (so no tombstones), which rehashes only the
    /// keys in that run. Then the positions after it move down: O(slots)
    /// without hashing, as the removal itself is O(members), unless the
    /// member removed is the last.
    @usableFromInline
    internal mutating func remove(position: Int, hash: Int, in members: JSONObject.Members) {
        let mask = self.mask
        let stored = UInt64(truncatingIfNeeded: position + 1)
        var hole = hash & mask
        while slots[hole] & 0xFFFF_FFFF != stored { hole = (hole &+ 1) & mask }
        var next = hole
        while true {
            next = (next &+ 1) & mask
            let slot = slots[next]
            if slot == 0 { break }
            let home = members[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1].key.hashValue & mask
            // The slot may move back unless its home lies after the hole,
            // up to the slot itself (cyclically): its probe starts there.
            let homeAfterHole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !homeAfterHole {
                slots[hole] = slot
                hole = next
            }
        }
        slots[hole] = 0
        // Removing the last member moves no position: O(1) on average.
        guard position + 1 < members.count else { return }
        for i in slots.indices where slots[i] & 0xFFFF_FFFF > stored {
            slots[i] &-= 1
        }
    }

    /// An index of the keys of all of `members`, which must be distinct.
    @usableFromInline
    internal init(members: JSONObject.Members) {
        self.init(capacity: members.count)
        for (position, member) in members.enumerated() {
            insert(member.key, hash: member.key.hashValue, position: position, in: members)
        }
    }
}
