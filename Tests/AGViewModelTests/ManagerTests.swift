import Foundation
import Observation
import Testing
@testable import AGViewModel

@Suite("Manager")
struct ManagerTests {
    private func items(_ ids: [Int64]) -> [ViewModel] { GroupingFixtures.items(ids) }
    private func ids(_ section: Section) -> [Int64] { GroupingFixtures.ids(section) }
    private func id(_ item: ViewModel?) -> Int64? { GroupingFixtures.int(item?["id"]) }

    /// Sections tagged by a header `name`, for readable expectations.
    private func names(_ manager: Manager) -> [String] {
        manager.map { GroupingFixtures.string($0.header?["name"]) ?? "?" }
    }

    private func named(_ name: String, _ ids: [Int64] = []) -> Section {
        Section(items: items(ids), header: ViewModel(["name": .string(name)]))
    }

    @Test func sectionsAddInsertRemove() {
        let manager = Manager()
        #expect(manager.isEmpty && manager.first == nil && manager.last == nil)
        manager.append(named("b"))
        manager.insert(named("a"), at: 0)
        manager.append(contentsOf: [named("c"), named("d"), named("e")])
        #expect(names(manager) == ["a", "b", "c", "d", "e"])
        #expect(manager.first?.header?["name"] == "a")
        #expect(manager.last?.header?["name"] == "e")
        #expect(manager.removeLast().header?["name"] == "e")
        #expect(manager.remove(at: 1).header?["name"] == "b")
        #expect(names(manager) == ["a", "c", "d"])
        manager.removeAll { $0.header?["name"] == "c" }
        #expect(names(manager) == ["a", "d"])
        manager.removeAll()
        #expect(manager.isEmpty)
        #expect(manager.popLast() == nil)
    }

    /// A section the manager let go of no longer makes its index-path
    /// table stale, however it went: removed, replaced, filtered out, or
    /// all sections set anew. One held twice stays registered while held.
    @Test func aSectionLetGoNoLongerStalesTheTable() {
        let removals: [(Manager, Section) -> Void] = [
            { manager, _ in manager.remove(at: 1) },
            { manager, _ in manager.removeLast() },
            { manager, _ in _ = manager.popLast() },
            { manager, _ in manager.replaceSection(at: 1, with: Section()) },
            { manager, dropped in manager.removeAll { $0 === dropped } },
            { manager, _ in manager.sections = [manager[0]] },
            { manager, _ in manager.updateSections { Array($0.prefix(1)) } },
            { manager, _ in manager.removeAll() },
        ]
        for (index, remove) in removals.enumerated() {
            let kept = Section(items: GroupingFixtures.items([1, 2]))
            let dropped = Section(items: GroupingFixtures.items([3]))
            let manager = Manager(sections: [kept, dropped])
            #expect(dropped.ownerCount == 1)
            remove(manager, dropped)
            #expect(dropped.ownerCount == 0, "removal \(index)")
            _ = manager.indexPath(of: kept.first ?? ViewModel())
            #expect(manager.indexPathTableIsCurrent, "removal \(index)")
            dropped.insert(ViewModel(["id": 4]), at: 0)
            #expect(manager.indexPathTableIsCurrent, "removal \(index)")
        }

        let twice = Section(items: GroupingFixtures.items([1]))
        let manager = Manager(sections: [twice, twice, Section()])
        manager.remove(at: 0)
        #expect(twice.ownerCount == 1)
        _ = manager.indexPath(of: twice[0])
        twice.insert(ViewModel(["id": 2]), at: 0)
        #expect(!manager.indexPathTableIsCurrent)
        #expect(manager.indexPath(of: twice[0]) == IndexPath(item: 0, section: 0))
        // Taken back, it is registered again.
        let dropped = manager.remove(at: 1)
        manager.insert(dropped, at: 0)
        manager.remove(at: 1)
        #expect(twice.ownerCount == 0 && dropped.ownerCount == 1)
    }

