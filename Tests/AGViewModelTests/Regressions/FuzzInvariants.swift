import Foundation
#if !FUZZING
// The fuzz targets (Fuzz/*.swift) compile this file into the library's own
// module with `-D FUZZING`; the test target imports the library instead.
@testable import AGViewModel
#endif

/// The checks each fuzz target runs on one input, shared with the
/// regression tests that replay saved inputs under a normal `swift test`.
///
/// Each check returns the broken invariants (empty when all hold); the fuzz
/// targets turn a non-empty list into a crash so libFuzzer saves the input.
enum FuzzInvariants {
    // MARK: JSON parser

    /// Any bytes: the parser accepts them exactly when the
    /// ``ReferenceJSONParser`` does, and reads the same value; an accepted
    /// document written compact, pretty and sorted re-parses to an equal
    /// value (and writing is a fixed point); a rejected one has a positioned
    /// error inside the input.
    static func checkParser(_ bytes: UnsafeRawBufferPointer) -> [String] {
        let result = JSONParser().parseResult(bytes)
        var problems = checkProjectedParse(bytes) + checkAgainstReference(result, in: bytes)
        let value: JSONValue
        switch result {
        case .success(let parsed):
            value = parsed
        case .failure(let error):
            problems += checkParseError(error, in: bytes)
            return problems
        }
        problems += checkLoneNumber(value, in: bytes)
        problems += checkKeys(value, in: bytes)
        problems += checkRepeatedDocument(value, in: bytes)
        let variants: [(String, JSONWriter.Options)] = [
            ("compact", .compact), ("pretty", .pretty), ("sorted", JSONWriter.Options(sortedKeys: true)),
            ("pretty sorted", JSONWriter.Options(pretty: true, indent: 3, sortedKeys: true)),
        ]
        for (name, options) in variants {
            let written: [UInt8]
            do {
                written = try JSONWriter(options: options).write(value)
            } catch {
                problems.append("\(name): writing a parsed value failed: \(error)")
                continue
            }
            let reparsed: JSONValue
            do {
                reparsed = try JSONParser().parse(written)
            } catch {
                problems.append("\(name): written text does not parse: \(error)")
                continue
            }
            if !deepEqual(reparsed, value) {
                problems.append("\(name): re-parsed value differs")
            }
            // Writing is a fixed point: the re-parsed value writes the same text
            // (this also checks key order and the sign of zero survive).
            if (try? JSONWriter(options: options).write(reparsed)) != written {
                problems.append("\(name): writing the re-parsed value gives different text")
            }
        }
        return problems
    }

    /// `result`, the parser's reading of `bytes`, agrees with the reference
    /// parser's: both accept or both reject, and an accepted document has
    /// the same value in both, down to the sign of zero, the Unicode scalars
    /// of every string and the order of keys.
    static func checkAgainstReference(_ result: Result<JSONValue, JSONParseError>, in bytes: UnsafeRawBufferPointer) -> [String] {
        var reference = ReferenceJSONParser(bytes)
        let expected = reference.parseDocument()
        switch (result, expected) {
        case (.success(let value), .some(let expected)):
            return strictDifference(value, expected, at: "$").map { ["value differs from the reference parser's at \($0)"] } ?? []
        case (.success, .none):
            return ["accepted, but the reference parser rejects it at offset \(reference.failureOffset ?? -1)"]
        case (.failure(let error), .some):
            return ["rejected (\(error)), but the reference parser accepts it"]
        case (.failure, .none):
            return []
        }
    }

