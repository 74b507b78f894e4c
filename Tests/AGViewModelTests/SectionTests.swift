import Foundation
import Testing
import Observation
@testable import AGViewModel

@Suite("Section")
struct SectionTests {
    private func items(_ ids: [Int64]) -> [ViewModel] { GroupingFixtures.items(ids) }
    private func ids(_ section: Section) -> [Int64] { GroupingFixtures.ids(section) }
    private func id(_ item: ViewModel) -> Int64 { GroupingFixtures.int(item["id"]) ?? 0 }

    @Test func addInsertAndRead() {
        let section = Section()
        #expect(section.isEmpty && section.first == nil && section.last == nil)
        section.append(contentsOf: items([1, 2]))
        section.append(ViewModel(["id": 4]))
        section.insert(ViewModel(["id": 3]), at: 2)
        section.insert(contentsOf: items([0]), at: 0)
        #expect(ids(section) == [0, 1, 2, 3, 4])
        #expect(section.count == 5)
        #expect(section.first?["id"] == 0)
        #expect(section.last?["id"] == 4)
        #expect(section[2]["id"] == 2)
        #expect(section.item(at: 5) == nil)
        #expect(section.item(at: -1) == nil)
        #expect(section.item(at: 4)?["id"] == 4)
    }

    @Test func removals() {
        let all = items([0, 1, 2, 3, 4, 5, 6])
        let section = Section(items: all)
        #expect(section.remove(at: 0) === all[0])
        #expect(section.removeLast() === all[6])
        #expect(section.remove(all[3]))
        #expect(!section.remove(all[3]))
        #expect(ids(section) == [1, 2, 4, 5])
        section.removeItems(in: Section(items: [all[1], ViewModel()]))
        #expect(ids(section) == [2, 4, 5])
        section.removeItems(in: [all[5]])
        #expect(ids(section) == [2, 4])
        section.removeAll { $0["id"] == 4 }
        #expect(ids(section) == [2])
        section.removeAll()
        #expect(section.isEmpty)
        #expect(section.popLast() == nil)
    }

    @Test func removeByIdentityRemovesEveryOccurrence() {
        let shared = ViewModel(["id": 9])
        let section = Section(items: [shared, ViewModel(["id": 1]), shared])
        #expect(section.remove(shared))
        #expect(ids(section) == [1])
    }

    @Test func replaceExchangeMoveSort() {
        let section = Section(items: items([0, 1, 2, 3]))
        section[1] = ViewModel(["id": 10])
        #expect(ids(section) == [0, 10, 2, 3])
        section.swapAt(0, 3)
        #expect(ids(section) == [3, 10, 2, 0])
        section.move(from: 0, to: 3)
        #expect(ids(section) == [10, 2, 0, 3])
        section.move(from: 3, to: 0)
        #expect(ids(section) == [3, 10, 2, 0])
        section.sort { id($0) < id($1) }
        #expect(ids(section) == [0, 2, 3, 10])
        section.items = items([7])
        #expect(ids(section) == [7])
    }

    @Test func standardCollectionAlgorithms() {
        let section = Section(items: items([5, 6, 7, 8]))
        #expect(section.firstIndex { $0["id"] == 7 } == 2)
        #expect(section.filter { id($0) % 2 == 0 }.count == 2)
        #expect(section.reduce(0) { $0 + id($1) } == 26)
        #expect(Array(section.reversed()).map { $0["id"] } == [8, 7, 6, 5])
        var seen: [Int64] = []
        for item in section { seen.append(id(item)) }
        #expect(seen == [5, 6, 7, 8])
        #expect(section.indices == 0..<4)
        #expect(section.index(of: section[3]) == 3)
        #expect(section.contains(section[0]))
        #expect(!section.contains(ViewModel()))
    }

    @Test func iterationUsesASnapshot() {
        let section = Section(items: items([1, 2, 3]))
        var visited = 0
        for _ in section {
            visited += 1
            section.append(ViewModel())  // mutating while iterating is safe
        }
        #expect(visited == 3)
        #expect(section.count == 6)
    }

    @Test func sectionLevelViewModels() throws {
        let header = ViewModel(["title": "Header"])
        let section = Section(header: header)
        #expect(section.header === header)
        section.footer = MemberCopyingPackager().package(["title": "Footer"])
        section.common = try ClosurePackager { (viewModel, object: JSONObject) in
            viewModel.merge(object)
            viewModel["packaged"] = true
        }.package(["style": "plain"])
        #expect(section.footer?["title"] == "Footer")
        #expect(section.common?["packaged"] == true)
        section.header = ViewModel(["title": "New"])
        #expect(section.header?["title"] == "New")
        section.header = nil
        #expect(section.header == nil)
    }

