import Foundation
import Synchronization
import Testing
@testable import AGViewModel

@Suite("ChangeSet")
struct ChangeSetTests {
    /// A manager from `[[id]]`; each section's header has id `"s<index>"`
    /// unless `sectionIDs` says otherwise.
    private func manager(_ layout: [[Int64]], sectionIDs: [String]? = nil, titles: [Int64: String] = [:]) -> Manager {
        let ids = sectionIDs ?? layout.indices.map { "s\($0)" }
        return Manager(sections: layout.enumerated().map { s, items in
            Section(items: items.map { id in
                let vm = ViewModel(["id": .int(id)])
                if let title = titles[id] { vm["title"] = .string(title) }
                return vm
            }, header: ViewModel(["id": .string(ids[s])]))
        })
    }

    private func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    private func layout(_ manager: Manager) -> [[Int64]] { manager.map { GroupingFixtures.ids($0) } }

    @Test func identicalManagersHaveNoChanges() {
        let changes = ChangeSet(from: manager([[1, 2], [3]]), to: manager([[1, 2], [3]]))
        #expect(changes.isEmpty)
        #expect(changes.description == "no changes")
    }

    @Test func documentedExample() throws {
        let old = manager([[1, 2, 3, 4], [5, 6]], titles: [2: "old"])
        let new = manager([[1, 2, 4, 7], [6, 3, 5]], titles: [2: "new"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.insertedItems == [path(0, 3)])
        #expect(changes.movedItems.first == .init(from: path(0, 2), to: path(1, 1)))
        #expect(changes.reloadedItems == [path(0, 1)])
        #expect(changes.deletedItems.isEmpty)
        // 5 and 6 swap places: one of them moves, the other stays.
        #expect(changes.movedItems.count == 2)
        #expect(changes.changeCount == 4)
        try changes.apply(to: old, new: new)
        #expect(layout(old) == [[1, 2, 4, 7], [6, 3, 5]])
        #expect(old[0][1]["title"] == "new")
    }

    /// A row whose value the API now writes differently (`9.0` as `9`)
    /// shows differently, so it reloads; the same form does not.
    @Test func aValueWrittenDifferentlyReloadsItsRow() {
        func rows(_ prices: [JSONValue]) -> Manager {
            Manager(sections: [Section(items: prices.enumerated().map { i, price in
                ViewModel(["id": .int(Int64(i)), "price": price])
            })])
        }
        let changes = ChangeSet(from: rows([9.0, 2, 3.5]), to: rows([9, 2, 3.5]))
        #expect(changes.reloadedItems == [path(0, 0)])
        #expect(changes.changeCount == 1)
    }

    /// Rows packaged with an on-demand command, whose output a cell asked
    /// for on the shown rows only: the same response again reloads
    /// nothing, directly or through snapshot copies (the background diff),
    /// and a changed input still reloads its row.
    @Test func commandOutputsComputedOnOneSideOnlyAreNotChanges() throws {
        func row(_ id: Int64, price: Double) -> ViewModel {
            let vm = ViewModel(["id": .int(id), "price": .double(price)])
            vm.setCommand(forKey: "priceText", dependsOn: ["price"]) { vm -> JSONValue? in
                .string("\(vm.double(at: "price", default: 0)) EUR")
            }
            return vm
        }
        func page(_ prices: [Double], author: Bool = false) -> Manager {
            Manager(sections: [Section(items: prices.enumerated().map { i, price in
                let vm = row(Int64(i), price: price)
                if author { vm[value: "author"] = .payload(row(100, price: price)) }
                return vm
            })])
        }
        let shown = page([10, 12], author: true)
        for item in shown[0] {
            _ = try item.executeCommandIfNeeded(forKey: "priceText")
            _ = try item.payload(forKey: "author", as: ViewModel.self)?.executeCommandIfNeeded(forKey: "priceText")
        }
        #expect(shown[0][0]["priceText"] == "10.0 EUR")
        #expect(ChangeSet(from: shown, to: page([10, 12], author: true)).isEmpty)
        #expect(ChangeSet(from: shown.snapshot.makeManager(), to: page([10, 12], author: true).snapshot.makeManager()).isEmpty)
        #expect(ChangeSet(from: shown.copy(), to: page([10, 12], author: true)).isEmpty)
        #expect(ChangeSet(from: shown, to: page([10, 13], author: true)).reloadedItems == [path(0, 1)])
        #expect(ChangeSet(from: shown.snapshot.makeManager(), to: page([10, 13], author: true).snapshot.makeManager())
            .reloadedItems == [path(0, 1)])
        // A value that is no command's output still counts.
        let plain = page([10, 12])
        plain[0][0]["note"] = "x"
        #expect(ChangeSet(from: plain, to: page([10, 12])).reloadedItems == [path(0, 0)])
        #expect(ChangeSet(from: page([10, 12]), to: plain).reloadedItems == [path(0, 0)])
    }

    /// A key that is a command's output on one side and data on the
    /// other is compared: the row changed.
    @Test func aCommandOutputAgainstDataIsCompared() throws {
        let shownRow = ViewModel(["id": 1, "status": "loading"])
        shownRow.setCommand(forKey: "title", dependsOn: ["status"]) { _ -> JSONValue? in "Loading…" }
        _ = try shownRow.executeCommandIfNeeded(forKey: "title")
        let shown = Manager(sections: [Section(items: [shownRow])])
        let fresh = Manager(sections: [Section(items: [ViewModel(["id": 1, "status": "loading", "title": "Real title"])])])
        let changes = ChangeSet(from: shown, to: fresh)
        #expect(!changes.isEmpty, "title went from 'Loading…' (command output) to 'Real title' (data)")
    }

    /// Commands on both sides with a value on one, snapshot copies
    /// against plain rows and against data: outputs are skipped, data
    /// under an output's key is compared.
    @Test func commandOutputsAgainstPlainRowsAndSnapshotCopies() throws {
        let shownRow = ViewModel(["id": 1, "status": "a"])
        shownRow.setCommand(forKey: "title", dependsOn: ["status"]) { _ -> JSONValue? in "T" }
        _ = try shownRow.executeCommandIfNeeded(forKey: "title")
        let freshRow = ViewModel(["id": 1, "status": "a"])
        freshRow.setCommand(forKey: "title", dependsOn: ["status"]) { _ -> JSONValue? in "T" }
        let c = ChangeSet(from: Manager(sections: [Section(items: [shownRow])]), to: Manager(sections: [Section(items: [freshRow])]))
        #expect(c.isEmpty)
        // snapshot copies on both sides
        let s1 = Manager(sections: [Section(items: [shownRow])]).snapshot.makeManager()
        let s2 = Manager(sections: [Section(items: [freshRow])]).snapshot.makeManager()
        #expect(ChangeSet(from: s1, to: s2).isEmpty)
        // snapshot copy of shown vs fresh without command, no value
        let plain = Manager(sections: [Section(items: [ViewModel(["id": 1, "status": "a"])])])
        #expect(ChangeSet(from: s1, to: plain).isEmpty)
        #expect(ChangeSet(from: plain, to: s1).isEmpty)
        // snapshot copy vs data
        let data = Manager(sections: [Section(items: [ViewModel(["id": 1, "status": "a", "title": "U"])])])
        #expect(!ChangeSet(from: s1, to: data).isEmpty)
        let dataSame = Manager(sections: [Section(items: [ViewModel(["id": 1, "status": "a", "title": "T"])])])
        #expect(ChangeSet(from: s1, to: dataSame).isEmpty)
    }

