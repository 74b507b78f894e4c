import Foundation

// NSSecureCoding support, for code moving from the Objective-C library.
//
// `ViewModel`, `Section` and `Manager` are plain Swift classes, not `NSObject`
// subclasses: making them inherit from `NSObject` would give them
// Objective-C `isEqual`/`hash` semantics, dynamic dispatch and a heavier
// object on Apple platforms, and `NSKeyedArchiver` requires an `NSObject`
// root on Apple platforms. So each has a small `NSObject` adapter that
// conforms to `NSSecureCoding` and carries it: archive the adapter, unarchive
// the adapter, take the value out. The adapter writes the value's binary
// archive (see ``ArchiveFormat``, with its checksums and key selection) as one
// `NSData` under the key ``SecureCodingKey/archive``, so a keyed archive holds
// exactly what ``Archive`` would write, and decoding is as strict.

/// The coder keys under which the adapters store the binary archive.
public enum SecureCodingKey {
    /// `"AGViewModelArchive"`: the archive bytes of the value.
    public static let archive = "AGViewModelArchive"
    /// `"AGViewModelArchivesEverything"`: `true` when the archive holds
    /// every key (``KeySelection/everything``); absent for
    /// ``KeySelection/registered``.
    public static let archivesEverything = "AGViewModelArchivesEverything"
}

/// Encodes and decodes adapter content.
internal enum SecureCodingSupport {
    static func encode(_ record: ArchiveRecord, keys: KeySelection, with coder: NSCoder) {
        // A value the archive cannot hold (a non-finite double) writes
        // nothing, so unarchiving fails cleanly instead of loading half.
        guard let encoded = try? ArchiveEncoder(keys: keys).encode(record) else { return }
        coder.encode(encoded.data as NSData, forKey: SecureCodingKey.archive)
        if keys == .everything { coder.encode(true, forKey: SecureCodingKey.archivesEverything) }
    }

    /// The selection the archive in `coder` was written with, so that an
    /// adapter read back archives again what was written.
    static func keys(from coder: NSCoder) -> KeySelection {
        // Look first, as `decode(from:)` does.
        guard coder.containsValue(forKey: SecureCodingKey.archivesEverything) else { return .registered }
        return coder.decodeBool(forKey: SecureCodingKey.archivesEverything) ? .everything : .registered
    }

    static func decode(from coder: NSCoder) -> ArchiveRecord? {
        // Asking for a missing key (what `encode` leaves for a value the
        // archive cannot hold) traps in swift-corelibs-foundation under the
        // `.raiseException` policy, so look first.
        guard coder.containsValue(forKey: SecureCodingKey.archive),
              let data = coder.decodeObject(of: NSData.self, forKey: SecureCodingKey.archive)
        else {
            fail(coder, CocoaError(.coderValueNotFound, userInfo: [NSDebugDescriptionErrorKey: "no \(SecureCodingKey.archive) archive in the coder"]))
            return nil
        }
        do {
            return try ArchiveDecoder().decode(data as Data)
        } catch {
            fail(coder, CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: error.description]))
            return nil
        }
    }

    /// Reports `error` where the coder returns errors; under the
    /// `.raiseException` policy failing would abort the process, so the
    /// adapter only returns nil there.
    private static func fail(_ coder: NSCoder, _ error: CocoaError) {
        if coder.decodingFailurePolicy == .setErrorAndReturn, coder.error == nil {
            coder.failWithError(error)
        }
    }
}

