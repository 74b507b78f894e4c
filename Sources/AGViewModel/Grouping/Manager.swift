import Foundation

/// A whole table or collection view: ordered ``Section``s plus a common
/// ViewModel (the counterpart of the original's `AGVMManager`).
///
/// ```swift
/// let manager = Manager()
/// manager.appendSection(packaging: apiBooks)           // items from JSON objects
/// manager.appendSection { section in                   // or build one by hand
///     section.packageHeader(["title": "Authors"])
///     section.appendItems(packaging: apiAuthors) { ViewModel($0) }
/// }
/// let cell = manager[IndexPath(item: 0, section: 1)]   // an item
/// let path = manager.indexPath(of: cell)               // and back, in O(1)
/// ```
///
/// ## Collection
/// A manager is a `RandomAccessCollection` of its sections (`Int` indices
/// from `0`), and not a `MutableCollection`, for the reasons given on
/// ``Section``. Items are reached by index path through
/// `manager[indexPath]`, ``item(at:)`` and ``indexedItems``.
///
/// ## Out-of-range indices
/// Subscripts and index-taking mutators trap on an invalid index, like
/// Swift's collections; ``section(at:)`` and ``item(at:)`` return `nil`
/// instead, for indices that come from outside.
///
/// ## Finding an item's index path
/// ``indexPath(of:)`` answers from a table of item identity → index path,
/// built on first use and rebuilt lazily after any change to the manager or
/// to one of its sections (sections tell the managers holding them). A
/// stable 10,000-item table answers each lookup with one hash lookup.
///
/// ## Concurrency
/// A manager is safe to read and mutate from any thread, with the same rules
/// as a section: an internal lock guards the section list, each operation is
/// atomic, user code never runs under the lock, iteration works on a
/// snapshot, and ``sections`` is a snapshot array. Operations spanning
/// several sections (``removeItems(where:)``, the bulk refreshes) are atomic
/// per section, not across the whole manager.
public final class Manager: @unchecked Sendable {
    // Guards every stored property below.
    internal let lock = Lock()
    private var _sections: [Section]
    private var _common: ViewModel?
    // Bumped by every change that can move an item: the manager's own
    // section list changes and its sections' item changes.
    private var generation: UInt64 = 0
    // The identity → index path table, valid for `tableGeneration`.
    private var table: [ObjectIdentifier: ItemSlot]?
    private var tableGeneration: UInt64 = 0
    // Keys registered per part for JSON export and archives (issue 6, see
    // Persistence/Manager+KeyRegistration.swift).
    internal var partKeyRegistry = PartKeyRegistry()

    /// A manager with the given sections and common ViewModel.
    public init(sections: [Section] = [], common: ViewModel? = nil) {
        _sections = sections
        _common = common
        for section in sections { section.addOwner(self) }
    }

    // MARK: Common ViewModel

    /// Values shared by the whole table (a context, a style).
    public var common: ViewModel? {
        get { lock.withLock { _common } }
        set { lock.withLock { _common = newValue } }
    }

    // MARK: Reading sections

    /// A snapshot of the sections, in order. Setting it replaces them all.
    public var sections: [Section] {
        get { lock.withLock { _sections } }
        set { mutateSections(adding: newValue) { $0 = newValue } }
    }

    /// The number of sections.
    public var count: Int { lock.withLock { _sections.count } }

    /// `true` when the manager has no sections.
    public var isEmpty: Bool { lock.withLock { _sections.isEmpty } }

    /// The first section, or `nil` when there is none.
    public var first: Section? { lock.withLock { _sections.first } }

    /// The last section, or `nil` when there is none.
    public var last: Section? { lock.withLock { _sections.last } }

    /// The section at `index`, or `nil` when out of range. Never traps.
    public func section(at index: Int) -> Section? {
        lock.withLock { _sections.indices.contains(index) ? _sections[index] : nil }
    }

    /// The position of `section` (compared by identity), or `nil`.
    public func index(of section: Section) -> Int? {
        lock.withLock { _sections.firstIndex { $0 === section } }
    }

    // MARK: Items by index path

    /// The item at `indexPath` (section, item); traps when either index is
    /// out of range. Setting replaces the item.
    public subscript(indexPath: IndexPath) -> ViewModel {
        get { self[indexPath.section][indexPath.item] }
        set { self[indexPath.section][indexPath.item] = newValue }
    }

    /// The item at `indexPath`, or `nil` when the path does not have two
    /// indexes or either is out of range. Never traps.
    public func item(at indexPath: IndexPath) -> ViewModel? {
        guard indexPath.count == 2 else { return nil }
        return section(at: indexPath[0])?.item(at: indexPath[1])
    }

