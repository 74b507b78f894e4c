import Foundation
import Testing
@testable import AGViewModel

@Suite("Archive format")
struct ArchiveTests {
    static let sample: JSONValue = [
        "id": 505874924095815681, "big": .bigInteger("18446744073709551616"), "neg": -3,
        "min": .int(.min), "max": .int(.max), "pi": 3.25, "tiny": .double(.leastNonzeroMagnitude), "negZero": -0.0,
        "text": "héllo \u{0} 🐦", "empty": "", "flag": true, "off": false, "nothing": nil,
        "list": [1, "two", [3.5, nil], ["k": "v"]], "user": ["name": "a", "id": 1],
        "users": [["name": "a", "id": 1], ["id": 2, "name": "b"]],
    ]

    func roundTrip(_ record: ArchiveRecord) throws -> ArchiveRecord {
        let encoded = try ArchiveEncoder().encode(record)
        return try ArchiveDecoder().decode(encoded.data)
    }

    /// A complete archive around arbitrary payload bytes (valid header and checksums).
    static func archive(payload: [UInt8], version: UInt16 = 1, flags: UInt16 = 0) -> Data {
        let header = ArchiveHeader(version: version, flags: flags, payloadLength: UInt64(payload.count),
                                   payloadChecksum: CRC32.checksum(payload))
        return Data(header.bytes + payload)
    }

