import Foundation

// What the UIKit helpers send to a table or collection view. Kept here,
// away from UIKit, so the rules are tested on every platform.
extension ChangeSet {
    /// The change set in the form a batch update takes safely: a section
    /// that moves and also has item changes (items deleted, inserted,
    /// reloaded or moved, in or out) is deleted and inserted instead.
    ///
    /// Collection views raise exceptions or corrupt their layout when a
    /// batch moves a section and changes its items, so such a section is
    /// animated as a whole. Item moves between it and another section
    /// become an insert or a delete in that other section; sections that
    /// move with their items untouched still move. Applied to the same
    /// data, the result leads to the same sections and items.
    internal var batchUpdates: ChangeSet {
        guard !movedSections.isEmpty else { return self }
        var touchedOld = Set<Int>(), touchedNew = Set<Int>()
        for path in deletedItems { touchedOld.insert(Self.section(of: path)) }
        for path in reloadedItems { touchedOld.insert(Self.section(of: path)) }
        for path in insertedItems { touchedNew.insert(Self.section(of: path)) }
        for move in movedItems {
            touchedOld.insert(Self.section(of: move.from))
            touchedNew.insert(Self.section(of: move.to))
        }
        var replacedOld = Set<Int>(), replacedNew = Set<Int>()
        var result = self
        result.movedSections = movedSections.filter { move in
            guard touchedOld.contains(move.from) || touchedNew.contains(move.to) else { return true }
            replacedOld.insert(move.from)
            replacedNew.insert(move.to)
            return false
        }
        guard !replacedOld.isEmpty else { return self }
        result.deletedSections.formUnion(IndexSet(replacedOld))
        result.insertedSections.formUnion(IndexSet(replacedNew))
        result.deletedItems = deletedItems.filter { !replacedOld.contains(Self.section(of: $0)) }
        result.reloadedItems = reloadedItems.filter { !replacedOld.contains(Self.section(of: $0)) }
        result.insertedItems = insertedItems.filter { !replacedNew.contains(Self.section(of: $0)) }
        result.movedItems = []
        for move in movedItems {
            switch (replacedOld.contains(Self.section(of: move.from)), replacedNew.contains(Self.section(of: move.to))) {
            case (false, false): result.movedItems.append(move)
            case (true, false): result.insertedItems.append(move.to)
            case (false, true): result.deletedItems.append(move.from)
            case (true, true): break
            }
        }
        result.deletedItems.sort()
        result.insertedItems.sort()
        return result
    }

    /// The section of an item's index path; -1 for a malformed path (a
    /// hand-made change set the data-source overloads pass on unchecked),
    /// which then matches no section here and is left for UIKit to refuse.
    private static func section(of path: IndexPath) -> Int {
        path.count == 2 ? path[0] : -1
    }

    /// ``batchUpdates`` for updating `manager` to `new`, after checking that
    /// the change set fits them, so that a batch update is never started
    /// with changes the data source then fails to make.
    ///
    /// - Throws: ``GroupingError/invalidChangeSet(_:)`` when it does not fit
    ///   (the checks of `apply(to:new:)`).
    internal func batchUpdates(updating manager: Manager, to new: Manager) throws(GroupingError) -> ChangeSet {
        let oldSections = manager.sections, newSections = new.sections
        try checkOrigin(old: oldSections, new: newSections)
        _ = try plan(old: oldSections.map(\.items), new: newSections.map(\.items))
        return batchUpdates
    }

    /// ``batchUpdates(updating:to:)`` as the UIKit helpers send it to a
    /// table or collection view (see
    /// ``replacingReloadsAmongOtherChanges(oldCounts:newCounts:)``).
    internal func viewBatchUpdates(updating manager: Manager, to new: Manager) throws(GroupingError) -> ChangeSet {
        try batchUpdates(updating: manager, to: new)
            .replacingReloadsAmongOtherChanges(oldCounts: manager.sections.map(\.count), newCounts: new.sections.map(\.count))
    }
}

