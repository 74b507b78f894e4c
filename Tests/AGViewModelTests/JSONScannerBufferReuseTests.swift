import Foundation
import Testing
@testable import AGViewModel

/// A thread's parses hand their working buffers (value and key stacks, open
/// containers, escape buffer, string cache slots) from one to the next.
/// Nothing of one document may show in the next, whatever the first one
/// left behind: an error halfway, a size over the kept limit, cached strings.
@Suite("JSONParser: buffers reused across parses")
struct JSONScannerBufferReuseTests {
    @Test func aSpareBufferKeepsTheLargestMemoryUpToItsLimit() {
        var spare = JSONSpareBuffer<Int>()
        let first = spare.take(minimumCapacity: 16)
        #expect(first.capacity == 16)
        spare.keep(first.memory, capacity: first.capacity)
        let again = spare.take(minimumCapacity: 8)
        #expect(again.memory == first.memory && again.capacity == 16)
        // Nothing kept now: a new buffer of the size asked for.
        let second = spare.take(minimumCapacity: 4)
        #expect(second.capacity == 4)
        spare.keep(again.memory, capacity: again.capacity)
        spare.keep(second.memory, capacity: second.capacity)  // smaller: freed
        #expect(spare.take(minimumCapacity: 1).memory == first.memory)
        // Too small for the request: left kept, a new buffer made.
        spare.keep(first.memory, capacity: 16)
        let larger = spare.take(minimumCapacity: 32)
        #expect(larger.capacity == 32 && larger.memory != first.memory)
        spare.keep(larger.memory, capacity: larger.capacity)  // replaces the kept one
        #expect(spare.takeAny()?.capacity == 32)
        #expect(spare.takeAny() == nil)
        larger.memory.deallocate()
        // Over the limit: freed, never kept.
        let limit = JSONSpareBuffer<Int>.maximumBytes / MemoryLayout<Int>.stride
        let huge = UnsafeMutablePointer<Int>.allocate(capacity: limit + 1)
        spare.keep(huge, capacity: limit + 1)
        #expect(spare.takeAny() == nil)
        let atLimit = UnsafeMutablePointer<Int>.allocate(capacity: limit)
        spare.keep(atLimit, capacity: limit)
        #expect(spare.takeAny()?.memory == atLimit)
        atLimit.deallocate()
    }