    static func malformedReason(_ payload: [UInt8], maximumDepth: Int = 512) -> String? {
        do {
            _ = try ArchiveDecoder(maximumDepth: maximumDepth).decode(archive(payload: payload))
            return nil
        } catch {
            guard case .malformed(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    // MARK: Round trips

    @Test func jsonValueRoundTripsExactlyWithKeyOrder() throws {
        guard case .value(let back) = try roundTrip(.value(Self.sample)) else {
            Issue.record("wrong record kind"); return
        }
        #expect(back == Self.sample)
        #expect(back.objectValue?.keys == Self.sample.objectValue?.keys)
        #expect(back["users"]?[1]?.objectValue?.keys == ["id", "name"])
        #expect(back["big"] == .bigInteger("18446744073709551616"))
        // -0.0 keeps its sign bit.
        if case .double(let z)? = back["negZero"] { #expect(z.sign == .minus) } else { Issue.record("negZero") }
        for scalar: JSONValue in [nil, true, 0, -1, .int(.min), 1.5, "", .bigInteger("-99999999999999999999"), [], [:]] {
            guard case .value(let v) = try roundTrip(.value(scalar)) else { Issue.record("kind"); continue }
            #expect(v == scalar)
        }
    }

    @Test func encodingIsDeterministicAndCompact() throws {
        let a = try ArchiveEncoder().encode(.value(Self.sample)).data
        let b = try ArchiveEncoder().encode(.value(Self.sample)).data
        #expect(a == b)
        #expect(Array(a.prefix(8)) == ArchiveFormat.magic)
        // Repeated keys are interned: 100 objects with the same two keys
        // cost far less than their JSON text.
        let rows = JSONValue.array((0 ..< 100).map { ["identifier": .int(Int64($0)), "description": "x"] })
        let archived = try ArchiveEncoder().encode(.value(rows)).data
        let json = try rows.jsonData()
        #expect(archived.count < json.count / 3)
    }

    @Test func viewModelRoundTripKeepsOrderAndNesting() throws {
        let author = ViewModel(["name": "Ada", "handle": "@ada"])
        let reply = ViewModel(["text": "hi"])
        let root = ViewModel(["id": 7, "text": "hello", "tags": ["a", "b"]])
        root[value: "author"] = .payload(author)
        root[value: "replies"] = .payload([reply, ViewModel(["text": "yo"])])
        root["score"] = 2.5

        guard case .viewModel(let back) = try roundTrip(.viewModel(root)) else {
            Issue.record("wrong record kind"); return
        }
        #expect(back.keys == ["id", "text", "tags", "author", "replies", "score"])
        #expect(back["id"] == 7)
        #expect(back["tags"] == ["a", "b"])
        #expect(back["score"] == 2.5)
        let backAuthor = try #require(back[value: "author"]?.payload as? ViewModel)
        #expect(backAuthor !== author)
        #expect(backAuthor.keys == ["name", "handle"])
        #expect(backAuthor["handle"] == "@ada")
        let replies = try #require(back[value: "replies"]?.payload as? [ViewModel])
        #expect(replies.map { $0["text"] } == ["hi", "yo"])
    }

    @Test func viewModelListRoundTrips() throws {
        let list = (0 ..< 5).map { ViewModel(["index": .int(Int64($0)), "title": .string("row \($0)")]) }
        guard case .viewModels(let back) = try roundTrip(.viewModels(list)) else {
            Issue.record("wrong record kind"); return
        }
        #expect(back.count == 5)
        #expect(back.map { $0["title"] } == list.map { $0["title"] })
        #expect(back[3].keys == ["index", "title"])
        guard case .viewModels(let empty) = try roundTrip(.viewModels([])) else { Issue.record("kind"); return }
        #expect(empty.isEmpty)
    }

    @Test func unsupportedPayloadsAndCyclesAreSkippedAndReported() throws {
        struct Avatar: Sendable {}
        let root = ViewModel(["title": "t"])
        root[value: "avatar"] = .payload(Avatar())
        let child = ViewModel(["name": "c"])
        child[value: "formatter"] = .payload(42)
        child[value: "parent"] = .payload(root)  // cycle back to the root
        root[value: "child"] = .payload(child)
        root[value: "self"] = .payload(root)
        root[value: "list"] = .payload([child, root])

        let encoded = try ArchiveEncoder().encode(.viewModel(root))
        let reports = encoded.skippedPayloads.map(\.description)
        #expect(reports == [
            "avatar: skipped payload of type Avatar",
            "self: skipped ViewModel that contains itself",
            "child.formatter: skipped payload of type Int",
            "child.parent: skipped ViewModel that contains itself",
            "list[1]: skipped ViewModel that contains itself",
            "list[0].formatter: skipped payload of type Int",
            "list[0].parent: skipped ViewModel that contains itself",
        ])
        guard case .viewModel(let back) = try ArchiveDecoder().decode(encoded.data) else { Issue.record("kind"); return }
        #expect(back.keys == ["title", "child", "list"])
        let backChild = try #require(back[value: "child"]?.payload as? ViewModel)
        #expect(backChild.keys == ["name"])
        let backList = try #require(back[value: "list"]?.payload as? [ViewModel])
        #expect(backList.count == 1)
    }

    @Test func sharedViewModelThatIsNotACycleIsWrittenTwice() throws {
        let shared = ViewModel(["n": 1])
        let root = ViewModel()
        root[value: "a"] = .payload(shared)
        root[value: "b"] = .payload(shared)
        let encoded = try ArchiveEncoder().encode(.viewModel(root))
        #expect(encoded.skippedPayloads.isEmpty)
        guard case .viewModel(let back) = try ArchiveDecoder().decode(encoded.data) else { Issue.record("kind"); return }
        #expect((back[value: "b"]?.payload as? ViewModel)?["n"] == 1)
    }

    @Test func unencodableValuesThrowWithTheirPath() {
        func reason(_ value: JSONValue) -> String? {
            do { _ = try ArchiveEncoder().encode(.value(value)); return nil } catch { return error.description }
        }
        #expect(reason(["a": [1, ["b": .double(.nan)]]]) == "cannot archive a[1].b: nan is not a finite number")
        #expect(reason(["n": .bigInteger("12x")]) == "cannot archive n: \"12x\" is not an integer literal")
        #expect(reason(.bigInteger("007")) == "cannot archive value: \"007\" is not an integer literal")
        var deep: JSONValue = 1
        for _ in 0 ..< 4 { deep = [deep] }
        #expect(throws: ArchiveError.self) { try ArchiveEncoder(maximumDepth: 3).encode(.value(deep)) }
        #expect((try? ArchiveEncoder(maximumDepth: 4).encode(.value(deep))) != nil)
        // Exactly at the limit the decoder accepts what the encoder wrote.
        let data = try? ArchiveEncoder(maximumDepth: 4).encode(.value(deep)).data
        #expect(data.flatMap { try? ArchiveDecoder(maximumDepth: 4).decode($0) } != nil)
        #expect(throws: ArchiveError.self) { try ArchiveDecoder(maximumDepth: 3).decode(data ?? Data()) }
    }

    // MARK: Damage, each with its own error

    @Test func truncatedFilesAreReportedAsTruncated() throws {
        let data = try ArchiveEncoder().encode(.value(Self.sample)).data
        // An empty file is no archive at all, not a cut-off one.
        #expect(throws: ArchiveError.wrongMagic(found: [])) { try ArchiveDecoder().decode(Data()) }
        for length in [1, 5, 8, 27, 28, 29, data.count / 2, data.count - 1] {
            #expect(throws: ArchiveError.self) { try ArchiveDecoder().decode(data.prefix(length)) }
            do {
                _ = try ArchiveDecoder().decode(data.prefix(length))
            } catch {
                guard case .truncated(let expected, let found) = error else {
                    Issue.record("length \(length): \(error)"); continue
                }
                #expect(found == length)
                #expect(expected == (length < 28 ? 28 : data.count))
            }
        }
    }

    @Test func everyFlippedByteIsDetected() throws {
        let data = try ArchiveEncoder().encode(.value(["a": 1, "b": "text", "c": [true, nil]])).data
        for i in 8 ..< data.count {  // past the magic, which has its own error
            var damaged = data
            damaged[i] ^= 0x20
            do {
                _ = try ArchiveDecoder().decode(damaged)
                Issue.record("flip at \(i) was not detected")
            } catch {
                guard case .checksumMismatch(let region, _, _) = error else {
                    Issue.record("flip at \(i): \(error)"); continue
                }
                #expect(region == (i < 28 ? .header : .content))
            }
        }
    }

    @Test func wrongMagicIsReported() {
        let json = Data(#"{"not": "an archive"}"#.utf8)
        #expect(throws: ArchiveError.wrongMagic(found: Array(json.prefix(8)))) { try ArchiveDecoder().decode(json) }
        var almost = Self.archive(payload: [0x00])
        almost[0] = 0x88
        #expect(throws: ArchiveError.wrongMagic(found: Array(almost.prefix(8)))) { try ArchiveDecoder().decode(almost) }
        let error = ArchiveError.wrongMagic(found: Array(json.prefix(3)))
        #expect(error.description == "not an AGViewModel archive (the file starts with 7b 22 6e)")
    }

    @Test func newerVersionIsReportedNotMistakenForDamage() {
        let future = Self.archive(payload: [0xEE, 0xFF], version: 3, flags: 7)
        #expect(throws: ArchiveError.newerVersion(found: 3, supported: 2)) { try ArchiveDecoder().decode(future) }
        #expect(throws: ArchiveError.malformed(offset: 8, reason: "format version 0 does not exist")) {
            try ArchiveDecoder().decode(Self.archive(payload: [0x00], version: 0))
        }
        #expect(throws: ArchiveError.malformed(offset: 10, reason: "unknown flags 0x4")) {
            try ArchiveDecoder().decode(Self.archive(payload: [0x00], flags: 4))
        }
    }

    @Test func trailingBytesAfterThePayloadAreMalformed() {
        var data = Self.archive(payload: [0x00])
        data.append(0x00)
        #expect(throws: ArchiveError.malformed(offset: 29, reason: "1 unexpected byte after the payload")) {
            try ArchiveDecoder().decode(data)
        }
    }

