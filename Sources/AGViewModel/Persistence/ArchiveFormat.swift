/// The AGViewModel archive file format, version 2.
///
/// An archive holds one ``ArchiveRecord`` (a JSON value, a ViewModel, a
/// list of ViewModels, a section or a manager) in a compact binary
/// encoding behind a fixed header with two checksums. It is designed so that
/// a reader can always tell *what* is wrong with a bad file — truncated,
/// damaged, not an archive, or newer than the reader — and never loads half
/// of one.
///
/// Version 2 adds the key registrations (see ``KeySelection``) after the
/// item; everything before them is as in version 1. A writer uses version 1
/// when nothing is registered, so such archives stay readable by readers of
/// version 1; readers of version 2 read both.
///
/// ## Header (28 bytes, integers little-endian)
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 8 | magic `89 41 47 56 4D 0D 0A 1A` (`\x89AGVM\r\n\x1A`) |
/// | 8 | 2 | format version (`UInt16`): 1, or 2 with registrations |
/// | 10 | 2 | flags (`UInt16`); none defined, must be 0 |
/// | 12 | 8 | payload length *N* in bytes (`UInt64`) |
/// | 20 | 4 | CRC-32 of the *N* payload bytes |
/// | 24 | 4 | CRC-32 of header bytes 0..<24 |
/// | 28 | *N* | payload |
///
/// The magic follows PNG's: the high-bit first byte marks binary data, and
/// the CR LF and ^Z bytes expose text-mode transfers that rewrite line
/// endings. The header layout is frozen across versions, so any reader can
/// check a file's integrity before it looks at the version. A reader checks,
/// in order: the magic and at least 28 bytes (else *wrong magic*, which an
/// empty file is too, or *truncated*); the header checksum (else *checksum mismatch* in the header);
/// the version (0 is malformed, above 2 is *newer version*); the file size
/// against *N* (short is *truncated*, extra bytes are malformed); the payload
/// checksum (else *checksum mismatch* in the content); the flags; and finally
/// decodes the whole payload into values before returning anything.
///
/// CRC-32 is the IEEE polynomial used by zlib (see ``CRC32`` for why it
/// suffices).
///
/// ## Payload
///
/// The payload is exactly one *item*, in version 2 followed by the
/// registrations table (below); bytes left after them are malformed. An item is a one-byte tag followed by its body:
///
/// | tag | item | body |
/// | --- | --- | --- |
/// | `0x00` | null | — |
/// | `0x01` | false | — |
/// | `0x02` | true | — |
/// | `0x03` | int | zigzag LEB128 varint of the `Int64` |
/// | `0x04` | double | 8 bytes: IEEE 754 bits, little-endian; finite only |
/// | `0x05` | big integer | varint byte length, ASCII text (`-`? digits, no leading zero) |
/// | `0x06` | string | varint byte length, UTF-8 (validated) |
/// | `0x07` | array | varint count, then *count* JSON items |
/// | `0x08` | object | varint count, then *count* × (key, JSON item) |
/// | `0x20` | ViewModel | varint count, then *count* × (key, item) |
/// | `0x21` | ViewModel list | varint count, then *count* ViewModel bodies (no tag) |
/// | `0x22` | section | section body (below) |
/// | `0x23` | manager | flags byte, common?, varint count, *count* section bodies |
///
/// A *section body* is a flags byte saying which ViewModels follow (bit 0
/// header, bit 1 footer, bit 2 common, bit 3 item merge), their ViewModel
/// bodies in that order, then the items as a ViewModel list body (varint
/// count, bodies). A manager's flags byte has bit 0 set when a common
/// ViewModel body follows. Unknown flag bits are malformed.
///
/// Tags `0x00`–`0x08` are JSON items; arrays and objects contain only JSON
/// items. A ViewModel maps keys to any item, so a key can hold a nested
/// ViewModel, a list of them, a section or a manager. Keys within one object
/// or ViewModel are unique and keep their order. Only the keys the encoder's
/// ``KeySelection`` selects are written.
///
/// Varints are unsigned LEB128 (7 bits per byte, low group first, at most
/// 10 bytes). *Zigzag* maps signed to unsigned (`0, -1, 1, -2…` →
/// `0, 1, 2, 3…`) so small negative numbers stay short.
///
/// **Keys** are interned: every key is a varint *v*. An even *v* introduces a
/// new key of *v*/2 UTF-8 bytes, which follow, and appends it to the key
/// table; an odd *v* refers to key table entry (*v*−1)/2. The table spans the
/// whole payload in reading order, so repeated keys (the norm in API data)
/// cost one or two bytes.
///
/// ## Registrations (version 2)
///
/// The ViewModels, sections and managers in the item are *holders*,
/// numbered from 0 in the order their bodies end: a nested ViewModel comes
/// before the ViewModel holding it, a section's parts and items before the
/// section, its sections before a manager. The table is a varint count of
/// entries, one per holder with registered keys, in holder order. An entry
/// is a varint *gap* (its holder's number minus the previous entry's, minus
/// one; the first entry's holder number), a flags byte with one bit per
/// non-empty key list, and those lists in bit order, each a varint count
/// (at least 1) and that many distinct keys (as Swift strings: two
/// canonically equivalent spellings are one key), interned with the
/// item's keys.
/// A ViewModel's bits are 0 (export keys) and 1 (archived keys); a
/// section's or manager's are two per part (export, then archived) for
/// common, header, footer and items: bits 0-7. A flags byte of 0, an
/// unknown bit, a gap past the last holder, an empty list or a key listed
/// twice is malformed. Registrations are written whatever the encoder's
/// key selection, and a key may be registered without being stored.
///
/// **Limits.** A reader rejects nesting deeper than its maximum depth (512 by
/// default) and checks every length and count against the bytes that remain
/// before allocating, and reserves room for at most a few hundred elements
/// ahead of reading them, so no input, however hostile, can make it crash
/// (on a 512 KB stack in an optimized build; see ``ArchiveDecoder``), and
/// what it allocates stays proportional to the file's size. So does the
/// time it takes: the key bytes read through references may add up to
/// 256 times the archive's size (or 1 GB), which a long key referenced
/// over and over exceeds, and the archive is then malformed (the writer
/// refuses to write one). The factor
/// is the decoded objects' own: JSON values take tens of bytes of memory
/// per byte of archive, but an empty ViewModel is one byte on disk and
/// about 350 in memory (an empty section two and about 320), so a file of
/// nothing else decodes to a few hundred times its size. Check the size of
/// archives from untrusted sources before reading them.
package enum ArchiveFormat {
    /// The eight magic bytes every archive starts with.
    package static let magic: [UInt8] = [0x89, 0x41, 0x47, 0x56, 0x4D, 0x0D, 0x0A, 0x1A]
    /// The newest format version this library writes and reads.
    package static let currentVersion: UInt16 = 2
    /// The first version with a registrations table after the item.
    package static let registrationsVersion: UInt16 = 2
    /// The size of the fixed header in bytes.
    package static let headerSize = 28
    /// The default maximum nesting of arrays, objects and ViewModels.
    package static let defaultMaximumDepth = 512

    /// The most key bytes an archive of `archiveSize` bytes may read
    /// through key references: 256 times its size, or 1 GB when that is
    /// more. Each use of a key hashes it in full, so a long key referenced
    /// over and over would make reading take time growing with the square
    /// of the file's size; this bounds it to about a second per gigabyte.
    /// Real archives reference a few bytes of key per byte. The writer
    /// checks the same bound, so it never writes what a reader refuses.
    static func referencedKeyBudget(archiveSize: Int) -> Int {
        max(1 << 30, archiveSize > Int.max / 256 ? Int.max : archiveSize * 256)
    }

    /// Why an archive's key references go past ``referencedKeyBudget(archiveSize:)``,
    /// in the reader's and the writer's errors alike.
    static let tooManyKeyReferences = "key references add up to more than 256 times the archive's size"

    /// Why a record nested past `maximumDepth` is refused, in the reader's
    /// and the writer's errors alike.
    static func tooDeep(_ maximumDepth: Int) -> String {
        "nesting deeper than \(maximumDepth) \(maximumDepth == 1 ? "level" : "levels")"
    }

    /// Item tags (see the table above).
    internal enum Tag {
        static let null: UInt8 = 0x00
        static let `false`: UInt8 = 0x01
        static let `true`: UInt8 = 0x02
        static let int: UInt8 = 0x03
        static let double: UInt8 = 0x04
        static let bigInteger: UInt8 = 0x05
        static let string: UInt8 = 0x06
        static let array: UInt8 = 0x07
        static let object: UInt8 = 0x08
        static let viewModel: UInt8 = 0x20
        static let viewModelList: UInt8 = 0x21
        static let section: UInt8 = 0x22
        static let manager: UInt8 = 0x23
    }
}

