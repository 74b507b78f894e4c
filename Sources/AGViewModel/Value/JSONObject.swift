/// The members of a JSON object: string keys to values, in insertion order,
/// with fast lookup by key.
///
/// Order is kept exactly as parsed or inserted, so exports and generated key
/// constants follow the source. Small objects (the usual API case) are
/// searched linearly, which beats hashing for a handful of short keys; from
/// ``indexThreshold`` members on, a hash index answers lookups in constant
/// time.
///
/// Setting an existing key replaces its value in place (the key keeps its
/// position). The parser uses the same rule for duplicate keys: the last
/// value wins, at the position of the first occurrence. Keys compare as
/// Swift `String`s: canonically equivalent keys (`"\u{E9}"` and
/// `"e\u{301}"`) are one key.
public struct JSONObject: Sendable {
    /// Member count from which a hash index is kept.
    public static let indexThreshold = 12

    /// One key and its value.
    ///
    /// A nominal struct rather than the `(key:, value:)` tuple the collection
    /// vends: an array of tuples is created and destroyed through the
    /// runtime's generic tuple metadata and witnesses (measurably slow when
    /// parsing and freeing thousands of objects), a struct gets direct ones.
    @usableFromInline
    internal struct Member: Sendable {
        @usableFromInline var key: String
        @usableFromInline var value: JSONValue

        @inlinable
        init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The storage of the members (released iteratively, see
    /// ``JSONContainerStorage``).
    @usableFromInline internal typealias Members = JSONContainerStorage<Member>

    /// The members in order. One array of members rather than separate key
    /// and value arrays: half the allocations per object, which is what
    /// parsing and freeing API data (many small objects) spend much of their
    /// time on, and a member's key and value share a cache line.
    @usableFromInline internal var _members: Members
    /// Key → position, present only when `count >= indexThreshold`.
    @usableFromInline internal var _index: JSONKeyIndex?

    /// An empty object.
    public init() {
        _members = []
        _index = nil
    }

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        _members = Members(minimumCapacity: capacity)
        _index = nil
    }

    /// An object from parallel arrays of keys and values. The caller
    /// guarantees the keys are unique (decoders check that while reading);
    /// the lookup index is built once, at the end.
    internal init(uniqueKeys keys: [String], values: [JSONValue]) {
        precondition(keys.count == values.count, "keys and values differ in count")
        var members = Members(minimumCapacity: keys.count)
        for i in keys.indices { members.append(Member(key: keys[i], value: values[i])) }
        _members = members
        _index = nil
        if keys.count >= Self.indexThreshold { rebuildIndex() }
    }

    /// An object holding `members` in order; a repeated key keeps its first
    /// position and its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (key: String, value: JSONValue) {
        self.init()
        for member in members { self[member.key] = member.value }
    }

    /// An object from `(key, value)` pairs in order; a repeated key keeps its
    /// first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init(minimumCapacity: pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// The number of members.
    @inlinable public var count: Int { _members.count }

    /// `true` when the object has no members.
    @inlinable public var isEmpty: Bool { _members.isEmpty }

    /// The keys in order.
    @inlinable public var keys: [String] { _members.map(\.key) }

    /// The values in key order.
    @inlinable public var values: [JSONValue] { _members.map(\.value) }

    /// The position of `key`, or `nil`.
    @inlinable
    public func index(forKey key: String) -> Int? {
        if let index = _index { return index.find(key, hash: key.hashValue, in: _members) }
        return linearIndex(forKey: key)
    }

    /// The position of `key` found by comparing every key: cheaper than
    /// hashing for objects too small to have an index.
    @inlinable
    internal func linearIndex(forKey key: String) -> Int? {
        var i = 0
        let n = _members.count
        while i < n {
            if _members[i].key == key { return i }
            i += 1
        }
        return nil
    }