    /// An identity written differently (`1` for `1.0`, a big integer for
    /// an int) still matches its row, and the row, which shows it
    /// differently, is reloaded; in its section or moved to another.
    @Test func anIdentityWrittenDifferentlyReloadsItsRow() throws {
        for (before, after) in [(JSONValue.int(1), JSONValue.double(1)), (.bigInteger("1"), .int(1))] {
            let old = Manager(sections: [Section(items: [ViewModel(["id": before, "title": "A"])]), Section()])
            let new = Manager(sections: [Section(items: [ViewModel(["id": after, "title": "A"])]), Section()])
            let changes = ChangeSet(from: old, to: new)
            #expect(changes.reloadedItems == [path(0, 0)], "\(before) -> \(after)")
            #expect(changes.changeCount == 1)
            try changes.apply(to: old, new: new)
            #expect(old[0][0][value: "id"]?.isSame(as: .json(after)) == true)
            #expect(ChangeSet(from: old, to: new).changeCount == 0)

            let across = ChangeSet(
                from: Manager(sections: [Section(items: [ViewModel(["id": before])]), Section()]),
                to: Manager(sections: [Section(), Section(items: [ViewModel(["id": after])])]))
            #expect(across.movedItems.isEmpty, "\(before) -> \(after)")
            #expect(across.deletedItems == [path(0, 0)] && across.insertedItems == [path(1, 0)])
        }
    }

