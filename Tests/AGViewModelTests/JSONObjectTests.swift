import Testing
@testable import AGViewModel

@Suite("JSONObject")
struct JSONObjectTests {
    /// Every array element and object member holds a `JSONValue` inline, so
    /// its size is most of a parsed document's memory. An object's storage
    /// reference and its index fit in 16 bytes; one more stored word would
    /// take every value from 24 bytes to 32 (about 0.17 more bytes held per
    /// input byte of twitter.json).
    @Test func aValueTakesTwentyFourBytesAndAMemberForty() {
        #expect(MemoryLayout<JSONObject>.size == 16)
        #expect(MemoryLayout<JSONArray>.size == 8)
        #expect(MemoryLayout<JSONValue>.stride == 24)
        #expect(MemoryLayout<JSONObject.Member>.stride == 40)
    }

    /// A container's block is the object header, this header and the
    /// elements: at 8 bytes, a pair of numbers takes 72 bytes (an 80-byte
    /// malloc chunk) instead of 80 (a 96-byte one).
    @Test func aContainerHeaderTakesEightBytesAndStillCountsPastSixteenBits() {
        #expect(MemoryLayout<JSONContainerHeader>.size == 8)
        var array: JSONArray = []
        for i in 0..<70_000 { array.append(.int(Int64(i))) }
        #expect(array.count == 70_000)
        #expect(array[69_999] == 69_999)
        var header = JSONContainerHeader(count: 0, capacity: 100_000)
        header.count = 99_999
        #expect(header.count == 99_999 && header.capacity == 100_000)
    }

    @Test func aCapacityPastThirtyTwoBitsTrapsInsteadOfWrapping() async {
        await #expect(processExitsWith: .failure) {
            _ = JSONContainerHeader(count: 0, capacity: Int(UInt32.max) + 1)
        }
    }

    @Test func lookupsStayCorrectAcrossTheIndexThreshold() {
        var object = JSONObject()
        for i in 0..<200 {
            object["k\(i)"] = .int(Int64(i))
            // Every key so far is found, small and large alike.
            if i % 17 == 0 {
                for j in 0...i { #expect(object["k\(j)"] == .int(Int64(j))) }
                #expect(object["k\(i + 1)"] == nil)
            }
        }
        #expect(object.count == 200)
    }

    @Test func updatesKeepPositionAndRemovalsReindex() {
        var object = JSONObject((0..<30).map { ("k\($0)", JSONValue.int(Int64($0))) })
        object["k5"] = "five"
        #expect(object.keys[5] == "k5")
        #expect(object["k5"] == "five")
        #expect(object.removeValue(forKey: "k0") == 0)
        #expect(object.keys.first == "k1")
        #expect(object["k29"] == 29)
        #expect(object.index(forKey: "k29") == 28)
        for i in 1..<25 { object["k\(i)"] = nil }
        #expect(object.keys == ["k25", "k26", "k27", "k28", "k29"])
        #expect(object["k27"] == 27)
        object["new"] = true
        #expect(object.keys.last == "new")
    }

    /// Removing members in random orders, with inserts in between, from
    /// objects of every size around the index threshold: after each step
    /// every key is found at its position, no removed key is found, and the
    /// index holds exactly one slot per member (removal updates it in place
    /// instead of rebuilding it).
    @Test func removalsUpdateTheIndexInPlace() {
        var generator = SplitMix64(seed: 15)
        for size in [12, 13, 16, 40, 200] {
            // Many small tables: runs of slots that wrap past the end are common there.
            for _ in 0..<(size <= 16 ? 300 : 10) {
                var object = JSONObject((0..<size).map { ("k\($0)", JSONValue.int(Int64($0))) })
                var expected = (0..<size).map { "k\($0)" }
                var added = 0
                while !expected.isEmpty {
                    if generator.next() % 5 == 0 {
                        let key = "new\(added)"
                        added += 1
                        object[key] = .string(key)
                        expected.append(key)
                    }
                    let victim = expected.remove(at: Int(generator.next() % UInt64(expected.count)))
                    #expect(object.removeValue(forKey: victim) != nil)
                    #expect(object.index(forKey: victim) == nil)
                    #expect(object.keys == expected)
                    for (position, key) in expected.enumerated() where object.index(forKey: key) != position {
                        Issue.record("size \(size): \(key) not at \(position) after removing \(victim)")
                    }
                    if let index = object._index {
                        #expect(index.slots.filter { $0 != 0 }.count == expected.count)
                        #expect(expected.count >= JSONObject.indexThreshold)
                    }
                }
            }
        }
    }

    @Test func copiesAreIndependent() {
        var a = JSONObject((0..<20).map { ("k\($0)", JSONValue.int(Int64($0))) })
        let b = a
        a["k3"] = nil
        a["extra"] = 1
        #expect(b["k3"] == 3)
        #expect(b["extra"] == nil)
        #expect(a["extra"] == 1)
    }

    @Test func sortedByKeyUsesByteOrder() {
        let object: JSONObject = ["b": 1, "a": 2, "B": 3, "é": 4]
        #expect(object.sortedByKey().keys == ["B", "a", "b", "é"])
    }
}

