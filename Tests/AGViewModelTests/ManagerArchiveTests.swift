import Foundation
import Testing
@testable import AGViewModel

@Suite("Archives of sections and managers")
struct ManagerArchiveTests {
    func roundTrip(_ record: ArchiveRecord, keys: KeySelection = .registered) throws -> ArchiveRecord {
        try ArchiveDecoder().decode(ArchiveEncoder(keys: keys).encode(record).data)
    }

    @Test func managerRoundTripsWithEveryPartAndNestedViewModels() throws {
        let original = PersistenceFixtures.manager()
        guard case .manager(let back) = try roundTrip(.manager(original)) else { Issue.record("kind"); return }
        #expect(PersistenceFixtures.same(original, back))
        // Nested ViewModels come back as ViewModels (unlike JSON import).
        let author = back[0][0][value: "author"]?.payload as? ViewModel
        #expect(author?["name"] == "Ada")
        #expect((back[0][0][value: "replies"]?.payload as? [ViewModel])?.count == 2)
        #expect(back[0].itemMerge?["kind"] == "article")
        #expect(back[2].isEmpty && back[2].header == nil)
        // A manager reached through a key path finds its items.
        #expect(back.indexPath(of: back[1][0]) == IndexPath(item: 0, section: 1))
        // Deterministic bytes.
        let a = try ArchiveEncoder().encode(.manager(original)).data
        #expect(try ArchiveEncoder().encode(.manager(PersistenceFixtures.manager())).data == a)
    }

    @Test func sectionRecordsAndNestedSectionsAndManagersRoundTrip() throws {
        let section = PersistenceFixtures.manager()[0]
        guard case .section(let back) = try roundTrip(.section(section)) else { Issue.record("kind"); return }
        #expect(PersistenceFixtures.same(section, back))

        let holder = ViewModel(["id": 9])
        holder[value: "section"] = .payload(section)
        holder[value: "manager"] = .payload(PersistenceFixtures.manager())
        guard case .viewModel(let restored) = try roundTrip(.viewModel(holder)) else { Issue.record("kind"); return }
        let nestedSection = try #require(restored[value: "section"]?.payload as? Section)
        #expect(PersistenceFixtures.same(section, nestedSection))
        let nestedManager = try #require(restored[value: "manager"]?.payload as? Manager)
        #expect(PersistenceFixtures.same(PersistenceFixtures.manager(), nestedManager))
    }

    @Test func archivedKeySelectionPerPartAndEverything() throws {
        let manager = PersistenceFixtures.manager()
        manager.addArchivedKeys(["id"], for: .items)
        manager[0].addArchivedKeys(["title"], for: .header)
        manager[0][1].addArchivedKeys(["big"])
        // Export registrations do not affect archives.
        manager.addSerializableKeys(["text"], for: .items)
        guard case .manager(let narrowed) = try roundTrip(.manager(manager)) else { Issue.record("kind"); return }
        #expect(narrowed[0][0].keys == ["id"])
        #expect(narrowed[0][1].keys == ["id", "big"])
        #expect(narrowed[0].header?.keys == ["title"])
        #expect(narrowed[1].header?.keys == ["title"])  // unregistered: everything
        #expect(narrowed.common?.keys == ["screen"])
        guard case .manager(let full) = try roundTrip(.manager(manager), keys: .everything) else { Issue.record("kind"); return }
        #expect(PersistenceFixtures.same(manager, full))
    }

    @Test func cyclesThroughSectionsAreSkippedAndReported() throws {
        let holder = ViewModel(["id": 1])
        let section = Section(items: [holder])
        holder[value: "section"] = .payload(section)
        let encoded = try ArchiveEncoder().encode(.section(section))
        #expect(encoded.skippedPayloads.map(\.description) == ["items[0].section: skipped ViewModel that contains itself"])
        guard case .section(let back) = try ArchiveDecoder().decode(encoded.data) else { Issue.record("kind"); return }
        #expect(back[0].keys == ["id"])
    }

