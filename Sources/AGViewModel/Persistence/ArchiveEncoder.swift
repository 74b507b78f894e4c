import Foundation

/// Writes ``ArchiveRecord``s in the archive format.
///
/// ```swift
/// let encoded = try ArchiveEncoder().encode(.manager(manager))
/// try encoded.data.write(to: url, options: .atomic)
/// for skip in encoded.skippedPayloads { log(skip) }
/// let everything = try ArchiveEncoder(keys: .everything).encode(.manager(manager))
/// ```
///
/// Encoding is deterministic: the same record gives the same bytes. It runs
/// in the domain that owns the record's ViewModels; to encode on a
/// background task, send it a snapshot (``Manager/Snapshot``) and encode
/// what it makes.
public struct ArchiveEncoder: Sendable {
    /// Which keys are written: registered archived keys (the default; a
    /// ViewModel with none registered writes every key) or everything. See
    /// ``KeySelection``.
    public var keys: KeySelection

    /// The deepest nesting of arrays, objects, ViewModels and lists written;
    /// deeper values fail with ``ArchiveError/cannotEncode(path:reason:)``
    /// rather than producing an archive no reader accepts.
    package var maximumDepth: Int

    /// An encoder writing the keys `keys` selects.
    public init(keys: KeySelection = .registered) {
        self.init(keys: keys, maximumDepth: ArchiveFormat.defaultMaximumDepth)
    }

    /// An encoder with a nesting limit other than the format's default.
    package init(keys: KeySelection = .registered, maximumDepth: Int) {
        self.keys = keys
        self.maximumDepth = maximumDepth
    }

    /// The archive bytes of `record`, and the payloads left out.
    public func encode(_ record: ArchiveRecord) throws(ArchiveError) -> EncodedArchive {
        var state = ArchiveEncodingState(keys: keys, maximumDepth: maximumDepth)
        do {
            switch record {
            case .value(let value): try state.writeJSON(value, depth: 0)
            case .viewModel(let viewModel):
                state.bytes.append(ArchiveFormat.Tag.viewModel)
                try state.writeViewModelBody(viewModel, depth: 0)
            case .viewModels(let list):
                state.bytes.append(ArchiveFormat.Tag.viewModelList)
                try state.writeList(list, depth: 0)
            case .section(let section):
                state.bytes.append(ArchiveFormat.Tag.section)
                try state.writeSectionBody(section, inherited: nil, depth: 0)
            case .manager(let manager):
                state.bytes.append(ArchiveFormat.Tag.manager)
                try state.writeManagerBody(manager, depth: 0)
            }
        } catch {
            throw .cannotEncode(path: JSONPath(error.reversedPath.reversed()).description, reason: error.reason)
        }
        let data = state.finish()
        guard state.referencedKeyBytes <= ArchiveFormat.referencedKeyBudget(archiveSize: data.count) else {
            throw .cannotEncode(path: "", reason: ArchiveFormat.tooManyKeyReferences)
        }
        return EncodedArchive(data: data, skippedPayloads: state.skipped)
    }
}

/// The result of ``ArchiveEncoder/encode(_:)``.
public struct EncodedArchive: Sendable {
    /// The complete archive: header and payload.
    public var data: Data
    /// The ViewModel payloads that could not be archived: each ViewModel's
    /// (or list's) own skips first, then those of the ViewModels inside it.
    public var skippedPayloads: [SkippedPayload]
}

/// An encoding failure, with the path collected while unwinding.
internal struct ArchiveEncodingFailure: Error {
    var reason: String
    var reversedPath: [JSONPath.Component] = []

    func adding(_ component: JSONPath.Component) -> ArchiveEncodingFailure {
        var copy = self
        copy.reversedPath.append(component)
        return copy
    }
}

/// The buffer and tables of one encoding run.
internal struct ArchiveEncodingState {
    typealias Tag = ArchiveFormat.Tag

    var bytes: [UInt8]
    var keyNumbers = KeyInterner()
    /// The UTF-8 bytes of the keys written as references, which a reader
    /// bounds (see ``ArchiveFormat/referencedKeyBudget(archiveSize:)``).
    var referencedKeyBytes = 0
    var skipped: [SkippedPayload] = []
    /// The path of the ViewModel being written, for skip reports.
    var viewModelPath: [JSONPath.Component] = []
    /// ViewModels, sections and managers on the current path, to catch cycles.
    var visiting: Set<ObjectIdentifier> = []
    /// The ViewModels, sections and managers written so far.
    var holderCount = 0
    /// The key registrations of the holders that have any, in holder order.
    var registrations: [ArchiveRegistrations.Entry] = []
    let selection: KeySelection
    let maximumDepth: Int

    init(keys: KeySelection, maximumDepth: Int) {
        self.selection = keys
        self.maximumDepth = maximumDepth
        bytes = [UInt8](repeating: 0, count: ArchiveFormat.headerSize)
        bytes.reserveCapacity(4096)
    }

