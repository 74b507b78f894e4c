#if canImport(UIKit)
import UIKit

extension UITableView {
    /// Animates `changes` in one batch update.
    ///
    /// `updateData` runs first inside the batch and must switch the data
    /// source to the new data, for example with
    /// `ChangeSet.apply(to:new:)` on the manager:
    ///
    /// ```swift
    /// let changes = ChangeSet(from: manager, to: fresh)
    /// tableView.performBatchUpdates(changes) {
    ///     try? changes.apply(to: manager, new: fresh)
    /// }
    /// ```
    public func performBatchUpdates(
        _ changes: ChangeSet,
        with animation: UITableView.RowAnimation = .automatic,
        updateData: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        performBatchUpdates({
            updateData()
            self.deleteSections(changes.deletedSections, with: animation)
            self.insertSections(changes.insertedSections, with: animation)
            for move in changes.movedSections { self.moveSection(move.from, toSection: move.to) }
            self.deleteRows(at: changes.deletedItems, with: animation)
            self.insertRows(at: changes.insertedItems, with: animation)
            for move in changes.movedItems { self.moveRow(at: move.from, to: move.to) }
            self.reloadRows(at: changes.reloadedItems, with: animation)
        }, completion: completion)
    }
}

extension UICollectionView {
    /// Animates `changes` in one batch update; `updateData` runs first
    /// inside the batch and must switch the data source to the new data
    /// (see the `UITableView` counterpart).
    public func performBatchUpdates(
        _ changes: ChangeSet,
        updateData: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        performBatchUpdates({
            updateData()
            self.deleteSections(changes.deletedSections)
            self.insertSections(changes.insertedSections)
            for move in changes.movedSections { self.moveSection(move.from, toSection: move.to) }
            self.deleteItems(at: changes.deletedItems)
            self.insertItems(at: changes.insertedItems)
            for move in changes.movedItems { self.moveItem(at: move.from, to: move.to) }
            self.reloadItems(at: changes.reloadedItems)
        }, completion: completion)
    }
}
#endif