    @Test func packagedItemsReceiveTheItemMergeValuesTheyLack() throws {
        let section = Section(itemMerge: ViewModel(["style": "compact", "title": "merged"]))
        let first = section.appendItems(packaging: [["id": 1, "title": "own"]] as [JSONValue])
        let item = try #require(first.items.first)
        #expect(item["style"] == "compact")
        #expect(item["title"] == "own")  // the item's own values win
        #expect(item.keys == ["id", "title", "style"])
        section.appendItems(packaging: [["id": 2], ["id": 3]] as [JSONValue], using: ClosurePackager { viewModel, object in
            viewModel.merge(object)
            viewModel["style"] = "own"  // kept: the merge only fills missing keys
        })
        #expect(section.map { $0["style"] } == ["compact", "own", "own"])
        section.insertItems(packaging: [["id": 0]], at: 0)
        #expect(ids(section) == [0, 1, 2, 3])
        #expect(section[0]["style"] == "compact")
        // Ready ViewModels are not merged.
        section.append(ViewModel(["id": 9]))
        #expect(section.last?["style"] == nil)
    }

    @Test func packagingJSONArraysReportsBadElements() throws {
        let section = Section()
        let good = try JSONValue(parsing: #"[{"id": 1}, {"id": 2}]"#)
        section.appendItems(packaging: good)
        #expect(ids(section) == [1, 2])

        let bad = try JSONValue(parsing: #"[{"id": 3}, "oops"]"#)
        #expect(throws: PackagingError(location: .item(1), reason: .notAnObject(found: .string))) {
            try section.appendItems(packaging: bad, policy: .strict)
        }
        #expect(throws: PackagingError.self) {
            try section.appendItems(packaging: ["id": 1] as JSONValue, policy: .strict)
        }
        #expect(ids(section) == [1, 2])  // nothing appended on a strict error
        let result = section.appendItems(packaging: bad)
        #expect(ids(section) == [1, 2, 3])
        #expect(result.skipped.map(\.description) == ["item 1: expected an object, found string"])
        let notArray = section.appendItems(packaging: ["id": 1] as JSONValue)
        #expect(notArray.skipped.map(\.location) == [.items] && notArray.items.isEmpty)
    }