    /// The total number of items in all sections.
    public var itemCount: Int {
        sections.reduce(0) { $0 + $1.count }
    }

    /// Every item with its index path, in section then item order, as one
    /// snapshot per section.
    public var indexedItems: [(indexPath: IndexPath, item: ViewModel)] {
        var result: [(indexPath: IndexPath, item: ViewModel)] = []
        for (s, section) in sections.enumerated() {
            for (i, item) in section.items.enumerated() {
                result.append((IndexPath(item: i, section: s), item))
            }
        }
        return result
    }

    /// Every item, in section then item order.
    public var allItems: [ViewModel] {
        sections.flatMap(\.items)
    }

    /// Calls `body` with every item and its index path, in order.
    public func forEachItem(_ body: (IndexPath, ViewModel) throws -> Void) rethrows {
        for (s, section) in sections.enumerated() {
            for (i, item) in section.items.enumerated() {
                try body(IndexPath(item: i, section: s), item)
            }
        }
    }

    /// Each section's header, one entry per section (`nil` where a section
    /// has none); `headers.enumerated()` pairs them with section indices.
    public var headers: [ViewModel?] { sections.map(\.header) }

    /// Each section's footer, one entry per section (`nil` where a section
    /// has none).
    public var footers: [ViewModel?] { sections.map(\.footer) }

    // MARK: Adding sections

    /// Adds `section` at the end.
    public func append(_ section: Section) {
        mutateSections(adding: [section]) { $0.append(section) }
    }

    /// Adds `newSections` at the end, in order.
    public func append(contentsOf newSections: some Sequence<Section>) {
        let newSections = Array(newSections)
        mutateSections(adding: newSections) { $0.append(contentsOf: newSections) }
    }

    /// Inserts `section` at `index` (`0...count`); traps when out of range.
    public func insert(_ section: Section, at index: Int) {
        mutateSections(adding: [section]) { sections in
            precondition(index >= 0 && index <= sections.count, "Manager.insert(_:at:): index \(index) out of range 0...\(sections.count)")
            sections.insert(section, at: index)
        }
    }

    /// Appends the sections of `other` (the same `Section` instances, now
    /// shared by both managers). The common ViewModels are left as they are.
    public func merge(_ other: Manager) {
        append(contentsOf: other.sections)
    }

    // MARK: Removing sections and items

    /// Removes every section.
    public func removeAll() {
        mutateSections { $0.removeAll() }
    }

    /// Removes and returns the last section; traps when there is none. Use
    /// ``popLast()`` when there may be none.
    @discardableResult
    public func removeLast() -> Section {
        mutateSections { sections in
            precondition(!sections.isEmpty, "Manager.removeLast(): the manager has no sections")
            return sections.removeLast()
        }
    }

    /// Removes and returns the last section, or `nil` when there is none.
    @discardableResult
    public func popLast() -> Section? {
        mutateSections { $0.popLast() }
    }

    /// Removes and returns the section at `index`; traps when out of range.
    @discardableResult
    public func remove(at index: Int) -> Section {
        mutateSections { sections in
            precondition(sections.indices.contains(index), "Manager.remove(at:): index \(index) out of range 0..<\(sections.count)")
            return sections.remove(at: index)
        }
    }

    /// Removes every section for which `shouldBeRemoved` returns `true`,
    /// atomically (the predicate runs outside the lock, again if the
    /// sections changed meanwhile; it must not mutate this manager).
    public func removeAll(where shouldBeRemoved: (Section) throws -> Bool) rethrows {
        try updateSections { try $0.filter { try !shouldBeRemoved($0) } }
    }

    /// Removes, from every section, the items for which `shouldBeRemoved`
    /// returns `true`. Atomic per section.
    public func removeItems(where shouldBeRemoved: (ViewModel) throws -> Bool) rethrows {
        for section in sections { try section.removeAll(where: shouldBeRemoved) }
    }

    // MARK: Reordering and replacing

    /// Replaces the section at `index`; traps when out of range.
    public func replaceSection(at index: Int, with section: Section) {
        mutateSections(adding: [section]) { sections in
            precondition(sections.indices.contains(index), "Manager.replaceSection(at:with:): index \(index) out of range 0..<\(sections.count)")
            sections[index] = section
        }
    }

    /// Exchanges the sections at `i` and `j`; traps when out of range.
    public func swapAt(_ i: Int, _ j: Int) {
        mutateSections { sections in
            precondition(sections.indices.contains(i) && sections.indices.contains(j), "Manager.swapAt(_:_:): indices \(i), \(j) out of range 0..<\(sections.count)")
            sections.swapAt(i, j)
        }
    }