    @Test func movedAndChangedItemIsDeletedAndInserted() throws {
        let old = manager([[1], [2]], titles: [1: "a"])
        let new = manager([[], [2, 1]], titles: [1: "b"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedItems.isEmpty && changes.reloadedItems.isEmpty)
        #expect(changes.deletedItems == [path(0, 0)])
        #expect(changes.insertedItems == [path(1, 1)])
        try changes.apply(to: old, new: new)
        #expect(layout(old) == [[], [2, 1]])
        #expect(old[1][1]["title"] == "b")
        // Unchanged, the same item is a move.
        let moved = ChangeSet(from: manager([[1], [2]]), to: manager([[], [2, 1]]))
        #expect(moved.movedItems == [.init(from: path(0, 0), to: path(1, 1))])
        #expect(moved.changeCount == 1)
    }

    @Test func sectionInsertsDeletesAndMoves() throws {
        let old = manager([[1], [2], [3], [4]], sectionIDs: ["a", "b", "c", "d"])
        let new = manager([[4], [9], [1], [3]], sectionIDs: ["d", "x", "a", "c"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.deletedSections == [1])
        #expect(changes.insertedSections == [1])
        #expect(changes.movedSections == [.init(from: 3, to: 0)])
        // Items of deleted/inserted sections are covered by the section change.
        #expect(changes.deletedItems.isEmpty && changes.insertedItems.isEmpty && changes.movedItems.isEmpty)
        try changes.apply(to: old, new: new)
        #expect(layout(old) == [[4], [9], [1], [3]])
    }

    /// What a table or collection view shows after a batch: it runs each
    /// reload as a delete of the old index path and an insert at the same
    /// index path, read in the new coordinates. Throws where UIKit raises.
    private func shownAfterViewRuns(_ batch: ChangeSet, _ old: Manager, _ new: Manager) throws -> [[String]] {
        var run = batch
        run.deletedItems = (batch.deletedItems + batch.reloadedItems).sorted()
        run.insertedItems = (batch.insertedItems + batch.reloadedItems).sorted()
        run.reloadedItems = []
        return try run.apply(to: old.map(\.items), new: new.map(\.items)).map { section in
            section.map { "\(GroupingFixtures.int($0["id"]) ?? -1)\($0["title"] == nil ? "" : "'")" }
        }
    }

    /// A row moved past an edited one: reloading the edited row in the same
    /// batch would show its neighbour twice, so the view is sent a delete
    /// and an insert instead.
    @Test func aViewBatchNeverReloadsBesideAMove() throws {
        let old = manager([[1, 2, 3]]), new = manager([[2, 3, 1]], titles: [2: "edited"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.reloadedItems == [path(0, 1)] && changes.movedItems.count == 1)
        let sent = try changes.viewBatchUpdates(updating: old, to: new)
        #expect(sent.reloadedItems.isEmpty)
        #expect(try shownAfterViewRuns(sent, old, new) == [["2'", "3", "1"]])
        #expect(try shownAfterViewRuns(changes.batchUpdates, old, new) != [["2'", "3", "1"]])
    }

    /// A section inserted above an edited row: the reload's insert would
    /// land in the new section, and the view would raise.
    @Test func aViewBatchNeverReloadsBesideASectionInsert() throws {
        let old = manager([[1, 2]], sectionIDs: ["a"])
        let new = manager([[9], [1, 2]], sectionIDs: ["top", "a"], titles: [2: "edited"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.insertedSections == [0] && changes.reloadedItems == [path(0, 1)])
        #expect(throws: GroupingError.self) { _ = try shownAfterViewRuns(changes.batchUpdates, old, new) }
        let sent = try changes.viewBatchUpdates(updating: old, to: new)
        #expect(try shownAfterViewRuns(sent, old, new) == [["9"], ["1", "2'"]])
        // Reloads alone stay reloads.
        let edited = manager([[1, 2]], sectionIDs: ["a"], titles: [1: "edited"])
        #expect(try ChangeSet(from: old, to: edited).viewBatchUpdates(updating: old, to: edited).reloadedItems == [path(0, 0)])
    }

    /// What the UIKit helpers send: a moved section with item changes is
    /// deleted and inserted; item moves into or out of it become an insert
    /// or a delete on the other side; an untouched moved section still moves.
    @Test func batchUpdatesNeverMoveASectionWhoseItemsChange() throws {
        let old = manager([[1], [2], [3, 4, 5], [7], [8]], sectionIDs: ["a", "b", "c", "d", "e"])
        let new = manager([[3, 6, 5], [1, 7], [2], [8]], sectionIDs: ["c", "a", "b", "e"], titles: [5: "changed"])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedSections.contains(.init(from: 2, to: 0)))
        let updates = try changes.batchUpdates(updating: old, to: new)
        #expect(updates.deletedSections == [2, 3] && updates.insertedSections == [0])
        #expect(!updates.movedSections.contains { $0.from == 2 })
        // 7 left deleted section "d" for "a": an insert. Nothing in "c" is listed.
        #expect(updates.insertedItems == [path(1, 1)])
        #expect(updates.deletedItems.isEmpty && updates.reloadedItems.isEmpty && updates.movedItems.isEmpty)
        #expect(try updates.apply(to: old.map(\.items), new: new.map(\.items)).map { $0.map { GroupingFixtures.int($0["id"]) } }
                == [[3, 6, 5], [1, 7], [2], [8]])

        // An item moving out of a moved section into a kept one: an insert there.
        let old2 = manager([[1], [2, 3]], sectionIDs: ["a", "b"])
        let new2 = manager([[2], [1, 3]], sectionIDs: ["b", "a"])
        let moves = ChangeSet(from: old2, to: new2)
        let batch = moves.batchUpdates
        #expect(!moves.movedSections.isEmpty && !moves.movedItems.isEmpty)
        #expect(batch.movedSections.isEmpty && batch.movedItems.isEmpty)
        #expect(try batch.apply(to: old2.map(\.items), new: new2.map(\.items)).map { $0.map { GroupingFixtures.int($0["id"]) } }
                == [[2], [1, 3]])

        // Moves with untouched items stay moves; no moves, nothing to do.
        let plain = ChangeSet(from: manager([[1], [2]], sectionIDs: ["a", "b"]), to: manager([[2], [1]], sectionIDs: ["b", "a"]))
        #expect(plain.batchUpdates == plain && !plain.movedSections.isEmpty)

        // A hand-made change set with a malformed index path is passed on
        // for UIKit to refuse, not trapped on here.
        let malformed = ChangeSet(movedSections: [.init(from: 0, to: 1)], deletedItems: [IndexPath(indexes: [])])
        #expect(malformed.batchUpdates.movedSections == malformed.movedSections)
    }

    /// A batch update does not ask for header and footer views again: the
    /// UIKit helpers' update step hands the views of kept sections over to
    /// the new header and footer ViewModels and shows their content.
    @MainActor
    @Test func batchUpdateStepMovesHeaderAndFooterViewsToTheNewViewModels() throws {
        let old = manager([[1], [2]], sectionIDs: ["a", "b"])
        let new = manager([[1, 3]], sectionIDs: ["a"])
        new.sections[0].header?["title"] = "A (2)"
        new.sections[0].footer = ViewModel(["title": "2 items"])
        old.sections[0].header?["title"] = "A (1)"
        old.sections[0].footer = ViewModel(["title": "1 item"])
        let headerView = FakeCell(), footerView = FakeCell(), goneView = FakeCell()
        let oldHeader = try #require(old.sections[0].header)
        oldHeader.bind(headerView)
        old.sections[0].footer?.bind(footerView)
        old.sections[1].header?.bind(goneView)

        let changes = ChangeSet(from: old, to: new)
        try changes.applyMovingHeaderAndFooterViews(to: old, new: new)
        #expect(layout(old) == [[1, 3]])
        #expect(headerView.applied.last == "A (2)" && footerView.applied.last == "2 items")
        #expect(old.sections[0].header?.bindingView === headerView)
        #expect(old.sections[0].footer?.bindingView === footerView)
        #expect(oldHeader.bindingView == nil)
        // Refreshing through the manager now reaches the view.
        old.sections[0].header?["title"] = "A (3)"
        old.refresh(.headerAndFooter)
        #expect(headerView.applied.last == "A (3)")
        // A deleted section's view is left alone.
        #expect(goneView.applied.count == 1)
    }

    /// Header objects that trade places: each view ends up showing its own
    /// section's new header, whatever order the hand-over runs in.
    @MainActor
    @Test func batchUpdateStepHandsOverSwappedHeaders() throws {
        let headerA = ViewModel(["title": "A"]), headerB = ViewModel(["title": "B"])
        // Headers without an id: sections are matched by position.
        let old = Manager(sections: [Section(items: [ViewModel(["id": 1])], header: headerA),
                                     Section(items: [ViewModel(["id": 2])], header: headerB)])
        let new = Manager(sections: [Section(items: [ViewModel(["id": 1])], header: headerB),
                                     Section(items: [ViewModel(["id": 2])], header: headerA)])
        let viewA = FakeCell(), viewB = FakeCell()
        headerA.bind(viewA)
        headerB.bind(viewB)
        try ChangeSet(from: old, to: new).applyMovingHeaderAndFooterViews(to: old, new: new)
        #expect(viewA.applied.last == "B" && viewB.applied.last == "A")
        #expect(headerB.bindingView === viewA && headerA.bindingView === viewB)

        // One header object shown in two sections: left alone.
        let shared = ViewModel(["title": "S"]), other = ViewModel(["title": "O"])
        let twice = Manager(sections: [Section(header: shared), Section(header: shared)])
        let viewS = FakeCell()
        shared.bind(viewS)
        let next = Manager(sections: [Section(header: other), Section(header: ViewModel(["title": "P"]))])
        try ChangeSet(from: twice, to: next).applyMovingHeaderAndFooterViews(to: twice, new: next)
        #expect(viewS.applied == ["S"] && shared.bindingView === viewS)
    }

    /// SwiftUI identifies rows and sections by object (`Identifiable`):
    /// applying keeps the objects of unchanged and moved rows and of kept
    /// sections, so a list animates only what changed.
    @Test func applyingKeepsTheIdentityOfKeptRowsAndSections() throws {
        let shown = manager([[1, 2, 3], [5]], sectionIDs: ["a", "b"])
        let fresh = manager([[3, 2, 4], [5]], sectionIDs: ["a", "b"], titles: [2: "edited"])
        let rows = Dictionary(uniqueKeysWithValues: shown.allItems.map { (GroupingFixtures.int($0["id"])!, $0.id) })
        let sections = shown.map(\.id)
        #expect(rows[1] == ObjectIdentifier(shown[0][0]))
        try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
        #expect(shown.map(\.id) == sections)
        // 3 moved and 5 stayed: the same objects. 2 was reloaded and 4
        // inserted: the new manager's objects.
        #expect(shown.allItems.map(\.id) == [rows[3], fresh[0][1].id, fresh[0][2].id, rows[5]])
    }

    /// A kept section takes its header, footer, common and item-merge
    /// ViewModels from `new`, as the apply documentation says.
    @Test func applyingTakesTheNewSectionsViewModels() throws {
        let shown = manager([[1]], sectionIDs: ["a"])
        let fresh = manager([[1, 2]], sectionIDs: ["a"])
        let kept = shown[0]
        shown[0].itemMerge = ViewModel(["kind": "old"])
        shown[0].common = ViewModel(["page": 1])
        let merge = ViewModel(["kind": "new"]), common = ViewModel(["page": 2]), footer = ViewModel(["more": true])
        fresh[0].itemMerge = merge
        fresh[0].common = common
        fresh[0].footer = footer
        try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
        #expect(shown[0] === kept)
        #expect(shown[0].itemMerge === merge)
        #expect(shown[0].common === common)
        #expect(shown[0].footer === footer)
        #expect(shown[0].header === fresh[0].header)
    }

    @Test func batchUpdatesRefuseAChangeSetThatNoLongerFits() {
        let changes = ChangeSet(from: manager([[1, 2]]), to: manager([[2]]))
        let shown = manager([[1]])  // changed since the diff
        #expect(throws: GroupingError.self) { try changes.batchUpdates(updating: shown, to: manager([[2]])) }
        #expect(layout(shown) == [[1]])
    }

    @Test func itemLeavingADeletedSectionIsAnInsert() {
        let changes = ChangeSet(from: manager([[1], [2]], sectionIDs: ["a", "b"]), to: manager([[1, 2]], sectionIDs: ["a"]))
        #expect(changes.deletedSections == [1])
        #expect(changes.insertedItems == [path(0, 1)])
        #expect(changes.movedItems.isEmpty)
    }

    @Test func itemsWithoutIdentityMatchByPosition() {
        let old = Manager(sections: [Section(items: [ViewModel(["t": "a"]), ViewModel(["t": "b"])])])
        let new = Manager(sections: [Section(items: [ViewModel(["t": "a"]), ViewModel(["t": "c"]), ViewModel(["t": "d"])])])
        let changes = ChangeSet(from: old, to: new)
        // No header either: the section matches by position too.
        #expect(changes.deletedSections.isEmpty && changes.insertedSections.isEmpty)
        #expect(changes.reloadedItems == [path(0, 1)])
        #expect(changes.insertedItems == [path(0, 2)])
        #expect(changes.changeCount == 2)
    }

    @Test func aNullIdentityIsContentWhenItemsMatchByPosition() throws {
        // Same number of keys on both sides: `"id": null` against a new key.
        let old = Manager(sections: [Section(items: [ViewModel(["id": nil, "title": "Dune"])])])
        let new = Manager(sections: [Section(items: [ViewModel(["title": "Dune", "subtitle": "2nd ed."])])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.reloadedItems == [path(0, 0)])
        try changes.apply(to: old, new: new)
        #expect(old[0].items[0]["subtitle"] == "2nd ed.")
        #expect(old[0].items[0]["id"] == nil)
    }

    @Test func duplicateIdentitiesMatchInOrderAndNeverTrap() throws {
        // [1, 1, 2] → [1, 2, 1]: the k-th 1 matches the k-th 1.
        let old = manager([[1, 1, 2]]), new = manager([[1, 2, 1]])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.changeCount == 1)
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty)
        try changes.apply(to: old, new: new)
        #expect(layout(old) == [[1, 2, 1]])

        // Surplus later duplicates are deletes (old) or inserts (new).
        let fewer = ChangeSet(from: manager([[7, 7, 7]]), to: manager([[7]]))
        #expect(fewer.deletedItems == [path(0, 1), path(0, 2)])
        let more = ChangeSet(from: manager([[7]]), to: manager([[7, 8, 7]]))
        #expect(more.insertedItems == [path(0, 1), path(0, 2)])

        // Duplicate section identities: the same rule.
        let sections = ChangeSet(from: manager([[1], [2]], sectionIDs: ["a", "a"]), to: manager([[1]], sectionIDs: ["a"]))
        #expect(sections.deletedSections == [1])
    }

    @Test func customAndKeyIdentityRules() {
        let old = Manager(sections: [Section(items: [ViewModel(["isbn": "x", "n": 1]), ViewModel(["isbn": "y", "n": 2])])])
        let new = Manager(sections: [Section(items: [ViewModel(["isbn": "y", "n": 2]), ViewModel(["isbn": "x", "n": 1])])])
        let byISBN = ChangeSet(from: old, to: new, identity: .key("isbn"))
        #expect(byISBN.movedItems.count == 1 && byISBN.changeCount == 1)
        let byN = ChangeSet(from: old, to: new, identity: .custom { $0["n"] })
        #expect(byN == byISBN)
        // Without identities, both positions changed content: two reloads.
        let byPosition = ChangeSet(from: old, to: new, identity: .key("missing"))
        #expect(byPosition.reloadedItems == [path(0, 0), path(0, 1)])
        #expect(IdentityRule.default.identity(of: ViewModel(["id": nil])) == nil)
        #expect(IdentityRule.default.identity(of: ViewModel(["id": .null])) == nil)
    }

    @Test func sameInstanceIsUnchangedAndPayloadsCompareBySameness() {
        let shared = ViewModel(["id": 1])
        let a = ViewModel(["id": 2]); a[value: "icon"] = .payload("star")
        let b = ViewModel(["id": 2]); b[value: "icon"] = .payload("star")
        let c = ViewModel(["id": 2]); c[value: "icon"] = .payload("moon")
        let changes = ChangeSet(from: Manager(sections: [Section(items: [shared, a])]),
                                to: Manager(sections: [Section(items: [shared, b])]))
        #expect(changes.isEmpty)
        let changed = ChangeSet(from: Manager(sections: [Section(items: [shared, a])]),
                                to: Manager(sections: [Section(items: [shared, c])]))
        #expect(changed.reloadedItems == [path(0, 1)])
    }

    /// A row whose nested ViewModels were packaged afresh, or made from a
    /// snapshot, with the same values is unchanged; a nested value that
    /// changed, however deep, reloads it.
    @Test func nestedViewModelsCompareByContent() {
        func status(_ id: Int64, author: String, replies: [String] = ["hi"]) -> ViewModel {
            let item = ViewModel(["id": .int(id), "text": "hello"])
            let user = ViewModel(["name": .string(author)])
            user[value: "avatar"] = .payload(ViewModel(["url": .string("https://x/\(author).png")]))
            item[value: "author"] = .payload(user)
            item[value: "replies"] = .payload(replies.map { ViewModel(["text": .string($0)]) })
            return item
        }
        func feed(_ items: [ViewModel]) -> Manager { Manager(sections: [Section(items: items)]) }
        let shown = feed([status(1, author: "ada"), status(2, author: "bo")])
        #expect(ChangeSet(from: shown, to: feed([status(1, author: "ada"), status(2, author: "bo")])).isEmpty)
        #expect(ChangeSet(from: shown.snapshot.makeManager(), to: shown).isEmpty)
        let renamed = ChangeSet(from: shown, to: feed([status(1, author: "ada"), status(2, author: "cy")]))
        #expect(renamed.reloadedItems == [path(0, 1)] && renamed.changeCount == 1)
        let deeper = feed([status(1, author: "ada"), status(2, author: "bo")])
        (deeper[0][0][value: "author"]?.payload as? ViewModel)?[value: "avatar"] = .payload(ViewModel(["url": "other"]))
        #expect(ChangeSet(from: shown, to: deeper).reloadedItems == [path(0, 0)])
        let replied = ChangeSet(from: shown, to: feed([status(1, author: "ada", replies: ["hi", "yo"]), status(2, author: "bo")]))
        #expect(replied.reloadedItems == [path(0, 0)])
        // A nested ViewModel and a JSON value under one key differ.
        let flat = feed([status(1, author: "ada"), status(2, author: "bo")])
        flat[0][1]["author"] = ["name": "bo"]
        #expect(ChangeSet(from: shown, to: flat).reloadedItems == [path(0, 1)])
    }

    /// Nested sections and managers compare part by part: a snapshot's
    /// copy of a row holding them is unchanged; a change inside reloads it.
    @Test func nestedSectionsAndManagersCompareByContent() {
        func row(_ id: Int64, related: Int64 = 9, theme: String = "dark") -> ViewModel {
            let item = ViewModel(["id": .int(id)])
            item[ViewModel.Key<Section>("related")] = Section(items: [ViewModel(["id": .int(related)])], header: ViewModel(["title": "More"]))
            item[ViewModel.Key<Manager>("catalog")] = Manager(sections: [Section(items: [ViewModel(["id": 1])])],
                                                              common: ViewModel(["theme": .string(theme)]))
            return item
        }
        let shown = Manager(sections: [Section(items: [row(1), row(2)])])
        #expect(ChangeSet(from: shown.snapshot.makeManager(), to: shown).isEmpty)
        #expect(ChangeSet(from: shown, to: Manager(sections: [Section(items: [row(1), row(2)])])).isEmpty)
        let changed = Manager(sections: [Section(items: [row(1, related: 8), row(2, theme: "light")])])
        #expect(ChangeSet(from: shown, to: changed).reloadedItems == [path(0, 0), path(0, 1)])
        let headerless = Manager(sections: [Section(items: [row(1), row(2)])])
        headerless[0][0][ViewModel.Key<Section>("related")]?.header = nil
        #expect(ChangeSet(from: shown, to: headerless).reloadedItems == [path(0, 0)])
    }

    /// A changed graph every row shares: each row is reloaded.
    @Test func aChangedSharedGraphReloadsEveryRow() {
        func feed(_ name: String) -> Manager {
            let me = ViewModel(["name": .string(name)])
            return Manager(sections: [Section(items: (0..<50).map { i in
                let item = ViewModel(["id": .int(Int64(i))])
                item[value: "me"] = .payload(me)
                return item
            })])
        }
        #expect(ChangeSet(from: feed("ann"), to: feed("bo")).reloadedItems.count == 50)
        #expect(ChangeSet(from: feed("ann"), to: feed("ann")).isEmpty)
    }

    /// Nested graphs with cycles and sharing compare, and end.
    @Test func nestedCyclesCompareByContent() {
        func cyclic(_ name: String) -> ViewModel {
            let item = ViewModel(["id": 1]), a = ViewModel(["name": .string(name)]), b = ViewModel(["n": 2])
            a[value: "next"] = .payload(b)
            b[value: "back"] = .payload(a)
            item[value: "a"] = .payload(a)
            item[value: "again"] = .payload(a)
            return item
        }
        let same = ChangeSet(from: Manager(sections: [Section(items: [cyclic("x")])]),
                             to: Manager(sections: [Section(items: [cyclic("x")])]))
        #expect(same.isEmpty)
        let other = ChangeSet(from: Manager(sections: [Section(items: [cyclic("x")])]),
                              to: Manager(sections: [Section(items: [cyclic("y")])]))
        #expect(other.reloadedItems == [path(0, 0)])
        // A chain deeper than a 128 KB stack would hold by recursion.
        let results = onSmallStackThread(stackSize: 128 * 1024) { () -> [Int] in
            func chain(end: Int64) -> Manager {
                var node = ViewModel(["end": .int(end)])
                for _ in 0..<5_000 {
                    let parent = ViewModel()
                    parent[value: "child"] = .payload(node)
                    node = parent
                }
                node["id"] = 1
                return Manager(sections: [Section(items: [node])])
            }
            return [ChangeSet(from: chain(end: 1), to: chain(end: 1)).changeCount,
                    ChangeSet(from: chain(end: 1), to: chain(end: 2)).reloadedItems.count]
        }
        #expect(results == [0, 1])
    }

    @Test func applyKeepsInstancesOfUnchangedItems() throws {
        let old = manager([[1, 2, 3]], titles: [2: "a"])
        let one = old[0][0], two = old[0][1], three = old[0][2]
        let new = manager([[3, 1, 2]], titles: [2: "b"])
        try ChangeSet(from: old, to: new).apply(to: old, new: new)
        #expect(old[0][0] === three && old[0][1] === one)
        #expect(old[0][2] !== two && old[0][2]["title"] == "b")
        #expect(old.indexPath(of: three) == path(0, 0))
    }

    @Test func applyReadsNewBeforeChangingSectionsItShares() throws {
        // Headers without identity: sections match by position, so each
        // old section takes the other's header and items.
        let a = Section(items: [ViewModel(["id": 1]), ViewModel(["id": 2])], header: ViewModel(["title": "A"]))
        let b = Section(items: [ViewModel(["id": 3])], header: ViewModel(["title": "B"]))
        let shown = Manager(sections: [a, b])
        let fresh = Manager(sections: [b, a])
        try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
        #expect(shown.headers.map { $0?["title"] } == ["B", "A"])
        #expect(layout(shown) == [[3], [1, 2]])
    }

    @Test func aSectionObjectOnBothSidesIsOneSection() throws {
        // Matched by position alone, X (old 0) would be taken for Y (new 0)
        // and X inserted again at 1: one object in two places.
        let x = Section(items: [ViewModel(["id": 1])], header: ViewModel(["title": "X"]))
        let y = Section(items: [ViewModel(["id": 2])], header: ViewModel(["title": "Y"]))
        let shown = Manager(sections: [x])
        let fresh = Manager(sections: [y, x])
        let changes = ChangeSet(from: shown, to: fresh)
        #expect(changes.insertedSections == [0])
        #expect(changes.movedSections.isEmpty && changes.deletedSections.isEmpty && changes.changeCount == 1)
        try changes.apply(to: shown, new: fresh)
        #expect(shown.sections[0] === y && shown.sections[1] === x)
        #expect(shown.headers.map { $0?["title"] } == ["Y", "X"])
        #expect(layout(shown) == [[2], [1]])
    }

    @Test func aSectionObjectShownTwiceBecomesTwoSections() throws {
        // `merge(self)` or appending a section twice shows one object in two
        // places; updated in both, both would show the last content.
        let s = Section(items: [ViewModel(["id": "a"])], header: ViewModel(["id": "S"]))
        s.addSerializableKeys(["id"], for: .items)
        let shown = Manager(sections: [s, s])
        let fresh = Manager(sections: [
            Section(items: [ViewModel(["id": "b"])], header: ViewModel(["id": "S", "n": 1])),
            Section(items: [ViewModel(["id": "c"])], header: ViewModel(["id": "S", "n": 2])),
        ])
        try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
        #expect(shown.sections.map { $0.items.map { $0["id"] } } == [["b"], ["c"]])
        #expect(shown.headers.map { $0?["n"] } == [1, 2])
        #expect(shown.sections[0] === s && shown.sections[1] !== s)
        #expect(shown.sections[1].partKeyRegistry == s.partKeyRegistry)
    }

    /// A Section object shown twice that `new` holds too stays where `new`
    /// holds it; the other place gets a new Section, and `new` is left as
    /// it was.
    @Test func aSectionShownTwiceAndKeptByNewStaysWhereNewHasIt() throws {
        func ids(_ manager: Manager) -> [[Int64]] {
            manager.sections.map { $0.items.map { GroupingFixtures.int($0["id"]) ?? -1 } }
        }
        do {
            let x = Section(items: [ViewModel(["id": 1])])
            let shown = Manager(sections: [x, x])
            let fresh = Manager(sections: [Section(), Section(items: [ViewModel(["id": 2])]), x])
            try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
            #expect(ids(fresh) == [[], [2], [1]])
            #expect(ids(shown) == [[], [2], [1]])
            #expect(shown.sections[2] === x && shown.sections[1] !== x)
            #expect(ChangeSet(from: shown, to: fresh).isEmpty)
        }
        do {
            let x = Section(items: [ViewModel(["id": 1])])
            let y = Section(items: [ViewModel(["id": 2])])
            let shown = Manager(sections: [x, x])
            let fresh = Manager(sections: [Section(), y, x, x])
            try ChangeSet(from: shown, to: fresh).apply(to: shown, new: fresh)
            #expect(ids(fresh) == [[], [2], [1], [1]])
            #expect(ids(shown) == [[], [2], [1], [1]])
            #expect(ChangeSet(from: shown, to: fresh).isEmpty)
        }
    }

    @Test func applyRejectsChangeSetsThatDoNotFit() {
        let old = [[1, 2], [3]], new = [[1], [3]]
        #expect(throws: GroupingError.self) {  // counts do not add up
            try ChangeSet().apply(to: old, new: new)
        }
        #expect(throws: GroupingError.self) {  // out of range
            try ChangeSet(deletedItems: [path(0, 5)]).apply(to: old, new: new)
        }
        #expect(throws: GroupingError.self) {  // same item deleted and moved
            try ChangeSet(deletedItems: [path(0, 1)], movedItems: [.init(from: path(0, 1), to: path(1, 0))]).apply(to: old, new: new)
        }
        #expect(throws: GroupingError.self) {  // section deleted twice over
            try ChangeSet(deletedSections: [0, 1, 2]).apply(to: old, new: new)
        }
        #expect(throws: GroupingError.self) {  // an insert into an inserted section
            try ChangeSet(insertedSections: [0], insertedItems: [path(0, 0)]).apply(to: [[Int]](), new: [[1]])
        }
        let deletedAndMoved = #expect(throws: GroupingError.self) {
            try ChangeSet(deletedSections: [0], insertedSections: [0], movedSections: [.init(from: 0, to: 1)])
                .apply(to: [["a"], ["b"]], new: [["c"], ["a"]])
        }
        #expect(deletedAndMoved.map { "\($0)" }?.contains("moved section 0") == true)
        #expect(throws: GroupingError.self) {  // a section moved twice
            try ChangeSet(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 0)]).apply(to: [["a"], ["b"]], new: [["a"], ["b"]])
        }
        let valid = try? ChangeSet(deletedItems: [path(0, 1)]).apply(to: old, new: new)
        #expect(valid == [[1], [3]])
        do {
            _ = try ChangeSet(deletedItems: [path(0, 0), path(0, 1)]).apply(to: old, new: new)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("section 0 has 1 items after the update"))
        }
    }

    /// The refresh the docs describe: the diff runs on another task from a
    /// snapshot while the user edits the shown manager.
    private func diffFromSnapshot(of shown: Manager, to fresh: Manager) -> ChangeSet {
        ChangeSet(from: shown.snapshot.makeManager(), to: fresh)
    }

    /// The description of the error `body` throws, or `nil`.
    private func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    @Test func applyRefusesAManagerReorderedSinceTheDiff() throws {
        let shown = manager([[1, 2, 3]])
        let fresh = manager([[1, 2, 3]], titles: [2: "B2"])
        let changes = diffFromSnapshot(of: shown, to: fresh)
        #expect(changes.reloadedItems == [path(0, 1)])
        shown[0].move(from: 2, to: 0)  // the user drags 3 to the top meanwhile
        let text = try #require(message { try changes.apply(to: shown, new: fresh) })
        #expect(text.contains("the manager changed since the change set was computed"))
        #expect(layout(shown) == [[3, 1, 2]] && shown[0][2]["title"] == nil)
        #expect(throws: GroupingError.self) { try changes.batchUpdates(updating: shown, to: fresh) }
    }

    @Test func applyRefusesAManagerWhoseItemsWereReplacedSinceTheDiff() {
        let shown = manager([[1, 2, 3]])
        let fresh = manager([[1, 2, 3, 4]])
        let changes = diffFromSnapshot(of: shown, to: fresh)
        // Same count, another item: index paths alone would still fit.
        _ = shown[0].remove(at: 1)
        shown[0].append(ViewModel(["id": 9]))
        #expect(throws: GroupingError.self) { try changes.apply(to: shown, new: fresh) }
        #expect(layout(shown) == [[1, 3, 9]])
        // Sections reordered: also refused.
        let two = manager([[1], [2]], sectionIDs: ["a", "b"])
        let sectionChanges = diffFromSnapshot(of: two, to: manager([[1], [2, 5]], sectionIDs: ["a", "b"]))
        two.move(from: 1, to: 0)
        #expect(throws: GroupingError.self) { try sectionChanges.apply(to: two, new: manager([[1], [2, 5]], sectionIDs: ["a", "b"])) }
    }

    @Test func applyRefusesANewManagerChangedSinceTheDiff() throws {
        let shown = manager([[1, 2]])
        let fresh = manager([[2, 1]])
        let changes = ChangeSet(from: shown, to: fresh)
        fresh[0].move(from: 1, to: 0)
        let text = try #require(message { try changes.apply(to: shown, new: fresh) })
        #expect(text.contains("the new manager changed"))
        #expect(layout(shown) == [[1, 2]])
    }

    @Test func applyKeepsEditsThatLeaveIdentitiesInPlace() throws {
        let shown = manager([[1, 2, 3]])
        let fresh = manager([[1, 2, 3, 4]], titles: [3: "new"])
        let changes = diffFromSnapshot(of: shown, to: fresh)
        shown[0][0]["isSelected"] = true  // UI state set while the diff ran
        let first = shown[0][0]
        try changes.apply(to: shown, new: fresh)
        #expect(layout(shown) == [[1, 2, 3, 4]])
        #expect(shown[0][0] === first && first["isSelected"] == true)
        #expect(shown[0][2]["title"] == "new")
        // A deleted section's items may change: it goes as a whole.
        let two = manager([[1], [2]], sectionIDs: ["a", "b"])
        let oneLeft = manager([[1]], sectionIDs: ["a"])
        let deleting = diffFromSnapshot(of: two, to: oneLeft)
        two[1].append(ViewModel(["id": 7]))
        try deleting.apply(to: two, new: oneLeft)
        #expect(layout(two) == [[1]])
    }

    /// A rule built from the caller's state captures it as a value, and a
    /// change set computed under a custom rule remembers the rows by their
    /// identities: a row moved since is refused, although the counts fit.
    @Test @MainActor func aCustomRuleChangeSetRefusesRowsMovedSince() throws {
        final class Preferences { var identityKey = "id" }
        let preferences = Preferences()
        let key = preferences.identityKey
        let rule = IdentityRule.custom { $0[key] }
        let shown = manager([[1, 2, 3]])
        let fresh = manager([[3, 1]])
        let changes = ChangeSet(from: shown.snapshot.makeManager(), to: fresh, identity: rule)
        try changes.apply(to: shown.snapshot.makeManager(), new: fresh)
        shown[0].move(from: 0, to: 2)
        #expect(throws: GroupingError.self) { try changes.apply(to: shown, new: fresh) }
        #expect(layout(shown) == [[2, 3, 1]])
        // A custom section rule checks the sections' identities.
        let sectionRule = IdentityRule.custom { $0["id"] }
        let two = manager([[1], [2]], sectionIDs: ["a", "b"])
        let swapped = manager([[2], [1]], sectionIDs: ["b", "a"])
        let sections = ChangeSet(from: two.snapshot.makeManager(), to: swapped, identity: rule, sectionIdentity: sectionRule)
        two.move(from: 1, to: 0)
        #expect(throws: GroupingError.self) { try sections.apply(to: two, new: swapped) }
    }

    /// A custom rule runs once per item and header of both managers to
    /// check the layouts, and the UIKit helpers' update step, checked just
    /// before, does not run it again.
    @Test @MainActor func theUpdateStepChecksTheLayoutsOnce() throws {
        let calls = Atomic(0)
        let rule = IdentityRule.custom { item in
            calls.add(1, ordering: .relaxed)
            return item["id"]
        }
        let shown = manager([[1, 2, 3], [4]]), fresh = manager([[3, 1], [4, 5]])
        let changes = ChangeSet(from: shown, to: fresh, identity: rule)
        calls.store(0, ordering: .relaxed)
        _ = try changes.batchUpdates(updating: shown, to: fresh)
        #expect(calls.load(ordering: .relaxed) == 4 + 2 + 4 + 2)
        try changes.applyMovingHeaderAndFooterViews(to: shown, new: fresh)
        #expect(calls.load(ordering: .relaxed) == 12)
        #expect(layout(shown) == [[3, 1], [4, 5]])
    }

    /// A custom rule that reads a payload a snapshot leaves out gives the
    /// copy other identities: the change set is refused, and says why.
    @Test func aCustomRuleReadingAPayloadIsRefusedWithAHint() {
        let rule = IdentityRule.custom { ($0[value: "link"]?.payload as? URL).map { .string($0.absoluteString) } }
        let shown = Manager(sections: [Section(items: (1...3).map { n in
            let item = ViewModel(["n": .int(Int64(n))])
            item[value: "link"] = .payload(URL(string: "https://x/\(n)")!)
            return item
        })])
        let changes = ChangeSet(from: shown.snapshot.makeManager(), to: shown, identity: rule)
        let error = message { try changes.apply(to: shown, new: shown) }
        #expect(error?.hasSuffix("a custom identity rule must give a snapshot's copy the identities of its original") == true)
    }

    /// A rule kept in a `static let` goes with snapshots to a diff on
    /// another task, and the change set it makes applies on the main actor.
    @Test @MainActor func aRuleGoesWithSnapshotsToABackgroundDiff() async throws {
        let shown = manager([[1, 2, 3]])
        let fresh = manager([[3, 1]])
        let changes = await Self.diff(shown.snapshot, fresh.snapshot, Rules.byNumber)
        try changes.apply(to: shown, new: fresh)
        #expect(layout(shown) == [[3, 1]])
        #expect(changes.deletedItems == [path(0, 1)] && changes.movedItems.count == 1)
    }

    private enum Rules {
        static let byNumber = IdentityRule.custom { $0["id"] }
    }

    @concurrent nonisolated private static func diff(
        _ old: Manager.Snapshot, _ new: Manager.Snapshot, _ rule: IdentityRule
    ) async -> ChangeSet {
        ChangeSet(from: old.makeManager(), to: new.makeManager(), identity: rule)
    }

    @Test func changeSetsCompareByTheirChangesOnly() {
        let diffed = ChangeSet(from: manager([[1, 2]]), to: manager([[2]]))
        let byHand = ChangeSet(deletedItems: [path(0, 0)])
        #expect(diffed == byHand && diffed.hashValue == byHand.hashValue)
        // One made by hand is checked against the index paths only.
        #expect((try? byHand.apply(to: [[1, 7]], new: [[7]])) == [[7]])
    }

    @Test func descriptionSummarisesEveryKind() {
        let changes = ChangeSet(deletedSections: [1], insertedSections: [0], movedSections: [.init(from: 2, to: 3)],
                                deletedItems: [path(0, 1)], insertedItems: [path(1, 0)],
                                movedItems: [.init(from: path(0, 5), to: path(1, 2))], reloadedItems: [path(2, 0)])
        #expect(changes.description == "sections -[1]; sections +[0]; sections ~[2→3]; items -[0,1]; items +[1,0]; items ~[0,5→1,2]; items ↻[2,0]")
        #expect(changes.changeCount == 7)
    }

    @Test func readmeExample() throws {
        let manager = Manager()
        try manager.appendSections(packaging: JSONValue(parsing: #"[[{"id": 1, "title": "Swift"}, {"id": 2, "title": "Rust"}, {"id": 3, "title": "Go"}]]"#))
        let fresh = Manager()
        try fresh.appendSections(packaging: JSONValue(parsing: #"[[{"id": 3, "title": "Go"}, {"id": 1, "title": "Swift 6"}, {"id": 4, "title": "Zig"}]]"#))
        let changes = ChangeSet(from: manager, to: fresh)  // identity: the "id" key
        #expect(changes.description == "items -[0,1]; items +[0,2]; items ~[0,2→0,0]; items ↻[0,0]")
        try changes.apply(to: manager, new: fresh)
        #expect(manager[0].map { $0["title"] } == ["Go", "Swift 6", "Zig"])
    }
}

extension ChangeSetTests {
    /// Inconsistencies whose counts still add up: UIKit raises for each, so
    /// applying refuses them too.
    @Test func applyRejectsChangeSetsWhoseCountsAddUpButDoNotFit() {
        #expect(throws: GroupingError.self) {  // one old item deleted and reloaded
            try ChangeSet(deletedItems: [path(0, 0)], reloadedItems: [path(0, 0)]).apply(to: [[1, 2]], new: [[1, 2]])
        }
        #expect(throws: GroupingError.self) {  // an item of a deleted section
            try ChangeSet(deletedSections: [0], insertedSections: [0], deletedItems: [path(0, 0)]).apply(to: [["a"]], new: [["b"]])
        }
        #expect(throws: GroupingError.self) {  // two inserts at one new index path
            try ChangeSet(insertedItems: [path(0, 1), path(0, 1)]).apply(to: [[1]], new: [[1, 2]])
        }
        #expect(throws: GroupingError.self) {  // a section moved into an inserted section's place
            try ChangeSet(insertedSections: [0], movedSections: [.init(from: 0, to: 0)]).apply(to: [["a"], ["b"]], new: [["c"], ["b"]])
        }
        #expect(throws: GroupingError.self) {  // a section goes without being deleted
            try ChangeSet().apply(to: [[1], [2]], new: [[1]])
        }
    }

    @Test func changeSetsThatDifferOnlyInReloadsAreDifferent() {
        #expect(ChangeSet(reloadedItems: [path(0, 0)]) != ChangeSet())
        #expect(ChangeSet(reloadedItems: [path(0, 0)]) != ChangeSet(reloadedItems: [path(0, 1)]))
    }

    /// A value that is neither `Equatable` nor an object is never the same
    /// as another, but the same ViewModel on both sides is unchanged.
    @Test func sameInstanceWithAnOpaquePayloadIsUnchanged() {
        struct Opaque { var name: String }
        let item = ViewModel(["id": 1])
        item[value: "icon"] = .payload(Opaque(name: "star"))
        let changes = ChangeSet(from: Manager(sections: [Section(items: [item])]), to: Manager(sections: [Section(items: [item])]))
        #expect(changes.isEmpty)
    }

    @Test func everyListIsSortedAsDocumented() {
        // 3 moves into another section with new content; 1 goes.
        let deletes = ChangeSet(from: manager([[1], [2, 3]], sectionIDs: ["a", "b"]),
                                to: manager([[3], [2]], sectionIDs: ["a", "b"], titles: [3: "new"]))
        #expect(deletes.deletedItems == [path(0, 0), path(1, 1)])
        // 2 moves within its section with new content; 9 is new.
        let inserts = ChangeSet(from: manager([[1, 2]]), to: manager([[2, 1, 9]], titles: [2: "new"]))
        #expect(inserts.insertedItems == [path(0, 0), path(0, 2)])
        // Sections trade places, each with a changed item.
        let reloads = ChangeSet(from: manager([[1], [2]], sectionIDs: ["a", "b"]),
                                to: manager([[2], [1]], sectionIDs: ["b", "a"], titles: [1: "new", 2: "new"]))
        #expect(reloads.reloadedItems == [path(0, 0), path(1, 0)])
        // Both items move to the other section, in reverse order.
        let moves = ChangeSet(from: manager([[1, 2], []], sectionIDs: ["a", "b"]), to: manager([[], [2, 1]], sectionIDs: ["a", "b"]))
        #expect(moves.movedItems == [.init(from: path(0, 0), to: path(1, 1)), .init(from: path(0, 1), to: path(1, 0))])
    }

    /// The diff remembers the section changes it found: a change set whose
    /// section changes were rewritten (a moved section with item changes
    /// deleted and inserted instead, as a batch update needs) still applies.
    @Test func aChangeSetWithRewrittenSectionChangesStillAppliesToTheManager() throws {
        let old = manager([[1], [2], [3, 4, 5], [7], [8]], sectionIDs: ["a", "b", "c", "d", "e"])
        let new = manager([[3, 6, 5], [1, 7], [2], [8]], sectionIDs: ["c", "a", "b", "e"])
        let updates = try ChangeSet(from: old, to: new).batchUpdates(updating: old, to: new)
        #expect(updates.deletedSections == [2, 3])
        try updates.apply(to: old, new: new)
        #expect(layout(old) == [[3, 6, 5], [1, 7], [2], [8]])
    }

    /// Under a custom rule, as under a key, a row added to both managers
    /// since the diff is refused, although the index paths would still fit.
    @Test func aCustomRuleChangeSetRefusesRowsAddedToBothManagers() throws {
        let rule = IdentityRule.custom { $0["id"] }
        let shown = manager([[1, 2]]), fresh = manager([[1, 2, 3]])
        let changes = ChangeSet(from: shown, to: fresh, identity: rule)
        #expect(changes.insertedItems == [path(0, 2)])
        shown[0].append(ViewModel(["id": 8]))
        fresh[0].append(ViewModel(["id": 9]))
        #expect(throws: GroupingError.self) { try changes.apply(to: shown, new: fresh) }
        #expect(layout(shown) == [[1, 2, 8]])
    }

    /// A header object the new manager shows in two sections cannot take
    /// over either view: the views are left as they were.
    @MainActor
    @Test func batchUpdateStepLeavesViewsAloneWhenTheNewHeaderIsShownTwice() throws {
        let headerA = ViewModel(["title": "A"]), headerB = ViewModel(["title": "B"])
        let old = Manager(sections: [Section(header: headerA), Section(header: headerB)])
        let shared = ViewModel(["title": "S"])
        let new = Manager(sections: [Section(header: shared), Section(header: shared)])
        let viewA = FakeCell(), viewB = FakeCell()
        headerA.bind(viewA)
        headerB.bind(viewB)
        try ChangeSet(from: old, to: new).applyMovingHeaderAndFooterViews(to: old, new: new)
        #expect(old.headers.allSatisfy { $0 === shared })
        #expect(viewA.applied == ["A"] && viewB.applied == ["B"])
        #expect(shared.bindingView == nil)
    }
}