    /// Appends the registrations table when there is one, fills in the
    /// header and returns the archive. Without registrations the archive is
    /// version 1, so readers of version 1 read it.
    mutating func finish() -> Data {
        let headerSize = ArchiveFormat.headerSize
        let version: UInt16
        if registrations.isEmpty {
            version = 1
        } else {
            writeRegistrations()
            version = ArchiveFormat.registrationsVersion
        }
        let checksum = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        let header = ArchiveHeader(
            version: version, flags: 0,
            payloadLength: UInt64(bytes.count - headerSize), payloadChecksum: checksum)
        bytes.replaceSubrange(0 ..< headerSize, with: header.bytes)
        return Data(bytes)
    }

    // MARK: Primitives

    @inline(__always)
    mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    mutating func writeUTF8(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// An interned key: a reference when seen before, else the text.
    @inline(__always)
    mutating func writeKey(_ key: String) {
        var newKey: [UInt8] = []
        if let number = keyNumbers.number(for: key, whenNew: { newKey = Array($0) }) {
            writeVarint(UInt64(number) << 1 | 1)
            referencedKeyBytes += key.utf8.count
        } else {
            writeVarint(UInt64(newKey.count) << 1)
            bytes.append(contentsOf: newKey)
        }
    }

    // MARK: Items

    mutating func writeJSON(_ value: JSONValue, depth: Int) throws(ArchiveEncodingFailure) {
        switch value {
        case .null: bytes.append(Tag.null)
        case .bool(let b): bytes.append(b ? Tag.true : Tag.false)
        case .int(let i):
            bytes.append(Tag.int)
            writeVarint(UInt64(bitPattern: (i << 1) ^ (i >> 63)))  // zigzag
        case .double(let d):
            guard d.isFinite else { throw ArchiveEncodingFailure(reason: "\(d) is not a finite number") }
            bytes.append(Tag.double)
            let bits = d.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        case .bigInteger(let text):
            guard JSONNumber.isIntegerText(text.utf8) else {
                throw ArchiveEncodingFailure(reason: "\"\(text)\" is not an integer literal")
            }
            bytes.append(Tag.bigInteger)
            writeUTF8(text)
        case .string(let s):
            bytes.append(Tag.string)
            writeUTF8(s)
        case .array(let array):
            try checkDepth(depth)
            bytes.append(Tag.array)
            writeVarint(UInt64(array.count))
            for (i, element) in array.enumerated() {
                do { try writeJSON(element, depth: depth + 1) } catch { throw error.adding(.index(i)) }
            }
        case .object(let object):
            try checkDepth(depth)
            bytes.append(Tag.object)
            writeVarint(UInt64(object.count))
            for member in object._members {
                let key = member.key
                writeKey(key)
                do { try writeJSON(member.value, depth: depth + 1) } catch { throw error.adding(.key(key)) }
            }
        }
    }

    @inline(__always)
    func checkDepth(_ depth: Int) throws(ArchiveEncodingFailure) {
        if depth >= maximumDepth {
            throw ArchiveEncodingFailure(reason: ArchiveFormat.tooDeep(maximumDepth))
        }
    }

    /// What a stored value becomes in the archive.
    private enum Writable {
        case json(JSONValue)
        case nested(NestedContent)
    }

    /// Reports a payload left out because it contains itself.
    private mutating func skipCycle(at component: JSONPath.Component) {
        skipped.append(SkippedPayload(path: JSONPath(viewModelPath + [component]), reason: .cycle))
    }

    /// A ViewModel's entries, without tag. Unwritable payloads are reported
    /// and left out.
    /// `partKeys` are the archived keys registered on the part holding it.
    mutating func writeViewModelBody(_ viewModel: ViewModel, depth: Int, partKeys: [String] = []) throws(ArchiveEncodingFailure) {
        try checkDepth(depth)
        let id = ObjectIdentifier(viewModel)
        visiting.insert(id)
        defer { visiting.remove(id) }
        let (allKeys, values, registry) = viewModel.archivingSnapshot()
        let keys = selectKeys(allKeys, registered: registry.archived, partKeys: partKeys, selection: selection)
        var entries: [(String, Writable)] = []
        entries.reserveCapacity(keys.count)
        for key in keys {
            guard let stored = values[key] else { continue }
            switch stored {
            case .json(let json): entries.append((key, .json(json)))
            case .payload(let payload):
                guard let nested = NestedContent(payload) else {
                    let name = String(describing: type(of: payload))
                    skipped.append(SkippedPayload(path: JSONPath(viewModelPath + [.key(key)]), reason: .unsupportedType(name)))
                    continue
                }
                if let identity = nested.identity, visiting.contains(identity) {
                    skipCycle(at: .key(key))
                } else {
                    entries.append((key, .nested(nested)))
                }
            }
        }
        writeVarint(UInt64(entries.count))
        for (key, entry) in entries {
            writeKey(key)
            do {
                switch entry {
                case .json(let json):
                    try writeJSON(json, depth: depth + 1)
                case .nested(.viewModel(let nested)):
                    bytes.append(Tag.viewModel)
                    viewModelPath.append(.key(key))
                    defer { viewModelPath.removeLast() }
                    try writeViewModelBody(nested, depth: depth + 1)
                case .nested(.viewModels(let list)):
                    bytes.append(Tag.viewModelList)
                    viewModelPath.append(.key(key))
                    defer { viewModelPath.removeLast() }
                    try writeList(list, depth: depth + 1)
                case .nested(.section(let section)):
                    bytes.append(Tag.section)
                    viewModelPath.append(.key(key))
                    defer { viewModelPath.removeLast() }
                    try writeSectionBody(section, inherited: nil, depth: depth + 1)
                case .nested(.manager(let manager)):
                    bytes.append(Tag.manager)
                    viewModelPath.append(.key(key))
                    defer { viewModelPath.removeLast() }
                    try writeManagerBody(manager, depth: depth + 1)
                }
            } catch {
                throw error.adding(.key(key))
            }
        }
        noteHolder(registry)
    }

    /// A list of ViewModels, without tag; members that would form a cycle
    /// are reported and left out.
    mutating func writeList(_ list: [ViewModel], depth: Int, partKeys: [String] = []) throws(ArchiveEncodingFailure) {
        try checkDepth(depth)
        var members: [(index: Int, viewModel: ViewModel)] = []
        members.reserveCapacity(list.count)
        for (i, viewModel) in list.enumerated() {
            if visiting.contains(ObjectIdentifier(viewModel)) {
                skipped.append(SkippedPayload(path: JSONPath(viewModelPath + [.index(i)]), reason: .cycle))
            } else {
                members.append((i, viewModel))
            }
        }
        writeVarint(UInt64(members.count))
        for (i, viewModel) in members {
            viewModelPath.append(.index(i))
            defer { viewModelPath.removeLast() }
            do { try writeViewModelBody(viewModel, depth: depth + 1, partKeys: partKeys) } catch { throw error.adding(.index(i)) }
        }
    }

    /// A section, without tag: a flags byte saying which of header, footer,
    /// common and item merge follow (bits 0-3), their bodies in that order,
    /// then the items as a list. `inherited` are a manager's part keys.
    mutating func writeSectionBody(_ section: Section, inherited: PartKeys?, depth: Int) throws(ArchiveEncodingFailure) {
        try checkDepth(depth)
        let id = ObjectIdentifier(section)
        visiting.insert(id)
        defer { visiting.remove(id) }
        let parts = section.partKeyRegistry.keys(for: .archiving, merging: inherited)
        var flags: UInt8 = 0
        var present: [(name: String, viewModel: ViewModel, keys: [String])] = []
        // The flag bits follow the slot order: header, footer, common, item merge.
        for (bit, (slot, viewModel)) in section.slotViewModels.enumerated() {
            guard let viewModel else { continue }
            if visiting.contains(ObjectIdentifier(viewModel)) { skipCycle(at: .key(slot.rawValue)); continue }
            flags |= 1 << UInt8(bit)
            present.append((slot.rawValue, viewModel, parts[slot.part]))
        }
        bytes.append(flags)
        for part in present {
            viewModelPath.append(.key(part.name))
            defer { viewModelPath.removeLast() }
            do { try writeViewModelBody(part.viewModel, depth: depth + 1, partKeys: part.keys) } catch { throw error.adding(.key(part.name)) }
        }
        viewModelPath.append(.key("items"))
        defer { viewModelPath.removeLast() }
        do { try writeList(section.items, depth: depth + 1, partKeys: parts.items) } catch { throw error.adding(.key("items")) }
        noteHolder(section.partKeyRegistry)
    }

    /// A manager, without tag: a flags byte (bit 0: a common ViewModel
    /// follows), the common body, then a count and that many section bodies.
    mutating func writeManagerBody(_ manager: Manager, depth: Int) throws(ArchiveEncodingFailure) {
        try checkDepth(depth)
        let id = ObjectIdentifier(manager)
        visiting.insert(id)
        defer { visiting.remove(id) }
        let parts = manager.partKeyRegistry.keys(for: .archiving)
        var common = manager.common
        if let viewModel = common, visiting.contains(ObjectIdentifier(viewModel)) {
            skipCycle(at: .key("common"))
            common = nil
        }
        bytes.append(common == nil ? 0 : 1)
        if let common {
            viewModelPath.append(.key("common"))
            defer { viewModelPath.removeLast() }
            do { try writeViewModelBody(common, depth: depth + 1, partKeys: parts.common) } catch { throw error.adding(.key("common")) }
        }
        var sections: [(index: Int, section: Section)] = []
        for (i, section) in manager.sections.enumerated() {
            if visiting.contains(ObjectIdentifier(section)) {
                skipped.append(SkippedPayload(path: JSONPath(viewModelPath + [.key("sections"), .index(i)]), reason: .cycle))
            } else {
                sections.append((i, section))
            }
        }
        writeVarint(UInt64(sections.count))
        viewModelPath.append(.key("sections"))
        defer { viewModelPath.removeLast() }
        for (i, section) in sections {
            viewModelPath.append(.index(i))
            defer { viewModelPath.removeLast() }
            do {
                try writeSectionBody(section, inherited: parts, depth: depth + 1)
            } catch {
                throw error.adding(.index(i)).adding(.key("sections"))
            }
        }
        noteHolder(manager.partKeyRegistry)
    }
}
