import Foundation
import Testing
@testable import AGViewModel

/// Property: for random old and new managers, applying the change set to
/// the old data yields the new data — same identities in the same places,
/// with the new content — and the change set is one UIKit would accept
/// (``ChangeSet/apply(to:new:)`` rejects anything inconsistent).
@Suite("ChangeSet property")
struct ChangeSetPropertyTests {
    typealias RNG = SplitMix64

    /// A model item: identity (nil = none) and content.
    struct ItemSpec {
        var id: Int64?
        var content: Int
        /// Without identity: `"id": null` (true) or no `"id"` but a `"note"`
        /// (false), so both forms have the same number of keys.
        var nullID = false
    }

    /// A model section: header identity (nil = header without id;
    /// `hasHeader == false` = no header) and items.
    struct SectionSpec {
        var id: String?
        var hasHeader = true
        var items: [ItemSpec]
    }

    private static func chance(_ p: Double, _ rng: inout RNG) -> Bool {
        Double.random(in: 0..<1, using: &rng) < p
    }

    private static func randomItem(_ next: inout Int64, _ used: [Int64], _ rng: inout RNG) -> ItemSpec {
        let roll = Double.random(in: 0..<1, using: &rng)
        let content = Int.random(in: 0..<3, using: &rng)
        if roll < 0.1 { return ItemSpec(id: nil, content: content, nullID: chance(0.5, &rng)) }  // no identity
        if roll < 0.2, let dup = used.randomElement(using: &rng) { return ItemSpec(id: dup, content: content) }  // duplicate
        next += 1
        return ItemSpec(id: next, content: content)
    }

    private static func randomSection(_ nextItem: inout Int64, _ nextSection: inout Int, _ used: [Int64], _ rng: inout RNG) -> SectionSpec {
        let roll = Double.random(in: 0..<1, using: &rng)
        var spec = SectionSpec(id: nil, items: [])
        if roll < 0.08 { spec.hasHeader = false }
        else if roll < 0.15 { spec.id = nil }
        else if roll < 0.2 { spec.id = "s\(Int.random(in: 0...max(0, nextSection), using: &rng))" }  // maybe duplicate
        else { nextSection += 1; spec.id = "s\(nextSection)" }
        var seen = used
        for _ in 0..<Int.random(in: 0...7, using: &rng) {
            let item = randomItem(&nextItem, seen, &rng)
            if let id = item.id { seen.append(id) }
            spec.items.append(item)
        }
        return spec
    }

    /// A new layout derived from `old`: deleted, inserted and moved sections;
    /// deleted, inserted, moved (within and across sections) and changed items.
    private static func mutate(_ old: [SectionSpec], _ nextItem: inout Int64, _ nextSection: inout Int, _ rng: inout RNG) -> [SectionSpec] {
        if chance(0.05, &rng) {  // now and then, something unrelated
            return (0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.randomSection(&nextItem, &nextSection, [], &rng) }
        }
        var sections = old.filter { _ in !chance(0.15, &rng) }
        for _ in 0..<Int.random(in: 0...2, using: &rng) where chance(0.5, &rng) {
            sections.insert(randomSection(&nextItem, &nextSection, [], &rng), at: Int.random(in: 0...sections.count, using: &rng))
        }
        if sections.count > 1, chance(0.4, &rng) {
            let from = Int.random(in: 0..<sections.count, using: &rng)
            sections.insert(sections.remove(at: from), at: Int.random(in: 0..<sections.count, using: &rng))
        }
        guard !sections.isEmpty else { return sections }
        var moving: [ItemSpec] = []
        let used = sections.flatMap { $0.items.compactMap(\.id) }
        for s in sections.indices {
            var items: [ItemSpec] = []
            for var item in sections[s].items {
                if chance(0.1, &rng) { continue }                                   // delete
                if chance(0.15, &rng) { item.content = Int.random(in: 0..<3, using: &rng) }  // change
                if item.id == nil && chance(0.3, &rng) { item.nullID.toggle() }             // null id or none
                if chance(0.12, &rng) { moving.append(item); continue }              // move
                items.append(item)
            }
            if chance(0.3, &rng) { items.insert(randomItem(&nextItem, used, &rng), at: Int.random(in: 0...items.count, using: &rng)) }
            sections[s].items = items
        }
        for item in moving {
            let s = Int.random(in: 0..<sections.count, using: &rng)
            sections[s].items.insert(item, at: Int.random(in: 0...sections[s].items.count, using: &rng))
        }
        return sections
    }

