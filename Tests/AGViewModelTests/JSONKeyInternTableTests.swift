import Foundation
import Testing
@testable import AGViewModel

/// Object keys are interned per thread: a key met before is recognised by
/// its length and first and last eight bytes, and, for longer keys, by its
/// middle bytes. A wrong match would silently rename a key, so every test
/// here checks the parsed keys against the source text.
@Suite("JSON key interning")
struct JSONKeyInternTableTests {
    /// Keys of `length` bytes that share their first and last eight bytes
    /// and differ only in the middle.
    static func keysDifferingInTheMiddle(length: Int) -> [String] {
        let middle = length - 16
        return (0..<4).map { variant in
            "head1234" + String(repeating: "m", count: middle - 1) + String(variant) + "tail5678"
        }
    }

    static func objectText(_ keys: [String]) -> String {
        "{" + keys.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
    }

    /// The object's keys in order, and that each key reads its own value.
    static func expectKeys(_ value: JSONValue, _ keys: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)", sourceLocation: sourceLocation)
            return
        }
        #expect(object.map(\.key) == keys, sourceLocation: sourceLocation)
        for (offset, key) in keys.enumerated() {
            #expect(object[key] == .int(Int64(offset)), "key \(key)", sourceLocation: sourceLocation)
        }
    }

    @Test("long keys that differ only in their middle bytes stay distinct, within and across documents")
    func middleBytes() throws {
        for length in [17, 18, 23, 24, 25, 33, 40, 63, 64, 65, 80] {
            let keys = Self.keysDifferingInTheMiddle(length: length)
            // One document with all of them, then each alone (the table now
            // holds some of them), then in reverse order.
            Self.expectKeys(try JSONValue(parsing: Data(Self.objectText(keys).utf8)), keys)
            for key in keys {
                Self.expectKeys(try JSONValue(parsing: Data(Self.objectText([key]).utf8)), [key])
            }
            let reversed = Array(keys.reversed())
            Self.expectKeys(try JSONValue(parsing: Data(Self.objectText(reversed).utf8)), reversed)
        }
    }

    @Test("more distinct keys than the table holds, over many documents on one thread")
    func manyKeys() throws {
        // Lengths 1 to 70 (short, word-sized, long, and beyond the interned
        // maximum), 3,000 distinct keys: the table grows, fills up, and is
        // cleared between documents.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz_0123456789")
        let keys = (0..<3_000).map { index -> String in
            var key = String(index) + "."
            while key.count < 1 + index % 70 { key.append(alphabet[(index &* 7 &+ key.count) % alphabet.count]) }
            return key
        }
        #expect(Set(keys).count == keys.count)
        for chunk in stride(from: 0, to: keys.count, by: 250) {
            let documentKeys = Array(keys[chunk..<min(chunk + 250, keys.count)])
            Self.expectKeys(try JSONValue(parsing: Data(Self.objectText(documentKeys).utf8)), documentKeys)
        }
        // The same keys again, now mostly from the table, in a new order.
        let shuffled = keys.indices.map { keys[($0 * 1_009) % keys.count] }
        for chunk in stride(from: 0, to: shuffled.count, by: 500) {
            let documentKeys = Array(shuffled[chunk..<min(chunk + 500, shuffled.count)])
            Self.expectKeys(try JSONValue(parsing: Data(Self.objectText(documentKeys).utf8)), documentKeys)
        }
    }

    @Test("a table's memory grows with the keys it meets, and lookups match whole keys")
    func growth() {
        let table = JSONKeyInternTable()
        #expect(table.capacity == JSONKeyInternTable.initialCapacity)
        var stored: [(key: String, bytes: [UInt8], slot: Int)] = []
        for index in 0..<2_000 {
            let key = "key-" + String(index) + String(repeating: "x", count: index % 50)
            var bytes = Array(key.utf8)
            let length = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: 64))  // readable past the key, as in a document
            let (slot, first, last) = bytes.withUnsafeBufferPointer { buffer in
                let (first, last) = JSONKeyInternTable.words(of: buffer.baseAddress!, length: length,
                                                             readableUpTo: buffer.baseAddress! + buffer.count)
                return (JSONKeyInternTable.slot(first: first, last: last, length: length), first, last)
            }
            #expect(slot & 1 == 0, "a pair starts at an even slot")
            let wasEmpty = (table.slots[slot] == 0 || table.slots[slot + 1] == 0)
                && table.count < JSONKeyInternTable.maximumEntries
            let inserted = bytes.withUnsafeBufferPointer { buffer in
                table.insert(key, hash: key.hashValue, slot: slot, first: first, last: last, length: length,
                             start: buffer.baseAddress!)
            }
            #expect(inserted == (wasEmpty ? table.count : 0))
            if wasEmpty { stored.append((key, bytes, slot)) }
        }
        #expect(table.count == stored.count)
        #expect(table.count <= JSONKeyInternTable.maximumEntries)
        #expect(table.capacity >= table.count && table.capacity <= JSONKeyInternTable.maximumEntries)
        for entry in stored {
            let length = entry.key.utf8.count
            entry.bytes.withUnsafeBufferPointer { buffer in
                let (first, last) = JSONKeyInternTable.words(of: buffer.baseAddress!, length: length,
                                                             readableUpTo: buffer.baseAddress! + buffer.count)
                let index = table.lookup(slot: entry.slot, first: first, last: last, length: length, start: buffer.baseAddress!)
                #expect(index != 0)
                if index != 0 {
                    #expect(table.entries[index - 1].string == entry.key)
                    #expect(table.entries[index - 1].hash == entry.key.hashValue)
                    #expect(table.bytes(at: buffer.baseAddress!, length: length, match: table.entries + (index - 1)))
                }
            }
            // The same length, first and last words, one middle byte changed.
            if length > 16 {
                var changed = entry.bytes
                changed[length / 2] ^= 0x01
                changed.withUnsafeBufferPointer { buffer in
                    let (first, last) = JSONKeyInternTable.words(of: buffer.baseAddress!, length: length,
                                                                 readableUpTo: buffer.baseAddress! + buffer.count)
                    #expect(table.lookup(slot: entry.slot, first: first, last: last, length: length,
                                         start: buffer.baseAddress!) == 0)
                    for slot in [entry.slot, entry.slot + 1] where table.slots[slot] != 0 {
                        let index = Int(table.slots[slot])
                        #expect(!table.bytes(at: buffer.baseAddress!, length: length, match: table.entries + (index - 1)))
                    }
                }
            }
        }
        table.removeAll()
        #expect(table.count == 0 && table.middleCount == 0)
    }

    /// `key` as the table sees it in a document: its bytes (with readable
    /// bytes after them), words and first slot.
    static func tableForm(of key: String) -> (bytes: [UInt8], first: UInt64, last: UInt64, slot: Int) {
        var bytes = Array(key.utf8)
        let length = bytes.count
        bytes += repeatElement(0, count: 64)
        let (first, last) = bytes.withUnsafeBufferPointer { buffer in
            JSONKeyInternTable.words(of: buffer.baseAddress!, length: length, readableUpTo: buffer.baseAddress! + buffer.count)
        }
        return (bytes, first, last, JSONKeyInternTable.slot(first: first, last: last, length: length))
    }

    /// The first slot of `key`'s pair.
    static func slot(of key: String) -> Int { tableForm(of: key).slot }

    @Test("keys that differ only in their last byte spread over the table")
    func lastByteDifferences() {
        // Numbered keys (`address1`, ids as keys): of 36 keys differing in
        // their last byte alone, nearly all pairs of slots differ, as for
        // random keys (about one shared pair in 120 expected here).
        for stem in ["addr", "address", "line_no", "32484609", "seatCategory", "a_much_longer_key_name_"] {
            let keys = (Array("0123456789") + Array("abcdefghijklmnopqrstuvwxyz")).map { stem + String($0) }
            let pairs = Set(keys.map(Self.slot(of:)))
            #expect(pairs.count >= keys.count - 3, "\(stem): \(keys.count) keys in \(pairs.count) pairs of slots")
        }
    }

    @Test("a key whose first slot is taken goes in the second; a third key of that pair is not interned")
    func pairsOfSlots() {
        // Three keys with one first slot, found by search.
        var bySlot: [Int: [String]] = [:]
        var index = 0
        var keys: [String] = []
        while keys.isEmpty {
            let key = "k" + String(index)
            index += 1
            bySlot[Self.slot(of: key), default: []].append(key)
            if bySlot[Self.slot(of: key)]!.count == 3 { keys = bySlot[Self.slot(of: key)]! }
        }
        let table = JSONKeyInternTable()
        func insert(_ key: String) -> Int {
            let form = Self.tableForm(of: key)
            return form.bytes.withUnsafeBufferPointer { buffer in
                table.insert(key, hash: key.hashValue, slot: form.slot, first: form.first, last: form.last,
                             length: key.utf8.count, start: buffer.baseAddress!)
            }
        }
        #expect(insert(keys[0]) == 1)
        #expect(insert(keys[1]) == 2)
        #expect(insert(keys[2]) == 0)
        #expect(table.contains(keys[0]) && table.contains(keys[1]) && !table.contains(keys[2]))
        #expect(!table.contains("k" + String(index)))
    }

    /// An object per id, keyed by id (as gsoc-2018.json), with the same ten
    /// members each: more distinct keys than the table holds, most of them
    /// once.
    static func documentKeyedByIDs(_ ids: Range<Int>) -> Data {
        let member = (0..<10).map { "\"member\($0)\": \($0)" }.joined(separator: ", ")
        return Data(("{" + ids.map { "\"\($0)\": {\(member)}" }.joined(separator: ", ") + "}").utf8)
    }

    @Test("a full table that has most of a document's keys is kept; one that has few of them is cleared")
    func clearingAFullTable() throws {
        // One synchronous test: every parse runs on this thread, with its table.
        if let table = JSONKeyInternTable.threadTable { table.removeAll() }
        _ = try JSONValue(parsing: Self.documentKeyedByIDs(0..<1_000))
        let table = try #require(JSONKeyInternTable.threadTable)
        #expect(table.count == JSONKeyInternTable.maximumEntries)
        #expect(table.contains("0") && table.contains("member9"))
        // Other ids, the same members: 1 key in 11 is new, and the table
        // still holds the ids of the first document.
        _ = try JSONValue(parsing: Self.documentKeyedByIDs(1_000..<2_000))
        #expect(JSONKeyInternTable.threadTable === table)
        #expect(table.contains("0") && table.contains("member9") && !table.contains("1000"))
        // Another API's documents: the full table has none of their keys, so
        // the next parse starts afresh and learns them.
        let other = Data(("[" + Array(repeating: #"{"title": "t", "subtitle": "s", "badge_count": 1}"#, count: 50)
            .joined(separator: ",") + "]").utf8)
        _ = try JSONValue(parsing: other)
        #expect(!table.contains("badge_count"))
        _ = try JSONValue(parsing: other)
        #expect(table.contains("badge_count") && table.contains("title") && !table.contains("0"))
    }

    @Test("discarding the thread's caches makes the next parse start with an empty table, and it parses the same")
    func discardingTheThreadCaches() throws {
        // One synchronous test: every parse runs on this thread, with its table.
        let text = #"{"discard_probe_key": [1, {"nested_probe": "value of some length"}]}"#
        let first = try JSONValue(parsing: text)
        let table = try #require(JSONKeyInternTable.threadTable)
        #expect(table.contains("discard_probe_key"))
        JSONParser.discardThreadCaches()
        #expect(JSONKeyInternTable.threadTable == nil)
        #expect(try JSONValue(parsing: text) == first)
        let fresh = try #require(JSONKeyInternTable.threadTable)
        #expect(fresh !== table && fresh.contains("discard_probe_key") && fresh.contains("nested_probe"))
    }

    @Test("after a full table is cleared, the keys it held read back exactly")
    func keysAfterClearing() throws {
        // One synchronous test: every parse runs on this thread, with its table.
        // More one-off keys than the table holds, each long enough to be
        // stored on the heap: the table fills up, misses many keys and is
        // cleared when the next parse starts, and the same document then
        // meets every key again in the same order.
        if let table = JSONKeyInternTable.threadTable { table.removeAll() }
        let keys = (0..<1_000).map { "a key long enough for its own storage, number \($0)" }
        let document = Data(Self.objectText(keys).utf8)
        for _ in 0..<3 {
            Self.expectKeys(try JSONValue(parsing: document), keys)
        }
    }
}