    @Test func unencodableValuesInsideManagersNameTheirPath() {
        let manager = PersistenceFixtures.manager()
        manager[1][0]["bad"] = .double(.nan)
        #expect(throws: ArchiveError.cannotEncode(path: "sections[1].items[0].bad", reason: "nan is not a finite number")) {
            try ArchiveEncoder().encode(.manager(manager))
        }
    }

    // MARK: Damage

    @Test func damagedManagerArchivesGiveTheirOwnErrors() throws {
        let data = try ArchiveEncoder().encode(.manager(PersistenceFixtures.manager())).data
        #expect(throws: ArchiveError.truncated(expected: data.count, found: data.count - 3)) {
            try ArchiveDecoder().decode(data.prefix(data.count - 3))
        }
        for i in stride(from: 8, to: data.count, by: 7) {
            var damaged = data
            damaged[i] ^= 0x01
            do {
                _ = try ArchiveDecoder().decode(damaged)
                Issue.record("flip at \(i) not detected")
            } catch {
                guard case .checksumMismatch = error else { Issue.record("flip at \(i): \(error)"); continue }
            }
        }
        var magic = data
        magic[1] = 0x42
        #expect(throws: ArchiveError.wrongMagic(found: Array(magic.prefix(8)))) { try ArchiveDecoder().decode(magic) }
        let payload = Array(data.dropFirst(ArchiveFormat.headerSize))
        let future = ArchiveTests.archive(payload: payload, version: 3)
        #expect(throws: ArchiveError.newerVersion(found: 3, supported: 2)) { try ArchiveDecoder().decode(future) }
    }

    @Test func mutatedManagerPayloadsNeverCrash() throws {
        let data = try ArchiveEncoder().encode(.manager(PersistenceFixtures.manager())).data
        let payload = Array(data.dropFirst(ArchiveFormat.headerSize))
        var rng = SplitMix64(seed: 0x6A67_766D)
        for round in 0 ..< 2000 {
            var bytes = payload
            if round % 2 == 0 {
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &rng) {
                    bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                }
            } else {
                bytes = Array(bytes.prefix(Int.random(in: 0 ..< bytes.count, using: &rng)))
            }
            _ = try? ArchiveDecoder().decode(ArchiveTests.archive(payload: bytes))
        }
        // Deep section nesting is limited like any other.
        // A manager whose common ViewModel's key "a" holds a manager whose ...
        let deep: [UInt8] = [0x23, 0x01, 0x01, 0x02, 0x61]
            + Array([[UInt8]](repeating: [0x23, 0x01, 0x01, 0x01], count: 600).joined()) + [0x00]
        #expect(ArchiveTests.malformedReason(deep)?.hasPrefix("nesting deeper than 512 levels") == true)
    }

    // MARK: On disk

    @Test func managerArchivesSaveAndLoadAndFailedWritesKeepTheOldArchive() throws {
        let directory = try PersistenceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("home.agvm")
        let original = PersistenceFixtures.manager()
        try Archive.write(.manager(original), to: url, keys: .everything)
        guard case .manager(let back) = try Archive.read(from: url) else { Issue.record("kind"); return }
        #expect(PersistenceFixtures.same(original, back))

        let changed = PersistenceFixtures.manager()
        changed[0][0]["text"] = .string(String(repeating: "x", count: 5000))
        let next = try ArchiveEncoder().encode(.manager(changed))
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.write(next.data, to: url, fileSystem: FailingFileSystem(.writeAfter(bytes: 64, code: ENOSPC)))
        }
        guard case .manager(let still) = try Archive.read(from: url) else { Issue.record("kind"); return }
        #expect(PersistenceFixtures.same(original, still))
    }
}

extension ManagerArchiveTests {
    /// A ViewModel that recurs as a manager's common ViewModel or as a
    /// section part is skipped and reported there, not written again.
    @Test func aViewModelRecurringAsAManagerCommonOrASectionPartIsSkipped() throws {
        let holder = ViewModel(["id": 1])
        holder[value: "manager"] = .payload(Manager(sections: [], common: holder))
        holder[value: "section"] = .payload(Section(items: [], header: holder))
        let encoded = try ArchiveEncoder().encode(.viewModel(holder))
        #expect(encoded.skippedPayloads.map(\.description) == [
            "manager.common: skipped ViewModel that contains itself",
            "section.header: skipped ViewModel that contains itself",
        ])
        guard case .viewModel(let back) = try ArchiveDecoder().decode(encoded.data) else { Issue.record("kind"); return }
        #expect((back[value: "manager"]?.payload as? Manager)?.common == nil)
        #expect((back[value: "section"]?.payload as? Section)?.header == nil)
    }
}
