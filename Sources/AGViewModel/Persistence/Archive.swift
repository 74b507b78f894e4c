import Foundation

/// Saving and loading archives on disk.
///
/// ```swift
/// try Archive.write(.manager(timeline), to: cacheURL)
/// guard case .manager(let restored) = try Archive.read(from: cacheURL) else { ... }
/// ```
///
/// Writes are atomic: the bytes go to a temporary file that is flushed and
/// renamed over the destination, so a crash or error mid-write leaves the
/// previous archive intact. Reads check the whole file (see
/// ``ArchiveDecoder``) and throw an ``ArchiveError`` saying what is wrong;
/// they never return part of an archive.
public enum Archive {
    /// Encodes `record` and atomically replaces the file at `url` with it.
    ///
    /// - Returns: The ViewModel payloads that could not be archived and were left out.
    /// - Throws: ``ArchiveError/cannotEncode(path:reason:)`` when the record
    ///   cannot be encoded, ``ArchiveError/cannotWrite(_:)`` when the file
    ///   cannot be written.
    @discardableResult
    public static func write(
        _ record: ArchiveRecord, to url: URL, encoder: ArchiveEncoder = ArchiveEncoder()
    ) throws(ArchiveError) -> [SkippedPayload] {
        let encoded = try encoder.encode(record)
        do {
            try AtomicFile.write(encoded.data, to: url)
        } catch {
            throw .cannotWrite(error)
        }
        return encoded.skippedPayloads
    }

    /// Encodes `record` writing the keys `keys` selects (for example
    /// `.everything`: every key, whatever is registered) and atomically replaces the
    /// file at `url` with it.
    ///
    /// ```swift
    /// try Archive.write(.manager(manager), to: url, keys: .everything)
    /// ```
    @discardableResult
    public static func write(_ record: ArchiveRecord, to url: URL, keys: KeySelection) throws(ArchiveError) -> [SkippedPayload] {
        try write(record, to: url, encoder: ArchiveEncoder(keys: keys))
    }

    /// The record stored in the archive at `url`.
    public static func read(
        from url: URL, decoder: ArchiveDecoder = ArchiveDecoder()
    ) throws(ArchiveError) -> ArchiveRecord {
        let data: Data
        do {
            data = try AtomicFile.read(from: url)
        } catch {
            throw .cannotRead(error)
        }
        return try decoder.decode(data)
    }
}
