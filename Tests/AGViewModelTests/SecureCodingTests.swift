import Foundation
import Testing
@testable import AGViewModel

@Suite("NSSecureCoding adapters")
struct SecureCodingTests {
    func archive(_ object: NSObject) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }

    @Test func viewModelSectionAndManagerRoundTripThroughKeyedArchives() throws {
        let manager = PersistenceFixtures.manager()
        let managerData = try archive(ArchivedManager(manager))
        let backManager = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedManager.self, from: managerData))
        #expect(PersistenceFixtures.same(manager, backManager.manager))
        #expect(backManager.manager[0][0][value: "author"]?.payload is ViewModel)

        let section = manager[0]
        let sectionData = try archive(ArchivedSection(section))
        let backSection = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedSection.self, from: sectionData))
        #expect(PersistenceFixtures.same(section, backSection.section))

        let item = manager[0][0]
        let itemData = try archive(ArchivedViewModel(item))
        let backItem = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: itemData))
        #expect(PersistenceFixtures.same(item, backItem.viewModel))
    }

    @Test func archivedKeysApplyUnlessEverythingIsAsked() throws {
        let item = ViewModel(["id": 1, "text": "a", "cache": "b"]).addArchivedKeys(["id", "text"])
        let narrowed = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: ArchivedViewModel.self, from: archive(ArchivedViewModel(item)))
        #expect(narrowed?.viewModel.keys == ["id", "text"])
        let full = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: ArchivedViewModel.self, from: archive(ArchivedViewModel(item, keys: .everything)))
        #expect(full?.viewModel.keys == ["id", "text", "cache"])
        // Read back, an adapter archives again what it was written with.
        #expect(full?.keys == .everything && narrowed?.keys == .registered)
        let again = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: archive(try #require(full)))
        #expect(again?.viewModel.keys == ["id", "text", "cache"])
        let section = Section(items: [item])
        let sectionBack = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: ArchivedSection.self, from: archive(ArchivedSection(section, keys: .everything)))
        let sectionAgain = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedSection.self, from: archive(try #require(sectionBack)))
        #expect(sectionAgain?.section[0].keys == ["id", "text", "cache"])
        let manager = Manager(sections: [section])
        let managerBack = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: ArchivedManager.self, from: archive(ArchivedManager(manager, keys: .everything)))
        let managerAgain = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedManager.self, from: archive(try #require(managerBack)))
        #expect(managerAgain?.manager[0][0].keys == ["id", "text", "cache"])
    }

    /// A NaN cannot be archived and `encode(with:)` cannot throw: the
    /// adapter writes nothing, reading fails as a whole, and
    /// `ArchiveEncoder` names the value beforehand.
    @Test func aValueNoArchiveHoldsFailsTheReadNotHalfOfIt() throws {
        let item = ViewModel(["a": 1, "x": .double(.nan)])
        let data = try archive(ArchivedViewModel(item, keys: .everything))
        #expect(throws: (any Error).self) {
            _ = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: data)
        }
        #expect(throws: ArchiveError.self) { _ = try ArchiveEncoder(keys: .everything).encode(.viewModel(item)) }
        // A hand-made unarchiver raises on failures by default: the adapter
        // returns nil instead of asking for the missing key (which traps).
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        ArchivedViewModel(item, keys: .everything).encode(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(unarchiver.decodingFailurePolicy == .raiseException)
        #expect(ArchivedViewModel(coder: unarchiver) == nil)
        #expect(ArchivedSection(coder: try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)) == nil)
    }

    @Test func wrongClassOrDamagedContentDoesNotLoad() throws {
        // (Asking NSKeyedUnarchiver for the wrong root class traps in
        // swift-corelibs-foundation instead of throwing, so that is not
        // tested here; the adapters themselves check the record kind.)
        let section = try ArchiveEncoder().encode(.section(Section(items: [ViewModel(["id": 1])]))).data
        let wrongKind = NSKeyedArchiver(requiringSecureCoding: true)
        wrongKind.encode(section as NSData, forKey: SecureCodingKey.archive)
        wrongKind.finishEncoding()
        #expect(ArchivedManager(coder: try NSKeyedUnarchiver(forReadingFrom: wrongKind.encodedData)) == nil)
        #expect(ArchivedSection(coder: try NSKeyedUnarchiver(forReadingFrom: wrongKind.encodedData))?.section.count == 1)
        // Damaged archive bytes inside a valid keyed archive fail to decode.
        var raw = try ArchiveEncoder().encode(.viewModel(ViewModel(["id": 1]))).data
        raw[raw.count - 1] ^= 0xFF
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(raw as NSData, forKey: SecureCodingKey.archive)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(ArchivedViewModel(coder: unarchiver) == nil)
        // Through the secure convenience, the damage surfaces as an error.
        let rooted = NSKeyedArchiver(requiringSecureCoding: true)
        rooted.encode(ArchivedViewModel(ViewModel(["id": 1])), forKey: NSKeyedArchiveRootObjectKey)
        rooted.finishEncoding()
        var bytes = rooted.encodedData
        let good = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: bytes)
        #expect(good?.viewModel["id"] == 1)
        // Damage the archive's last payload byte inside the keyed archive.
        let archiveBytes = try ArchiveEncoder().encode(.viewModel(ViewModel(["id": 1]))).data
        let range = try #require(bytes.range(of: archiveBytes))
        bytes[range.upperBound - 1] ^= 0xFF
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: bytes)) == nil)
    }
}

extension SecureCodingTests {
    /// For a value no archive can hold the adapter writes nothing (not an
    /// empty archive under its key), and a decoded adapter writes what its
    /// restored registrations select (every key when none is registered).
    @Test func anUnarchivableValueIsMissingAndDecodedAdaptersFollowRegistrations() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        ArchivedViewModel(ViewModel(["x": .double(.nan)]), keys: .everything).encode(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(!unarchiver.containsValue(forKey: SecureCodingKey.archive))
        #expect(ArchivedViewModel(coder: unarchiver) == nil)
        let good = try archive(ArchivedViewModel(ViewModel(["id": 1])))
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedViewModel.self, from: good)
        #expect(back?.keys == .registered)
        #expect(back?.viewModel.keys == ["id"])
    }
}
