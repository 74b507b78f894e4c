import Foundation

/// Reads archives written by ``ArchiveEncoder``.
///
/// ```swift
/// switch try ArchiveDecoder().decode(data) {
/// case .viewModels(let items): show(items)
/// default: throw AppError.unexpectedArchive
/// }
/// ```
///
/// The decoder is strict and never crashes: every length is checked against
/// the bytes that remain before anything is allocated (memory stays
/// proportional to the archive's size: tens of bytes per byte of JSON
/// values, a few hundred for a file of nothing but empty ViewModels, so
/// check the size of archives from untrusted sources), nesting is limited,
/// strings must be valid UTF-8 and keys unique. Each kind of damage has its
/// own ``ArchiveError``, and the whole payload is decoded before a record is
/// returned, so an error means nothing was loaded.
///
/// JSON arrays and objects are read with a stack of the decoder's own, so
/// their nesting costs no call stack. Nested ViewModels, lists, sections
/// and managers are read recursively: in an optimized build a 512 KB stack
/// (a secondary thread's on Apple platforms) holds the deepest nesting
/// accepted, but a debug build's larger frames overflow it at about 200
/// levels of them, so a debug build that reads untrusted archives off the
/// main thread can crash on a crafted file.
public struct ArchiveDecoder: Sendable {
    /// The deepest nesting of arrays, objects, ViewModels, lists, sections
    /// and managers accepted.
    package var maximumDepth: Int

    /// A decoder.
    public init() {
        self.init(maximumDepth: ArchiveFormat.defaultMaximumDepth)
    }

    /// A decoder with a nesting limit other than the format's default.
    package init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// The record in `data`, a complete archive.
    public func decode(_ data: Data) throws(ArchiveError) -> ArchiveRecord {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ArchiveError) -> ArchiveRecord in
                let header = try ArchiveHeader.validate(bytes)
                var state = ArchiveDecodingState(
                    bytes: bytes, position: ArchiveFormat.headerSize,
                    end: ArchiveFormat.headerSize + Int(header.payloadLength), maximumDepth: maximumDepth,
                    keepsHolders: header.version >= ArchiveFormat.registrationsVersion)
                return try state.readPayload()
            }
        }
        return try result.get()
    }

    /// The validated header of `data`, without decoding the payload (the
    /// checksums are verified).
    package func header(of data: Data) throws(ArchiveError) -> ArchiveHeader {
        try data.withUnsafeBytes { bytes in
            Result { () throws(ArchiveError) in try ArchiveHeader.validate(bytes) }
        }.get()
    }
}

/// The cursor and key table of one decoding run.
internal struct ArchiveDecodingState {
    typealias Tag = ArchiveFormat.Tag

    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int
    let maximumDepth: Int
    var keys: [String] = []
    /// The UTF-8 bytes of keys that references may still read (see
    /// ``ArchiveFormat/referencedKeyBudget(archiveSize:)``).
    var keyReferenceBytesLeft: Int
    /// The buffer of ``readJSON(depth:)``'s stack, between values.
    var spareContainers: [OpenContainer] = []
    /// Whether a registrations table follows the root item.
    let keepsHolders: Bool
    /// The ViewModels, sections and managers read, for the registrations
    /// table; kept only when there is one.
    var holders: [ArchiveRegistrations.Holder] = []