    /// Across random edits of two managers sharing sections, a section
    /// tells exactly the managers that hold it, however many places each
    /// holds it in.
    @Test func sectionsTellExactlyTheManagersHoldingThem() {
        for seed in UInt64(1)...40 {
            var random = SplitMix64(seed: seed)
            let pool = (0..<5).map { Section(items: GroupingFixtures.items([Int64($0)])) }
            let managers = [Manager(), Manager()]
            for step in 0..<60 {
                let manager = managers[Int(random.next() % 2)]
                let section = pool[Int(random.next() % 5)]
                let count = manager.count
                switch random.next() % 10 {
                case 0: manager.append(section)
                case 1: manager.insert(section, at: Int(random.next() % UInt64(count + 1)))
                case 2: if count > 0 { manager.remove(at: Int(random.next() % UInt64(count))) }
                case 3: _ = manager.popLast()
                case 4: if count > 0 { manager.replaceSection(at: Int(random.next() % UInt64(count)), with: section) }
                case 5: if count > 1 { manager.swapAt(0, count - 1) }
                case 6: if count > 1 { manager.move(from: 0, to: count - 1) }
                case 7: manager.sections = (0..<Int(random.next() % 4)).map { _ in pool[Int(random.next() % 5)] }
                case 8: manager.removeAll { $0 === section }
                default: manager.append(contentsOf: [section, section])
                }
                for candidate in pool {
                    let holding = managers.filter { $0.contains { $0 === candidate } }.count
                    #expect(candidate.ownerCount == holding, "seed \(seed), step \(step)")
                }
            }
        }
    }

    @Test func replaceExchangeMove() {
        let manager = Manager(sections: ["a", "b", "c"].map { named($0) })
        manager[1] = named("x")
        #expect(names(manager) == ["a", "x", "c"])
        manager.swapAt(0, 2)
        #expect(names(manager) == ["c", "x", "a"])
        manager.move(from: 0, to: 2)
        #expect(names(manager) == ["x", "a", "c"])
        manager.sections = [named("z")]
        #expect(names(manager) == ["z"])
        #expect(manager.section(at: 1) == nil)
        #expect(manager.section(at: 0)?.header?["name"] == "z")
    }

    @Test func itemsByIndexPath() {
        let manager = Manager(sections: [named("a", [1, 2]), named("b", [3])])
        #expect(id(manager[IndexPath(item: 1, section: 0)]) == 2)
        #expect(id(manager.item(at: IndexPath(item: 0, section: 1))) == 3)
        #expect(manager.item(at: IndexPath(item: 1, section: 1)) == nil)
        #expect(manager.item(at: IndexPath(item: 0, section: 2)) == nil)
        #expect(manager.item(at: IndexPath(index: 0)) == nil)
        manager[IndexPath(item: 0, section: 1)] = ViewModel(["id": 30])
        #expect(ids(manager[1]) == [30])
        #expect(manager.itemCount == 3)
        #expect(manager.allItems.map { id($0) } == [1, 2, 30])
    }

    @Test func enumeratesItemsHeadersAndFooters() {
        let footer = ViewModel(["name": "end"])
        let manager = Manager(sections: [named("a", [1, 2]), Section(), named("c", [3])])
        manager[2].footer = footer
        let indexed = manager.indexedItems
        #expect(indexed.map(\.indexPath) == [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0), IndexPath(item: 0, section: 2)])
        #expect(indexed.map { id($0.item) } == [1, 2, 3])
        var visited: [IndexPath] = []
        manager.forEachItem { path, item in
            #expect(manager[path] === item)
            visited.append(path)
        }
        #expect(visited == indexed.map(\.indexPath))
        #expect(manager.headers.map { GroupingFixtures.string($0?["name"]) } == ["a", nil, "c"])
        #expect(manager.footers.count == 3)
        #expect(manager.footers[2] === footer)
    }

    @Test func removesItemsAcrossSections() {
        let manager = Manager(sections: [named("a", [1, 2, 3]), named("b", [4, 5, 6])])
        manager.removeItems { (id($0) ?? 0) % 2 == 0 }
        #expect(manager.map { ids($0) } == [[1, 3], [5]])
    }

