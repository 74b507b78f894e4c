import Foundation
import Testing
@testable import AGViewModel

/// Archives keep key registrations (format version 2), so what is read back
/// exports and archives as the original did.
@Suite("Archived key registrations")
struct ArchiveRegistrationTests {
    func roundTrip(_ record: ArchiveRecord, keys: KeySelection = .registered) throws -> ArchiveRecord {
        try ArchiveDecoder().decode(ArchiveEncoder(keys: keys).encode(record).data)
    }

    func version(_ record: ArchiveRecord) throws -> UInt16 {
        try ArchiveDecoder().header(of: ArchiveEncoder().encode(record).data).version
    }

    @Test func aViewModelReadBackKeepsItsRegistrationsAndWritesWhatItWrote() throws {
        let status = ViewModel(["id": 7, "text": "hi", "likes": 3, "draft": true])
        status.addArchivedKeys(["id", "text", "likes", "unset"])
        status.addSerializableKeys(["text", "id"])
        guard case .viewModel(let back) = try roundTrip(.viewModel(status)) else { Issue.record("kind"); return }
        #expect(back.keys == ["id", "text", "likes"])
        #expect(back.archivedKeys == ["id", "text", "likes", "unset"])
        #expect(back.serializableKeys == ["text", "id"])
        #expect(back.exportJSON() == status.exportJSON())
        // A key added after loading is not archived, as with the original.
        back["transient"] = "x"
        #expect(try ArchiveEncoder().encode(.viewModel(back)).data == ArchiveEncoder().encode(.viewModel(status)).data)
    }

    @Test func nestedViewModelsSectionsAndManagersKeepTheirOwn() throws {
        let author = ViewModel(["name": "Ada", "email": "a@example.com"]).addArchivedKeys(["name"])
        let reply = ViewModel(["text": "yo", "secret": 1]).addSerializableKeys(["text"])
        let item = ViewModel(["id": 1])
        item[value: "author"] = .payload(author)
        item[value: "replies"] = .payload([ViewModel(["text": "hi"]), reply])
        let section = Section(items: [item, ViewModel(["id": 2])], header: ViewModel(["title": "T", "count": 2]))
        section.addArchivedKeys(["title"], for: .header)
        section.addSerializableKeys(["id", "author"], for: .items)
        let manager = Manager(sections: [section, Section(items: [ViewModel(["id": 3])])], common: ViewModel(["screen": "home"]))
        manager.addArchivedKeys(["id", "author", "replies"], for: .items)
        manager.addSerializableKeys(["screen"], for: .common)

        guard case .manager(let back) = try roundTrip(.manager(manager)) else { Issue.record("kind"); return }
        // The manager's registrations stay on the manager, not copied into its sections.
        #expect(back.archivedKeys(for: .items) == ["id", "author", "replies"])
        #expect(back.serializableKeys(for: .common) == ["screen"])
        #expect(back[0].archivedKeys(for: .items) == [])
        #expect(back[0].archivedKeys(for: .header) == ["title"])
        #expect(back[0].serializableKeys(for: .items) == ["id", "author"])
        #expect(back[1].archivedKeys(for: .header) == [] && back[1].serializableKeys(for: .items) == [])
        let backItem = back[0][0]
        let backAuthor = try #require(backItem[value: "author"]?.payload as? ViewModel)
        #expect(backAuthor.archivedKeys == ["name"] && backAuthor.keys == ["name"])
        let replies = try #require(backItem[value: "replies"]?.payload as? [ViewModel])
        #expect(replies[0].serializableKeys == [] && replies[1].serializableKeys == ["text"])
        #expect(back[0][1].archivedKeys == [])
        // Archives of what was read back are the original's; with every
        // key archived, so are its exports.
        #expect(try ArchiveEncoder().encode(.manager(back)).data == ArchiveEncoder().encode(.manager(manager)).data)
        guard case .manager(let full) = try roundTrip(.manager(manager), keys: .everything) else { Issue.record("kind"); return }
        #expect(full.exportJSON() == manager.exportJSON())
        #expect(full.exportJSON() != back.exportJSON())
    }