    @Test func malformedContentIsRejectedWithAReason() {
        let cases: [([UInt8], String)] = [
            ([], "unexpected end of payload"),
            ([0x00, 0x00], "1 bytes left after the root item"),
            ([0x09], "unknown tag 0x9"),
            ([0x22, 0x10, 0x00], "unknown section flags 0x10"),
            ([0x23, 0x02, 0x00], "unknown manager flags 0x2"),
            ([0x22, 0x00], "unexpected end of payload"),
            ([0x23, 0x00, 0x02, 0x00, 0x00], "manager section count 2 exceeds the 2 bytes that remain (each takes at least 2)"),
            ([0x07, 0x01, 0x22, 0x00, 0x00], "a section (tag 0x22) where a JSON value must be"),
            ([0x08, 0x01, 0x02, 0x61, 0x23, 0x00, 0x00], "a manager (tag 0x23) where a JSON value must be"),
            ([0x07, 0x01, 0x20, 0x00], "a ViewModel (tag 0x20) where a JSON value must be"),
            ([0x04, 0, 0, 0, 0, 0, 0, 0xF0], "unexpected end of payload in a double"),
            ([0x04, 0, 0, 0, 0, 0, 0, 0xF0, 0x7F], "non-finite double"),
            ([0x06, 0x02, 0xC3, 0x28], "invalid UTF-8 in a string"),
            ([0x05, 0x02, 0x30, 0x31], "invalid big integer text"),
            ([0x06, 0x05, 0x61], "string length 5 exceeds the 1 bytes that remain"),
            ([0x03] + [UInt8](repeating: 0xFF, count: 9) + [0x7F], "varint overflows 64 bits"),
            ([0x03, 0x80], "unexpected end of payload"),
            ([0x08, 0x02, 0x02, 0x61, 0x00, 0x01, 0x00], "duplicate key \"a\" in an object"),
            ([0x08, 0x01, 0x03, 0x00], "key reference 1 but only 0 keys defined"),
            ([0x08, 0x01, 0x08, 0x00], "key length 4 exceeds the 1 bytes that remain"),
            ([0x20, 0x02, 0x02, 0x61, 0x00, 0x01, 0x00], "duplicate key \"a\" in a ViewModel"),
            ([0x20, 0x01, 0x02, 0x61], "unexpected end of payload"),
            ([0x21, 0x01, 0x20], "ViewModel key count 32 exceeds the 0 bytes that remain (each takes at least 2)"),
        ]
        for (payload, expected) in cases {
            #expect(Self.malformedReason(payload) == expected, "payload \(payload)")
        }
    }