extension ChangeSet {
    /// This batch form (``batchUpdates``) for a table or collection view,
    /// neither of which can reload rows in a batch that also inserts,
    /// deletes or moves: they reload by deleting and inserting at the same
    /// index path on both sides, so another change that shifts the row
    /// shows the wrong cell (a row moved above an edited one: the edited
    /// row's neighbour twice) or raises an exception (a section inserted
    /// above it). Each reload then becomes a delete of its old index path
    /// and an insert at its new one. A batch of reloads alone keeps them.
    ///
    /// `oldCounts` and `newCounts` are the sections' item counts before and
    /// after, which the change set must fit (as ``apply(to:new:)`` checks).
    internal func replacingReloadsAmongOtherChanges(oldCounts: [Int], newCounts: [Int]) throws(GroupingError) -> ChangeSet {
        var result = self
        guard !result.reloadedItems.isEmpty,
              !(result.deletedSections.isEmpty && result.insertedSections.isEmpty && result.movedSections.isEmpty
                && result.deletedItems.isEmpty && result.insertedItems.isEmpty && result.movedItems.isEmpty)
        else { return result }
        let sources = try result.sectionSources(oldCount: oldCounts.count, newCount: newCounts.count)
        let leaving = Set(result.deletedItems).union(result.movedItems.map(\.from))
        let arriving = Set(result.insertedItems).union(result.movedItems.map(\.to))
        let reloaded = Set(result.reloadedItems)
        // In a kept section, the old items that stay fill the new slots
        // nothing else takes, in order (as `apply` fills them).
        for (t, source) in sources.enumerated() {
            guard case .old(let s) = source else { continue }
            var slots = (0..<newCounts[t]).lazy.map { IndexPath(item: $0, section: t) }.filter { !arriving.contains($0) }.makeIterator()
            for i in 0..<oldCounts[s] {
                let from = IndexPath(item: i, section: s)
                guard !leaving.contains(from) else { continue }
                guard let to = slots.next() else {
                    throw .invalidChangeSet("section \(t) has fewer items after the update than its changes leave")
                }
                if reloaded.contains(from) {
                    result.deletedItems.append(from)
                    result.insertedItems.append(to)
                }
            }
        }
        result.reloadedItems = []
        result.deletedItems.sort()
        result.insertedItems.sort()
        return result
    }

    /// ``apply(to:new:)``, then hands each kept section's header and footer
    /// views over to the section's new header and footer ViewModels and
    /// applies them: the UIKit helpers' update step.
    ///
    /// Applying gives a kept section `new`'s header and footer ViewModels,
    /// but a batch update never asks for header or footer views again, so
    /// the views on screen would stay bound to the old ViewModels, and
    /// refreshing the new ones would reach no view.
    ///
    /// A section, header or footer object shown in two places is left
    /// alone: its one view cannot be told to belong to either place. A
    /// header or footer that appears or goes away is not handed over
    /// either; reload that section to show it.
    ///
    /// The managers' layouts are not checked again: the helpers checked
    /// them with ``batchUpdates(updating:to:)`` in the same main-actor step.
    @MainActor
    internal func applyMovingHeaderAndFooterViews(to manager: Manager, new: Manager) throws(GroupingError) {
        var before: [ObjectIdentifier: (header: ViewModel?, footer: ViewModel?)] = [:]
        for section in manager.sections {
            before[ObjectIdentifier(section)] = (section.header, section.footer)
        }
        let shownTwiceBefore = Self.objectsShownTwice(in: manager.sections)
        try apply(to: manager, new: new, checkingOrigin: false)
        let shownTwice = shownTwiceBefore.union(Self.objectsShownTwice(in: manager.sections))
        // Every view is read before any is bound: binding one moves it, and
        // a header object may take another's place.
        var handOvers: [(view: any ViewModelBindable, viewModel: ViewModel)] = []
        for section in manager.sections where !shownTwice.contains(ObjectIdentifier(section)) {
            guard let old = before[ObjectIdentifier(section)] else { continue }
            for (from, to) in [(old.header, section.header), (old.footer, section.footer)] {
                guard let from, let to, from !== to,
                      !shownTwice.contains(ObjectIdentifier(from)), !shownTwice.contains(ObjectIdentifier(to)),
                      let view = from.bindingView else { continue }
                handOvers.append((view, to))
            }
        }
        for handOver in handOvers { handOver.viewModel.bind(handOver.view) }
    }

    /// The sections, headers and footers that appear more than once.
    private static func objectsShownTwice(in sections: [Section]) -> Set<ObjectIdentifier> {
        var seen = Set<ObjectIdentifier>(), twice = Set<ObjectIdentifier>()
        for section in sections {
            for object in [section, section.header, section.footer] as [AnyObject?] {
                guard let object else { continue }
                if !seen.insert(ObjectIdentifier(object)).inserted { twice.insert(ObjectIdentifier(object)) }
            }
        }
        return twice
    }
}
