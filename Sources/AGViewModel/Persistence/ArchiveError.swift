/// Why an archive could not be read or written.
///
/// Each kind of damage has its own case, so callers (and `agvm inspect`)
/// can say exactly what happened. Reading never returns part of an archive:
/// any of these errors means nothing was loaded.
public enum ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which checksum failed.
    public enum Region: String, Sendable, Hashable {
        /// The 28-byte header.
        case header
        /// The payload.
        case content
    }

    /// The data ends before the archive does: `expected` bytes were
    /// declared (or at least needed), `found` are present.
    case truncated(expected: Int, found: Int)
    /// The data does not start with the archive magic; `found` holds its
    /// first bytes (at most eight).
    case wrongMagic(found: [UInt8])
    /// The archive was written by a newer format version than this library reads.
    case newerVersion(found: Int, supported: Int)
    /// A checksum does not match: the bytes were damaged after writing.
    case checksumMismatch(region: Region, stored: UInt32, computed: UInt32)
    /// The bytes pass the checksums but are not valid content (written by a
    /// faulty tool, or deliberately crafted). `offset` counts from the start
    /// of the archive.
    case malformed(offset: Int, reason: String)
    /// A value cannot be archived (a non-finite double, invalid big integer
    /// text, nesting deeper than the limit). `path` locates it.
    case cannotEncode(path: String, reason: String)
    /// The archive file could not be read: the file-system error, as it happened.
    case cannotRead(AtomicFileError)
    /// The archive file could not be written (the previous file is intact).
    case cannotWrite(AtomicFileError)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .truncated(expected, found):
            let declared = expected == Int.max ? "more" : "\(expected)"
            return "archive is truncated: expected \(declared) bytes, found \(found)"
        case let .wrongMagic(found):
            let start = found.isEmpty ? "is empty"
                : "starts with " + found.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
            return "not an AGViewModel archive (the file \(start))"
        case let .newerVersion(found, supported):
            return "archive format version \(found) is newer than this library reads (up to \(supported)); update AGViewModel"
        case let .checksumMismatch(region, stored, computed):
            return "archive is damaged: \(region.rawValue) checksum is \(hex(computed)), expected \(hex(stored))"
        case let .malformed(offset, reason):
            return "archive is malformed at byte \(offset): \(reason)"
        case let .cannotEncode(path, reason):
            return "cannot archive \(path.isEmpty ? "value" : MessageBounds.path(path)): \(reason)"
        case .cannotRead(let error), .cannotWrite(let error):
            return "archive: \(error)"
        }
    }

    private func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16, uppercase: true).leftPadded(to: 8)
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