/// A ``ViewModel`` for `NSKeyedArchiver`: an `NSSecureCoding` adapter.
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(
///     withRootObject: ArchivedViewModel(profile), requiringSecureCoding: true)
/// let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: data)?.viewModel
/// ```
///
/// The archived keys follow ``keys`` (see ``KeySelection``); payloads an
/// archive cannot hold are left out, as ``ArchiveEncoder`` does. A value
/// no archive can hold (a NaN or infinite double) makes the adapter write
/// nothing, since `encode(with:)` cannot throw: reading it back then fails
/// with an error instead of loading part of it. To find such a value
/// before archiving, encode with ``ArchiveEncoder``, which throws
/// ``ArchiveError/cannotEncode(path:reason:)`` naming its path.
///
/// An adapter carries the live object, so, like it, it is not `Sendable`:
/// archive it where the object lives, and send the archived `Data` (or a
/// ``Manager/Snapshot``) to other tasks.
public final class ArchivedViewModel: NSObject, NSSecureCoding {
    /// The ViewModel carried.
    public let viewModel: ViewModel
    /// Which keys are encoded.
    public let keys: KeySelection

    /// An adapter for `viewModel`, encoding the keys `keys` selects.
    public init(_ viewModel: ViewModel, keys: KeySelection = .registered) {
        self.viewModel = viewModel
        self.keys = keys
    }

    /// `true`: decoding checks the class of everything it reads.
    public static var supportsSecureCoding: Bool { true }

    /// Writes the ViewModel's archive bytes.
    public func encode(with coder: NSCoder) {
        SecureCodingSupport.encode(.viewModel(viewModel), keys: keys, with: coder)
    }

    /// Reads a ViewModel; `nil` when the data is missing or damaged. The
    /// archive restores its key registrations, and ``keys`` is the
    /// selection it was written with: archiving it again writes what it wrote.
    public required init?(coder: NSCoder) {
        guard case .viewModel(let viewModel)? = SecureCodingSupport.decode(from: coder) else { return nil }
        self.viewModel = viewModel
        self.keys = SecureCodingSupport.keys(from: coder)
    }
}

/// A ``Section`` for `NSKeyedArchiver`: an `NSSecureCoding` adapter (see
/// ``ArchivedViewModel``).
public final class ArchivedSection: NSObject, NSSecureCoding {
    /// The section carried.
    public let section: Section
    /// Which keys are encoded.
    public let keys: KeySelection

    /// An adapter for `section`, encoding the keys `keys` selects.
    public init(_ section: Section, keys: KeySelection = .registered) {
        self.section = section
        self.keys = keys
    }

    /// `true`: decoding checks the class of everything it reads.
    public static var supportsSecureCoding: Bool { true }

    /// Writes the section's archive bytes.
    public func encode(with coder: NSCoder) {
        SecureCodingSupport.encode(.section(section), keys: keys, with: coder)
    }

    /// Reads a section; `nil` when the data is missing or damaged. The
    /// archive restores its key registrations, and ``keys`` is the
    /// selection it was written with: archiving it again writes what it wrote.
    public required init?(coder: NSCoder) {
        guard case .section(let section)? = SecureCodingSupport.decode(from: coder) else { return nil }
        self.section = section
        self.keys = SecureCodingSupport.keys(from: coder)
    }
}

/// A ``Manager`` for `NSKeyedArchiver`: an `NSSecureCoding` adapter (see
/// ``ArchivedViewModel``).
public final class ArchivedManager: NSObject, NSSecureCoding {
    /// The manager carried.
    public let manager: Manager
    /// Which keys are encoded.
    public let keys: KeySelection

    /// An adapter for `manager`, encoding the keys `keys` selects.
    public init(_ manager: Manager, keys: KeySelection = .registered) {
        self.manager = manager
        self.keys = keys
    }

    /// `true`: decoding checks the class of everything it reads.
    public static var supportsSecureCoding: Bool { true }

    /// Writes the manager's archive bytes.
    public func encode(with coder: NSCoder) {
        SecureCodingSupport.encode(.manager(manager), keys: keys, with: coder)
    }

    /// Reads a manager; `nil` when the data is missing or damaged. The
    /// archive restores its key registrations, and ``keys`` is the
    /// selection it was written with: archiving it again writes what it wrote.
    public required init?(coder: NSCoder) {
        guard case .manager(let manager)? = SecureCodingSupport.decode(from: coder) else { return nil }
        self.manager = manager
        self.keys = SecureCodingSupport.keys(from: coder)
    }
}
