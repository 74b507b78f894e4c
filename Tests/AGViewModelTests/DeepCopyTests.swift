import Observation
import Testing
import AGViewModel

@Suite("Deep copies of nested structure")
struct DeepCopyTests {
    @Test func copyingDeepCopiesSectionPayloads() {
        let item = ViewModel(["id": 1, "title": "Swift"])
        let section = Section(items: [item], header: ViewModel(["title": "Languages"]), itemMerge: ViewModel(["style": "card"]))
        section.addSerializableKeys(["id"], for: .items)
        let screen = ViewModel(["name": "home"])
        screen[value: "list"] = .payload(section)

        let copy = screen.copy()
        guard case .payload(let payload)? = copy[value: "list"], let copied = payload as? Section else {
            Issue.record("the copy has no section payload")
            return
        }
        #expect(copied !== section)
        #expect(copied[0] !== item)
        #expect(copied.header !== section.header && copied.itemMerge !== section.itemMerge)
        #expect(copied[0]["title"] == "Swift" && copied.header?["title"] == "Languages")
        // Registered keys travel with the copy.
        #expect(copied.exportJSON() == section.exportJSON())

        // Changing the copy leaves the original alone, and the other way round.
        copied[0]["title"] = "Swift 6"
        copied.append(ViewModel(["id": 2]))
        copied.header?["title"] = "Changed"
        #expect(item["title"] == "Swift")
        #expect(section.count == 1)
        #expect(section.header?["title"] == "Languages")
        section.itemMerge?["style"] = "plain"
        #expect(copied.itemMerge?["style"] == "card")
    }

    @Test func copyingDeepCopiesManagerPayloadsKeepingSharedShape() {
        let shared = ViewModel(["id": 7])
        let manager = Manager(sections: [Section(items: [shared]), Section(items: [shared])], common: ViewModel(["theme": "dark"]))
        let screen = ViewModel()
        screen[value: "table"] = .payload(manager)
        screen[value: "again"] = .payload(manager)   // reachable twice

        let copy = screen.copy()
        guard case .payload(let first)? = copy[value: "table"], let table = first as? Manager,
              case .payload(let second)? = copy[value: "again"], let again = second as? Manager else {
            Issue.record("the copy has no manager payloads")
            return
        }
        #expect(table !== manager)
        #expect(table === again)                       // copied once
        #expect(table[0][0] === table[1][0])           // still one shared item
        #expect(table[0][0] !== shared)
        #expect(table.common !== manager.common && table.common?["theme"] == "dark")
        table[0][0]["id"] = 8
        #expect(shared["id"] == 7)
    }

    @Test func aSectionThatContainsItselfIsCopiedWithTheSameShape() {
        let section = Section(items: [ViewModel(["id": 1])])
        section[0][value: "parent"] = .payload(section)
        let holder = ViewModel()
        holder[value: "section"] = .payload(section)
        let copy = holder.copy()
        guard case .payload(let payload)? = copy[value: "section"], let copied = payload as? Section,
              case .payload(let inner)? = copied[0][value: "parent"] else {
            Issue.record("shape lost")
            return
        }
        #expect(copied !== section)
        #expect((inner as? Section) === copied)
    }

    @Test func aSectionCopiesItselfDeeply() {
        let shared = ViewModel(["id": 1, "title": "Swift"])
        let section = Section(items: [shared, ViewModel(["id": 2]), shared],
                              header: ViewModel(["title": "Languages"]), footer: ViewModel(["note": "end"]),
                              itemMerge: ViewModel(["style": "card"]))
        section.addSerializableKeys(["id"], for: .items)
        shared[value: "parent"] = .payload(section)

        let copied = section.copy()
        #expect(copied !== section && copied.count == 3)
        #expect(copied[0] !== shared && copied[0] === copied[2])   // held twice, copied once
        #expect(copied.header !== section.header && copied.footer?["note"] == "end")
        #expect(copied.exportJSON() == section.exportJSON())       // registered keys kept
        guard case .payload(let parent)? = copied[0][value: "parent"] else {
            Issue.record("the item's payload is gone")
            return
        }
        #expect((parent as? Section) === copied)                     // the cycle points at the copy

        copied[0]["title"] = "Swift 6"
        copied.remove(at: 1)
        copied.footer?["note"] = "changed"
        #expect(shared["title"] == "Swift" && section.count == 3 && section.footer?["note"] == "end")
        section.itemMerge?["style"] = "plain"
        #expect(copied.itemMerge?["style"] == "card")
    }

