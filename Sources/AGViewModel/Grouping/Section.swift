import Observation

/// One table or collection section: ordered item ViewModels plus optional
/// header, footer, common and item-merge ViewModels.
///
/// ```swift
/// let section = Section(header: ViewModel(["title": "Favourites"]))
/// section.appendItems(packaging: apiBooks)       // one item per object, members copied
/// section.append(ViewModel(["title": "More…"]))
/// for item in section { print(item["title"] ?? "-") }
/// let titles = section.map { $0["title"] }
/// ```
///
/// A section is a reference type: the table's data source, its controller
/// and any ``Manager`` holding it share one instance. (In a file that also
/// imports SwiftUI, whose `Section` is a view, write `AGViewModel.Section`.)
///
/// ## Collection
/// A section is a `RandomAccessCollection` of its items with `Int` indices
/// from `0`, so `map`, `filter`, `reduce`, `firstIndex(where:)`, `contains`
/// and `for in` are Swift's own. It is deliberately *not* a
/// `MutableCollection`: mutating algorithms (`sort()`, `reverse()`,
/// `partition(by:)`) could not be called on a `let` constant and would tell
/// the owning managers once per element. Use the section's own mutators
/// instead (``append(_:)``, ``insert(_:at:)``, ``move(from:to:)``,
/// ``swapAt(_:_:)``, ``sort(by:)``, ``updateItems(_:)``, the subscript's
/// setter).
///
/// ## Out-of-range indices
/// Like Swift's collections, the subscript and the index-taking mutators
/// (``insert(_:at:)``, ``remove(at:)``, ``swapAt(_:_:)``, ``move(from:to:)``)
/// trap on an invalid index: passing one is a programming error. For indices
/// that come from outside (a stored index path, a server), use the
/// non-trapping ``item(at:)``, which returns `nil`.
///
/// ## Isolation
/// Like its ViewModels, a section is an ordinary non-`Sendable` class that
/// belongs to one isolation domain at a time: the compiler rules out any
/// other code touching it meanwhile, so every collection algorithm sees a
/// section that does not change under it. Package it anywhere and hand it
/// over with a `sending` result; use ``Snapshot`` for a `Sendable` copy.
/// Bulk refreshes are `@MainActor`, like the ViewModel's.
public final class Section {
    private var storedItems: [ViewModel]
    private var storedHeader: ViewModel?
    private var storedFooter: ViewModel?
    private var storedCommon: ViewModel?
    private var storedItemMerge: ViewModel?
    // Swift Observation: reads of the items and the section-level
    // ViewModels are reported, changes announced (see `Section: Observable`).
    private let registrar = ObservationRegistrar()
    // Managers holding this section, told when the items change so their
    // index-path tables go stale. Weak: a section does not keep its manager alive.
    private var owners: [WeakManager] = []
    // Keys registered per part for JSON export and archives (see
    // Persistence/Section+KeyRegistration.swift).
    internal var partKeyRegistry = PartKeyRegistry()
    // The section this one stands for: its own identity, or, for a section
    // made from a snapshot, the original's, so a diff of snapshot copies
    // matches the sections the originals share (see `ChangeSet`).
    internal var sourceIdentity = SnapshotRun.newIdentity()

    /// A section with the given items and optional section-level ViewModels.
    ///
    /// - Parameters:
    ///   - items: The items, in display order.
    ///   - header: The section header's ViewModel.
    ///   - footer: The section footer's ViewModel.
    ///   - common: Values shared by the whole section (a style, a context).
    ///   - itemMerge: Values every item *packaged* into the section gets for
    ///     the keys it lacks (see ``itemMerge``).
    public init(
        items: [ViewModel] = [],
        header: ViewModel? = nil,
        footer: ViewModel? = nil,
        common: ViewModel? = nil,
        itemMerge: ViewModel? = nil
    ) {
        storedItems = items
        storedHeader = header
        storedFooter = footer
        storedCommon = common
        storedItemMerge = itemMerge
    }

    // MARK: Section-level ViewModels

    /// The section header's ViewModel.
    public var header: ViewModel? {
        get {
            registrar.access(self, keyPath: \.header)
            return storedHeader
        }
        set { registrar.withMutation(of: self, keyPath: \.header) { storedHeader = newValue } }
    }