extension JSONObjectTests {
    @Test func anObjectWithExtraMembersIsNotEqual() {
        let small: JSONObject = ["a": 1], large: JSONObject = ["a": 1, "b": 2]
        #expect(small != large)
        #expect(large != small)
        #expect(JSONValue.object(small) != JSONValue.object(large))
    }

    /// Sorted by UTF-8 bytes, as documented (not by `String`'s `<`, which
    /// puts a decomposed "é" after "f").
    @Test func sortedByKeyUsesUTF8ByteOrder() {
        let object: JSONObject = ["f": 1, "e\u{301}": 2]
        #expect(object.sortedByKey().keys.map { Array($0.unicodeScalars) } == [["e", "\u{301}"], ["f"]])
    }
}

extension JSONObjectTests {
    @Test func updateValueReturnsTheValueItReplaced() {
        var object: JSONObject = ["a": 1, "b": 2]
        #expect(object.updateValue(3, forKey: "a") == 1)
        #expect(object.updateValue(4, forKey: "c") == nil)
        #expect(object.keys == ["a", "b", "c"] && object["a"] == 3 && object["c"] == 4)
    }

    /// Setting `nil` through the subscript removes the member, also when
    /// the member is changed in place (passed `inout`).
    @Test func settingNilInPlaceRemovesTheMember() {
        func clear(_ value: inout JSONValue?) { value = nil }
        var object: JSONObject = ["a": 1, "b": 2]
        clear(&object["a"])
        #expect(object.keys == ["b"])
        #expect(object["a"] == nil)
        #expect(object == ["b": 2])
    }

    @Test func pairsWithARepeatedKeyKeepTheFirstPositionAndTheLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object.count == 2)
        #expect(object["a"] == 3)
    }

    /// The `default:` subscript adds a missing key at the end and mutates
    /// only that member.
    @Test func theDefaultSubscriptAddsTheMissingKeyAtTheEnd() {
        var object: JSONObject = ["title": "Swift"]
        object["counts", default: [:]]["likes"] = 3
        #expect(object.keys == ["title", "counts"])
        #expect(object["title"] == "Swift")
        #expect(object["counts"] == ["likes": 3])
        object["counts", default: [:]]["shares"] = 1
        #expect(object["counts"] == ["likes": 3, "shares": 1])
    }

    /// An object kept at the size where its index is fullest, removing one
    /// member and adding another many times over: every key stays found at
    /// its position (runs of slots that wrap past the end of the table
    /// included), and no removed key is found.
    @Test func aFullIndexStaysCorrectThroughManyRemovalsAndInserts() {
        var generator = SplitMix64(seed: 43)
        for size in [16, 32] {
            var object = JSONObject((0..<size).map { ("k\($0)", JSONValue.int(Int64($0))) })
            var expected = (0..<size).map { "k\($0)" }
            for step in 0..<3_000 {
                let victim = expected.remove(at: Int(generator.next() % UInt64(expected.count)))
                object.removeValue(forKey: victim)
                let key = "n\(step)"
                object[key] = .string(key)
                expected.append(key)
                guard object.index(forKey: victim) == nil,
                      expected.enumerated().allSatisfy({ object.index(forKey: $0.element) == $0.offset }) else {
                    Issue.record("size \(size), step \(step): a key is misplaced after removing \(victim)")
                    return
                }
            }
            #expect(object.keys == expected)
        }
    }
}