    private static func build(_ specs: [SectionSpec], sharing previous: [ViewModel] = [], _ rng: inout RNG) -> Manager {
        Manager(sections: specs.map { spec in
            let header: ViewModel? = spec.hasHeader ? ViewModel(spec.id.map { ["id": .string($0), "title": "t"] } ?? ["title": "t"]) : nil
            let items = spec.items.map { item -> ViewModel in
                // Sometimes hand over the very same instance when nothing changed.
                if let reuse = previous.first(where: { matches($0, item) }), chance(0.2, &rng) { return reuse }
                var object: JSONObject = ["content": .int(Int64(item.content)), "kind": "row"]
                if let id = item.id {
                    object["id"] = .int(id)
                } else if item.nullID {
                    object["id"] = .null
                } else {
                    object["note"] = "no id"
                }
                return ViewModel(object)
            }
            return Section(items: items, header: header)
        })
    }

    private static func matches(_ vm: ViewModel, _ item: ItemSpec) -> Bool {
        GroupingFixtures.int(vm["id"]) == item.id && vm["content"] == .int(Int64(item.content))
            && (vm["id"] == .null) == (item.id == nil && item.nullID)
    }

    /// Same stored content (every key, by `isSame`).
    private static func sameContent(_ a: ViewModel, _ b: ViewModel) -> Bool {
        Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { key in
            guard let x = a[value: key], let y = b[value: key] else { return false }
            return x.isSame(as: y)
        }
    }