    /// The section footer's ViewModel.
    public var footer: ViewModel? {
        get {
            registrar.access(self, keyPath: \.footer)
            return storedFooter
        }
        set { registrar.withMutation(of: self, keyPath: \.footer) { storedFooter = newValue } }
    }

    /// Values shared by the whole section.
    public var common: ViewModel? {
        get {
            registrar.access(self, keyPath: \.common)
            return storedCommon
        }
        set { registrar.withMutation(of: self, keyPath: \.common) { storedCommon = newValue } }
    }

    /// Values every item packaged into this section gets for the keys it
    /// lacks: the item's own values win (the one packaging merge rule).
    /// Items added as ready ViewModels (``append(_:)``) are left as they are.
    /// Only its JSON values are merged: its payloads (objects and other
    /// non-JSON values) are not put into items.
    public var itemMerge: ViewModel? {
        get {
            registrar.access(self, keyPath: \.itemMerge)
            return storedItemMerge
        }
        set { registrar.withMutation(of: self, keyPath: \.itemMerge) { storedItemMerge = newValue } }
    }

    // MARK: Reading items

    /// The items, in order. Setting it replaces all items.
    public var items: [ViewModel] {
        get { trackedItems }
        set { mutateItems { $0 = newValue } }
    }

    /// The number of items.
    public var count: Int { trackedItems.count }

    /// `true` when the section has no items.
    public var isEmpty: Bool { trackedItems.isEmpty }

    /// The first item, or `nil` when the section is empty.
    public var first: ViewModel? { trackedItems.first }

    /// The last item, or `nil` when the section is empty.
    public var last: ViewModel? { trackedItems.last }

    /// The item at `index`, or `nil` when `index` is out of range. Never
    /// traps: use it for indices that come from outside.
    public func item(at index: Int) -> ViewModel? {
        trackedItems.indices.contains(index) ? trackedItems[index] : nil
    }

    /// The position of `item` (compared by identity), or `nil`.
    public func index(of item: ViewModel) -> Int? {
        trackedItems.firstIndex { $0 === item }
    }

    /// Whether the section holds `item` (compared by identity).
    public func contains(_ item: ViewModel) -> Bool {
        index(of: item) != nil
    }

    // MARK: Adding items

    /// Adds `item` at the end.
    public func append(_ item: ViewModel) {
        appendItems(CollectionOfOne(item))
    }

    /// Adds `newItems` at the end, in order.
    public func append(contentsOf newItems: some Sequence<ViewModel>) {
        appendItems(Array(newItems))
    }

    /// Inserts `item` at `index` (`0...count`); traps when out of range.
    public func insert(_ item: ViewModel, at index: Int) {
        mutateItems { items in
            precondition(index >= 0 && index <= items.count, "Section.insert(_:at:): index \(index) out of range 0...\(items.count)")
            items.insert(item, at: index)
        }
    }

    /// Inserts `newItems` at `index` (`0...count`); traps when out of range.
    public func insert(contentsOf newItems: some Sequence<ViewModel>, at index: Int) {
        let newItems = Array(newItems)
        func checkIndex(_ count: Int) {
            precondition(index >= 0 && index <= count, "Section.insert(contentsOf:at:): index \(index) out of range 0...\(count)")
        }
        // Inserting nothing is no change (an empty "load newer" page), but a
        // bad index still traps.
        guard !newItems.isEmpty else { return checkIndex(storedItems.count) }
        mutateItems { items in
            checkIndex(items.count)
            items.insert(contentsOf: newItems, at: index)
        }
    }

    // MARK: Removing items

    /// Removes every item. An empty section stays as it is (no change for
    /// Observation).
    public func removeAll() {
        guard !storedItems.isEmpty else { return }
        mutateItems { $0.removeAll() }
    }

    /// Removes and returns the last item; traps when the section is empty.
    /// Use ``popLast()`` when it may be.
    @discardableResult
    public func removeLast() -> ViewModel {
        mutateItems { items in
            precondition(!items.isEmpty, "Section.removeLast(): the section is empty")
            return items.removeLast()
        }
    }

    /// Removes and returns the last item, or returns `nil` when the section
    /// is empty.
    @discardableResult
    public func popLast() -> ViewModel? {
        // Nothing to remove is no change for Observation (as `removeAll()`).
        guard !storedItems.isEmpty else { return nil }
        return mutateItems { $0.popLast() }
    }