    @Test func hostileCountsFailBeforeAllocating() {
        // Counts near 2^63 and 2^64: must be rejected from the length check alone.
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(Self.malformedReason([0x07] + huge)?.hasPrefix("array count 9223372036854775807 exceeds") == true)
        #expect(Self.malformedReason([0x08] + huge)?.hasPrefix("object member count") == true)
        #expect(Self.malformedReason([0x21] + huge + [0x01])?.hasPrefix("ViewModel list count") == true)
        #expect(Self.malformedReason([0x06] + huge)?.hasPrefix("string length") == true)
        // A header declaring an absurd payload is a truncation, not an allocation.
        let header = ArchiveHeader(version: 1, flags: 0, payloadLength: .max, payloadChecksum: 0)
        #expect(throws: ArchiveError.truncated(expected: .max, found: 28)) { try ArchiveDecoder().decode(Data(header.bytes)) }
    }

    /// One long key referenced from a list of one-key ViewModels, three
    /// bytes each: every use hashes the whole key, so without a bound a
    /// 2 MB file took minutes. Past 256 times the file's size (or 1 GB) of
    /// referenced key bytes the archive is malformed, and the writer
    /// refuses to write one; a long key repeated within the bound is
    /// written and read back.
    @Test func keyReferencesAddingUpToFarMoreThanTheFileAreRefused() throws {
        func list(keyLength: Int, count: Int) -> [UInt8] {
            var payload: [UInt8] = [0x21] + Self.varint(count)
            payload += [0x01] + Self.varint(keyLength << 1) + [UInt8](repeating: 0x61, count: keyLength) + [0x00]
            for _ in 1 ..< count { payload += [0x01, 0x01, 0x00] }
            return payload
        }
        let reason = try #require(Self.malformedReason(list(keyLength: 600_000, count: 2_000)))
        #expect(reason == "key references add up to more than 256 times the archive's size")

        func objects(keyLength: Int, count: Int) -> ViewModel {
            let key = String(repeating: "k", count: keyLength)
            return ViewModel(["list": .array((0 ..< count).map { _ in .object([key: .null]) })])
        }
        #expect(throws: ArchiveError.cannotEncode(path: "", reason: "key references add up to more than 256 times the archive's size")) {
            try ArchiveEncoder(keys: .everything).encode(.viewModel(objects(keyLength: 600_000, count: 2_000)))
        }
        let written = try ArchiveEncoder(keys: .everything).encode(.viewModel(objects(keyLength: 5_000, count: 5_000)))
        guard case .viewModel(let back) = try ArchiveDecoder().decode(written.data) else { Issue.record("kind"); return }
        #expect(back["list"]?.arrayValue?.count == 5_000)
    }

    /// 500 nested objects, each claiming as many members as the payload's
    /// bytes allow, then bytes that are no value at all.
    static func nestedHostileObjects(byteCount: Int) -> [UInt8] {
        let count = varint((byteCount - 5_000) / 2)
        var payload: [UInt8] = []
        for level in 0 ..< 500 {
            // The first key is new ("a"), the others refer to it.
            payload += [0x08] + count + (level == 0 ? [0x02, 0x61] : [0x01])
        }
        return payload + [UInt8](repeating: 0xFF, count: byteCount - payload.count)
    }

    /// `value` as the format's varint: 7 bits per byte, low group first.
    static func varint(_ value: Int) -> [UInt8] {
        var n = value, bytes: [UInt8] = []
        while n >= 0x80 { bytes.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
        return bytes + [UInt8(n)]
    }

    /// The most memory this process has held at once, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024  // kilobytes here, bytes on Apple platforms
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #endif
    }

    @Test func nestedHostileCountsReserveLittleMemory() async {
        // Each level's count passes the bytes-left check on its own:
        // reserving each claimed count at every level would take about
        // 300 MB for these 4 MB.
        await #expect(processExitsWith: .success) {
            let payload = ArchiveTests.nestedHostileObjects(byteCount: 4 << 20)
            let before = ArchiveTests.peakResidentBytes()
            let reason = ArchiveTests.malformedReason(payload)
            let growth = ArchiveTests.peakResidentBytes() - before
            if reason != "unknown tag 0xFF" || growth > 64 << 20 { exit(1) }
        }
    }

    @Test func deepNestingIsLimitedWithoutRecursingForever() {
        let deep: [UInt8] = Array([[UInt8]](repeating: [0x07, 0x01], count: 100_000).joined()) + [0x00]
        #expect(Self.malformedReason(deep) == "nesting deeper than 512 levels")
        // A ViewModel whose key "a" holds a ViewModel whose key "a" ... (first key new, then referenced).
        let nestedViewModels: [UInt8] = [0x20, 0x01, 0x02, 0x61]
            + Array([[UInt8]](repeating: [0x20, 0x01, 0x01], count: 600).joined()) + [0x00]
        #expect(Self.malformedReason(nestedViewModels) == "nesting deeper than 512 levels")
    }

    /// JSON nesting costs the decoder no call stack: the deepest value
    /// accepted, arrays and objects alternating, decodes on a 128 KB thread
    /// (as it encodes), in a debug build too.
    @Test func theDeepestJSONValueDecodesOnASmallStack() throws {
        var value: JSONValue = ["leaf": [1, "two", nil]]
        for level in 0 ..< 509 { value = level % 2 == 0 ? [value, 0] : ["k\(level % 7)": value, "n": .int(Int64(level))] }
        let data = try ArchiveEncoder().encode(.value(value)).data
        let decoded = onSmallStackThread(stackSize: 128 * 1024) { () -> JSONValue? in
            guard case .value(let read)? = try? ArchiveDecoder().decode(data) else { return nil }
            return read
        }
        #expect(decoded == value)
    }

    @Test func randomDamageNeverCrashes() throws {
        // Payload-level fuzzing: mutations of real payloads with valid
        // checksums, so the decoder itself (not the checksum) must cope.
        let record = try ArchiveEncoder().encode(.value(Self.sample)).data
        let payload = Array(record.dropFirst(ArchiveFormat.headerSize))
        var rng = SystemRandomNumberGenerator()
        var accepted = 0
        for round in 0 ..< 3000 {
            var bytes = payload
            switch round % 4 {
            case 0:
                for _ in 0 ..< Int.random(in: 1 ... 4, using: &rng) {
                    bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                }
            case 1:
                bytes = Array(bytes.prefix(Int.random(in: 0 ..< bytes.count, using: &rng)))
            case 2:
                let i = Int.random(in: 0 ..< bytes.count, using: &rng)
                bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0x7F], at: i)
            default:
                bytes = (0 ..< Int.random(in: 0 ..< 64, using: &rng)).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            }
            if (try? ArchiveDecoder().decode(Self.archive(payload: bytes))) != nil { accepted += 1 }
        }
        #expect(accepted < 3000)
    }
}