    @Test func throwingPackagerSkipsOrLeavesSectionUnchanged() {
        struct Refused: Error, Equatable {}
        let refusing = ClosurePackager { (viewModel, object: JSONObject) in
            if object["id"] == 3 { throw Refused() }
            viewModel.merge(object)
        }
        let section = Section(items: items([1]))
        #expect(throws: PackagingError(location: .item(1), reason: .packagerFailed(Refused()))) {
            try section.appendItems(packaging: [["id": 2], ["id": 3]] as [JSONValue], using: refusing, policy: .strict)
        }
        #expect(ids(section) == [1])
        let result = section.appendItems(packaging: [["id": 2], ["id": 3]] as [JSONValue], using: refusing)
        #expect(ids(section) == [1, 2])
        #expect(result.skipped == [SkippedElement(location: .item(1), reason: .packagerFailed(Refused()))])
    }

    @Test func subscriptOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            let section = Section()
            _ = section[0]
        }
    }

    @Test func removeLastOnEmptyTraps() async {
        await #expect(processExitsWith: .failure) {
            Section().removeLast()
        }
    }

    @Test @MainActor func bulkFlagsReachEveryChosenPart() {
        let header = ViewModel(), footer = ViewModel()
        let section = Section(items: items([1, 2, 3]), header: header, footer: footer)
        section.setNeedsRefresh(.items)
        #expect(section.allSatisfy { $0.needsRefresh })
        #expect(!header.needsRefresh && !footer.needsRefresh)
        section.setNeedsRefresh(.headerAndFooter)
        #expect(header.needsRefresh && footer.needsRefresh)
        section.setNeedsCachedSize()
        #expect(section.allSatisfy { $0.needsCachedSize })
        #expect(header.needsCachedSize && footer.needsCachedSize)
        #expect(section.viewModels(in: .all).count == 5)
        #expect(section.viewModels(in: .header).first === header)
    }

    @Test @MainActor func refreshNowClearsTheNeedsRefreshFlag() {
        let header = ViewModel()
        let section = Section(items: items([1, 2]), header: header)
        section.setNeedsRefresh()
        section.refresh(.items)
        #expect(section.allSatisfy { !$0.needsRefresh })
        #expect(header.needsRefresh)
    }

    @Test @MainActor func updatingMergesValuesIntoEveryItem() {
        let section = Section(items: items([1, 2]), header: ViewModel())
        section.setNeedsRefresh(.items, updating: ["selected": false])
        #expect(section.allSatisfy { $0["selected"] == false && $0.needsRefresh })
        #expect(section.header?["selected"] == nil)
        section.refresh(.items, updating: ["selected": true])
        #expect(section.allSatisfy { $0["selected"] == true })
    }

    /// A bulk refresh that changes nothing in a row leaves it alone: a
    /// pull-to-refresh that sets `selected` on a long list re-measures and
    /// refreshes only the rows whose value changed.
    @Test @MainActor func updatingLeavesRowsThatAlreadyHoldTheValuesAlone() {
        let context = LayoutContext(availableWidth: 100)
        let rows = [ViewModel(["title": "a", "selected": true]), ViewModel(["title": "b", "selected": false])]
        let cells = [FakeCell(), FakeCell()]
        for (row, cell) in zip(rows, cells) {
            row.bindingView = cell
            _ = row.sizeOfBindingView(in: context)
        }
        let section = Section(items: rows)
        let applied = cells.map(\.applied.count)
        section.refresh(.items, updating: ["selected": true])
        #expect(!rows[0].needsCachedSize && rows[1].needsCachedSize)
        #expect(cells[0].applied.count == applied[0] && cells[1].applied.count == applied[1] + 1)
        // Row 1 now holds both values; row 0 lacks one, so it is updated.
        _ = rows[1].sizeOfBindingView(in: context)
        Manager(sections: [section]).setNeedsRefresh(.items, updating: ["selected": true, "title": "b"])
        #expect(rows[0].needsRefresh && rows[0]["title"] == "b")
        #expect(!rows[1].needsRefresh && !rows[1].needsCachedSize)
        // A refresh with values the rows hold makes the refresh still
        // pending from the call above, and only that one.
        let pending = cells.map(\.applied.count)
        section.refresh(.items, updating: ["selected": true])
        #expect(cells[0].applied.count == pending[0] + 1 && cells[1].applied.count == pending[1])
        #expect(!rows[0].needsRefresh)
        // No values: every row is measured and refreshed again, as before.
        section.refresh(.items, updating: [:])
        #expect(rows.allSatisfy(\.needsCachedSize) && cells[1].applied.count == pending[1] + 1)
    }

    /// Values merged by a bulk refresh may change a row's height, as an
    /// item's own `update` does.
    @Test @MainActor func updatingMarksTheCachedSizesStale() {
        let context = LayoutContext(availableWidth: 100)
        let item = ViewModel(["title": "short"]), header = ViewModel(["title": "head"])
        let cell = FakeCell(), headerView = FakeCell()
        item.bindingView = cell
        header.bindingView = headerView
        let section = Section(items: [item], header: header)
        #expect(item.sizeOfBindingView(in: context)?.height == 20)
        _ = header.sizeOfBindingView(in: context)
        section.refresh(.items, updating: ["title": "a title long enough for two lines"])
        #expect(item.needsCachedSize && !header.needsCachedSize)
        #expect(item.sizeOfBindingView(in: context)?.height == 80)
        section.setNeedsRefresh(.header, updating: ["title": "a header"])
        #expect(header.needsCachedSize && header.needsRefresh && !item.needsCachedSize)
        let manager = Manager(sections: [section])
        manager.refresh(.items, updating: ["title": "x"])
        #expect(item.sizeOfBindingView(in: context)?.height == 20)
    }

    @Test func mergeTakesTheOtherSectionsViewModelsAndAppendsItsItems() {
        let ownHeader = ViewModel(["title": "Page 1", "next": "p2"])
        let page1 = Section(items: items([1, 2]), header: ownHeader)
        let page2Items = items([3])
        let page2 = Section(items: page2Items, header: ViewModel(["next": "p3"]),
                            footer: ViewModel(["end": true]), itemMerge: ViewModel(["style": "card"]))
        page1.merge(page2)
        #expect(page1.map { $0["id"] } == [1, 2, 3])
        #expect(page1[2] === page2Items[0] && page2.count == 1)
        #expect(page1.header === ownHeader)
        #expect(ownHeader["title"] == "Page 1" && ownHeader["next"] == "p3")
        #expect(page1.footer !== page2.footer && page1.footer?["end"] == true)
        #expect(page1.itemMerge?["style"] == "card" && page1.common == nil)
        // Only the parts that come in are set: Observation hears of nothing else.
        let plain = Section(items: items([5]))
        let heard = Recorder<String>()
        withObservationTracking { _ = (page1.header, page1.footer, page1.common) } onChange: { heard.append("part") }
        page1.merge(plain)
        #expect(heard.count == 0 && page1.count == 4)
        // Merging a section into itself repeats its items, values unchanged.
        page2.merge(page2)
        #expect(page2.count == 2 && page2.header?["next"] == "p3")
    }

    @Test func indexOfARepeatedItemIsItsFirstPosition() {
        let shared = ViewModel(["id": 9])
        let section = Section(items: [ViewModel(["id": 1]), shared, ViewModel(["id": 2]), shared])
        #expect(section.index(of: shared) == 1)
    }

    @Test func mergeMergesTheCommonViewModelTooOwnValuesKeptWhereNotOverridden() {
        let ownCommon = ViewModel(["style": "plain", "page": 1])
        let page1 = Section(items: items([1]), common: ownCommon)
        page1.merge(Section(common: ViewModel(["page": 2])))
        #expect(page1.common === ownCommon)
        #expect(ownCommon["page"] == 2 && ownCommon["style"] == "plain")
        let bare = Section()
        bare.merge(Section(common: ViewModel(["page": 3])))
        #expect(bare.common?["page"] == 3)
    }

    /// Code that shows a section-level ViewModel hears when it is replaced.
    @Test func replacingASectionLevelViewModelIsObserved() {
        let section = Section()
        let parts: [(name: String, read: () -> Void, write: () -> Void)] = [
            ("header", { _ = section.header }, { section.header = ViewModel() }),
            ("footer", { _ = section.footer }, { section.footer = ViewModel() }),
            ("common", { _ = section.common }, { section.common = ViewModel() }),
            ("itemMerge", { _ = section.itemMerge }, { section.itemMerge = ViewModel() }),
        ]
        for part in parts {
            let heard = Recorder<String>(), name = part.name
            withObservationTracking(part.read) { heard.append(name) }
            part.write()
            #expect(heard.count == 1, "\(name)")
        }
    }

    /// Managers are held weakly: a section outliving its manager does not
    /// keep it alive, and later changes to the section are still safe.
    @Test func aSectionDoesNotKeepItsManagerAlive() {
        let section = Section(items: items([1]))
        weak var released: Manager?
        do {
            let manager = Manager(sections: [section])
            released = manager
            #expect(manager.indexPath(of: section[0]) == IndexPath(item: 0, section: 0))
        }
        #expect(released == nil)
        section.append(ViewModel(["id": 2]))
        section.remove(at: 0)
        #expect(ids(section) == [2])
    }

    /// After a font or width change every chosen part computes its size again.
    @Test @MainActor func setNeedsCachedSizeReachesHeaderAndFooter() {
        let context = LayoutContext(availableWidth: 100)
        let header = ViewModel(["title": "head"]), footer = ViewModel(["title": "foot"]), item = ViewModel(["title": "row"])
        let prototype = FakeCell()
        for viewModel in [header, footer, item] { _ = viewModel.size(using: prototype, in: context) }
        let section = Section(items: [item], header: header, footer: footer)
        #expect(!header.needsCachedSize && !footer.needsCachedSize && !item.needsCachedSize)
        section.setNeedsCachedSize(.headerAndFooter)
        #expect(header.needsCachedSize && footer.needsCachedSize && !item.needsCachedSize)
    }

    @Test func snapshotRoundTripKeepsEverySectionLevelViewModel() {
        let section = Section(items: items([1, 2]), header: ViewModel(["title": "H"]), footer: ViewModel(["title": "F"]),
                              common: ViewModel(["style": "plain"]), itemMerge: ViewModel(["kind": "card"]))
        let copy = section.snapshot.makeSection()
        #expect(copy !== section && ids(copy) == [1, 2])
        #expect(copy.header?["title"] == "H" && copy.footer?["title"] == "F")
        #expect(copy.common?["style"] == "plain" && copy.itemMerge?["kind"] == "card")
        #expect(copy.footer !== section.footer)
    }
}