    /// Removes and returns the item at `index`; traps when out of range.
    @discardableResult
    public func remove(at index: Int) -> ViewModel {
        mutateItems { items in
            precondition(items.indices.contains(index), "Section.remove(at:): index \(index) out of range 0..<\(items.count)")
            return items.remove(at: index)
        }
    }

    /// Removes every occurrence of `item` (compared by identity). Returns
    /// whether anything was removed.
    @discardableResult
    public func remove(_ item: ViewModel) -> Bool {
        // Nothing to remove is no change: observers are not told.
        guard storedItems.contains(where: { $0 === item }) else { return false }
        return mutateItems { items in
            let before = items.count
            items.removeAll { $0 === item }
            return items.count != before
        }
    }

    /// Removes every item that is also in `other` (compared by identity).
    public func removeItems(in other: Section) {
        removeItems(in: other.items)
    }

    /// Removes every item that is in `unwanted` (compared by identity).
    public func removeItems(in unwanted: some Sequence<ViewModel>) {
        let unwanted = Set(unwanted.lazy.map(ObjectIdentifier.init))
        guard storedItems.contains(where: { unwanted.contains(ObjectIdentifier($0)) }) else { return }
        mutateItems { $0.removeAll { unwanted.contains(ObjectIdentifier($0)) } }
    }

    /// Removes every item for which `shouldBeRemoved` returns `true`, in one
    /// change; none, when it removes nothing. The predicate runs on a copy
    /// of the items; changes it makes to this section are replaced by the
    /// result.
    public func removeAll(where shouldBeRemoved: (ViewModel) throws -> Bool) rethrows {
        let items = trackedItems
        let kept = try items.filter { try !shouldBeRemoved($0) }
        guard kept.count != items.count || !storedItems.elementsEqual(items, by: ===) else { return }
        mutateItems { $0 = kept }
    }

    // MARK: Reordering and replacing

    /// Replaces the item at `index` with `item`; traps when out of range.
    public func replaceItem(at index: Int, with item: ViewModel) {
        mutateItems { items in
            precondition(items.indices.contains(index), "Section.replaceItem(at:with:): index \(index) out of range 0..<\(items.count)")
            items[index] = item
        }
    }

    /// Exchanges the items at `i` and `j`; traps when either is out of range.
    public func swapAt(_ i: Int, _ j: Int) {
        precondition(storedItems.indices.contains(i) && storedItems.indices.contains(j), "Section.swapAt(_:_:): indices \(i), \(j) out of range 0..<\(storedItems.count)")
        // In place is no change for Observation.
        guard i != j else { return }
        mutateItems { $0.swapAt(i, j) }
    }

    /// Moves the item at `source` so that it ends up at `destination`, as a
    /// table view's row move does; traps when either is out of range.
    public func move(from source: Int, to destination: Int) {
        precondition(storedItems.indices.contains(source) && storedItems.indices.contains(destination), "Section.move(from:to:): indices \(source), \(destination) out of range 0..<\(storedItems.count)")
        guard source != destination else { return }
        mutateItems { items in items.insert(items.remove(at: source), at: destination) }
    }

    /// Sorts the items in place with `areInIncreasingOrder`, in one change
    /// (see ``updateItems(_:)``).
    public func sort(by areInIncreasingOrder: (ViewModel, ViewModel) throws -> Bool) rethrows {
        try updateItems { try $0.sorted(by: areInIncreasingOrder) }
    }

    /// Replaces the items with `transform(items)`, in one change: the
    /// owning managers are told once. The same items in the same order are
    /// no change.
    public func updateItems(_ transform: ([ViewModel]) throws -> [ViewModel]) rethrows {
        let updated = try transform(trackedItems)
        // The same items in the same order are no change for Observation.
        guard !updated.elementsEqual(storedItems, by: ===) else { return }
        mutateItems { $0 = updated }
    }

    // MARK: Enumerating

    /// Calls `body` with each item in order.
    public func forEach(_ body: (ViewModel) throws -> Void) rethrows {
        try items.forEach(body)
    }

    // MARK: Internals

    /// Moves every ViewModel out of a section about to be released (nobody
    /// else holds it) into `teardown`, which releases them one at a time:
    /// a chain through sections deeper than the stack is released without
    /// one deinit inside the next. Nothing is told: nothing can observe a
    /// section nobody holds.
    internal func moveContents(into teardown: inout DeepTeardown) {
        teardown.viewModels.append(contentsOf: storedItems)
        storedItems = []
        for part in [storedHeader, storedFooter, storedCommon, storedItemMerge] {
            if let part { teardown.viewModels.append(part) }
        }
        (storedHeader, storedFooter, storedCommon, storedItemMerge) = (nil, nil, nil, nil)
    }