    /// Moves the section at `source` so that it ends up at `destination`;
    /// traps when either is out of range.
    public func move(from source: Int, to destination: Int) {
        mutateSections { sections in
            precondition(sections.indices.contains(source) && sections.indices.contains(destination), "Manager.move(from:to:): indices \(source), \(destination) out of range 0..<\(sections.count)")
            sections.insert(sections.remove(at: source), at: destination)
        }
    }

    /// Replaces the sections with `transform(sections)`, atomically:
    /// `transform` runs outside the lock and runs again if another thread
    /// changed the sections meanwhile. It must not mutate this manager.
    public func updateSections(_ transform: ([Section]) throws -> [Section]) rethrows {
        while true {
            let (snapshot, version) = lock.withLock { (_sections, sectionsVersion) }
            let updated = try transform(snapshot)
            for section in updated { section.addOwner(self) }
            lock.lock()
            if sectionsVersion == version {
                _sections = updated
                sectionsChangedLocked()
                lock.unlock()
                return
            }
            lock.unlock()
        }
    }

    // MARK: Index paths

    /// The index path of `item` (compared by identity), or `nil` when no
    /// section holds it. When the item appears more than once, the first
    /// place in section then item order.
    ///
    /// Answered from a lazily rebuilt table: O(1) while the manager and its
    /// sections are unchanged, one O(items) rebuild after a change.
    public func indexPath(of item: ViewModel) -> IndexPath? {
        slot(of: ObjectIdentifier(item)).map { IndexPath(item: $0.item, section: $0.section) }
    }

    private func slot(of id: ObjectIdentifier) -> ItemSlot? {
        lock.lock()
        if let table, tableGeneration == generation {
            let slot = table[id]
            lock.unlock()
            return slot
        }
        let builtFor = generation
        let snapshot = _sections
        lock.unlock()

        // Build outside the lock: it takes each section's lock in turn.
        var built: [ObjectIdentifier: ItemSlot] = [:]
        var sectionItems: [[ViewModel]] = []
        sectionItems.reserveCapacity(snapshot.count)
        for section in snapshot { sectionItems.append(section.items) }
        built.reserveCapacity(sectionItems.reduce(0) { $0 + $1.count })
        for (s, items) in sectionItems.enumerated() {
            for (i, item) in items.enumerated() {
                let key = ObjectIdentifier(item)
                if built[key] == nil { built[key] = ItemSlot(section: s, item: i) }
            }
        }

        lock.lock()
        // Install only if nothing changed while we built; otherwise the
        // answer is still that of a recent state, and the next lookup rebuilds.
        if generation == builtFor {
            table = built
            tableGeneration = builtFor
        }
        lock.unlock()
        return built[id]
    }

    // MARK: Internals

    private var sectionsVersion: UInt64 = 0

    /// Runs `body` on the section list under the lock (our code only),
    /// registering `added` sections first so none of their changes is missed.
    @discardableResult
    private func mutateSections<Result>(adding added: [Section] = [], _ body: (inout [Section]) -> Result) -> Result {
        for section in added { section.addOwner(self) }
        lock.lock()
        defer { lock.unlock() }
        let result = body(&_sections)
        sectionsChangedLocked()
        return result
    }

    private func sectionsChangedLocked() {
        sectionsVersion &+= 1
        generation &+= 1
        table = nil
    }

    /// Called by a section after its items changed (outside its lock).
    internal func sectionItemsDidChange() {
        lock.withLock {
            generation &+= 1
            table = nil
        }
    }
}

/// Where an item sits: a compact index path.
private struct ItemSlot {
    var section: Int
    var item: Int
}

extension Manager: RandomAccessCollection {
    /// The position of the first section: always `0`.
    public var startIndex: Int { 0 }

    /// One past the last section's position: the current ``count``.
    public var endIndex: Int { count }

    /// The section at `position`; traps when out of range. Setting replaces
    /// the section. Use ``section(at:)`` for indices from outside.
    public subscript(position: Int) -> Section {
        get {
            lock.withLock {
                precondition(_sections.indices.contains(position), "Manager section index \(position) out of range 0..<\(_sections.count)")
                return _sections[position]
            }
        }
        set { replaceSection(at: position, with: newValue) }
    }

    /// Iterates a snapshot of the sections taken when iteration starts.
    public func makeIterator() -> IndexingIterator<[Section]> {
        sections.makeIterator()
    }
}