extension ChangeSetTests {
    private struct Avatar: ViewModelPayload, Equatable { var name: String }

    private static func rowsWithAvatars(_ ids: [Int]) -> Manager {
        Manager(sections: [Section(items: ids.map { id in
            let item = ViewModel(["id": .int(Int64(id)), "title": .string("t\(id)")])
            item[value: "avatar"] = .payload(Avatar(name: "a\(id)"))
            return item
        })])
    }

    /// A snapshot leaves payloads out, so the shown manager's copy differs
    /// from the fresh manager in every row holding one; diffed against the
    /// fresh manager's copy, as the docs say, only real changes remain,
    /// and the change set still applies to the live managers.
    @Test func aDiffOfSnapshotCopiesReloadsNoRowForItsPayloads() throws {
        let shown = Self.rowsWithAvatars([1, 2, 3]), fresh = Self.rowsWithAvatars([1, 2, 3, 4])
        let copy = shown.snapshot.makeManager()
        #expect(ChangeSet(from: copy, to: fresh).reloadedItems.count == 3)
        let changes = ChangeSet(from: copy, to: fresh.snapshot.makeManager())
        #expect(changes.reloadedItems.isEmpty)
        #expect(changes.insertedItems == [IndexPath(item: 3, section: 0)])
        try changes.apply(to: shown, new: fresh)
        #expect(shown.itemCount == 4 && shown[0][3] === fresh[0][3])
    }