    /// Sections and managers nest under typed keys, and go where nested
    /// ones go: exports.
    @Test func sectionsAndManagersNestUnderTypedKeys() {
        let sectionKey = ViewModel.Key<Section>("related")
        let managerKey = ViewModel.Key<Manager>("catalog")
        let section = Section(items: [ViewModel(["id": 1])])
        let manager = Manager(sections: [section])
        let holder = ViewModel()
        holder[sectionKey] = section
        holder[managerKey] = manager
        #expect(holder[sectionKey] === section && holder[managerKey] === manager)
        #expect(holder[ViewModel.Key<Section>("catalog")] == nil)
        let exported = holder.exportJSON(options: .everything)
        #expect(exported["related"]?["items"]?[0]?["id"] == 1)
        #expect(exported["catalog"]?["sections"]?[0]?["items"]?[0]?["id"] == 1)
    }

    /// A list of sections is kept as a payload, even empty.
    @Test func listsOfSectionsStayPayloads() {
        let pages = ViewModel.Key<[Section]>("pages")
        let holder = ViewModel()
        holder[pages] = []
        #expect(holder[pages]?.isEmpty == true && holder["pages"] == nil)
        let section = Section()
        holder[pages] = [section]
        #expect(holder[pages]?.first === section)
    }

    @Test func debugDescriptionsShowTheParts() {
        let section = Section(items: [ViewModel(["id": 1]), ViewModel(["id": 2])], header: ViewModel(["title": "Books"]))
        #expect(section.debugDescription == """
            Section (2 items) {
              header: ViewModel (1 key) {
                title: "Books"
              }
              items[0]: ViewModel (1 key) {
                id: 1
              }
              items[1]: ViewModel (1 key) {
                id: 2
              }
            }
            """)
        #expect(Section().debugDescription == "Section (0 items) {}")
        // A description read while tracking is no dependency.
        let fired = Recorder<Bool>()
        let manager0 = Manager(sections: [section])
        withObservationTracking { _ = manager0.debugDescription } onChange: { fired.append(true) }
        section.header = nil
        section.append(ViewModel())
        manager0.common = ViewModel()
        #expect(fired.items.isEmpty)
        #expect(Manager().debugDescription == "Manager (0 sections, 0 items) {}")
        let manager = Manager(sections: [Section(items: [ViewModel(["id": 1])])], common: ViewModel(["theme": "dark"]))
        #expect(manager.debugDescription == """
            Manager (1 section, 1 item) {
              common: ViewModel (1 key) {
                theme: "dark"
              }
              sections[0]: Section (1 item) {
                items[0]: ViewModel (1 key) {
                  id: 1
                }
              }
            }
            """)
    }

    @Test func insertsSeveralSectionsAtOnce() {
        let manager = Manager(sections: [named("a", [1]), named("d", [4])])
        let inserted = [named("b"), named("c")]
        _ = manager.indexPath(of: manager[1][0])
        manager.insert(contentsOf: inserted, at: 1)
        #expect(names(manager) == ["a", "b", "c", "d"])
        #expect(manager.indexPath(of: manager[3][0]) == IndexPath(item: 0, section: 3))
        manager.insert(contentsOf: [named("e")], at: 4)
        manager.insert(contentsOf: [], at: 0)
        #expect(names(manager) == ["a", "b", "c", "d", "e"])
        // They tell the manager of their item changes.
        inserted[0].insert(ViewModel(["id": 9]), at: 0)
        #expect(manager.indexPath(of: inserted[0][0]) == IndexPath(item: 0, section: 1))
        #expect(inserted[0].ownerCount == 1)
    }

    @Test func mergeAppendsTheOtherManagersSectionsAndMergesItsCommonValues() {
        let common = ViewModel(["theme": "dark", "user": "ann"])
        let manager = Manager(sections: [named("a")], common: common)
        let other = Manager(sections: [named("b"), named("c")], common: ViewModel(["theme": "light", "page": 2]))
        manager.merge(other)
        #expect(names(manager) == ["a", "b", "c"])
        #expect(manager[1] === other[0])
        #expect(manager.common === common)
        #expect(common.keys == ["theme", "user", "page"] && common["theme"] == "light")
        #expect(other.common?.keys == ["theme", "page"])
        // No common coming in leaves this one alone; none here takes a new one.
        manager.merge(Manager())
        #expect(manager.common === common && common.count == 3)
        let bare = Manager()
        bare.merge(other)
        #expect(bare.common !== other.common && bare.common?["page"] == 2)
    }

    @Test func packagesSectionsFromJSON() throws {
        let manager = Manager()
        manager.appendSection(packaging: [["id": 1], ["id": 2]])
        manager.appendSection { section in
            section.header = ViewModel(["name": "built"])
            section.appendItems(packaging: [["id": 3]])
        }
        manager.appendSections(packaging: [[["id": 4]], [["id": 5], ["id": 6]]], using: ClosurePackager { viewModel, object in
            viewModel.merge(object)
            viewModel["kind"] = "custom"
        })
        #expect(manager.map { ids($0) } == [[1, 2], [3], [4], [5, 6]])
        #expect(manager[1].header?["name"] == "built")
        #expect(manager[3][1]["kind"] == "custom")

        let json = try JSONValue(parsing: #"[[{"id": 7}], [{"id": 8}, {"id": 9}]]"#)
        manager.appendSections(packaging: json)
        manager.appendSection(packaging: try JSONValue(parsing: #"[{"id": 10}]"#).arrayValue ?? [])
        #expect(manager.map { ids($0) }.suffix(3) == [[7], [8, 9], [10]])
    }

    @Test func packagingMisshapenJSONReportsOrThrowsWithItsLocation() throws {
        let manager = Manager()
        let bad = try JSONValue(parsing: #"[[{"id": 1}], [{"id": 2}, 3]]"#)
        #expect(throws: PackagingError(location: .section(1, .item(1)), reason: .notAnObject(found: .int))) {
            try manager.appendSections(packaging: bad, policy: .strict)
        }
        #expect(throws: PackagingError(location: .section(0, .items), reason: .documentMismatch(JSONAccessError(
            path: JSONPath([]), reason: .typeMismatch(expected: "an array", found: .object, value: "{1 member}"))))) {
            try manager.appendSections(packaging: [["id": 1]] as JSONValue, policy: .strict)
        }
        #expect(throws: PackagingError.self) {
            try manager.appendSection(packaging: ["nope"], policy: .strict)
        }
        #expect(manager.isEmpty)  // strict failures add nothing
        // Skip and report: the good elements are kept, the bad ones located.
        let (sections, skipped) = manager.appendSections(packaging: bad)
        #expect(sections.map { ids($0) } == [[1], [2]])
        #expect(skipped.map(\.description) == ["section 1, item 1: expected an object, found int"])
    }

    /// Appends extend the index-path table instead of rebuilding it; random
    /// appends, other changes, sections held twice and items shown in two
    /// places all give the first place in section then item order.
    @Test func indexPathsStayRightThroughAppendsAndOtherChanges() {
        var rng = SplitMix64(seed: 0x1D_E8_A7)
        let pool = (0..<12).map { ViewModel(["id": .int(Int64($0))]) }
        let sections = (0..<3).map { _ in Section() }
        let manager = Manager(sections: [sections[0], sections[1], sections[0], sections[2]])
        func expectedPath(of item: ViewModel) -> IndexPath? {
            for (s, section) in manager.enumerated() {
                if let i = section.items.firstIndex(where: { $0 === item }) { return IndexPath(item: i, section: s) }
            }
            return nil
        }
        for step in 0..<400 {
            let section = sections[Int.random(in: 0..<3, using: &rng)]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: section.append(pool[Int.random(in: 0..<pool.count, using: &rng)])
            case 5..<7: section.append(contentsOf: (0..<Int.random(in: 0...3, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] })
            case 7: if !section.isEmpty { section.remove(at: Int.random(in: 0..<section.count, using: &rng)) }
            case 8: section.insert(pool[Int.random(in: 0..<pool.count, using: &rng)], at: 0)
            case 9 where manager.count < 8 && Bool.random(using: &rng):
                // A section of the manager again, or a new one, at the end.
                let appended = Bool.random(using: &rng) ? section
                    : Section(items: (0..<Int.random(in: 0...3, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] })
                let wasCurrent = manager.indexPathTableIsCurrent
                manager.append(appended)
                #expect(manager.indexPathTableIsCurrent == wasCurrent, "step \(step)")
            default: if section.count > 6 { section.removeAll() }
            }
            // Ask after most steps, so the table is usually current when the next append comes.
            guard Int.random(in: 0..<4, using: &rng) != 0 else { continue }
            for item in pool {
                #expect(manager.indexPath(of: item) == expectedPath(of: item), "step \(step)")
            }
        }
    }

    /// Rows appended one at a time to a manager of many sections, each
    /// row's index path asked for at once: the table takes each row without
    /// a rebuild, and finding where the section sits costs no scan of the
    /// other sections (a scan made 20,000 sections × 2,000 rows take
    /// seconds). A section held twice gets its rows at its first place.
    @Test func rowsAppendedOneAtATimeAmongManySectionsExtendTheTable() {
        let sectionCount = 20_000, rows = 2_000
        let loading = Section()
        var sections = (0..<sectionCount).map { _ in Section(items: [ViewModel()]) }
        sections[3] = loading
        sections[sectionCount - 1] = loading
        let manager = Manager(sections: sections)
        #expect(manager.indexPath(of: sections[0][0]) == IndexPath(item: 0, section: 0))
        var wrong = 0
        for row in 0..<rows {
            let item = ViewModel(["id": .int(Int64(row))])
            loading.append(item)
            if !manager.indexPathTableIsCurrent || manager.indexPath(of: item) != IndexPath(item: row, section: 3) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    /// A section changed by an Observation handler while sections are
    /// appended is not missed: the table kept across the append is dropped.
    @Test func aSectionChangedDuringAnAppendIsNotMissed() {
        let a = ViewModel(["id": "a"]), late = ViewModel(["id": "late"]), b = ViewModel(["id": "b"])
        let first = Section(items: [a])
        let manager = Manager(sections: [first])
        #expect(manager.indexPath(of: a) == IndexPath(item: 0, section: 0))
        // onChange is @Sendable; it runs synchronously on this thread, in willSet.
        final class Insertion: @unchecked Sendable {
            let section: Section, item: ViewModel
            init(_ section: Section, _ item: ViewModel) { self.section = section; self.item = item }
        }
        let insertion = Insertion(first, late)
        withObservationTracking { _ = manager.sections } onChange: { insertion.section.insert(insertion.item, at: 0) }
        manager.append(Section(items: [b]))
        #expect(manager.indexPath(of: late) == IndexPath(item: 0, section: 0))
        #expect(manager.indexPath(of: a) == IndexPath(item: 1, section: 0))
        #expect(manager.indexPath(of: b) == IndexPath(item: 0, section: 1))
    }

    /// An Observation handler that changes a section's items while items
    /// are appended to it: the appended items' index paths count the
    /// handler's change, whether it appended (the table grows) or inserted
    /// (the table is rebuilt).
    @Test func itemsChangedDuringAnAppendToTheirSectionAreCounted() {
        final class Change: @unchecked Sendable {
            let section: Section, item: ViewModel, inserts: Bool
            var done = false
            init(_ section: Section, _ item: ViewModel, inserts: Bool) {
                self.section = section; self.item = item; self.inserts = inserts
            }
            func run() {
                // The handler's own write would call it again.
                guard !done else { return }
                done = true
                if inserts { section.insert(item, at: 0) } else { section.append(item) }
            }
        }
        for inserts in [false, true] {
            let first = ViewModel(["n": 0]), extra = ViewModel(["n": 1]), appended = ViewModel(["n": 2])
            let section = Section(items: [first])
            let manager = Manager(sections: [section])
            #expect(manager.indexPath(of: first) == IndexPath(item: 0, section: 0))
            let change = Change(section, extra, inserts: inserts)
            withObservationTracking { _ = section.items } onChange: { change.run() }
            section.append(appended)
            let expected = inserts ? [extra, first, appended] : [first, extra, appended]
            #expect(section.items.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
            for (index, item) in expected.enumerated() {
                #expect(manager.indexPath(of: item) == IndexPath(item: index, section: 0), "inserts: \(inserts), item \(index)")
            }
        }
    }

    @Test func indexPathOfItemFollowsEveryKindOfChange() {
        let a = named("a", [1, 2]), b = named("b", [3, 4])
        let manager = Manager(sections: [a, b])
        let four = b[1]
        #expect(manager.indexPath(of: four) == IndexPath(item: 1, section: 1))
        #expect(manager.indexPath(of: ViewModel()) == nil)

        b.insert(ViewModel(), at: 0)            // a section's own mutation
        #expect(manager.indexPath(of: four) == IndexPath(item: 2, section: 1))
        manager.insert(named("z"), at: 0)       // the manager's mutation
        #expect(manager.indexPath(of: four) == IndexPath(item: 2, section: 2))
        b.items = [four]                         // replacing all items
        #expect(manager.indexPath(of: four) == IndexPath(item: 0, section: 2))
        b.removeAll { $0 === four }              // predicate removal
        #expect(manager.indexPath(of: four) == nil)
        a.append(four)
        #expect(manager.indexPath(of: four) == IndexPath(item: 2, section: 1))
        manager.updateSections { $0.reversed() }
        #expect(manager.indexPath(of: four) == IndexPath(item: 2, section: 1))
        manager.remove(at: 1)
        #expect(manager.indexPath(of: four) == nil)
        // A removed section no longer affects the manager's answers...
        a.removeAll()
        #expect(manager.indexPath(of: four) == nil)
        // ...and a section shared by two managers keeps both up to date.
        let shared = named("s")
        let other = Manager(sections: [shared])
        manager.append(shared)
        shared.append(four)
        #expect(manager.indexPath(of: four) == IndexPath(item: 0, section: 2))
        #expect(other.indexPath(of: four) == IndexPath(item: 0, section: 0))
    }

    @Test func indexPathOfRepeatedItemIsItsFirstPlace() {
        let shared = ViewModel()
        let manager = Manager(sections: [Section(items: [ViewModel(), shared]), Section(items: [shared])])
        #expect(manager.indexPath(of: shared) == IndexPath(item: 1, section: 0))
    }

    @Test func indexPathAnswersEveryItemOfALargeManager() {
        let manager = Manager()
        for s in 0..<100 {
            manager.append(Section(items: items((0..<100).map { Int64(s * 100 + $0) })))
        }
        var correct = 0
        manager.forEachItem { path, item in
            if manager.indexPath(of: item) == path { correct += 1 }
        }
        #expect(correct == 10_000)
    }

    @Test func outOfRangeSectionSubscriptTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Manager()[0]
        }
    }

    @Test @MainActor func bulkOperationsReachEverySection() {
        let manager = Manager(sections: [named("a", [1, 2]), named("b", [3])])
        manager.setNeedsRefresh(.items)
        #expect(manager.allItems.allSatisfy { $0.needsRefresh })
        #expect(manager.headers.allSatisfy { $0?.needsRefresh == false })
        manager.setNeedsCachedSize()
        #expect(manager.allItems.allSatisfy { $0.needsCachedSize })
        #expect(manager.headers.allSatisfy { $0?.needsCachedSize == true })
        manager.refresh(.items)
        #expect(manager.allItems.allSatisfy { !$0.needsRefresh })
        manager.setNeedsRefresh(.header, updating: ["collapsed": true])
        #expect(manager.headers.allSatisfy { $0?["collapsed"] == true && $0?.needsRefresh == true })
        manager.refresh(.items, updating: ["selected": false])
        #expect(manager.allItems.allSatisfy { $0["selected"] == false })
    }

    /// Removing nothing is no change: the index-path table stays current
    /// and Observation hears nothing.
    @Test func removingNothingChangesNothing() {
        let item = ViewModel(["id": 1])
        let section = Section(items: [item])
        let manager = Manager(sections: [section])
        _ = manager.indexPath(of: item)
        let heard = Recorder<Bool>()
        withObservationTracking { _ = section.items } onChange: { heard.append(true) }
        #expect(!section.remove(ViewModel()))
        section.removeItems(in: [ViewModel()])
        section.removeAll { _ in false }
        manager.removeItems { _ in false }
        #expect(heard.count == 0)
        #expect(manager.indexPathTableIsCurrent)
        manager.removeItems { $0 === item }
        #expect(heard.count == 1 && section.isEmpty)
    }

    /// A ViewModel held in several places (an item twice, in two sections,
    /// as a header too) is refreshed once per bulk operation.
    @Test @MainActor func bulkRefreshesTellEachViewOnce() {
        let shared = ViewModel([:]), cell = SelfSizingCell()
        shared.bind(cell)
        let section = Section(items: [shared, shared], header: shared)
        let manager = Manager(sections: [section, Section(items: [shared])])
        let operations: [(String, () -> Void)] = [
            ("section refresh", { section.refresh() }),
            ("section refresh updating", { section.refresh(updating: ["seen": true]) }),
            ("manager refresh", { manager.refresh() }),
            ("manager refresh updating", { manager.refresh(.items, updating: ["seen": false]) }),
        ]
        for (name, operation) in operations {
            cell.applied = 0
            operation()
            #expect(cell.applied == 1, "\(name)")
        }
        #expect(section.viewModels(in: .all).count == 3)   // the parts themselves, as held
    }

    @Test func indexPathExtensionMatchesUIKit() {
        var path = IndexPath(item: 4, section: 2)
        #expect(path.section == 2 && path.item == 4 && path.row == 4)
        path.item = 5
        #expect(path == IndexPath(row: 5, section: 2))
    }

    @Test @MainActor func readmeExample() throws {
        let manager = Manager()
        manager.appendSection { section in
            section.header = ViewModel(["id": "languages", "title": "Languages"])
            section.itemMerge = ViewModel(["style": "compact"])  // fills every packaged item
            section.appendItems(packaging: [["id": 1, "title": "Swift"], ["id": 2, "title": "Rust"]])
        }
        try manager.appendSections(packaging: JSONValue(parsing: #"[[{"id": 3, "title": "Go"}]]"#))

        let rust = manager[IndexPath(item: 1, section: 0)]
        #expect(rust["title"] == "Rust" && rust["style"] == "compact")
        #expect(manager.indexPath(of: rust) == IndexPath(item: 1, section: 0))
        #expect(manager[0].map { $0["title"] } == ["Swift", "Rust"])
        manager.removeItems { $0["title"] == "Go" }
        #expect(manager[1].isEmpty)
        manager.setNeedsRefresh(.items)
        #expect(rust.needsRefresh)
    }
}

extension ManagerTests {
    @Test func indexPathWhereKeyEqualsNamesItemAndSectionInOrder() {
        let id = ViewModel.Key<Int>("id")
        let manager = Manager(sections: [
            Section(items: [ViewModel(["id": 1]), ViewModel(["id": 2])]),
            Section(items: [ViewModel(["id": 3])])])
        #expect(manager.indexPath(where: id, equals: 2) == IndexPath(item: 1, section: 0))
        #expect(manager.indexPath(where: id, equals: 3) == IndexPath(item: 0, section: 1))
    }
}

extension ManagerTests {
    /// Sections put in by replacing the whole list tell the manager about
    /// their later changes, as sections added any other way do.
    @Test func indexPathFollowsSectionsSetAsAWhole() {
        let manager = Manager()
        let first = named("a", [1, 2]), second = named("b", [3])
        manager.sections = [first]
        let two = first[1]
        #expect(manager.indexPath(of: two) == IndexPath(item: 1, section: 0))
        first.insert(ViewModel(), at: 0)
        #expect(manager.indexPath(of: two) == IndexPath(item: 2, section: 0))
        manager.updateSections { _ in [second, first] }
        #expect(manager.indexPath(of: two) == IndexPath(item: 2, section: 1))
        second.insert(two, at: 0)
        #expect(manager.indexPath(of: two) == IndexPath(item: 0, section: 0))
    }

    @Test @MainActor func bulkSizeAndRefreshOperationsReachEverySection() {
        let context = LayoutContext(availableWidth: 100)
        let manager = Manager(sections: [named("a", [1]), named("b", [2])])
        let prototype = FakeCell()
        for item in manager.allItems { _ = item.size(using: prototype, in: context) }
        #expect(manager.allItems.allSatisfy { !$0.needsCachedSize })
        manager.setNeedsCachedSize(.items)
        #expect(manager.allItems.allSatisfy { $0.needsCachedSize })
        // Refreshing while updating leaves nothing waiting for a refresh.
        manager.setNeedsRefresh(.items)
        manager.refresh(.items, updating: ["selected": true])
        #expect(manager.allItems.allSatisfy { $0["selected"] == true && !$0.needsRefresh })
    }

    @Test func snapshotRoundTripKeepsTheCommonViewModel() {
        let manager = Manager(sections: [named("a", [1])], common: ViewModel(["theme": "dark"]))
        let copy = manager.snapshot.makeManager()
        #expect(copy.common?["theme"] == "dark" && copy.common !== manager.common)
        #expect(names(copy) == ["a"] && ids(copy[0]) == [1])
    }
}