    @Test func applyingTheChangeSetToOldGivesNew() throws {
        var failures = 0
        var seen = ChangeSet()  // every kind of change must be exercised
        var convertedMoves = 0, keptMoves = 0, convertedReloads = 0
        for seed in UInt64(1)...400 {
            var rng = RNG(seed: seed)
            var nextItem: Int64 = 0, nextSection = 0
            let oldSpecs = (0..<Int.random(in: 0...5, using: &rng)).map { _ in Self.randomSection(&nextItem, &nextSection, [], &rng) }
            let newSpecs = Self.mutate(oldSpecs, &nextItem, &nextSection, &rng)
            let old = Self.build(oldSpecs, &rng)
            let new = Self.build(newSpecs, sharing: old.allItems, &rng)
            // Sometimes the old manager shows one Section object twice, and
            // the new one has a section like it, so both places can be kept,
            // or that very object, once or twice.
            if let twice = old.sections.randomElement(using: &rng), Self.chance(0.15, &rng) {
                old.sections.insert(twice, at: Int.random(in: 0...old.sections.count, using: &rng))
                let like = Section(items: twice.items.map { $0.copy() }, header: twice.header?.copy())
                new.sections.insert(like, at: Int.random(in: 0...new.sections.count, using: &rng))
            }
            for _ in 0 ..< Int.random(in: 0 ... 2, using: &rng) where Self.chance(0.4, &rng) {
                guard let reused = old.sections.randomElement(using: &rng) else { break }
                new.sections.insert(reused, at: Int.random(in: 0...new.sections.count, using: &rng))
            }
            let newBefore = new.sections.map { ($0, $0.items, $0.header) }

            let changes = ChangeSet(from: old, to: new)
            seen.deletedSections.formUnion(changes.deletedSections)
            seen.insertedSections.formUnion(changes.insertedSections)
            seen.movedSections += changes.movedSections
            seen.deletedItems += changes.deletedItems
            seen.insertedItems += changes.insertedItems
            seen.movedItems += changes.movedItems.filter { $0.from.section != $0.to.section }
            seen.reloadedItems += changes.reloadedItems
            let oldItems = old.map { $0.items }, newItems = new.map { $0.items }
            let applied: [[ViewModel]]
            do {
                applied = try changes.apply(to: oldItems, new: newItems)
            } catch {
                Issue.record("seed \(seed): \(error) for \(changes)")
                failures += 1
                continue
            }
            let same = applied.count == newItems.count && zip(applied, newItems).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { Self.sameContent($0, $1) }
            }
            if !same {
                Issue.record("seed \(seed): applying \(changes) does not give the new data")
                failures += 1
            }

            // What the UIKit helpers send gives the same data, and moves no
            // section whose items change.
            let updates = try changes.batchUpdates(updating: old, to: new)
            let batched = try updates.apply(to: oldItems, new: newItems)
            #expect(batched.count == newItems.count && zip(batched, newItems).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { Self.sameContent($0, $1) }
            }, "seed \(seed): \(updates)")
            let touchedOld = Set((updates.deletedItems + updates.reloadedItems + updates.movedItems.map(\.from)).map(\.section))
            let touchedNew = Set((updates.insertedItems + updates.movedItems.map(\.to)).map(\.section))
            #expect(updates.movedSections.allSatisfy { !touchedOld.contains($0.from) && !touchedNew.contains($0.to) }, "seed \(seed)")
            if updates.movedSections.count < changes.movedSections.count { convertedMoves += 1 }

            // The batch sent to a view: reloads alongside other changes are a
            // delete at the old path and an insert at the new path of the same
            // item; the data still comes out as the new data.
            let collection = try changes.viewBatchUpdates(updating: old, to: new)
            let collected = try collection.apply(to: oldItems, new: newItems)
            #expect(collected.count == newItems.count && zip(collected, newItems).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { Self.sameContent($0, $1) }
            }, "seed \(seed): \(collection)")
            let onlyReloads = updates.changeCount == updates.reloadedItems.count
            #expect(collection.reloadedItems == (onlyReloads ? updates.reloadedItems : []), "seed \(seed)")
            if !onlyReloads && !updates.reloadedItems.isEmpty {
                convertedReloads += 1
                let added = collection.insertedItems.filter { !updates.insertedItems.contains($0) }
                // `null` and a missing id both mean none (matched by position).
                func identity(_ item: ViewModel) -> JSONValue? {
                    guard let id = item["id"], !id.isNull else { return .none }
                    return id
                }
                let reloadedIDs = updates.reloadedItems.map { identity(oldItems[$0.section][$0.item]) }
                let insertedIDs = added.map { identity(newItems[$0.section][$0.item]) }
                #expect(reloadedIDs == insertedIDs, "seed \(seed): \(collection)")
                #expect(Set(collection.deletedItems) == Set(updates.deletedItems).union(updates.reloadedItems), "seed \(seed)")
            }
            if !updates.movedSections.isEmpty { keptMoves += 1 }

            // The manager form: the old manager ends up equal to the new one,
            // section identities included, and the new one is unchanged.
            try changes.apply(to: old, new: new)
            #expect(new.sections.count == newBefore.count && zip(new.sections, newBefore).allSatisfy { section, before in
                section === before.0 && section.items.elementsEqual(before.1, by: ===) && section.header === before.2
            }, "seed \(seed): the new manager changed")
            let oldHeaderIDs: [JSONValue?] = old.headers.map { $0?["id"] }
            let newHeaderIDs: [JSONValue?] = new.headers.map { $0?["id"] }
            #expect(oldHeaderIDs == newHeaderIDs, "seed \(seed)")
            #expect(old.allItems.count == new.allItems.count, "seed \(seed)")
            #expect(zip(old.allItems, new.allItems).allSatisfy { Self.sameContent($0, $1) }, "seed \(seed)")
            // Diffing a manager with itself, or with its updated self, is empty.
            #expect(ChangeSet(from: old, to: new).isEmpty, "seed \(seed)")
            if failures > 3 { break }
        }
        #expect(!seen.deletedSections.isEmpty && !seen.insertedSections.isEmpty && !seen.movedSections.isEmpty)
        #expect(!seen.deletedItems.isEmpty && !seen.insertedItems.isEmpty && !seen.movedItems.isEmpty && !seen.reloadedItems.isEmpty)
        #expect(convertedMoves > 0 && keptMoves > 0 && convertedReloads > 0)
    }

    @Test func changeSetsOnlyListWhatChanged() {
        // No reloads without a content change, no item listed twice.
        for seed in UInt64(1000)...1300 {
            var rng = RNG(seed: seed)
            var nextItem: Int64 = 0, nextSection = 0
            let specs = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Self.randomSection(&nextItem, &nextSection, [], &rng) }
            let old = Self.build(specs, &rng)
            let same = Self.build(specs, &rng)
            #expect(ChangeSet(from: old, to: same).isEmpty, "seed \(seed)")

            var changed = specs
            let newSpecs = Self.mutate(changed, &nextItem, &nextSection, &rng)
            changed = newSpecs
            let changes = ChangeSet(from: old, to: Self.build(changed, &rng))
            let oldPaths = changes.deletedItems + changes.reloadedItems + changes.movedItems.map(\.from)
            let newPaths = changes.insertedItems + changes.movedItems.map(\.to)
            #expect(Set(oldPaths).count == oldPaths.count, "seed \(seed)")
            #expect(Set(newPaths).count == newPaths.count, "seed \(seed)")
        }
    }

    /// The background diff, of snapshot copies of both managers, lists what
    /// the diff of the managers themselves lists, also when the new manager
    /// holds some of the shown Section objects in other places and
    /// sections have no identity; applying it keeps those Section objects
    /// where the new manager holds them.
    @Test func snapshotCopiesDiffAsTheirOriginals() throws {
        for seed in UInt64(2000)...2300 {
            var rng = RNG(seed: seed)
            var nextItem: Int64 = 0, nextSection = 0
            func section() -> SectionSpec {
                var spec = Self.randomSection(&nextItem, &nextSection, [], &rng)
                if Self.chance(0.5, &rng) { spec.id = nil }
                return spec
            }
            let shown = Self.build((0..<Int.random(in: 0...4, using: &rng)).map { _ in section() }, &rng)
            var sections = shown.sections.filter { _ in !Self.chance(0.25, &rng) }
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                sections.insert(Self.build([section()], &rng).sections[0], at: Int.random(in: 0...sections.count, using: &rng))
            }
            if Self.chance(0.5, &rng) { sections.shuffle(using: &rng) }
            let fresh = Manager(sections: sections)
            let shared = fresh.sections.map { section in shown.sections.contains { $0 === section } }

            let changes = ChangeSet(from: shown.snapshot.makeManager(), to: fresh.snapshot.makeManager())
            #expect(changes == ChangeSet(from: shown, to: fresh), "seed \(seed)")
            try changes.apply(to: shown, new: fresh)
            for (t, isShared) in shared.enumerated() where isShared {
                #expect(shown.sections[t] === fresh.sections[t], "seed \(seed), section \(t)")
            }
            #expect(ChangeSet(from: shown, to: fresh).isEmpty, "seed \(seed)")
        }
    }

    @Test func largeTablesReadInParallelGiveTheSameResult() throws {
        // 60 × 100 items: above the threshold where items are read on all cores.
        var rng = RNG(seed: 42)
        var nextItem: Int64 = 0, nextSection = 0
        let specs = (0..<60).map { _ in
            nextSection += 1
            return SectionSpec(id: "s\(nextSection)", items: (0..<100).map { _ in Self.randomItem(&nextItem, [], &rng) })
        }
        let newSpecs = Self.mutate(specs, &nextItem, &nextSection, &rng)
        let old = Self.build(specs, &rng), new = Self.build(newSpecs, &rng)
        let changes = ChangeSet(from: old, to: new)
        #expect(!changes.isEmpty)
        let applied = try changes.apply(to: old.map { $0.items }, new: new.map { $0.items })
        #expect(applied.count == new.count)
        #expect(zip(applied.joined(), new.allItems).allSatisfy { Self.sameContent($0, $1) })
        #expect(Array(applied.joined()).count == new.itemCount)
        // Deterministic: the same inputs give the same change set.
        #expect(ChangeSet(from: old, to: new) == changes)
    }
}
