import Foundation
import Testing
@testable import AGViewModel

@Suite("Key registration")
struct KeyRegistrationTests {
    @Test func viewModelRegistersAddsRemovesAndClearsPerPurpose() {
        let viewModel = ViewModel(["id": 1, "text": "a", "likes": 3])
        viewModel.addSerializableKeys(["id", "text"]).addSerializableKeys(["id"])
        viewModel.addArchivedKeys(["likes"])
        #expect(viewModel.serializableKeys == ["id", "text"])
        #expect(viewModel.archivedKeys == ["likes"])
        viewModel.removeSerializableKeys(["id", "missing"])
        #expect(viewModel.serializableKeys == ["text"])
        #expect(viewModel.archivedKeys == ["likes"])
        viewModel.removeAllArchivedKeys()
        #expect(viewModel.archivedKeys.isEmpty)
        viewModel.removeAllSerializableKeys()
        #expect(viewModel.serializableKeys.isEmpty)
    }

    /// Removals of one key, of several with repeats, and of keys never
    /// registered, in random order, against a plain list.
    @Test func removalsKeepTheRestInOrder() {
        var random = SplitMix64(seed: 3)
        let viewModel = ViewModel()
        var expected: [String] = []
        for _ in 0..<600 {
            let keys = (0..<Int(random.next() % 3 + 1)).map { _ in "k\(random.next() % 40)" }
            if random.next() % 2 == 0 {
                viewModel.addSerializableKeys(keys)
                for key in keys where !expected.contains(key) { expected.append(key) }
            } else {
                viewModel.removeSerializableKeys(keys)
                expected.removeAll { keys.contains($0) }
            }
            #expect(viewModel.serializableKeys == expected)
        }
    }

    /// Keys registered one call at a time, with repeats, removals and
    /// clearing in between: registration order, no duplicates, and a key
    /// removed or cleared can be registered again.
    @Test func keysRegisteredOneAtATimeKeepOrderWithoutDuplicates() {
        let viewModel = ViewModel()
        let manager = Manager()
        var expected: [String] = []
        for i in 0..<2_000 {
            let key = "k\(i % 1_500)"
            viewModel.addSerializableKeys([key])
            manager.addArchivedKeys([key], for: .items)
            if !expected.contains(key) { expected.append(key) }
        }
        #expect(viewModel.serializableKeys == expected)
        #expect(manager.archivedKeys(for: .items) == expected)
        viewModel.removeSerializableKeys(["k0", "k7"])
        manager.removeArchivedKeys(["k0", "k7"], for: .items)
        viewModel.addSerializableKeys(["k7", "k8"])
        manager.addArchivedKeys(["k7", "k8"], for: .items)
        let afterRemoval = expected.filter { $0 != "k0" && $0 != "k7" } + ["k7"]
        #expect(viewModel.serializableKeys == afterRemoval)
        #expect(manager.archivedKeys(for: .items) == afterRemoval)
        viewModel.removeAllSerializableKeys()
        manager.removeAllArchivedKeys(for: .items)
        viewModel.addSerializableKeys(["k8", "k8"])
        manager.addArchivedKeys(["k8"], for: .items)
        #expect(viewModel.serializableKeys == ["k8"] && manager.archivedKeys(for: .items) == ["k8"])
        #expect(manager.archivedKeys(for: .header).isEmpty)
    }

    @Test func registeredKeysNarrowExportsAndUnregisteredViewModelsExportEverything() {
        let viewModel = ViewModel(["id": 1, "text": "a", "likes": 3])
        #expect(viewModel.exportJSON() == ["id": 1, "text": "a", "likes": 3])
        viewModel.addSerializableKeys(["likes", "id"])
        // Output follows the ViewModel's key order, not the registration order.
        #expect(viewModel.exportJSON().objectValue?.keys == ["id", "likes"])
        #expect(viewModel.exportJSON(options: .everything).objectValue?.keys == ["id", "text", "likes"])
        // Registering for export does not change what is archived.
        #expect(viewModel.archivedKeys.isEmpty)
    }

    @Test func copiesKeepRegistrationsIndependently() {
        let viewModel = ViewModel(["id": 1, "text": "a"]).addArchivedKeys(["id"])
        let copy = viewModel.copy()
        #expect(copy.archivedKeys == ["id"])
        copy.addArchivedKeys(["text"])
        #expect(viewModel.archivedKeys == ["id"])
    }

    @Test func snapshotsKeepRegistrationsSoABackgroundExportWritesTheSameKeys() async {
        let item = ViewModel(["id_str": "1", "text": "hello", "authToken": "secret"])
        let section = Section(items: [item], header: ViewModel(["title": "T", "draft": true]))
        section.addSerializableKeys(["title"], for: .header)
        let manager = Manager(sections: [section])
        manager.addSerializableKeys(["id_str", "text"], for: .items)
        manager.addArchivedKeys(["id_str"], for: .items)
        let viewModel = ViewModel(["id": 1, "local": "x"]).addSerializableKeys(["id"]).addArchivedKeys(["local"])

        let managerSnapshot = manager.snapshot, viewModelSnapshot = viewModel.snapshot
        let (managerJSON, viewModelJSON, archived) = await Task.detached {
            let copy = managerSnapshot.makeManager()
            return (copy.exportJSON(), viewModelSnapshot.makeViewModel().exportJSON(), copy.archivedKeys(for: .items))
        }.value
        #expect(managerJSON == manager.exportJSON())
        #expect(managerJSON["sections"]?[0]?["items"]?[0] == ["id_str": "1", "text": "hello"])
        #expect(managerJSON["sections"]?[0]?["header"] == ["title": "T"])
        #expect(viewModelJSON == ["id": 1])
        #expect(archived == ["id_str"])
        #expect(viewModelSnapshot.makeViewModel().archivedKeys == ["local"])
        #expect(section.snapshot.makeSection().serializableKeys(for: .header) == ["title"])
    }