/// The validated header of an archive: what `agvm inspect` shows.
package struct ArchiveHeader: Sendable, Hashable {
    /// The format version the archive was written with.
    package var version: UInt16
    /// The flags (none defined).
    package var flags: UInt16
    /// The payload size in bytes.
    package var payloadLength: UInt64
    /// The CRC-32 of the payload.
    package var payloadChecksum: UInt32

    /// Creates a header.
    package init(version: UInt16, flags: UInt16, payloadLength: UInt64, payloadChecksum: UInt32) {
        self.version = version
        self.flags = flags
        self.payloadLength = payloadLength
        self.payloadChecksum = payloadChecksum
    }

    /// The 28 header bytes, header checksum included.
    internal var bytes: [UInt8] {
        var out = ArchiveFormat.magic
        out.reserveCapacity(ArchiveFormat.headerSize)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        append(version)
        append(flags)
        append(payloadLength)
        append(payloadChecksum)
        append(CRC32.checksum(out))
        return out
    }

    /// Reads and checks the header of `bytes`, the whole archive; on success
    /// the payload is `bytes[headerSize ..< headerSize + payloadLength]`,
    /// its checksum verified, and the flags known.
    internal static func validate(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) -> ArchiveHeader {
        let headerSize = ArchiveFormat.headerSize
        let magic = ArchiveFormat.magic
        let prefix = Array(bytes.prefix(magic.count))
        guard !prefix.isEmpty, prefix == Array(magic.prefix(prefix.count)) else {
            throw .wrongMagic(found: prefix)
        }
        guard bytes.count >= headerSize else {
            throw .truncated(expected: headerSize, found: bytes.count)
        }
        func load<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
            var value = T.zero
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + MemoryLayout<T>.size])) }
            return T(littleEndian: value)
        }
        let storedHeaderChecksum = load(UInt32.self, at: 24)
        let headerChecksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0 ..< 24]))
        guard storedHeaderChecksum == headerChecksum else {
            throw .checksumMismatch(region: .header, stored: storedHeaderChecksum, computed: headerChecksum)
        }
        let header = ArchiveHeader(
            version: load(UInt16.self, at: 8), flags: load(UInt16.self, at: 10),
            payloadLength: load(UInt64.self, at: 12), payloadChecksum: load(UInt32.self, at: 20))
        guard header.version != 0 else { throw .malformed(offset: 8, reason: "format version 0 does not exist") }
        guard header.version <= ArchiveFormat.currentVersion else {
            throw .newerVersion(found: Int(header.version), supported: Int(ArchiveFormat.currentVersion))
        }
        let available = UInt64(bytes.count - headerSize)
        guard header.payloadLength <= available else {
            // Saturate: a huge declared length must not overflow `Int`.
            let expected = header.payloadLength > UInt64(Int.max - headerSize)
                ? Int.max : headerSize + Int(header.payloadLength)
            throw .truncated(expected: expected, found: bytes.count)
        }
        let end = headerSize + Int(header.payloadLength)
        guard end == bytes.count else {
            let extra = bytes.count - end
            throw .malformed(offset: end, reason: "\(extra) unexpected \(extra == 1 ? "byte" : "bytes") after the payload")
        }
        let payloadChecksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[headerSize ..< end]))
        guard payloadChecksum == header.payloadChecksum else {
            throw .checksumMismatch(region: .content, stored: header.payloadChecksum, computed: payloadChecksum)
        }
        guard header.flags == 0 else {
            throw .malformed(offset: 10, reason: "unknown flags 0x\(String(header.flags, radix: 16))")
        }
        return header
    }
}