    // MARK: Sections copied by snapshots

    private static func section(_ id: String, _ items: [Int64]) -> Section {
        Section(items: GroupingFixtures.items(items), header: ViewModel(["id": .string(id)]))
    }

    /// A section made by editing a copy of another's snapshot (a new
    /// section inserted by a background task) is not taken for the one it
    /// was copied from: both hold its origin, so headers decide.
    @Test func anEditedSnapshotCopyIsNotTakenForItsOrigin() {
        let shown = Manager(sections: [Self.section("a", [1, 2, 3]), Self.section("b", [4, 5])])
        var snapshot = shown.snapshot
        var extra = snapshot.sections[0]
        extra.header = ViewModel(["id": "new"]).snapshot
        extra.items = [ViewModel(["id": 9]).snapshot]
        snapshot.sections.insert(extra, at: 0)
        let fresh = snapshot.makeManager()
        let expected = "sections +[0]"
        #expect(ChangeSet(from: shown, to: fresh).description == expected)
        #expect(ChangeSet(from: shown.snapshot.makeManager(), to: fresh).description == expected)
    }

    /// Sections made from one template snapshot are told apart by their
    /// headers, not taken for one section.
    @Test func sectionsMadeFromOneTemplateAreToldApartByTheirHeaders() {
        let blank = Section().snapshot
        func make(_ id: String, _ items: [Int64]) -> Section {
            var section = blank
            section.header = ViewModel(["id": .string(id)]).snapshot
            section.items = GroupingFixtures.items(items).map(\.snapshot)
            return section.makeSection()
        }
        let changes = ChangeSet(from: Manager(sections: [make("a", [1, 2]), make("b", [3, 4])]),
                                to: Manager(sections: [make("b", [3, 4]), make("a", [1, 2])]))
        #expect(changes.description == "sections ~[1→0]")
    }

    /// A manager showing a section and a copy made from its snapshot: the
    /// diff of snapshot copies matches them as the diff of the originals
    /// does, and applying it keeps both objects where the new manager holds them.
    @Test func aSectionAndItsCopyInOneManagerKeepTheirPlaces() throws {
        let a = Self.section("a", [1, 2])
        let copy = a.snapshot.makeSection()
        copy.header = ViewModel(["id": "copy"])
        copy.items = GroupingFixtures.items([7])
        let shown = Manager(sections: [a, copy]), fresh = Manager(sections: [copy, a])
        let changes = ChangeSet(from: shown.snapshot.makeManager(), to: fresh.snapshot.makeManager())
        #expect(changes == ChangeSet(from: shown, to: fresh))
        try changes.apply(to: shown, new: fresh)
        #expect(shown.sections[0] === copy && shown.sections[1] === a)
    }
}