    @Test func documentsParsedAfterFailedOnesReadBackExactly() throws {
        // Each failure stops with values, keys, open containers and a
        // half-decoded escaped string still held; the next parse on this
        // thread starts from the same buffers.
        var random = SplitMix64(seed: 0xB0FF_E125)
        for round in 0..<400 {
            let value = JSONWriterLayoutTests.randomValue(depth: 5, using: &random)
            let text = try value.jsonString()
            let utf8 = Array(text.utf8)
            let cut = Int.random(in: 0..<utf8.count, using: &random)
            let broken = Array(utf8[..<cut]) + Array(#"\u12"#.utf8)
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: broken) }
            #expect(try JSONValue(parsing: text) == value, "round \(round)")
        }
    }

    @Test func failedParsesForASpecThenFullParsesReadBack() throws {
        // A parse for a spec that fails gives its buffers back before the
        // full parse that finds the exact error.
        let spec = #"{"name": "t", "items": "items", "fields": [{"key": "t", "path": "text", "type": "string"}]}"#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8)))
        let good: JSONValue = ["items": [["text": "an item with a long text", "skip": ["x": 1]]], "meta": "other"]
        let text = try good.jsonString()
        for cut in stride(from: 1, to: text.utf8.count, by: 3) {
            let broken = Data(Array(text.utf8)[..<cut]) + Data(#"\x"#.utf8)
            #expect(throws: JSONParseError.self) { try packager.parseDocument(broken) }
            #expect(try JSONValue(parsing: text) == good)
            let projected = try packager.parseDocument(Data(text.utf8))
            #expect(projected["items"]?[0]?["text"] == "an item with a long text")
        }
    }

    @Test func aParseWhileTheThreadsTableIsHeldReadsBack() throws {
        // As a parse nested in another one on the same thread: it makes a
        // table of its own, with buffers of its own.
        let held = JSONKeyInternTable.take()
        defer { held.giveBack() }
        let value: JSONValue = ["key": "a string longer than sixteen bytes", "n": [1, 2, ["x": "caf\u{e9} \"quoted\""]]]
        for _ in 0..<3 {
            #expect(try JSONValue(parsing: value.jsonString()) == value)
        }
    }

    @Test func aDocumentLargerThanTheKeptBuffersThenSmallOnesReadBack() throws {
        // 10,000 values open at once and 5,000 keys: stacks past the kept
        // limit, freed after the parse rather than kept.
        let wide = JSONValue.array(JSONArray((0..<10_000).map { .int(Int64($0)) }))
        var members = JSONObject()
        for i in 0..<5_000 { members["key\(i)"] = .string("value number \(i) of the wide object") }
        let large: JSONValue = ["numbers": wide, "members": .object(members)]
        let small: JSONValue = ["id": 7, "name": "a name longer than sixteen bytes", "tags": ["x", "y"]]
        for _ in 0..<3 {
            #expect(try JSONValue(parsing: small.jsonString()) == small)
            #expect(try JSONValue(parsing: large.jsonString()) == large)
            #expect(try JSONValue(parsing: small.jsonString()) == small)
        }
    }

    @Test func aThreadKeepsASmallDocumentsBuffersButNotALargeDocumentsCache() throws {
        // A 2 KB response leaves every buffer it used, string cache slots
        // included, for the next one; a document of 700 KB needs 2,048
        // slots (64 KB), more than a thread keeps, so they are freed.
        // Each call ends with nothing kept, so the next parse starts from
        // nothing (a parse reuses kept slots of any larger size).
        func keptStringSlots(afterParsing text: String) throws -> Int? {
            _ = try JSONValue(parsing: text)
            let table = JSONKeyInternTable.take()
            defer { table.giveBack() }
            var spares = table.takeSpareBuffers()
            defer { spares.deallocate() }
            guard let kept = spares.stringSlots.takeAny() else { return nil }
            spares.stringSlots.keep(kept.memory, capacity: kept.capacity)
            return kept.capacity
        }
        // Whatever this thread parsed before, nothing is kept after this.
        _ = try keptStringSlots(afterParsing: "[]")
        func document(strings: Int) -> String {
            "[" + (0..<strings).map { #""a string of thirty bytes #\#($0)""# }.joined(separator: ",") + "]"
        }
        let small = document(strings: 40), medium = document(strings: 3_000), large = document(strings: 24_000)
        #expect(small.utf8.count < 2_048 && medium.utf8.count > 65_536 && large.utf8.count > 1_024 * 512)
        #expect(try keptStringSlots(afterParsing: medium) == 256)
        #expect(try keptStringSlots(afterParsing: small) == 8)
        #expect(try keptStringSlots(afterParsing: large) == nil)
        #expect(try keptStringSlots(afterParsing: small) == 8)
    }

    @Test func longStringsOfAnEarlierDocumentNeverAnswerForTheNext() throws {
        // Documents of the same shape put different long strings at the same
        // offsets, so an entry the string cache kept from the last document
        // would match the new bytes at its offset. With eight slots for a
        // small document, many of these strings share a slot.
        var random = SplitMix64(seed: 0x57A1_E0FF)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        func randomString(length: Int) -> String {
            String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
        }
        for round in 0..<500 {
            let length = Int.random(in: 16...40, using: &random)
            let strings = (0..<4).map { _ in randomString(length: length) }
            // Each string twice, so each is also looked up as a repeat; one
            // written with an escape, cached by its raw bytes.
            let escaped = strings[3].dropLast() + #"\u0041"#
            let json = "[" + (strings + strings).map { "\"\($0)\"" }.joined(separator: ",")
                + ",\"\(escaped)\",\"\(escaped)\"]"
            let expected = strings + strings + [strings[3].dropLast() + "A", strings[3].dropLast() + "A"]
            #expect(try JSONValue(parsing: json) == .array(JSONArray(expected.map { .string(String($0)) })),
                    "round \(round)")
            // A much longer document now and then: a larger slot table,
            // then small ones again in memory first set up for it.
            if round % 50 == 0 {
                let many = (0..<2_000).map { _ in randomString(length: 24) }
                let document = "[" + many.map { "\"\($0)\"" }.joined(separator: ",") + "]"
                #expect(try JSONValue(parsing: document) == .array(JSONArray(many.map { .string($0) })))
            }
        }
    }

    @Test func anEscapeBufferNeverHoldsMoreBytesThanItsMemory() {
        // Starting from 16 bytes of kept memory, every way of appending
        // (a byte, a run, a scalar of 1 to 4 UTF-8 bytes) at every count
        // up to past the first growth: the bytes read back, and the memory
        // given back has room for all of them.
        let chunks: [[UInt8]] = [[0x61], Array("bc".utf8), Array("0123456789".utf8)]
        let scalars: [UInt32] = [0x41, 0xE9, 0x20AC, 0x1F600]
        for prefix in 0...20 {
            for kind in 0..<(chunks.count + scalars.count) {
                var spare = JSONSpareBuffer<UInt8>()
                let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
                spare.keep(memory, capacity: 16)
                var scratch = JSONScratchBuffer(reusing: &spare, minimumCapacity: 16)
                var expected: [UInt8] = []
                for i in 0..<prefix {
                    scratch.append(UInt8(ascii: "a") + UInt8(i % 26))
                    expected.append(UInt8(ascii: "a") + UInt8(i % 26))
                }
                if kind < chunks.count {
                    let chunk = chunks[kind]
                    if chunk.count == 1 {
                        scratch.append(chunk[0])
                    } else {
                        chunk.withUnsafeBufferPointer { scratch.append(contentsOf: $0) }
                    }
                    expected += chunk
                } else {
                    let scalar = scalars[kind - chunks.count]
                    scratch.appendUTF8(scalar)
                    expected += Array(String(Unicode.Scalar(scalar)!).utf8)
                }
                #expect(scratch.withUnsafeBufferPointer { Array($0) } == expected, "prefix \(prefix), kind \(kind)")
                let count = scratch.count
                scratch.giveMemory(to: &spare)
                let kept = spare.takeAny()
                #expect((kept?.capacity ?? 0) >= count, "\(count) bytes in room for \(kept?.capacity ?? 0), prefix \(prefix), kind \(kind)")
                kept?.memory.deallocate()
            }
        }
    }
}