extension ArchiveTests {
    /// Varints whose last 7-bit group is exactly 0x80 before the final
    /// shift (ints 64 and 8192, a 128-byte string, 128 elements) round-trip.
    @Test func varintGroupBoundariesRoundTrip() throws {
        let value: JSONValue = [
            "ints": [63, 64, -64, -65, 8191, 8192, .int(1 << 20), .int(-(1 << 20))],
            "text": .string(String(repeating: "x", count: 128)),
            "list": .array((0 ..< 128).map { .int(Int64($0)) }),
        ]
        guard case .value(let back) = try roundTrip(.value(value)) else { Issue.record("kind"); return }
        #expect(back == value)
    }

    /// A bad byte in any of the eight lanes the ASCII fast path checks at
    /// once is rejected, never repaired into U+FFFD.
    @Test func invalidUTF8AtAnyPositionOfALongStringIsRejected() {
        for i in 0 ..< 16 {
            var text = [UInt8](repeating: 0x61, count: 16)
            text[i] = 0xFF
            #expect(Self.malformedReason([0x06, 0x10] + text) == "invalid UTF-8 in a string", "bad byte at \(i)")
        }
    }

    /// Objects of `JSONObject.indexThreshold` members and more check
    /// duplicates with a set; a duplicate is still malformed, at the key.
    @Test func duplicateKeysAreRejectedInLargeObjectsAtTheKeysOffset() {
        var payload: [UInt8] = [0x08, 0x0D]
        for i in 0 ..< 12 { payload += [0x02, 0x61 + UInt8(i), 0x00] }  // "a"..."l": null
        payload += [0x01, 0x00]  // key reference 0 ("a") again
        #expect(Self.malformedReason(payload) == "duplicate key \"a\" in an object")
        #expect(throws: ArchiveError.malformed(offset: 28 + 5, reason: "duplicate key \"a\" in an object")) {
            try ArchiveDecoder().decode(Self.archive(payload: [0x08, 0x02, 0x02, 0x61, 0x00, 0x01, 0x00]))
        }
        // A ViewModel key count is checked against two bytes per key.
        #expect(Self.malformedReason([0x20, 0x02, 0x00, 0x00]) == "ViewModel key count 2 exceeds the 2 bytes that remain (each takes at least 2)")
    }

    /// Every flag bit is checked, not only the low byte.
    @Test func unknownFlagsInTheHighByteAreMalformed() {
        #expect(throws: ArchiveError.malformed(offset: 10, reason: "unknown flags 0x100")) {
            try ArchiveDecoder().decode(Self.archive(payload: [0x00], flags: 0x100))
        }
    }

    /// Declared payload lengths near `Int.max` are truncations, not an
    /// overflow trap.
    @Test func payloadLengthsJustBelowIntMaxAreTruncations() {
        for length in [UInt64(Int.max), UInt64(Int.max) - 27, UInt64(Int.max) - 28] {
            let header = ArchiveHeader(version: 1, flags: 0, payloadLength: length, payloadChecksum: 0)
            let expected = length > UInt64(Int.max - 28) ? Int.max : 28 + Int(length)
            #expect(throws: ArchiveError.truncated(expected: expected, found: 28)) {
                try ArchiveDecoder().decode(Data(header.bytes))
            }
        }
        #expect(ArchiveError.truncated(expected: .max, found: 28).description
                == "archive is truncated: expected more bytes, found 28")
        #expect(ArchiveError.wrongMagic(found: []).description == "not an AGViewModel archive (the file is empty)")
    }

    /// Lists, sections and managers count towards the nesting limit like
    /// ViewModels, in the reader and in the writer, at the same depth.
    @Test func everyNestedKindCountsTowardsTheDepthLimit() throws {
        // A ViewModel (depth 0) whose key "a" holds each kind (depth 1); its body starts at byte 33.
        let bodies: [(tag: UInt8, body: [UInt8])] = [(0x20, [0x00]), (0x21, [0x00]), (0x22, [0x00, 0x00]), (0x23, [0x00, 0x00])]
        for (tag, body) in bodies {
            let data = Self.archive(payload: [0x20, 0x01, 0x02, 0x61, tag] + body)
            #expect(throws: ArchiveError.malformed(offset: 33, reason: "nesting deeper than 1 level"), "tag \(tag)") {
                try ArchiveDecoder(maximumDepth: 1).decode(data)
            }
            #expect((try? ArchiveDecoder(maximumDepth: 3).decode(data)) != nil, "tag \(tag)")
        }
        let nested: [Any] = [ViewModel(), [ViewModel](), Section(), Manager()]
        for payload in nested {
            let root = ViewModel()
            root[value: "a"] = .payload(payload)
            #expect(throws: ArchiveError.cannotEncode(path: "a", reason: "nesting deeper than 1 level"), "\(type(of: payload))") {
                try ArchiveEncoder(maximumDepth: 1).encode(.viewModel(root))
            }
            #expect((try? ArchiveEncoder(maximumDepth: 3).encode(.viewModel(root))) != nil, "\(type(of: payload))")
        }
    }

    @Test func recordKindsAreNamed() {
        let records: [ArchiveRecord] = [.value(nil), .viewModel(ViewModel()), .viewModels([]), .section(Section()), .manager(Manager())]
        #expect(records.map(\.kindName) == ["value", "viewModel", "viewModels", "section", "manager"])
    }
}

extension ArchiveTests {
    /// Lists nested in ViewModels nested in lists…, each claiming as many
    /// ViewModels as bytes remain, reserve little memory.
    @Test func nestedHostileListCountsReserveLittleMemory() async {
        await #expect(processExitsWith: .success) {
            let byteCount = 4 << 20
            let listCount = ArchiveTests.varint(byteCount - 5_000), keyCount = ArchiveTests.varint((byteCount - 5_000) / 2)
            var payload: [UInt8] = [0x21] + listCount
            for level in 0 ..< 250 { payload += keyCount + (level == 0 ? [0x02, 0x61] : [0x01]) + [0x21] + listCount }
            payload += [UInt8](repeating: 0xFF, count: byteCount - payload.count)
            let before = ArchiveTests.peakAddressSpaceBytes()
            let reason = ArchiveTests.malformedReason(payload)
            let growth = ArchiveTests.peakAddressSpaceBytes() - before
            if reason == nil || growth > 1 << 30 { exit(1) }  // 8 GB when each count is reserved
        }
    }

    /// The most address space this process has held at once (`VmPeak`), in
    /// bytes: reserved storage counts even before it is touched.
    static func peakAddressSpaceBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmPeak:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
