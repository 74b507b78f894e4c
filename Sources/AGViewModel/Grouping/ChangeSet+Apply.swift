import Foundation

extension ChangeSet {
    /// Where a section of the updated data comes from.
    internal enum SectionSource {
        case inserted
        case old(Int)
    }

    /// Applies the change set to sections of items the way UIKit's batch
    /// updates do, and returns the updated sections.
    ///
    /// Inserted sections and items, and reloaded items, take their content
    /// from `new` (the data source after the update); every other item is
    /// carried over from `old`: moved items to their destination, the rest
    /// keeping their relative order in the slots left free. This is what a
    /// table view shows after `performBatchUpdates`, so a change set computed
    /// by ``init(from:to:identity:sectionIdentity:)`` always turns `old` into
    /// `new`.
    ///
    /// - Throws: ``GroupingError/invalidChangeSet(_:)`` when the change set
    ///   does not fit `old` and `new` (an index out of range, a position
    ///   used twice, item counts that do not add up) — where UIKit would
    ///   raise an exception.
    public func apply<Item>(to old: [[Item]], new: [[Item]]) throws(GroupingError) -> [[Item]] {
        try plan(old: old, new: new).items
    }

    /// Updates `manager` (the data shown, equal to the change set's old
    /// manager) to match `new`, keeping the ViewModel instances of items
    /// that are unchanged or only moved, as a table view keeps their cells.
    /// Inserted and reloaded items are `new`'s instances: what was attached
    /// to a reloaded item's old instance (observers, commands, weak slots,
    /// values set on it) does not carry over.
    ///
    /// Kept sections stay the same `Section` objects, with their items
    /// updated and their header, footer, common and item-merge ViewModels
    /// taken from the matching section of `new`; inserted sections are
    /// `new`'s. A Section object that `new` shares with `manager` stays
    /// where `new` holds it (the diff matches it to itself, also through
    /// snapshot copies of both), and `new` is
    /// never changed: any other place `manager` shows it gets a new Section.
    /// One that only `manager` holds, in two places, is kept in the first
    /// (in the updated order), and a new Section takes the other.
    /// The manager's own common ViewModel is left as it is. One
    /// plain step in the domain that owns `manager` (usually inside the
    /// table view's batch update): nothing else can touch it meanwhile.
    ///
    /// A change set computed by ``init(from:to:identity:sectionIdentity:)``
    /// remembers the layout of both managers: their sections and, in order,
    /// the identities of their items under its rules (`"id"` by default;
    /// a `.custom` rule runs again here, once per item and header of both
    /// managers). When either has changed since (a row moved, deleted or
    /// added while the diff ran on another task), applying it is refused:
    /// compute it again. Values edited meanwhile do not count unless they
    /// change an identity (the `"id"` value, or what a `.custom` rule
    /// reads): unchanged items keep their edits, reloaded ones take `new`'s
    /// content. Rows are told apart by identity only, so a move among rows
    /// without one (or sharing one) goes unnoticed. A change set made by
    /// hand is checked against its index paths only.
    ///
    /// - Throws: ``GroupingError/invalidChangeSet(_:)`` when the change set
    ///   does not fit: its index paths, or (for a computed one) the layout
    ///   of `manager` or `new` changed since; `manager` is then left unchanged.
    public func apply(to manager: Manager, new: Manager) throws(GroupingError) {
        try apply(to: manager, new: new, checkingOrigin: true)
    }

    /// ``apply(to:new:)``; without the check of the managers' layouts when
    /// the caller has just made it, in the same step (the UIKit helpers,
    /// inside their batch update).
    internal func apply(to manager: Manager, new: Manager, checkingOrigin: Bool) throws(GroupingError) {
        let oldSections = manager.sections
        let newSections = new.sections
        if checkingOrigin { try checkOrigin(old: oldSections, new: newSections) }
        let (sources, items) = try plan(old: oldSections.map(\.items), new: newSections.map(\.items))
        // Read every section of `new` before changing any: `new` may hold
        // some of `manager`'s own Section objects, in other places.
        let models = newSections.map { (header: $0.header, footer: $0.footer, common: $0.common, itemMerge: $0.itemMerge) }
        var updated: [Section] = []
        updated.reserveCapacity(sources.count)
        // A Section object is updated in one place only: updated in two, it
        // would show one content in both. That is where `new` holds it, so
        // `new` keeps its content; for a Section only the manager holds, the
        // first place.
        let heldByNew = Set(newSections.map(ObjectIdentifier.init))
        var kept = Set<ObjectIdentifier>()
        for (t, source) in sources.enumerated() {
            switch source {
            case .inserted:
                updated.append(newSections[t])
            case .old(let s):
                let model = models[t]
                let object = ObjectIdentifier(oldSections[s])
                let inPlace = newSections[t] === oldSections[s] || (!heldByNew.contains(object) && kept.insert(object).inserted)
                guard inPlace else {
                    let copy = Section(items: items[t], header: model.header, footer: model.footer,
                                       common: model.common, itemMerge: model.itemMerge)
                    copy.partKeyRegistry = oldSections[s].partKeyRegistry
                    updated.append(copy)
                    continue
                }
                let section = oldSections[s]
                section.items = items[t]
                section.header = model.header
                section.footer = model.footer
                section.common = model.common
                section.itemMerge = model.itemMerge
                updated.append(section)
            }
        }
        manager.sections = updated
    }

    // MARK: The plan

