#if canImport(UIKit) && !os(watchOS)  // watchOS has UIKit, but no table, collection or controller classes
import UIKit

extension UITableView {
    /// Updates `manager` to `new` with `changes` (their change set) in one
    /// animated batch update.
    ///
    /// The change set is checked against `manager` and `new` first: when it
    /// does not fit them (`manager` changed since the diff), this throws
    /// before the batch starts and changes nothing, and `completion` is not
    /// called; call `reloadData()` instead. The check cannot see a table
    /// that was already out of step with `manager` (rows added to the
    /// manager without telling the table): UIKit still raises for that.
    ///
    /// Inside the batch, `manager` is updated with `ChangeSet.apply(to:new:)`
    /// and the changes animate. Kept sections take `new`'s header and footer
    /// ViewModels; their header and footer views on screen are bound to
    /// those and refreshed, since a batch update does not ask for them again.
    /// A header or footer that appears or goes away on a kept section, or a
    /// header object shown in two sections, is not handed over: reload those
    /// sections.
    ///
    /// ```swift
    /// let changes = ChangeSet(from: manager, to: fresh)
    /// do {
    ///     try tableView.performBatchUpdates(changes, updating: manager, to: fresh)
    /// } catch {
    ///     manager.sections = fresh.sections
    ///     tableView.reloadData()
    /// }
    /// ```
    ///
    /// A section that moves and has item changes too is animated as deleted
    /// and inserted: table and collection views mishandle item changes
    /// inside a moved section. A table reloads a row by deleting and
    /// inserting at the same index path, which another change in the batch
    /// would shift, so a reload in a batch that also inserts, deletes or
    /// moves is sent as a delete at its old index path and an insert at its
    /// new one; reloads alone stay reloads.
    public func performBatchUpdates(
        _ changes: ChangeSet,
        updating manager: Manager,
        to new: Manager,
        with animation: UITableView.RowAnimation = .automatic,
        completion: ((Bool) -> Void)? = nil
    ) throws(GroupingError) {
        let updates = try changes.viewBatchUpdates(updating: manager, to: new)
        performBatchUpdates({
            // Checked above, in this same main-actor step: it fits.
            try? changes.applyMovingHeaderAndFooterViews(to: manager, new: new)
            self.send(updates, with: animation)
        }, completion: completion)
    }

    /// Animates `changes` in one batch update, for a data source other than
    /// a ``Manager``.
    ///
    /// `updateData` runs first inside the batch and must switch the data
    /// source to the new data, exactly as the change set says (for example
    /// with `ChangeSet.apply(to:new:)` on your own arrays,
    /// checked before the batch starts). A section that moves and has item
    /// changes too is animated as deleted and inserted. Reloads are sent as
    /// they are: give a table reloads in a batch of their own, or as a
    /// delete and an insert, as the ``Manager`` form does.
    public func performBatchUpdates(
        _ changes: ChangeSet,
        with animation: UITableView.RowAnimation = .automatic,
        updateData: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        let updates = changes.batchUpdates
        performBatchUpdates({
            updateData()
            self.send(updates, with: animation)
        }, completion: completion)
    }

    private func send(_ changes: ChangeSet, with animation: UITableView.RowAnimation) {
        deleteSections(changes.deletedSections, with: animation)
        insertSections(changes.insertedSections, with: animation)
        for move in changes.movedSections { moveSection(move.from, toSection: move.to) }
        deleteRows(at: changes.deletedItems, with: animation)
        insertRows(at: changes.insertedItems, with: animation)
        for move in changes.movedItems { moveRow(at: move.from, to: move.to) }
        reloadRows(at: changes.reloadedItems, with: animation)
    }
}

extension UICollectionView {
    /// Updates `manager` to `new` with `changes` in one animated batch
    /// update, after checking that the change set fits them (see the
    /// `UITableView` counterpart).
    ///
    /// As for tables, a reload in a batch that also inserts, deletes or
    /// moves is sent as a delete at its old index path and an insert at its
    /// new one; reloads alone stay reloads.
    ///
    /// - Throws: ``GroupingError/invalidChangeSet(_:)`` before the batch
    ///   starts, changing nothing, when the change set does not fit.
    public func performBatchUpdates(
        _ changes: ChangeSet,
        updating manager: Manager,
        to new: Manager,
        completion: ((Bool) -> Void)? = nil
    ) throws(GroupingError) {
        let updates = try changes.viewBatchUpdates(updating: manager, to: new)
        performBatchUpdates({
            // Checked above, in this same main-actor step: it fits.
            try? changes.applyMovingHeaderAndFooterViews(to: manager, new: new)
            self.send(updates)
        }, completion: completion)
    }

    /// Animates `changes` in one batch update, for a data source other than
    /// a ``Manager``; `updateData` runs first inside the batch and must
    /// switch the data source to the new data (see the `UITableView`
    /// counterpart). Reloads are sent as they are: give a collection view
    /// reloads in a batch of their own, or as a delete and an insert.
    public func performBatchUpdates(
        _ changes: ChangeSet,
        updateData: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        let updates = changes.batchUpdates
        performBatchUpdates({
            updateData()
            self.send(updates)
        }, completion: completion)
    }

    private func send(_ changes: ChangeSet) {
        deleteSections(changes.deletedSections)
        insertSections(changes.insertedSections)
        for move in changes.movedSections { moveSection(move.from, toSection: move.to) }
        deleteItems(at: changes.deletedItems)
        insertItems(at: changes.insertedItems)
        for move in changes.movedItems { moveItem(at: move.from, to: move.to) }
        reloadItems(at: changes.reloadedItems)
    }
}
#endif