    /// Runs `body` on the items, then tells the owning managers (their
    /// index-path tables go stale).
    @discardableResult
    internal func mutateItems<Result>(_ body: (inout [ViewModel]) -> Result) -> Result {
        let result = registrar.withMutation(of: self, keyPath: \.items) { body(&storedItems) }
        if !owners.isEmpty {
            for manager in owners.compactMap(\.manager) { manager.sectionItemsDidChange() }
        }
        return result
    }

    /// Appends `newItems` and tells the owning managers where, so their
    /// index-path tables grow instead of being rebuilt: a "load more" that
    /// asks for each new row's index path stays linear.
    private func appendItems(_ newItems: some Collection<ViewModel>) {
        // Appending nothing (an empty "load more" page) changes nothing that
        // Observation should re-render for.
        guard !newItems.isEmpty else { return }
        // Counted when the items go in: an Observation handler told of the
        // mutation may have changed the items before.
        var start = 0
        registrar.withMutation(of: self, keyPath: \.items) {
            start = storedItems.count
            storedItems.append(contentsOf: newItems)
        }
        if !owners.isEmpty {
            for manager in owners.compactMap(\.manager) { manager.section(self, didAppend: newItems, at: start) }
        }
    }

    /// The items, their read reported to Swift Observation.
    private var trackedItems: [ViewModel] {
        registrar.access(self, keyPath: \.items)
        return storedItems
    }

    /// The items, their read not reported (the manager's index-path table,
    /// rebuilt on demand, must not be tracked only when it is rebuilt).
    internal var untrackedItems: [ViewModel] { storedItems }

    /// The header, footer, common and item-merge ViewModels, in
    /// ``SectionSlot`` order, without reporting the reads to Observation.
    internal var untrackedSlotViewModels: [(slot: SectionSlot, viewModel: ViewModel?)] {
        [(.header, storedHeader), (.footer, storedFooter), (.common, storedCommon), (.itemMerge, storedItemMerge)]
    }

    /// Registers `manager` to be told about item changes. Called before the
    /// manager starts holding this section, so no change can slip between.
    internal func addOwner(_ manager: Manager) {
        owners.removeAll { $0.manager == nil }
        if !owners.contains(where: { $0.manager === manager }) {
            owners.append(WeakManager(manager: manager))
        }
    }

    /// Stops telling `manager`, which no longer holds this section.
    internal func removeOwner(_ manager: Manager) {
        owners.removeAll { $0.manager == nil || $0.manager === manager }
    }

    /// How many managers are told about item changes.
    internal var ownerCount: Int { owners.count }
}

extension Section: RandomAccessCollection {
    /// The position of the first item: always `0`.
    public var startIndex: Int { 0 }

    /// One past the last item's position: the current ``count``.
    public var endIndex: Int { count }

    /// The item at `position`; traps when out of range, like an array.
    /// Setting replaces the item. Use ``item(at:)`` for indices from outside.
    public subscript(position: Int) -> ViewModel {
        get {
            precondition(trackedItems.indices.contains(position), "Section index \(position) out of range 0..<\(trackedItems.count)")
            return trackedItems[position]
        }
        set { replaceItem(at: position, with: newValue) }
    }

    /// Iterates the items as they are when iteration starts.
    public func makeIterator() -> IndexingIterator<[ViewModel]> {
        items.makeIterator()
    }
}

/// A weak reference to a manager holding a section.
private struct WeakManager {
    weak var manager: Manager?
}

/// A section takes part in Swift Observation: code that reads its items
/// (``items``, ``count``, an item by position, iteration) or a
/// section-level ViewModel inside `withObservationTracking` (or a SwiftUI
/// `body`) is told when they change, so a list shows items appended by
/// "load more". Changes inside an item are its own ViewModel's. As with an
/// `@Observable` class, an `onChange` must not change the section itself
/// (Observation calls it again for that change, without end).
extension Section: Observable {}

/// A section is identified by the object: `ForEach(manager) { section in … }`
/// takes a manager's sections directly, and ``ChangeSet/apply(to:new:)``
/// keeps the objects of kept sections.
extension Section: Identifiable {}