    internal func plan<Item>(old: [[Item]], new: [[Item]]) throws(GroupingError) -> (sources: [SectionSource], items: [[Item]]) {
        let sources = try sectionSources(oldCount: old.count, newCount: new.count)
        var oldToNew = [Int](repeating: -1, count: old.count)
        for (t, source) in sources.enumerated() {
            if case .old(let s) = source { oldToNew[s] = t }
        }

        // Per old item: what happens to it. Per new slot: fixed content.
        var fates = old.map { [Fate](repeating: .stays, count: $0.count) }
        var slots = new.map { [Slot](repeating: .free, count: $0.count) }

        func checkOld(_ path: IndexPath, _ what: String) throws(GroupingError) {
            guard path.count == 2, old.indices.contains(path[0]), old[path[0]].indices.contains(path[1]) else {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is outside the old data")
            }
            guard oldToNew[path[0]] >= 0 else {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is in deleted section \(path[0])")
            }
            guard fates[path[0]][path[1]] == .stays else {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is already deleted, reloaded or moved")
            }
        }
        func checkNew(_ path: IndexPath, _ what: String) throws(GroupingError) {
            guard path.count == 2, new.indices.contains(path[0]), new[path[0]].indices.contains(path[1]) else {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is outside the new data")
            }
            if case .inserted = sources[path[0]] {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is in inserted section \(path[0])")
            }
            guard case .free = slots[path[0]][path[1]] else {
                throw .invalidChangeSet("\(what) \(Self.text(path)) is already inserted or moved to")
            }
        }

        for path in deletedItems {
            try checkOld(path, "deleted item")
            fates[path[0]][path[1]] = .deleted
        }
        for path in reloadedItems {
            try checkOld(path, "reloaded item")
            fates[path[0]][path[1]] = .reloaded
        }
        for move in movedItems {
            try checkOld(move.from, "moved item")
            try checkNew(move.to, "move destination")
            fates[move.from[0]][move.from[1]] = .movedAway
            slots[move.to[0]][move.to[1]] = .movedIn(move.from)
        }
        for path in insertedItems {
            try checkNew(path, "inserted item")
            slots[path[0]][path[1]] = .inserted
        }

        var items: [[Item]] = []
        items.reserveCapacity(new.count)
        for (t, source) in sources.enumerated() {
            guard case .old(let s) = source else {
                items.append(new[t])
                continue
            }
            // The old items that neither leave nor vanish fill the free
            // slots in order; reloaded ones with their new content.
            let remaining = old[s].indices.filter { fates[s][$0] == .stays || fates[s][$0] == .reloaded }
            let free = slots[t].reduce(0) { if case .free = $1 { $0 + 1 } else { $0 } }
            guard remaining.count == free else {
                let inserted = new[t].count - free
                throw .invalidChangeSet("section \(t) has \(new[t].count) items after the update, but the \(old[s].count) of old section \(s) minus \(old[s].count - remaining.count) deleted or moved out plus \(inserted) inserted or moved in make \(remaining.count + inserted)")
            }
            var next = remaining.makeIterator()
            var section: [Item] = []
            section.reserveCapacity(new[t].count)
            for (i, slot) in slots[t].enumerated() {
                switch slot {
                case .inserted:
                    section.append(new[t][i])
                case .movedIn(let from):
                    section.append(old[from[0]][from[1]])
                case .free:
                    let o = next.next()!  // counts checked above
                    section.append(fates[s][o] == .reloaded ? new[t][i] : old[s][o])
                }
            }
            items.append(section)
        }
        return (sources, items)
    }

    /// What the update does to an old item.
    private enum Fate { case stays, deleted, reloaded, movedAway }

    /// What fills a slot of a new section.
    private enum Slot { case free, inserted, movedIn(IndexPath) }

    /// Where each new section comes from, checking the section changes.
    internal func sectionSources(oldCount: Int, newCount: Int) throws(GroupingError) -> [SectionSource] {
        var sources = [SectionSource?](repeating: nil, count: newCount)
        var leaving = [Bool](repeating: false, count: oldCount)
        for s in deletedSections {
            guard s >= 0 && s < oldCount else {
                throw .invalidChangeSet("deleted section \(s) is outside the old data (\(oldCount) sections)")
            }
            leaving[s] = true
        }
        for t in insertedSections {
            guard t >= 0 && t < newCount else {
                throw .invalidChangeSet("inserted section \(t) is outside the new data (\(newCount) sections)")
            }
            sources[t] = .inserted
        }
        for move in movedSections {
            guard move.from >= 0 && move.from < oldCount, !leaving[move.from] else {
                throw .invalidChangeSet("moved section \(move.from) is outside the old data, deleted or moved twice")
            }
            guard move.to >= 0 && move.to < newCount, sources[move.to] == nil else {
                throw .invalidChangeSet("section move destination \(move.to) is outside the new data or already used")
            }
            leaving[move.from] = true
            sources[move.to] = .old(move.from)
        }
        let staying = (0..<oldCount).filter { !leaving[$0] }
        let free = sources.filter { $0 == nil }.count
        guard staying.count == free else {
            throw .invalidChangeSet("\(newCount) sections after the update, but \(oldCount) before minus \(deletedSections.count) deleted plus \(insertedSections.count) inserted make \(oldCount - deletedSections.count + insertedSections.count)")
        }
        var next = staying.makeIterator()
        return sources.map { $0 ?? .old(next.next()!) }
    }

    private static func text(_ path: IndexPath) -> String {
        "[" + path.map(String.init).joined(separator: ", ") + "]"
    }
}