    /// The value for `key`; setting `nil` removes the member.
    ///
    /// Mutations through the subscript happen in place
    /// (`object["user"]?["name"] = "A"` copies nothing).
    @inlinable
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = index(forKey: key) else { return nil }
            return _members[i].value
        }
        _modify {
            if let i = index(forKey: key) {
                // Move the value out so the caller holds the only reference.
                var value: JSONValue? = _members[i].value
                _members[i].value = .null
                defer {
                    if let value { _members[i].value = value } else { removeValue(forKey: key) }
                }
                yield &value
            } else {
                var value: JSONValue? = nil
                defer { if let value { appendNew(key: key, value: value) } }
                yield &value
            }
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value for `key`, or `defaultValue` when absent; mutating through
    /// this subscript adds the key first, as `Dictionary`'s does:
    /// `object["counts", default: [:]]["likes"] = 3`.
    @inlinable
    public subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        get { self[key] ?? defaultValue() }
        _modify {
            let i: Int
            if let found = index(forKey: key) {
                i = found
            } else {
                appendNew(key: key, value: defaultValue())
                i = _members.count - 1
            }
            var value = _members[i].value
            _members[i].value = .null
            defer { _members[i].value = value }
            yield &value
        }
        set { updateValue(newValue, forKey: key) }
    }

    /// Sets `value` for `key` and returns the previous value. A new key goes
    /// at the end; an existing key keeps its position.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let i = index(forKey: key) {
            let old = _members[i].value
            _members[i].value = value
            return old
        }
        appendNew(key: key, value: value)
        return nil
    }

    /// Appends a member whose key the caller knows is not present yet.
    @usableFromInline
    internal mutating func appendNew(key: String, value: JSONValue) {
        _members.append(Member(key: key, value: value))
        let n = _members.count
        if _index != nil && n <= _index!.capacity {
            _index!.insert(key, hash: key.hashValue, position: n - 1, in: _members)
        } else if n >= Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Replaces the value at `position` with `value` and returns the one it
    /// held, in place (the member keeps its key and position).
    internal mutating func exchangeValue(at position: Int, with value: JSONValue) -> JSONValue {
        var value = value
        swap(&value, &_members[position].value)
        return value
    }

    /// Removes the member for `key` and returns its value.
    @inlinable
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = index(forKey: key) else { return nil }
        if _index != nil {
            if _members.count > Self.indexThreshold {
                _index!.remove(position: i, hash: key.hashValue, in: _members)
            } else {
                _index = nil
            }
        }
        return _members.remove(at: i).value
    }

    /// Removes every member.
    public mutating func removeAll() {
        _members.removeAll()
        _index = nil
    }

    /// The members sorted by key (UTF-8 byte order), for deterministic output.
    public func sortedByKey() -> JSONObject {
        var result = JSONObject(minimumCapacity: count)
        for member in _members.sorted(by: { Self.utf8Less($0.key, $1.key) }) {
            result.appendNew(key: member.key, value: member.value)
        }
        return result
    }

    @usableFromInline
    internal mutating func rebuildIndex() {
        _index = nil  // release the old table before building the new one
        _index = JSONKeyIndex(members: _members)
    }

    /// Byte-wise UTF-8 ordering: locale-independent and the same on every platform.
    internal static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

extension JSONObject: RandomAccessCollection {
    /// A member: key and value.
    public typealias Element = (key: String, value: JSONValue)
    /// Positions are `0..<count`, in key order.
    public typealias Index = Int

    /// The position of the first member.
    @inlinable public var startIndex: Int { 0 }
    /// The position past the last member.
    @inlinable public var endIndex: Int { _members.count }

    /// The member at `position`; traps when out of range, like `Array`.
    @inlinable
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        let member = _members[position]
        return (member.key, member.value)
    }
}

extension JSONObject: Equatable {
    /// Objects are equal when they have the same keys with equal values,
    /// regardless of member order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        equal(lhs, rhs, depth: 1)
    }

    /// `==` of objects entered at nesting `depth` (see `JSONValue.equal`).
    internal static func equal(_ lhs: JSONObject, _ rhs: JSONObject, depth: Int) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Same key order (the usual case): compare member by member. Each
        // value is compared once either way: comparing again after a
        // mismatch would double the work at every level of nesting.
        if lhs._members.elementsEqual(rhs._members, by: { $0.key == $1.key }) {
            return lhs._members.elementsEqual(rhs._members, by: { JSONValue.equal($0.value, $1.value, depth: depth) })
        }
        for member in lhs._members {
            guard let j = rhs.index(forKey: member.key), JSONValue.equal(member.value, rhs._members[j].value, depth: depth) else {
                return false
            }
        }
        return true
    }
}

extension JSONObject: Hashable {
    /// Order-independent hash, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 1)
    }

    /// `hash(into:)` at nesting `depth`: past the recursion limit, the
    /// count alone.
    internal func hash(into hasher: inout Hasher, depth: Int) {
        hasher.combine(count)
        guard depth < JSONValue.recursionDepthLimit else { return }
        var combined = 0
        for member in _members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            member.value.hash(into: &memberHasher, depth: depth)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object from a literal, in source order: `["id": 1, "name": "a"]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible, CustomDebugStringConvertible {
    /// The object as compact JSON text (see ``JSONValue/description``).
    public var description: String { JSONValue.object(self).description }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