    /// Where `a` and `b` first differ, as a path with a description, or
    /// `nil` when they are the same: doubles bit for bit, strings and keys
    /// scalar for scalar (not by canonical equivalence), members in order.
    static func strictDifference(_ a: JSONValue, _ b: JSONValue, at path: String) -> String? {
        switch (a, b) {
        case (.null, .null):
            return nil
        case let (.bool(x), .bool(y)):
            return x == y ? nil : "\(path): \(x) against \(y)"
        case let (.int(x), .int(y)):
            return x == y ? nil : "\(path): \(x) against \(y)"
        case let (.double(x), .double(y)):
            return x.bitPattern == y.bitPattern ? nil : "\(path): \(x) against \(y)"
        case let (.bigInteger(x), .bigInteger(y)):
            return x == y ? nil : "\(path): \(x) against \(y)"
        case let (.string(x), .string(y)):
            return x.unicodeScalars.elementsEqual(y.unicodeScalars) ? nil : "\(path): \(x.debugDescription) against \(y.debugDescription)"
        case let (.array(x), .array(y)):
            guard x.count == y.count else { return "\(path): \(x.count) elements against \(y.count)" }
            for (index, (left, right)) in zip(x, y).enumerated() {
                if let difference = strictDifference(left, right, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return "\(path): \(x.count) members against \(y.count)" }
            for (index, (left, right)) in zip(x, y).enumerated() {
                guard left.key.unicodeScalars.elementsEqual(right.key.unicodeScalars) else {
                    return "\(path): key \(index) is \(left.key.debugDescription) against \(right.key.debugDescription)"
                }
                let memberPath = "\(path)[\(left.key.debugDescription)]"
                if let difference = strictDifference(left.value, right.value, at: memberPath) { return difference }
                if x[left.key] == nil { return "\(memberPath): the key is listed but not found by lookup" }
            }
            return nil
        default:
            return "\(path): \(a.kind) against \(b.kind)"
        }
    }

    /// The document twice in an array reads as two copies of `value`: in
    /// the second copy, long strings and keys come from the parser's caches
    /// of what the first one held.
    static func checkRepeatedDocument(_ value: JSONValue, in bytes: UnsafeRawBufferPointer) -> [String] {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        let document = bytes[start...]
        var twice: [UInt8] = [0x5B]
        twice.reserveCapacity(2 * document.count + 3)
        twice += document
        twice.append(0x2C)
        twice += document
        twice.append(0x5D)
        // One level deeper than the document: allow it.
        let parser = JSONParser(options: JSONParser.Options(maximumDepth: JSONParser.Options().maximumDepth + 1))
        guard let parsed = try? parser.parse(twice) else {
            return ["the document twice in an array does not parse"]
        }
        guard case .array(let copies) = parsed, copies.count == 2 else {
            return ["the document twice in an array is not an array of two"]
        }
        if !deepEqual(copies[0], value) { return ["the first of two copies of the document differs from it"] }
        if !deepEqual(copies[1], value) { return ["the second of two copies of the document differs from it"] }
        return []
    }

    /// A document that is one number reads as the standard library reads
    /// the same text: the same double (sign of zero included), the same
    /// integer, or, beyond 64 bits, the text itself.
    static func checkLoneNumber(_ value: JSONValue, in bytes: UnsafeRawBufferPointer) -> [String] {
        var start = 0, end = bytes.count
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        if end - start >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        while start < end && whitespace.contains(bytes[start]) { start += 1 }
        while end > start && whitespace.contains(bytes[end - 1]) { end -= 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        switch value {
        case .double(let d):
            guard let expected = Double(text) else { return ["lone number \(text): the standard library rejects it"] }
            if expected.bitPattern != d.bitPattern {
                return ["lone number \(text): read \(d), the standard library reads \(expected)"]
            }
        case .int(let i):
            if Int64(text) != i { return ["lone number \(text): read \(i), the standard library reads \(String(describing: Int64(text)))"] }
        case .bigInteger(let digits):
            if digits != text { return ["lone number \(text): kept as \(digits)"] }
        default:
            break
        }
        return []
    }

    /// A projection reading a few members whole, some by index, some of
    /// every element, and skipping the rest.
    static let projection: JSONProjection = {
        var projection = JSONProjection()
        for path in ["a", "b[1]", "c.d", "0"] { projection.readWhole(JSONPath(parsing: path)!) }
        if let items = projection.node(at: JSONPath(parsing: "e")!), let element = projection.everyElement(of: items) {
            projection.readWhole(JSONPath(parsing: "f")!, from: element)
            projection.readWhole(JSONPath(parsing: "g[0]")!, from: element)
        }
        if let root = projection.everyElement(of: JSONProjection.root) {
            projection.readWhole(JSONPath(parsing: "a")!, from: root)
        }
        return projection.finished()
    }()

    /// Object keys read as Foundation's `JSONSerialization` reads them, when
    /// it accepts the document too: a check of key decoding independent of
    /// the parser's own (which takes a key for an earlier object's key when
    /// the bytes match, and would otherwise rename keys without a trace in
    /// any round trip).
    static func checkKeys(_ value: JSONValue, in bytes: UnsafeRawBufferPointer) -> [String] {
        guard let reference = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return []
        }
        return sameKeys(value, reference) ? [] : ["object keys differ from JSONSerialization's"]
    }

    private static func sameKeys(_ value: JSONValue, _ reference: Any) -> Bool {
        switch value {
        case .object(let object):
            // Foundation drops U+FEFF (a byte order mark) at the start of a
            // key and after an escape in it; compare the keys without any.
            // Keys that only differ by it then collide: their values are not
            // compared.
            func withoutMark(_ key: String) -> String {
                key.unicodeScalars.contains("\u{FEFF}") ? String(String.UnicodeScalarView(key.unicodeScalars.filter { $0 != "\u{FEFF}" })) : key
            }
            guard let dictionary = reference as? [String: Any] else { return false }
            var referenceValues: [String: Any] = [:]
            var ambiguous: Set<String> = []
            for (key, value) in dictionary {
                let key = withoutMark(key)
                if referenceValues.updateValue(value, forKey: key) != nil { ambiguous.insert(key) }
            }
            var keys: Set<String> = []
            for member in object {
                let key = withoutMark(member.key)
                if !keys.insert(key).inserted { ambiguous.insert(key) }
            }
            guard keys == Set(referenceValues.keys) else { return false }
            return object.allSatisfy { member in
                let key = withoutMark(member.key)
                return ambiguous.contains(key) || referenceValues[key].map { sameKeys(member.value, $0) } ?? false
            }
        case .array(let array):
            guard let elements = reference as? [Any], elements.count == array.count else { return false }
            return zip(array, elements).allSatisfy { sameKeys($0, $1) }
        default:
            return true
        }
    }

    /// A parse with a projection accepts exactly what a full parse accepts,
    /// and rejects with the same error.
    static func checkProjectedParse(_ bytes: UnsafeRawBufferPointer) -> [String] {
        let parser = JSONParser()
        switch (parser.parseResult(bytes), parser.parseResult(bytes, keeping: projection)) {
        case (.success, .success): return []
        case (.success, .failure(let error)): return ["projected parse rejects what a full parse accepts: \(error)"]
        case (.failure(let error), .success): return ["projected parse accepts what a full parse rejects: \(error)"]
        case (.failure(let full), .failure(let projected)):
            return full == projected ? [] : ["projected parse error \(projected) differs from \(full)"]
        }
    }

    /// A parse error points into the input (or just past it), with a line and
    /// column that match its offset.
    static func checkParseError(_ error: JSONParseError, in bytes: UnsafeRawBufferPointer) -> [String] {
        var problems: [String] = []
        if error.line < 1 { problems.append("line \(error.line) < 1") }
        if error.column < 1 { problems.append("column \(error.column) < 1") }
        if error.offset < 0 || error.offset > bytes.count {
            problems.append("offset \(error.offset) outside 0...\(bytes.count)")
            return problems
        }
        // Line breaks as editors count them: `\n`, `\r\n`, a lone `\r`. The
        // text is read as if every `\r\n` were one `\n`, each lone `\r` too.
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        var breakEnds: [Int] = []    // the offset just past each line break before the error
        for i in 0 ..< error.offset where bytes[i] == lf || (bytes[i] == cr && (i + 1 == bytes.count || bytes[i + 1] != lf)) {
            breakEnds.append(i + 1)
        }
        if error.line != breakEnds.count + 1 {
            problems.append("line \(error.line) but \(breakEnds.count) line breaks before offset \(error.offset)")
        }
        let lineStart = breakEnds.last ?? 0
        let byteOrderMark = lineStart == 0 && JSONParseError.hasByteOrderMark(bytes) && error.offset >= 3 ? 3 : 0
        if error.column != error.offset - lineStart - byteOrderMark + 1 {
            problems.append("column \(error.column) but offset \(error.offset) is byte \(error.offset - lineStart - byteOrderMark + 1) of its line")
        }
        if error.message.isEmpty { problems.append("empty message") }
        if !error.description.hasPrefix("\(error.line):\(error.column): error: ") {
            problems.append("description \(error.description) is not LINE:COLUMN: error: MESSAGE")
        }
        return problems
    }

    /// Equality that also tells `0.0` from `-0.0`, so a lost sign is caught.
    static func deepEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(deepEqual)
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                guard let other = y[key], deepEqual(value, other) else { return false }
            }
            return true
        default: return a == b
        }
    }

    // MARK: Packaging specs

    /// The document accepted specs are applied to: arrays, nested objects,
    /// every JSON kind, nulls, numeric strings and URLs.
    static let sampleDocument: JSONValue = {
        let text = #"""
        {"meta": {"count": 3, "next": "https://example.com/p?page=2", "title": " Feed "},
         "statuses": [
          {"id_str": "1", "id": 505874924095815681, "text": "Hello", "lang": "en",
           "user": {"screen_name": "ann", "followers": 12, "verified": true},
           "entities": {"urls": [{"expanded_url": "https://a.example/x"}], "tags": ["a", "b"]},
           "favorite_count": 4, "ratio": 0.25, "flag": "yes", "big": 123456789012345678901234567890},
          {"id_str": 2, "text": null, "lang": "FR", "user": {"screen_name": null},
           "entities": {"urls": []}, "favorite_count": "17", "ratio": "1e3", "flag": 0},
          "not an object", 42, null, [1, 2],
          {"id": -0.0, "text": "\u00e9\u0000\ud83d\ude00", "user": "nobody", "favorite_count": 1.5e300,
           "entities": {"urls": [{"expanded_url": "not a url \u0001"}]}, "": {"": ""}}
         ]}
        """#
        return try! JSONValue(parsing: text)
    }()

    /// Any bytes as a spec: a rejected spec gives a well-formed
    /// ``PackagingSpecError``; an accepted one packages the sample document
    /// (and its items array alone) accounting for every element.
    static func checkSpec(_ data: Data) -> [String] {
        let source = "fuzz.spec.json"
        let spec: PackagingSpec
        do {
            spec = try PackagingSpec(data: data, source: source)
        } catch {
            var problems: [String] = []
            if error.source != source { problems.append("error names source \(error.source)") }
            if (error.line == nil) != (error.column == nil) { problems.append("line without column or the reverse") }
            if let line = error.line, line < 1 { problems.append("line \(line) < 1") }
            if let column = error.column, column < 1 { problems.append("column \(column) < 1") }
            if error.message.isEmpty { problems.append("empty message") }
            if !error.description.hasPrefix(source) { problems.append("description does not start with the source") }
            return problems
        }
        var problems: [String] = []
        let packager = SpecPackager(spec: spec)
        let documents: [JSONValue] = [sampleDocument, sampleDocument["statuses"] ?? .null, .object([:]), .array([])]
        for (d, document) in documents.enumerated() {
            problems += checkParsedForSpec(packager, document: document, label: "document \(d)")
            if spec.hasSections {
                problems += checkSections(packager, document: document, label: "document \(d)")
                continue
            }
            let result: PackagingResult
            do {
                result = try packager.package(document: document)
            } catch {
                // Only a document that does not fit the items path may throw.
                guard case .documentMismatch = error.reason else {
                    problems.append("document \(d): unexpected error \(error)")
                    continue
                }
                continue
            }
            let elements: Int
            if let path = spec.itemsPath {
                guard case .success(.array(let array)) = document.lookup(path) else {
                    problems.append("document \(d): packaged although the items path does not lead to an array")
                    continue
                }
                elements = array.count
            } else if case .array(let array) = document {
                elements = array.count
            } else {
                elements = 1
            }
            problems += checkPackagingResult(result, fields: spec.fields, elements: elements, label: "document \(d)")
        }
        return problems
    }

    /// Packaging a document parsed for the spec gives what packaging the
    /// whole document gives: the same manager and the same skips.
    static func checkParsedForSpec(_ packager: SpecPackager, document: JSONValue, label: String) -> [String] {
        guard let data = try? JSONWriter().write(document), let projected = try? packager.parseDocument(Data(data)) else {
            return ["\(label): the document does not parse for the spec"]
        }
        let full = Result { () throws(PackagingError) in try packager.packageManager(document: document) }
        let partial = Result { () throws(PackagingError) in try packager.packageManager(document: projected) }
        switch (full, partial) {
        case (.success(let a), .success(let b)):
            var problems: [String] = []
            if a.manager.exportJSON() != b.manager.exportJSON() { problems.append("\(label): parsed for the spec, the manager differs") }
            if a.skipped != b.skipped { problems.append("\(label): parsed for the spec, the skips differ") }
            return problems
        case (.failure(let a), .failure(let b)):
            return a == b ? [] : ["\(label): parsed for the spec, the error differs"]
        default:
            return ["\(label): parsed for the spec, packaging succeeds on one and fails on the other"]
        }
    }

    /// A spec with sections: one result per section, each accounting for its
    /// elements, and a manager with the same sections and items.
    static func checkSections(_ packager: SpecPackager, document: JSONValue, label: String) -> [String] {
        let spec = packager.spec
        let results: [PackagingResult]
        do {
            results = try packager.packageSections(document: document)
        } catch {
            // Only a `sectionsFrom` path that does not fit may throw.
            guard spec.sectionsPath != nil, case .documentMismatch = error.reason else {
                return ["\(label): unexpected error \(error)"]
            }
            return []
        }
        var problems: [String] = []
        // Each section's elements and fields, as the spec describes them.
        var expected: [(elements: JSONArray?, fields: [PackagingSpec.Field]?)] = []
        if let entries = spec.sections {
            for entry in entries {
                if case .success(.array(let array)) = document.lookup(entry.itemsPath) {
                    expected.append((array, entry.fields))
                } else {
                    expected.append((nil, entry.fields))
                }
            }
        } else if let path = spec.sectionsPath {
            switch document.lookup(path) {
            case .success(.object(let object)): expected = object.map { ($0.value.arrayValue, spec.fields) }
            case .success(.array(let array)): expected = array.map { ($0.arrayValue, spec.fields) }
            default: return ["\(label): sections packaged from a path that leads to neither an object nor an array"]
            }
        }
        guard results.count == expected.count else {
            return ["\(label): \(results.count) sections for \(expected.count) in the spec"]
        }
        for (s, (result, section)) in zip(results, expected).enumerated() {
            if let elements = section.elements {
                problems += checkPackagingResult(result, fields: section.fields, elements: elements.count, label: "\(label) section \(s)")
            } else {
                if !result.items.isEmpty { problems.append("\(label) section \(s): items without an items array") }
                if !result.skipped.contains(where: { if case .items = $0.location { true } else { false } }) {
                    problems.append("\(label) section \(s): missing items array not reported")
                }
            }
        }
        if let (manager, _) = try? packager.packageManager(document: document) {
            if manager.count != results.count { problems.append("\(label): manager has \(manager.count) sections for \(results.count)") }
            if manager.itemCount != results.reduce(0, { $0 + $1.items.count }) { problems.append("\(label): manager item count") }
        } else {
            problems.append("\(label): packageManager failed where packageSections worked")
        }
        return problems
    }

    /// Every element is either an item or a skip; items carry only the
    /// fields' keys, in the fields' order, and every required one.
    static func checkPackagingResult(_ result: PackagingResult, fields: [PackagingSpec.Field]?, elements: Int, label: String) -> [String] {
        var problems: [String] = []
        let itemSkips = result.skipped.filter { if case .item = $0.location { true } else { false } }.count
        if result.items.count + itemSkips != elements {
            problems.append("\(label): \(result.items.count) items + \(itemSkips) skips != \(elements) elements")
        }
        if let fields {
            let order = fields.map(\.key)
            for (i, item) in result.items.enumerated() {
                let keys = item.keys
                let expected = order.filter { keys.contains($0) }
                if keys != expected { problems.append("\(label): item \(i) keys \(keys) not in spec order \(order)") }
                for field in fields where field.isRequired && item[field.key] == nil {
                    problems.append("\(label): item \(i) lacks required key \(field.key)")
                }
            }
        }
        return problems
    }

    // MARK: Archives

    /// One fuzz input for the archive target: the first byte picks the mode.
    /// Even: the rest is a whole archive (header checks included). Odd: the
    /// rest is a payload, wrapped in a valid header so the fuzzer reaches the
    /// item decoder without forging checksums (format version 1 when bit 1
    /// is clear, 2 with its registrations table when set); then only
    /// `malformed` errors inside the payload are allowed.
    static func checkArchiveInput(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard let mode = bytes.first else { return checkArchive(Data()) }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[1...])
        guard mode & 1 == 1 else { return checkArchive(Data(rest)) }
        let data = archive(payload: rest, version: mode & 2 == 0 ? 1 : ArchiveFormat.registrationsVersion)
        var problems = checkArchive(data)
        do {
            _ = try ArchiveDecoder().decode(data)
        } catch {
            if case .malformed(let offset, _) = error, offset >= ArchiveFormat.headerSize {} else {
                problems.append("a valid header but \(error)")
            }
        }
        return problems
    }

    /// Any bytes as an archive: whatever decodes re-encodes to an archive
    /// that decodes to an equal record, registrations included, and
    /// re-encodes to the same bytes (encoding is deterministic, decoding
    /// accepts some non-canonical forms such as padded varints, so the bytes
    /// are compared from the first re-encoding on). Every key is written:
    /// an archive may hold keys its registrations would leave out, as one
    /// written with `.everything` does. Rejections are positioned inside the
    /// input.
    static func checkArchive(_ data: Data) -> [String] {
        let record: ArchiveRecord
        do {
            record = try ArchiveDecoder().decode(data)
        } catch {
            return checkArchiveError(error, size: data.count)
        }
        var problems: [String] = []
        if (try? ArchiveDecoder().header(of: data)) == nil { problems.append("decodes but its header is rejected") }
        let first: EncodedArchive
        do {
            first = try ArchiveEncoder(keys: .everything).encode(record)
        } catch {
            return ["decoded record does not encode: \(error)"]
        }
        if !first.skippedPayloads.isEmpty { problems.append("decoded record skips payloads: \(first.skippedPayloads)") }
        let again: ArchiveRecord
        do {
            again = try ArchiveDecoder().decode(first.data)
        } catch {
            return problems + ["re-encoded archive does not decode: \(error)"]
        }
        if let difference = difference(record, again) { problems.append("re-decoded record differs: \(difference)") }
        if (try? ArchiveEncoder(keys: .everything).encode(again))?.data != first.data {
            problems.append("encoding is not a fixed point")
        }
        return problems
    }

    /// An archive error points inside the data.
    static func checkArchiveError(_ error: ArchiveError, size: Int) -> [String] {
        switch error {
        case .malformed(let offset, let reason):
            var problems: [String] = []
            if offset < 0 || offset > size { problems.append("malformed offset \(offset) outside 0...\(size)") }
            if reason.isEmpty { problems.append("empty reason") }
            return problems
        case .truncated(let expected, let found):
            return expected > found && found == size ? [] : ["truncated(expected: \(expected), found: \(found)) for \(size) bytes"]
        case .wrongMagic(let found):
            return found.count <= 8 && found.count <= size ? [] : ["wrong magic reports \(found.count) bytes"]
        case .newerVersion, .checksumMismatch:
            return []
        case .cannotEncode, .cannotRead, .cannotWrite:
            return ["decoding reported \(error)"]
        }
    }

    /// Bytes wrapped in a valid archive header, so the fuzzer reaches the
    /// payload decoder without having to forge checksums.
    static func archive(payload: UnsafeRawBufferPointer, version: UInt16) -> Data {
        let header = ArchiveHeader(version: version, flags: 0,
                                   payloadLength: UInt64(payload.count), payloadChecksum: CRC32.checksum(payload))
        var data = Data(header.bytes)
        data.append(contentsOf: payload)
        return data
    }

    /// Where two records differ, or `nil` when they are equal.
    static func difference(_ a: ArchiveRecord, _ b: ArchiveRecord) -> String? {
        switch (a, b) {
        case let (.value(x), .value(y)): return deepEqual(x, y) ? nil : "values differ"
        case let (.viewModel(x), .viewModel(y)): return difference(x, y, at: "$")
        case let (.viewModels(x), .viewModels(y)): return difference(x, y, at: "$")
        case let (.section(x), .section(y)): return difference(x, y, at: "$")
        case let (.manager(x), .manager(y)): return difference(x, y, at: "$")
        default: return "record kinds \(a.kindName) and \(b.kindName)"
        }
    }

    private static func difference(_ a: ViewModel?, _ b: ViewModel?, at path: String) -> String? {
        switch (a, b) {
        case (nil, nil): return nil
        case let (x?, y?): return difference(x, y, at: path)
        default: return "\(path): present in one record only"
        }
    }

    private static func difference(_ a: Section, _ b: Section, at path: String) -> String? {
        if a.partKeyRegistry != b.partKeyRegistry { return "\(path): registrations differ" }
        return difference(a.header, b.header, at: "\(path).header")
            ?? difference(a.footer, b.footer, at: "\(path).footer")
            ?? difference(a.common, b.common, at: "\(path).common")
            ?? difference(a.itemMerge, b.itemMerge, at: "\(path).itemMerge")
            ?? difference(a.items, b.items, at: "\(path).items")
    }

    private static func difference(_ a: Manager, _ b: Manager, at path: String) -> String? {
        if a.partKeyRegistry != b.partKeyRegistry { return "\(path): registrations differ" }
        if let d = difference(a.common, b.common, at: "\(path).common") { return d }
        let (x, y) = (a.sections, b.sections)
        guard x.count == y.count else { return "\(path): \(x.count) sections vs \(y.count)" }
        for (i, (s, t)) in zip(x, y).enumerated() {
            if let d = difference(s, t, at: "\(path).sections[\(i)]") { return d }
        }
        return nil
    }

    private static func difference(_ a: [ViewModel], _ b: [ViewModel], at path: String) -> String? {
        guard a.count == b.count else { return "\(path): list of \(a.count) vs \(b.count)" }
        for (i, (x, y)) in zip(a, b).enumerated() {
            if let d = difference(x, y, at: "\(path)[\(i)]") { return d }
        }
        return nil
    }

    private static func difference(_ a: ViewModel, _ b: ViewModel, at path: String) -> String? {
        let (keysA, valuesA) = a.storageSnapshot
        let (keysB, valuesB) = b.storageSnapshot
        guard keysA == keysB else { return "\(path): keys \(keysA) vs \(keysB)" }
        if a.keyRegistry != b.keyRegistry { return "\(path): registrations differ" }
        for key in keysA {
            switch (valuesA[key], valuesB[key]) {
            case let (.json(x)?, .json(y)?):
                if !deepEqual(x, y) { return "\(path).\(key): values differ" }
            case let (.payload(x)?, .payload(y)?):
                if let x = x as? ViewModel, let y = y as? ViewModel {
                    if let d = difference(x, y, at: "\(path).\(key)") { return d }
                } else if let x = x as? [ViewModel], let y = y as? [ViewModel] {
                    if let d = difference(x, y, at: "\(path).\(key)") { return d }
                } else if let x = x as? Section, let y = y as? Section {
                    if let d = difference(x, y, at: "\(path).\(key)") { return d }
                } else if let x = x as? Manager, let y = y as? Manager {
                    if let d = difference(x, y, at: "\(path).\(key)") { return d }
                } else {
                    return "\(path).\(key): payloads of types \(type(of: x)) and \(type(of: y))"
                }
            default:
                return "\(path).\(key): stored kinds differ"
            }
        }
        return nil
    }
}
