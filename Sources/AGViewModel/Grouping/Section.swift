/// One table or collection section: ordered item ViewModels plus optional
/// header, footer, common and item-merge ViewModels.
///
/// ```swift
/// let section = Section(header: ViewModel(["title": "Favourites"]))
/// section.appendItems(packaging: apiBooks) { ViewModel($0) }
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
/// `partition(by:)`) would write one element at a time, each a separate
/// locked step that other threads could interleave with, and they could not
/// be called on a `let` constant. Use the section's own atomic mutators
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
/// ## Concurrency
/// A section is safe to read and mutate from any thread: its storage is
/// guarded by an internal lock, and every operation is atomic. User code
/// (predicates, packaging closures, view refreshes) never runs while the lock
/// is held. Iterating (`for in`, `filter`, `reduce`, ``forEach(_:)``) works on
/// a snapshot of the items taken when iteration starts. Index-based access
/// (`indices`, `map`, `firstIndex(where:)`, `section[i]`) reads the live
/// section, so an index is only meaningful while no other thread mutates it;
/// when another thread may, work on the ``items`` snapshot (an `Array`)
/// instead. Bulk refreshes are `@MainActor`, like the ViewModel's.
public final class Section: @unchecked Sendable {
    // Guards every stored property below.
    internal let lock = Lock()
    private var _items: [ViewModel]
    private var _header: ViewModel?
    private var _footer: ViewModel?
    private var _common: ViewModel?
    private var _itemMerge: ViewModel?
    // Managers holding this section, told when the items change so their
    // index-path tables go stale. Weak: a section does not keep its manager alive.
    private var owners: [WeakManager] = []
    // Keys registered per part for JSON export and archives (issue 6, see
    // Persistence/Section+KeyRegistration.swift).
    internal var partKeyRegistry = PartKeyRegistry()

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
        _items = items
        _header = header
        _footer = footer
        _common = common
        _itemMerge = itemMerge
    }

    // MARK: Section-level ViewModels

    /// The section header's ViewModel.
    public var header: ViewModel? {
        get { lock.withLock { _header } }
        set { lock.withLock { _header = newValue } }
    }

    /// The section footer's ViewModel.
    public var footer: ViewModel? {
        get { lock.withLock { _footer } }
        set { lock.withLock { _footer = newValue } }
    }

    /// Values shared by the whole section.
    public var common: ViewModel? {
        get { lock.withLock { _common } }
        set { lock.withLock { _common = newValue } }
    }

    /// Values every item packaged into this section gets for the keys it
    /// lacks: the item's own values win (the one packaging merge rule).
    /// Items added as ready ViewModels (``append(_:)``) are left as they are.
    public var itemMerge: ViewModel? {
        get { lock.withLock { _itemMerge } }
        set { lock.withLock { _itemMerge = newValue } }
    }

    // MARK: Reading items

    /// A snapshot of the items, in order. Setting it replaces all items.
    public var items: [ViewModel] {
        get { lock.withLock { _items } }
        set { mutateItems { $0 = newValue } }
    }

    /// The number of items.
    public var count: Int { lock.withLock { _items.count } }

    /// `true` when the section has no items.
    public var isEmpty: Bool { lock.withLock { _items.isEmpty } }

    /// The first item, or `nil` when the section is empty.
    public var first: ViewModel? { lock.withLock { _items.first } }

    /// The last item, or `nil` when the section is empty.
    public var last: ViewModel? { lock.withLock { _items.last } }

    /// The item at `index`, or `nil` when `index` is out of range. Never
    /// traps: use it for indices that come from outside.
    public func item(at index: Int) -> ViewModel? {
        lock.withLock { _items.indices.contains(index) ? _items[index] : nil }
    }

    /// The position of `item` (compared by identity), or `nil`.
    public func index(of item: ViewModel) -> Int? {
        lock.withLock { _items.firstIndex { $0 === item } }
    }

    /// Whether the section holds `item` (compared by identity).
    public func contains(_ item: ViewModel) -> Bool {
        index(of: item) != nil
    }

    // MARK: Adding items

    /// Adds `item` at the end.
    public func append(_ item: ViewModel) {
        mutateItems { $0.append(item) }
    }

    /// Adds `newItems` at the end, in order.
    public func append(contentsOf newItems: some Sequence<ViewModel>) {
        let newItems = Array(newItems)
        mutateItems { $0.append(contentsOf: newItems) }
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
        mutateItems { items in
            precondition(index >= 0 && index <= items.count, "Section.insert(contentsOf:at:): index \(index) out of range 0...\(items.count)")
            items.insert(contentsOf: newItems, at: index)
        }
    }

    // MARK: Removing items

    /// Removes every item.
    public func removeAll() {
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
        mutateItems { $0.popLast() }
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
        mutateItems { items in
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
        guard !unwanted.isEmpty else { return }
        mutateItems { $0.removeAll { unwanted.contains(ObjectIdentifier($0)) } }
    }

    /// Removes every item for which `shouldBeRemoved` returns `true`.
    ///
    /// The predicate runs outside the lock on a snapshot; if another thread
    /// changed the items meanwhile, it runs again on the new items, so the
    /// removal is atomic. It must not mutate this section.
    public func removeAll(where shouldBeRemoved: (ViewModel) throws -> Bool) rethrows {
        try updateItems { items in try items.filter { try !shouldBeRemoved($0) } }
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
        mutateItems { items in
            precondition(items.indices.contains(i) && items.indices.contains(j), "Section.swapAt(_:_:): indices \(i), \(j) out of range 0..<\(items.count)")
            items.swapAt(i, j)
        }
    }

    /// Moves the item at `source` so that it ends up at `destination`, as a
    /// table view's row move does; traps when either is out of range.
    public func move(from source: Int, to destination: Int) {
        mutateItems { items in
            precondition(items.indices.contains(source) && items.indices.contains(destination), "Section.move(from:to:): indices \(source), \(destination) out of range 0..<\(items.count)")
            items.insert(items.remove(at: source), at: destination)
        }
    }

    /// Sorts the items in place with `areInIncreasingOrder`, atomically (see
    /// ``updateItems(_:)``).
    public func sort(by areInIncreasingOrder: (ViewModel, ViewModel) throws -> Bool) rethrows {
        try updateItems { try $0.sorted(by: areInIncreasingOrder) }
    }

    /// Replaces the items with `transform(items)`, atomically.
    ///
    /// `transform` runs outside the lock on a snapshot. If another thread
    /// changed the items before the result could be stored, `transform` runs
    /// again on the new items, so no concurrent change is lost. It may
    /// therefore run more than once and must not mutate this section.
    public func updateItems(_ transform: ([ViewModel]) throws -> [ViewModel]) rethrows {
        while true {
            let (snapshot, version) = lock.withLock { (_items, itemsVersion) }
            let updated = try transform(snapshot)
            lock.lock()
            if itemsVersion == version {
                _items = updated
                let managers = itemsChangedLocked()
                lock.unlock()
                notify(managers)
                return
            }
            lock.unlock()
        }
    }

    // MARK: Enumerating

    /// Calls `body` with each item in order, on a snapshot.
    public func forEach(_ body: (ViewModel) throws -> Void) rethrows {
        try items.forEach(body)
    }

    // MARK: Internals

    // Bumped on every change of `_items` (under the lock), so optimistic
    // updates can tell whether the items changed under them.
    private var itemsVersion: UInt64 = 0

    /// Runs `body` on the items under the lock, then tells the owning
    /// managers. `body` is our own code only, never user code.
    @discardableResult
    internal func mutateItems<Result>(_ body: (inout [ViewModel]) -> Result) -> Result {
        lock.lock()
        let result = body(&_items)
        let managers = itemsChangedLocked()
        lock.unlock()
        notify(managers)
        return result
    }

    /// Bumps the version in the same critical section as the change (so an
    /// optimistic update can never miss it) and returns the managers to tell.
    private func itemsChangedLocked() -> [Manager] {
        itemsVersion &+= 1
        return owners.isEmpty ? [] : owners.compactMap(\.manager)
    }

    /// Tells the owning managers, outside our lock: they take their own.
    private func notify(_ managers: [Manager]) {
        for manager in managers { manager.sectionItemsDidChange() }
    }

    // Lock-held reads for extensions in other files (call only under `lock`).
    internal var _itemsLocked: [ViewModel] { _items }
    internal var _headerLocked: ViewModel? { _header }
    internal var _footerLocked: ViewModel? { _footer }

    /// Registers `manager` to be told about item changes. Called before the
    /// manager starts holding this section, so no change can slip between.
    internal func addOwner(_ manager: Manager) {
        lock.withLock {
            owners.removeAll { $0.manager == nil }
            if !owners.contains(where: { $0.manager === manager }) {
                owners.append(WeakManager(manager: manager))
            }
        }
    }
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
            lock.withLock {
                precondition(_items.indices.contains(position), "Section index \(position) out of range 0..<\(_items.count)")
                return _items[position]
            }
        }
        set { replaceItem(at: position, with: newValue) }
    }

    /// Iterates a snapshot of the items taken when iteration starts, so
    /// `for in`, `filter` and `reduce` are safe while other threads mutate.
    public func makeIterator() -> IndexingIterator<[ViewModel]> {
        items.makeIterator()
    }
}

/// A weak reference to a manager holding a section.
private struct WeakManager {
    weak var manager: Manager?
}