    @Test func everythingWritesEveryKeyAndStillKeepsRegistrations() throws {
        let status = ViewModel(["id": 7, "text": "hi"]).addArchivedKeys(["id"])
        guard case .viewModel(let back) = try roundTrip(.viewModel(status), keys: .everything) else { Issue.record("kind"); return }
        #expect(back.keys == ["id", "text"])
        #expect(back.archivedKeys == ["id"])
        guard case .viewModel(let narrowed) = try roundTrip(.viewModel(back)) else { Issue.record("kind"); return }
        #expect(narrowed.keys == ["id"])
    }

    /// Items that register the same keys share one registry's storage,
    /// as a packager's items do before archiving.
    @Test func itemsWithEqualRegistrationsReadBackEqual() throws {
        let items = (0 ..< 50).map { ViewModel(["id": .int(Int64($0)), "text": "t"]).addArchivedKeys(["id", "text"]) }
        items[7].addSerializableKeys(["id"])
        guard case .viewModels(let back) = try roundTrip(.viewModels(items)) else { Issue.record("kind"); return }
        #expect(back.allSatisfy { $0.archivedKeys == ["id", "text"] })
        #expect(back.enumerated().allSatisfy { $0.element.serializableKeys == ($0.offset == 7 ? ["id"] : []) })
        back[3].addArchivedKeys(["more"])
        #expect(back[3].archivedKeys == ["id", "text", "more"] && back[4].archivedKeys == ["id", "text"])
    }

