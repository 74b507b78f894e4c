import Foundation

/// The difference between an old and a new ``Manager``, in the shape
/// `UITableView.performBatchUpdates(_:completion:)` and
/// `UICollectionView.performBatchUpdates(_:completion:)` expect, so a screen
/// animates an update instead of calling `reloadData()`.
///
/// ```swift
/// let fresh = Manager()
/// fresh.appendSections(packaging: response)        // the new API data
/// let changes = ChangeSet(from: manager, to: fresh) // items identified by "id"
/// // changes.deletedItems   – old index paths, e.g. [[0, 3]]
/// // changes.insertedItems  – new index paths, e.g. [[1, 0]]
/// // changes.movedItems     – old → new, e.g. [[0, 5] → [1, 2]]
/// // changes.reloadedItems  – old index paths of items whose content changed
/// // UIKit helper: checks the change set, then updates `manager` inside
/// // the batch update and animates the changes.
/// try tableView.performBatchUpdates(changes, updating: manager, to: fresh)
/// ```
///
/// ## Meaning of the index paths (UIKit's rules)
/// - ``deletedSections``, ``deletedItems`` and ``reloadedItems`` are in the
///   **old** manager's coordinates; ``insertedSections`` and
///   ``insertedItems`` in the **new** one's; moves go from old to new.
/// - Items of deleted or inserted sections are not listed: the section
///   change covers them. An item whose old section is deleted, or whose new
///   section is inserted, is an insert or a delete, never a move.
/// - An item that keeps its identity but changed content is *reloaded* when
///   it stays in place, and reported as a delete plus an insert when it also
///   moves (UIKit cannot move and reload the same item in one batch).
/// - Items and sections not mentioned keep their relative order; the fewest
///   moves that achieve the new order are reported (the rest of each section
///   stays in place, by longest increasing subsequence).
///
/// Section-level ViewModels (headers, footers) are compared for identity only,
/// not for content, and a kept section takes `new`'s header and footer
/// ViewModels when applied. The UIKit helpers bind the header and footer
/// views on screen to those and refresh them (not a header or footer that
/// appears or goes away: reload that section); when you apply a change set
/// yourself, bind them (or reload those sections), since a batch update
/// does not ask for header and footer views again.
///
/// `apply(to:new:)` implements these rules on plain arrays of items (to check
/// a change set, or to update your own model) and on a ``Manager``.
public struct ChangeSet: Sendable, Hashable {
    /// A move of a section or an item, from its old to its new position.
    public struct Move<Position: Hashable & Sendable>: Sendable, Hashable {
        /// The position in the old manager.
        public var from: Position
        /// The position in the new manager.
        public var to: Position

        /// Creates a move.
        public init(from: Position, to: Position) {
            self.from = from
            self.to = to
        }
    }

    /// Sections removed, by old index.
    public var deletedSections: IndexSet
    /// Sections added, by new index.
    public var insertedSections: IndexSet
    /// Sections that moved, old index → new index.
    public var movedSections: [Move<Int>]
    /// Items removed, by old index path, sorted.
    public var deletedItems: [IndexPath]
    /// Items added, by new index path, sorted.
    public var insertedItems: [IndexPath]
    /// Items that moved, old index path → new index path, sorted by origin.
    public var movedItems: [Move<IndexPath>]
    /// Items that stayed but whose content changed, by old index path, sorted.
    public var reloadedItems: [IndexPath]

    /// The managers the diff computed this change set from (`nil` for one
    /// made by hand); not part of its value.
    internal var origin: Origin?

    /// A change set with the given changes (empty by default).
    public init(
        deletedSections: IndexSet = [],
        insertedSections: IndexSet = [],
        movedSections: [Move<Int>] = [],
        deletedItems: [IndexPath] = [],
        insertedItems: [IndexPath] = [],
        movedItems: [Move<IndexPath>] = [],
        reloadedItems: [IndexPath] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.movedSections = movedSections
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.movedItems = movedItems
        self.reloadedItems = reloadedItems
    }

    /// Two change sets are equal when they list the same changes.
    public static func == (a: ChangeSet, b: ChangeSet) -> Bool {
        a.deletedSections == b.deletedSections && a.insertedSections == b.insertedSections
            && a.movedSections == b.movedSections && a.deletedItems == b.deletedItems
            && a.insertedItems == b.insertedItems && a.movedItems == b.movedItems
            && a.reloadedItems == b.reloadedItems
    }

    /// Hashes the changes listed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(deletedSections)
        hasher.combine(insertedSections)
        hasher.combine(movedSections)
        hasher.combine(deletedItems)
        hasher.combine(insertedItems)
        hasher.combine(movedItems)
        hasher.combine(reloadedItems)
    }

    /// `true` when nothing changed.
    public var isEmpty: Bool { changeCount == 0 }

    /// The number of individual changes of every kind.
    public var changeCount: Int {
        deletedSections.count + insertedSections.count + movedSections.count
            + deletedItems.count + insertedItems.count + movedItems.count + reloadedItems.count
    }
}

extension ChangeSet: CustomStringConvertible {
    /// A compact summary, for logs and test failures:
    /// `sections -[1]; sections +[0]; sections ~[2→3]; items -[0,1]; items +[1,0]; items ~[0,5→1,2]; items ↻[2,0]`
    /// (`-` deleted, `+` inserted, `~` moved, `↻` reloaded).
    public var description: String {
        func path(_ p: IndexPath) -> String { p.map(String.init).joined(separator: ",") }
        func list(_ parts: [String]) -> String { "[" + parts.joined(separator: " ") + "]" }
        var parts: [String] = []
        if !deletedSections.isEmpty { parts.append("sections -" + list(deletedSections.map(String.init))) }
        if !insertedSections.isEmpty { parts.append("sections +" + list(insertedSections.map(String.init))) }
        if !movedSections.isEmpty { parts.append("sections ~" + list(movedSections.map { "\($0.from)→\($0.to)" })) }
        if !deletedItems.isEmpty { parts.append("items -" + list(deletedItems.map(path))) }
        if !insertedItems.isEmpty { parts.append("items +" + list(insertedItems.map(path))) }
        if !movedItems.isEmpty { parts.append("items ~" + list(movedItems.map { path($0.from) + "→" + path($0.to) })) }
        if !reloadedItems.isEmpty { parts.append("items ↻" + list(reloadedItems.map(path))) }
        return parts.isEmpty ? "no changes" : parts.joined(separator: "; ")
    }
}