    init(bytes: UnsafeRawBufferPointer, position: Int, end: Int, maximumDepth: Int, keepsHolders: Bool = false) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.maximumDepth = maximumDepth
        self.keepsHolders = keepsHolders
        keyReferenceBytesLeft = ArchiveFormat.referencedKeyBudget(archiveSize: end)
    }

    var remaining: Int { end - position }

    /// The most elements room is made for before a container's elements are
    /// read. A count is checked only against the bytes left in the whole
    /// payload, which every open container shares: reserving it in full at
    /// each of hundreds of nesting levels would take hundreds of times the
    /// file's size. Past this, storage grows as elements are actually read.
    static let maximumReservation = 256

    /// Room to reserve for a container that says it holds `count` elements.
    @inline(__always)
    func reservation(for count: Int) -> Int { min(count, Self.maximumReservation) }

    func malformed(_ reason: String, at offset: Int? = nil) -> ArchiveError {
        .malformed(offset: offset ?? position, reason: reason)
    }

    // MARK: Primitives

    @inline(__always)
    mutating func readByte() throws(ArchiveError) -> UInt8 {
        guard position < end else { throw malformed("unexpected end of payload") }
        let byte = bytes[position]
        position += 1
        return byte
    }

    @inline(__always)
    mutating func readVarint() throws(ArchiveError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63, byte > 1 { throw malformed("varint overflows 64 bits", at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// A count of things each taking at least `minimumSize` bytes, checked
    /// against what remains so a hostile count cannot trigger a huge allocation.
    @inline(__always)
    mutating func readCount(minimumSize: Int, of what: String) throws(ArchiveError) -> Int {
        let start = position
        let count = try readVarint()
        guard count <= UInt64(remaining / minimumSize) else {
            let each = minimumSize == 1 ? "" : " (each takes at least \(minimumSize))"
            throw malformed("\(what) \(count) exceeds the \(remaining) bytes that remain\(each)", at: start)
        }
        return Int(count)
    }

    /// `length` bytes as a validated string.
    @inline(__always)
    mutating func readUTF8(length: Int) throws(ArchiveError) -> String {
        let start = position
        let slice = UnsafeRawBufferPointer(rebasing: bytes[start ..< start + length])
        let utf8 = slice.assumingMemoryBound(to: UInt8.self)
        let string: String
        if Self.isASCII(slice) {
            // ASCII is valid UTF-8: take the fast path with nothing to repair.
            string = String(decoding: utf8, as: UTF8.self)
        } else {
            guard let valid = String(validating: utf8, as: UTF8.self) else {
                throw malformed("invalid UTF-8 in a string", at: start)
            }
            string = valid
        }
        position += length
        return string
    }

    /// Whether every byte is below 0x80, eight bytes at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = bytes.count
        var bits: UInt64 = 0
        while n - i >= 8 {
            bits |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            bits |= UInt64(bytes[i])
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    mutating func readString() throws(ArchiveError) -> String {
        try readUTF8(length: readCount(minimumSize: 1, of: "string length"))
    }

    mutating func readKey() throws(ArchiveError) -> String {
        let start = position
        let v = try readVarint()
        if v & 1 == 1 {
            let id = v >> 1
            guard id < UInt64(keys.count) else {
                throw malformed("key reference \(id) but only \(keys.count) keys defined", at: start)
            }
            let key = keys[Int(id)]
            keyReferenceBytesLeft -= key.utf8.count
            guard keyReferenceBytesLeft >= 0 else {
                throw malformed(ArchiveFormat.tooManyKeyReferences, at: start)
            }
            return key
        }
        let length = v >> 1
        guard length <= UInt64(remaining) else {
            throw malformed("key length \(length) exceeds the \(remaining) bytes that remain", at: start)
        }
        let key = try readUTF8(length: Int(length))
        keys.append(key)
        return key
    }

    @inline(__always)
    func checkDepth(_ depth: Int) throws(ArchiveError) {
        if depth >= maximumDepth { throw malformed(ArchiveFormat.tooDeep(maximumDepth)) }
    }

    // MARK: Items

    /// The root item, then the registrations table if the version has one.
    mutating func readPayload() throws(ArchiveError) -> ArchiveRecord {
        let record = try readRoot()
        if keepsHolders { try readRegistrations() }
        guard position == end else {
            let what = keepsHolders ? "the registrations" : "the root item"
            throw malformed("\(end - position) bytes left after \(what)")
        }
        return record
    }

    mutating func readRoot() throws(ArchiveError) -> ArchiveRecord {
        let tagOffset = position
        let tag = try readByte()
        let record: ArchiveRecord
        switch tag {
        case Tag.viewModel: record = .viewModel(try readViewModelBody(depth: 0))
        case Tag.viewModelList: record = .viewModels(try readList(depth: 0))
        case Tag.section: record = .section(try readSectionBody(depth: 0))
        case Tag.manager: record = .manager(try readManagerBody(depth: 0))
        default:
            position = tagOffset
            record = .value(try readJSON(depth: 0))
        }
        return record
    }

    /// A JSON value whose outermost container is `depth` levels deep. Its
    /// containers are read with a stack of their own, as the JSON parser
    /// reads text, so however deep they nest they take no call stack.
    mutating func readJSON(depth: Int) throws(ArchiveError) -> JSONValue {
        // The stack's buffer is kept from one value to the next.
        var open: [OpenContainer] = []
        while true {
            let tagOffset = position
            var value: JSONValue
            let tag = try readByte()
            switch tag {
            case Tag.null: value = .null
            case Tag.false: value = .bool(false)
            case Tag.true: value = .bool(true)
            case Tag.int:
                let v = try readVarint()
                value = .int(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
            case Tag.double:
                guard remaining >= 8 else { throw malformed("unexpected end of payload in a double") }
                var bits: UInt64 = 0
                for i in 0 ..< 8 { bits |= UInt64(bytes[position + i]) << UInt64(8 * i) }
                let d = Double(bitPattern: bits)
                guard d.isFinite else { throw malformed("non-finite double", at: position) }
                position += 8
                value = .double(d)
            case Tag.bigInteger:
                let start = position
                let text = try readString()
                guard JSONNumber.isIntegerText(text.utf8) else { throw malformed("invalid big integer text", at: start) }
                value = .bigInteger(text)
            case Tag.string:
                value = .string(try readString())
            case Tag.array, Tag.object:
                let isObject = tag == Tag.object
                try checkDepth(depth + open.count)
                let count = try isObject
                    ? readCount(minimumSize: 2, of: "object member count")
                    : readCount(minimumSize: 1, of: "array count")
                guard count == 0 else {
                    if open.capacity == 0 { swap(&open, &spareContainers) }
                    open.append(OpenContainer(isObject: isObject, count: count, reserving: reservation(for: count)))
                    if isObject { try readMemberKey(into: &open[open.count - 1]) }
                    continue
                }
                value = isObject ? .object([:]) : .array([])
            default:
                throw unexpected(tag, at: tagOffset, expecting: "a JSON value")
            }
            // Hands the value to its container, and each container that it
            // completes to the one around it.
            while !open.isEmpty {
                let last = open.count - 1
                open[last].append(value)
                guard open[last].remaining == 0 else {
                    if open[last].isObject { try readMemberKey(into: &open[last]) }
                    break
                }
                value = open.removeLast().finish()
            }
            if open.isEmpty {
                if open.capacity > 0 { spareContainers = open }
                return value
            }
        }
    }

    /// Reads the key of the next member of `object`, refusing a duplicate.
    mutating func readMemberKey(into object: inout OpenContainer) throws(ArchiveError) {
        let keyOffset = position
        let key = try readKey()
        guard object.insertKey(key) else { throw malformed("duplicate key \"\(key)\" in an object", at: keyOffset) }
    }

    func unexpected(_ tag: UInt8, at offset: Int, expecting: String) -> ArchiveError {
        let hex = "0x" + String(tag, radix: 16, uppercase: true)
        switch tag {
        case Tag.viewModel, Tag.viewModelList:
            return malformed("a ViewModel (tag \(hex)) where \(expecting) must be", at: offset)
        case Tag.section, Tag.manager:
            let name = tag == Tag.section ? "section" : "manager"
            return malformed("a \(name) (tag \(hex)) where \(expecting) must be", at: offset)
        default:
            return malformed("unknown tag \(hex)", at: offset)
        }
    }

    mutating func readViewModelBody(depth: Int) throws(ArchiveError) -> ViewModel {
        try checkDepth(depth)
        let count = try readCount(minimumSize: 2, of: "ViewModel key count")
        var order: [String] = []
        order.reserveCapacity(reservation(for: count))
        var values = [String: ViewModelValue](minimumCapacity: reservation(for: count))
        for _ in 0 ..< count {
            let keyOffset = position
            let key = try readKey()
            let value: ViewModelValue
            let tag = position < end ? bytes[position] : Tag.null
            if tag == Tag.viewModel {
                position += 1
                value = .payload(try readViewModelBody(depth: depth + 1))
            } else if tag == Tag.viewModelList {
                position += 1
                value = .payload(try readList(depth: depth + 1))
            } else if tag == Tag.section {
                position += 1
                value = .payload(try readSectionBody(depth: depth + 1))
            } else if tag == Tag.manager {
                position += 1
                value = .payload(try readManagerBody(depth: depth + 1))
            } else {
                value = .json(try readJSON(depth: depth + 1))  // reports a missing byte itself
            }
            guard values.updateValue(value, forKey: key) == nil else {
                throw malformed("duplicate key \"\(key)\" in a ViewModel", at: keyOffset)
            }
            order.append(key)
        }
        let viewModel = ViewModel(uncheckedKeys: order, values: values)
        noteHolder(.viewModel(viewModel))
        return viewModel
    }

    mutating func readList(depth: Int) throws(ArchiveError) -> [ViewModel] {
        try checkDepth(depth)
        let count = try readCount(minimumSize: 1, of: "ViewModel list count")
        var list: [ViewModel] = []
        list.reserveCapacity(reservation(for: count))
        for _ in 0 ..< count { list.append(try readViewModelBody(depth: depth + 1)) }
        return list
    }

    /// The flags byte of a section or manager; bits outside `known` are malformed.
    mutating func readFlags(known: UInt8, of what: String) throws(ArchiveError) -> UInt8 {
        let offset = position
        let flags = try readByte()
        guard flags & ~known == 0 else {
            throw malformed("unknown \(what) flags 0x\(String(flags, radix: 16, uppercase: true))", at: offset)
        }
        return flags
    }

    mutating func readSectionBody(depth: Int) throws(ArchiveError) -> Section {
        try checkDepth(depth)
        let flags = try readFlags(known: 0x0F, of: "section")
        var parts: [ViewModel?] = []
        for bit in 0 ..< 4 {
            parts.append(flags & (1 << UInt8(bit)) == 0 ? nil : try readViewModelBody(depth: depth + 1))
        }
        let items = try readList(depth: depth + 1)
        let section = Section(items: items, header: parts[0], footer: parts[1], common: parts[2], itemMerge: parts[3])
        noteHolder(.section(section))
        return section
    }

    mutating func readManagerBody(depth: Int) throws(ArchiveError) -> Manager {
        try checkDepth(depth)
        let flags = try readFlags(known: 0x01, of: "manager")
        let common = flags == 0 ? nil : try readViewModelBody(depth: depth + 1)
        // A section body takes at least two bytes: flags and the item count.
        let count = try readCount(minimumSize: 2, of: "manager section count")
        var sections: [Section] = []
        sections.reserveCapacity(reservation(for: count))
        for _ in 0 ..< count { sections.append(try readSectionBody(depth: depth + 1)) }
        let manager = Manager(sections: sections, common: common)
        noteHolder(.manager(manager))
        return manager
    }
}