    @Test func sectionPartsRegisterSeparately() {
        let section = Section()
        section.addSerializableKeys(["title"], for: .header).addSerializableKeys(["id", "text"], for: .items)
        section.addArchivedKeys(["id"], for: .items)
        #expect(section.serializableKeys(for: .header) == ["title"])
        #expect(section.serializableKeys(for: .items) == ["id", "text"])
        #expect(section.serializableKeys(for: .footer).isEmpty)
        #expect(section.archivedKeys(for: .items) == ["id"])
        section.removeSerializableKeys(["text"], for: .items)
        #expect(section.serializableKeys(for: .items) == ["id"])
        section.removeAllSerializableKeys(for: .header)
        #expect(section.serializableKeys(for: .header).isEmpty)
        #expect(section.serializableKeys(for: .items) == ["id"])
        section.removeAllSerializableKeys()
        #expect(SectionPart.allCases.allSatisfy { section.serializableKeys(for: $0).isEmpty })
        #expect(section.archivedKeys(for: .items) == ["id"])
    }

    @Test func partKeysAddToEachViewModelsOwn() {
        let item = ViewModel(["id": 1, "text": "a", "likes": 3]).addSerializableKeys(["likes"])
        let other = ViewModel(["id": 2, "text": "b", "likes": 4])
        let section = Section(items: [item, other], header: ViewModel(["title": "T", "count": 2]))
        section.addSerializableKeys(["id"], for: .items)
        let json = section.exportJSON()
        #expect(json["items"]?[0]?.objectValue?.keys == ["id", "likes"])
        #expect(json["items"]?[1]?.objectValue?.keys == ["id"])
        // The header has no registration anywhere: everything.
        #expect(json["header"] == ["title": "T", "count": 2])
    }

    @Test func managerPartsApplyToEverySectionAndItsCommon() {
        let manager = PersistenceFixtures.manager()
        manager.addSerializableKeys(["id"], for: .items).addSerializableKeys(["title"], for: .header)
        manager.addSerializableKeys(["screen"], for: .common)
        manager.addArchivedKeys(["text"], for: .items)
        #expect(manager.serializableKeys(for: .items) == ["id"])
        #expect(manager.archivedKeys(for: .items) == ["text"])
        manager[0].addSerializableKeys(["text"], for: .items)
        let json = manager.exportJSON()
        #expect(json["common"] == ["screen": "home"])
        #expect(json["sections"]?[0]?["items"]?[0]?.objectValue?.keys == ["id", "text"])
        #expect(json["sections"]?[1]?["items"]?[0] == ["id": 3])
        #expect(json["sections"]?[0]?["header"] == ["title": "Articles"])
        // `common` covers the sections' common ViewModels too.
        #expect(json["sections"]?[0]?["common"] == [:])
    }
}

extension KeyRegistrationTests {
    @Test func removingAllSerializableKeysOfASectionClearsEveryPart() {
        let section = Section(items: [])
        for part in SectionPart.allCases { section.addSerializableKeys(["k"], for: part) }
        section.removeAllSerializableKeys()
        for part in SectionPart.allCases { #expect(section.serializableKeys(for: part).isEmpty, "\(part)") }
    }
}

extension KeyRegistrationTests {
    /// Removing archived keys touches the archived list only, and clearing
    /// every part of a section or manager clears each of them.
    @Test func archivedKeyRemovalClearsTheArchivedListsOnly() {
        let viewModel = ViewModel(["id": 1]).addSerializableKeys(["id"]).addArchivedKeys(["id"])
        viewModel.removeArchivedKeys(["id"])
        #expect(viewModel.archivedKeys.isEmpty)
        #expect(viewModel.serializableKeys == ["id"])
        let section = Section(items: [])
        let manager = Manager()
        for part in SectionPart.allCases {
            section.addArchivedKeys(["k"], for: part)
            manager.addArchivedKeys(["k"], for: part)
        }
        section.removeAllArchivedKeys()
        manager.removeAllArchivedKeys()
        for part in SectionPart.allCases {
            #expect(section.archivedKeys(for: part).isEmpty, "section \(part)")
            #expect(manager.archivedKeys(for: part).isEmpty, "manager \(part)")
        }
    }
}

extension KeyRegistrationTests {
    /// Each part of a section or manager reads and removes its own
    /// registrations for the purpose named, leaving the other parts and
    /// the other purpose alone.
    @Test func partRegistrationsAreReadAndRemovedPerPartAndPurpose() {
        let section = Section(items: [])
        section.addArchivedKeys(["title"], for: .header).addArchivedKeys(["id", "text"], for: .items)
        section.addSerializableKeys(["id"], for: .items)
        #expect(section.archivedKeys(for: .header) == ["title"])
        section.removeArchivedKeys(["id"], for: .items)
        #expect(section.archivedKeys(for: .items) == ["text"])
        #expect(section.serializableKeys(for: .items) == ["id"])

        let manager = Manager()
        manager.addSerializableKeys(["id", "text"], for: .items)
        manager.addArchivedKeys(["title"], for: .header).addArchivedKeys(["id"], for: .items)
        manager.removeSerializableKeys(["text"], for: .items)
        #expect(manager.serializableKeys(for: .items) == ["id"])
        manager.removeAllArchivedKeys(for: .header)
        #expect(manager.archivedKeys(for: .header).isEmpty)
        #expect(manager.archivedKeys(for: .items) == ["id"])
    }
}