    @Test func aManagerCopiesItselfDeeply() {
        let shared = ViewModel(["id": 7])
        let sectionHeldTwice = Section(items: [ViewModel(["id": 9])])
        let manager = Manager(sections: [Section(items: [shared]), Section(items: [shared]), sectionHeldTwice, sectionHeldTwice],
                              common: ViewModel(["theme": "dark"]))
        manager.addSerializableKeys(["id"], for: .items)

        let copied = manager.copy()
        #expect(copied !== manager && copied.count == 4)
        #expect(copied[0][0] === copied[1][0] && copied[0][0] !== shared)
        #expect(copied[2] === copied[3] && copied[2] !== sectionHeldTwice)
        #expect(copied.common !== manager.common && copied.common?["theme"] == "dark")
        #expect(copied.exportJSON() == manager.exportJSON())

        copied[0][0]["id"] = 8
        copied[2].append(ViewModel(["id": 10]))
        copied.common?["theme"] = "light"
        #expect(shared["id"] == 7 && sectionHeldTwice.count == 1 && manager.common?["theme"] == "dark")
    }
}

extension DeepCopyTests {
    @Test func snapshotsCarrySectionsAndManagers() {
        let section = Section(items: [ViewModel(["id": 1])])
        let manager = Manager(sections: [Section(items: [ViewModel(["id": 2])])])
        let screen = ViewModel().set("list", payload: section).set("table", payload: manager)
        let snapshot = screen.snapshot
        #expect(snapshot.omittedKeys.isEmpty && snapshot.keys == ["list", "table"])
        let copy = snapshot.makeViewModel()
        let copiedSection = copy.payload(forKey: "list", as: Section.self)
        #expect(copiedSection != nil && copiedSection !== section && copiedSection?[0]["id"] == 1)
        let copiedManager = copy.payload(forKey: "table", as: Manager.self)
        #expect(copiedManager != nil && copiedManager !== manager && copiedManager?[0][0]["id"] == 2)
    }

    @Test func aSnapshotLeavesOutAListHoldingItsOwnViewModel() {
        let vm = ViewModel(["n": 1])
        vm.set("list", payload: [ViewModel(["m": 2]), vm])
        let snapshot = vm.snapshot
        #expect(snapshot.omittedKeys == ["list"] && snapshot.keys == ["n"])
        vm.removeValue(forKey: "list")
    }
}

extension DeepCopyTests {
    /// Typed storage keeps lists of sections and of managers as payloads:
    /// a copy copies them too, keeping an item held twice as one.
    @Test func copyingDeepCopiesListsOfSectionsAndManagers() {
        let shared = ViewModel(["id": 1])
        let first = Section(items: [shared]), second = Section(items: [shared])
        let table = Manager(sections: [Section(items: [ViewModel(["id": 2])])])
        let screen = ViewModel()
        screen[value: "groups"] = [first, second].viewModelValue
        screen[value: "tables"] = [table].viewModelValue
        let copy = screen.copy()
        let groups = copy.payload(forKey: "groups", as: [Section].self)
        let tables = copy.payload(forKey: "tables", as: [Manager].self)
        #expect(groups?.count == 2 && groups?[0] !== first && groups?[1] !== second)
        #expect(groups?[0][0] !== shared && groups?[0][0] === groups?[1][0])
        #expect(tables?.count == 1 && tables?[0] !== table && tables?[0][0] !== table[0])
        groups?[0][0]["id"] = 9
        tables?[0][0][0]["id"] = 8
        #expect(shared["id"] == 1 && table[0][0]["id"] == 2)
    }
}

private struct Badge: ViewModelPayload { var name: String }

/// A payload type that stores itself as JSON.
private struct HexColor: ViewModelPayload {
    var hex: String
    var viewModelValue: ViewModelValue { .json(.string(hex)) }
}

extension DeepCopyTests {
    /// An empty array of payload elements (`[[ViewModel]]`, `[Badge]`)
    /// stays a payload, as an empty `[ViewModel]` does, so it reads back
    /// as its type and exports as a non-empty one would.
    @Test func anEmptyArrayOfPayloadsStaysAPayload() {
        let vm = ViewModel()
        vm[value: "grid"] = ([] as [[ViewModel]]).viewModelValue
        vm[value: "badges"] = ([] as [Badge]).viewModelValue
        vm[value: "names"] = ([] as [String]).viewModelValue
        #expect(vm.payload(forKey: "grid", as: [[ViewModel]].self) != nil)
        #expect(vm.payload(forKey: "badges", as: [Badge].self) != nil)
        #expect(vm["names"] == [])
        // One whose elements store themselves as JSON stays JSON when not empty.
        vm[value: "colors"] = [HexColor(hex: "#fff")].viewModelValue
        #expect(vm["colors"] == ["#fff"])
    }

    /// Copying reads untracked, as the library's other bulk reads do: a
    /// copy made in an Observation scope does not hear later writes.
    @Test func copyingIsNoObservedRead() {
        let vm = ViewModel(["title": "a"])
        vm[value: "child"] = .payload(ViewModel(["name": "b"]))
        let fired = Recorder<Bool>()
        withObservationTracking { _ = vm.copy() } onChange: { fired.append(true) }
        vm["title"] = "c"
        #expect(fired.count == 0)
    }
}