    /// An adapter read back archives its content as it was archived: with
    /// the registrations the archive restored, not every key.
    @Test func aDecodedAdapterArchivesWhatTheOriginalDid() throws {
        let original = ViewModel(["id": 1]).addArchivedKeys(["id"])
        let keyed = try NSKeyedArchiver.archivedData(withRootObject: ArchivedViewModel(original), requiringSecureCoding: true)
        let adapter = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: keyed))
        #expect(adapter.keys == .registered)
        adapter.viewModel["transient"] = "x"
        let again = try NSKeyedArchiver.archivedData(withRootObject: adapter, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: again)?.viewModel)
        #expect(back.keys == ["id"])
    }

    @Test func registrationsComeBackThroughSnapshotsAndSecureCoding() throws {
        let manager = Manager(sections: [Section(items: [ViewModel(["id": 1, "text": "a"]).addArchivedKeys(["id"])])])
        manager.addSerializableKeys(["text"], for: .items)
        // Archived on another task from a snapshot, as the encoder's doc says.
        let fromSnapshot = try ArchiveEncoder().encode(.manager(manager.snapshot.makeManager())).data
        #expect(fromSnapshot == (try ArchiveEncoder().encode(.manager(manager)).data))
        let keyed = try NSKeyedArchiver.archivedData(withRootObject: ArchivedManager(manager), requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedManager.self, from: keyed)?.manager)
        #expect(back.serializableKeys(for: .items) == ["text"])
        #expect(back[0][0].archivedKeys == ["id"])
    }

    @Test func archivesWithoutRegistrationsStayVersionOne() throws {
        let plain = PersistenceFixtures.manager()
        #expect(try version(.manager(plain)) == 1)
        #expect(try version(.value(["a": 1])) == 1)
        plain[1][0].addSerializableKeys(["id"])
        #expect(try version(.manager(plain)) == 2)
        plain[1][0].removeAllSerializableKeys()
        #expect(try version(.manager(plain)) == 1)
        plain.addArchivedKeys(["id"], for: .footer)
        #expect(try version(.manager(plain)) == 2)
    }

    /// The layout of the table, byte by byte (see ``ArchiveFormat``).
    @Test func theTableFollowsTheItem() throws {
        let viewModel = ViewModel(["a": 1]).addArchivedKeys(["a", "b"])
        let data = try ArchiveEncoder().encode(.viewModel(viewModel)).data
        #expect(Array(data.dropFirst(ArchiveFormat.headerSize)) == [
            0x20, 0x01, 0x02, 0x61, 0x03, 0x02,  // ViewModel {"a": 1}, key "a" new
            0x01,                                // one entry
            0x00, 0x02,                          // holder 0, archived keys only
            0x02, 0x01, 0x02, 0x62,              // two keys: "a" by reference, "b" new
        ])
        // Holders are numbered as their bodies end: the nested ViewModel is 0,
        // the list's two are 1 and 2, the holder 3.
        let holder = ViewModel()
        holder[value: "n"] = .payload(ViewModel())
        holder[value: "l"] = .payload([ViewModel(), ViewModel().addSerializableKeys(["x"])])
        holder.addSerializableKeys(["n"])
        let table = Array(try ArchiveEncoder().encode(.viewModel(holder)).data.suffix(10))
        #expect(table == [0x02, 0x02, 0x01, 0x01, 0x02, 0x78, 0x00, 0x01, 0x01, 0x01])
    }

    static func malformedReason(_ payload: [UInt8]) -> String? {
        do {
            _ = try ArchiveDecoder().decode(ArchiveTests.archive(payload: payload, version: 2))
            return nil
        } catch {
            guard case .malformed(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test func damagedTablesAreRejectedWithTheirReason() {
        let item: [UInt8] = [0x20, 0x01, 0x02, 0x61, 0x03, 0x02]  // {"a": 1}, holder 0
        let section: [UInt8] = [0x22, 0x00, 0x00]                  // an empty section, holder 0
        #expect(Self.malformedReason(item + [0x00]) == nil)
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x01, 0x01]) == nil)
        #expect(Self.malformedReason(section + [0x01, 0x00, 0x80, 0x01, 0x02, 0x78]) == nil)
        #expect(Self.malformedReason(item) == "unexpected end of payload")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x01, 0x01, 0x00]) == "1 bytes left after the registrations")
        #expect(Self.malformedReason(item + [0x01, 0x01, 0x02, 0x01, 0x01])
                == "registrations for holder 1, but the payload's ViewModels, sections and managers are numbered 0 to 0")
        #expect(Self.malformedReason([0x00, 0x01, 0x00, 0x01, 0x01, 0x01])
                == "registrations for holder 0, but the payload has no ViewModel, section or manager")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x00, 0x01, 0x01]) == "a registration with no key list")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x04, 0x01, 0x01]) == "unknown ViewModel registration flags 0x4")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x00, 0x01]) == "an empty registered key list")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x02, 0x01, 0x01]) == "key \"a\" registered twice")
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x01, 0x03]) == "key reference 1 but only 1 keys defined")
        #expect(Self.malformedReason(item + [0x02, 0x00, 0x02, 0x01, 0x01, 0x00, 0x01, 0x01, 0x01])
                == "registrations for holder 1, but the payload's ViewModels, sections and managers are numbered 0 to 0")
        #expect(Self.malformedReason(item + [0x05, 0x00, 0x02, 0x01, 0x01])
                == "registration count 5 exceeds the 4 bytes that remain (each takes at least 4)")
        // Two spellings of one key are one key, named by their scalars.
        let composed: [UInt8] = [0x04, 0xC3, 0xA9], decomposed: [UInt8] = [0x06, 0x65, 0xCC, 0x81]
        #expect(Self.malformedReason(item + [0x01, 0x00, 0x02, 0x02] + composed + decomposed)
                == "key \"\u{E9}\" registered twice (as U+00E9 and U+0065 U+0301, one key as Swift strings)")
        // A gap too large for `Int` is reported, not trapped on.
        #expect(Self.malformedReason(item + [0x01] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01] + [0x02, 0x01, 0x01])?
            .hasPrefix("registrations for holder past") == true)
    }

    /// Every prefix and single-byte change of a version 2 archive is
    /// rejected or read without a crash; what is read re-encodes stably.
    @Test func mutatedTablesNeverCrash() throws {
        let manager = PersistenceFixtures.manager()
        manager.addArchivedKeys(["id", "text", "author"], for: .items)
        manager[0].addSerializableKeys(["title"], for: .header)
        manager[0][0].addSerializableKeys(["id", "unset"])
        let payload = Array(try ArchiveEncoder().encode(.manager(manager)).data.dropFirst(ArchiveFormat.headerSize))
        var rng = SplitMix64(seed: 0x7265_6769)
        for round in 0 ..< 2000 {
            var bytes = payload
            if round % 2 == 0 {
                bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
            } else {
                bytes = Array(bytes.prefix(Int.random(in: 0 ..< bytes.count, using: &rng)))
            }
            let problems = ([UInt8(3)] + bytes).withUnsafeBytes { FuzzInvariants.checkArchiveInput($0) }
            #expect(problems.isEmpty, "round \(round): \(problems)")
        }
    }
}
