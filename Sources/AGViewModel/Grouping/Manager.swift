import Foundation
import Observation

/// A whole table or collection view: ordered ``Section``s plus a common
/// ViewModel (the counterpart of the original's `AGVMManager`).
///
/// ```swift
/// let manager = Manager()
/// manager.appendSection(packaging: apiBooks)           // items from JSON objects
/// manager.appendSection { section in                   // or build one by hand
///     section.header = ViewModel(["title": "Authors"])
///     section.appendItems(packaging: apiAuthors)
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
/// ## Isolation
/// A manager, its sections and their ViewModels form one region owned by
/// one isolation domain at a time, with the same rules as a ``Section``:
/// no locks, nothing changes under a collection algorithm, and a manager
/// packaged on a background task reaches the main actor as a `sending`
/// result, without a copy:
///
/// ```swift
/// @concurrent nonisolated func load(_ data: Data) async throws -> sending Manager { ... }
/// // in a @MainActor controller:
/// manager = try await load(data)
/// ```
///
/// ``Snapshot`` is a `Sendable` copy for what must be shared.
public final class Manager {
    private var storedSections: [Section]
    private var storedCommon: ViewModel?
    // Swift Observation: reads of the section list and the common
    // ViewModel are reported, changes announced (see `Manager: Observable`).
    private let registrar = ObservationRegistrar()
    // Bumped by every change that can move an item: the manager's own
    // section list changes and its sections' item changes.
    private var generation: UInt64 = 0
    // The identity → index path table, valid for `tableGeneration`.
    private var table: IndexPathTable?
    private var tableGeneration: UInt64 = 0
    // How many places of the section list hold each section: a section
    // is let go (stops telling the manager of its changes) when its count
    // drops to zero. Kept per change, so removing one section does not
    // walk the whole list.
    private var placeCounts: [ObjectIdentifier: Int] = [:]
    // Keys registered per part for JSON export and archives (see
    // Persistence/Manager+KeyRegistration.swift).
    internal var partKeyRegistry = PartKeyRegistry()

    /// A manager with the given sections and common ViewModel.
    public init(sections: [Section] = [], common: ViewModel? = nil) {
        storedSections = sections
        storedCommon = common
        for section in sections { hold(section) }
    }

    // MARK: Common ViewModel

    /// Values shared by the whole table (a context, a style).
    public var common: ViewModel? {
        get {
            registrar.access(self, keyPath: \.common)
            return storedCommon
        }
        set { registrar.withMutation(of: self, keyPath: \.common) { storedCommon = newValue } }
    }

    // MARK: Reading sections

    /// The sections, in order. Setting it replaces them all.
    public var sections: [Section] {
        get { trackedSections }
        set { replaceAllSections(with: newValue) }
    }

    /// The number of sections.
    public var count: Int { trackedSections.count }

    /// `true` when the manager has no sections.
    public var isEmpty: Bool { trackedSections.isEmpty }

    /// The first section, or `nil` when there is none.
    public var first: Section? { trackedSections.first }

    /// The last section, or `nil` when there is none.
    public var last: Section? { trackedSections.last }

    /// The section at `index`, or `nil` when out of range. Never traps.
    public func section(at index: Int) -> Section? {
        trackedSections.indices.contains(index) ? trackedSections[index] : nil
    }

    /// The position of `section` (compared by identity), or `nil`.
    public func index(of section: Section) -> Int? {
        trackedSections.firstIndex { $0 === section }
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
        appendSections([section])
    }

    /// Adds `newSections` at the end, in order.
    public func append(contentsOf newSections: some Sequence<Section>) {
        appendSections(Array(newSections))
    }

    /// Inserts `section` at `index` (`0...count`); traps when out of range.
    public func insert(_ section: Section, at index: Int) {
        mutateSections(holding: [section]) { sections in
            precondition(index >= 0 && index <= sections.count, "Manager.insert(_:at:): index \(index) out of range 0...\(sections.count)")
            sections.insert(section, at: index)
        }
    }

    /// Inserts `newSections` at `index` (`0...count`), in order; traps
    /// when out of range.
    public func insert(contentsOf newSections: some Sequence<Section>, at index: Int) {
        let newSections = Array(newSections)
        func checkIndex(_ count: Int) {
            precondition(index >= 0 && index <= count, "Manager.insert(contentsOf:at:): index \(index) out of range 0...\(count)")
        }
        // Inserting nothing is no change, but a bad index still traps.
        guard !newSections.isEmpty else { return checkIndex(storedSections.count) }
        mutateSections(holding: newSections) { sections in
            checkIndex(sections.count)
            sections.insert(contentsOf: newSections, at: index)
        }
    }

    /// Merges `other`'s common values into this manager's common ViewModel
    /// (made when this manager has none), `other`'s values winning, then
    /// appends its sections: the same `Section` instances, now shared by
    /// both managers, as ``Section/merge(_:)`` shares items.
    public func merge(_ other: Manager) {
        let incoming = (common: other.common, sections: other.sections)
        // Only a common that comes in is set, so Observation hears of
        // nothing else.
        if let values = incoming.common {
            let target = common ?? ViewModel()
            target.merge(values)
            common = target
        }
        append(contentsOf: incoming.sections)
    }

    // MARK: Removing sections and items

    /// Removes every section. A manager without sections stays as it is
    /// (no change for Observation).
    public func removeAll() {
        guard !storedSections.isEmpty else { return }
        replaceAllSections(with: [])
    }

    /// Removes and returns the last section; traps when there is none. Use
    /// ``popLast()`` when there may be none.
    @discardableResult
    public func removeLast() -> Section {
        let removed = mutateSections { sections in
            precondition(!sections.isEmpty, "Manager.removeLast(): the manager has no sections")
            return sections.removeLast()
        }
        letGo(removed)
        return removed
    }

    /// Removes and returns the last section, or `nil` when there is none.
    @discardableResult
    public func popLast() -> Section? {
        guard !storedSections.isEmpty else { return nil }
        let removed = mutateSections { $0.popLast() }
        if let removed { letGo(removed) }
        return removed
    }

    /// Removes and returns the section at `index`; traps when out of range.
    @discardableResult
    public func remove(at index: Int) -> Section {
        let removed = mutateSections { sections in
            precondition(sections.indices.contains(index), "Manager.remove(at:): index \(index) out of range 0..<\(sections.count)")
            return sections.remove(at: index)
        }
        letGo(removed)
        return removed
    }

    /// Removes every section for which `shouldBeRemoved` returns `true`, in
    /// one change.
    public func removeAll(where shouldBeRemoved: (Section) throws -> Bool) rethrows {
        try updateSections { try $0.filter { try !shouldBeRemoved($0) } }
    }

    /// Removes, from every section, the items for which `shouldBeRemoved`
    /// returns `true`: one change per section that loses an item.
    public func removeItems(where shouldBeRemoved: (ViewModel) throws -> Bool) rethrows {
        for section in sections { try section.removeAll(where: shouldBeRemoved) }
    }

    // MARK: Reordering and replacing

    /// Replaces the section at `index`; traps when out of range.
    public func replaceSection(at index: Int, with section: Section) {
        let replaced = mutateSections(holding: [section]) { sections in
            precondition(sections.indices.contains(index), "Manager.replaceSection(at:with:): index \(index) out of range 0..<\(sections.count)")
            return exchange(&sections[index], with: section)
        }
        letGo(replaced)
    }

    /// Exchanges the sections at `i` and `j`; traps when out of range.
    public func swapAt(_ i: Int, _ j: Int) {
        precondition(storedSections.indices.contains(i) && storedSections.indices.contains(j), "Manager.swapAt(_:_:): indices \(i), \(j) out of range 0..<\(storedSections.count)")
        // In place is no change for Observation.
        guard i != j else { return }
        mutateSections { $0.swapAt(i, j) }
    }

    /// Moves the section at `source` so that it ends up at `destination`;
    /// traps when either is out of range.
    public func move(from source: Int, to destination: Int) {
        precondition(storedSections.indices.contains(source) && storedSections.indices.contains(destination), "Manager.move(from:to:): indices \(source), \(destination) out of range 0..<\(storedSections.count)")
        guard source != destination else { return }
        mutateSections { sections in sections.insert(sections.remove(at: source), at: destination) }
    }

    /// Replaces the sections with `transform(sections)`, in one change. The
    /// same sections in the same order are no change.
    public func updateSections(_ transform: ([Section]) throws -> [Section]) rethrows {
        let updated = try transform(trackedSections)
        // The same sections in the same order are no change for Observation.
        guard !updated.elementsEqual(storedSections, by: ===) else { return }
        replaceAllSections(with: updated)
    }

    // MARK: Index paths

    /// The index path of `item` (compared by identity), or `nil` when no
    /// section holds it. When the item appears more than once, the first
    /// place in section then item order.
    ///
    /// Answered from a lazily rebuilt table: O(1) while the manager and its
    /// sections are unchanged, one O(items) rebuild after a change. Items
    /// appended to a section, and sections appended, extend the table
    /// instead; other changes (inserting, removing, replacing, moving) make
    /// the next lookup rebuild it.
    public func indexPath(of item: ViewModel) -> IndexPath? {
        slot(of: ObjectIdentifier(item)).map { IndexPath(item: $0.item, section: $0.section) }
    }

    /// Whether the next lookup is answered without rebuilding the table.
    internal var indexPathTableIsCurrent: Bool { table != nil && tableGeneration == generation }

    private func slot(of id: ObjectIdentifier) -> IndexPathTable.Slot? {
        if let table, tableGeneration == generation { return table.slot(of: id) }
        // Untracked reads: the answer does not depend on whether the
        // table was rebuilt, so neither does what Observation hears.
        let built = IndexPathTable(sections: storedSections)
        table = built
        tableGeneration = generation
        return built.slot(of: id)
    }

    // MARK: Internals

    /// Moves the sections and the common ViewModel out of a manager about to
    /// be released (nobody else holds it) into `teardown` (see
    /// ``Section/moveContents(into:)``).
    internal func moveContents(into teardown: inout DeepTeardown) {
        teardown.sections.append(contentsOf: storedSections)
        storedSections = []
        placeCounts = [:]
        table = nil
        if let storedCommon { teardown.viewModels.append(storedCommon) }
        storedCommon = nil
    }

    /// Runs `body` on the section list, holding the `added` sections first
    /// so none of their changes is missed. A caller whose `body` removes
    /// sections lets each go afterwards (``letGo(_:)``).
    @discardableResult
    private func mutateSections<Result>(holding added: [Section] = [], _ body: (inout [Section]) -> Result) -> Result {
        for section in added { hold(section) }
        let result = registrar.withMutation(of: self, keyPath: \.sections) { body(&storedSections) }
        sectionItemsDidChange()
        return result
    }

    /// Replaces the whole section list, in one change.
    private func replaceAllSections(with updated: [Section]) {
        let replaced = mutateSections(holding: updated) { exchange(&$0, with: updated) }
        for section in replaced { letGo(section) }
    }

    /// Counts one more place holding `section`; from the first, the section
    /// tells the manager of its item changes.
    private func hold(_ section: Section) {
        let id = ObjectIdentifier(section)
        let places = placeCounts[id, default: 0] + 1
        placeCounts[id] = places
        if places == 1 { section.addOwner(self) }
    }

    /// Counts one place fewer holding `section`; after the last, the
    /// section stops telling the manager, whose table it no longer affects.
    private func letGo(_ section: Section) {
        let id = ObjectIdentifier(section)
        guard let places = placeCounts[id] else { return }
        if places > 1 {
            placeCounts[id] = places - 1
        } else {
            placeCounts[id] = nil
            section.removeOwner(self)
        }
    }

    /// The sections, without reporting the read to Observation.
    internal var untrackedSections: [Section] { storedSections }

    /// The common ViewModel, without reporting the read to Observation.
    internal var untrackedCommon: ViewModel? { storedCommon }

    /// The section list, its read reported to Swift Observation.
    private var trackedSections: [Section] {
        registrar.access(self, keyPath: \.sections)
        return storedSections
    }

    /// Called after the section list or a section's items changed: the
    /// index-path table is stale.
    internal func sectionItemsDidChange() {
        generation &+= 1
        table = nil
    }

    /// Appends sections; a current index-path table takes the slots of
    /// their items instead of going stale, so a "load more" that adds a
    /// section per page and asks for each new row's index path stays linear.
    private func appendSections(_ newSections: [Section]) {
        // Appending nothing changes nothing that Observation should
        // re-render for.
        guard !newSections.isEmpty else { return }
        let before = generation
        var current = tableGeneration == generation ? table : nil
        table = nil  // so `current` is changed in place
        mutateSections(holding: newSections) { $0.append(contentsOf: newSections) }
        // Only this append changed anything: an Observation handler that ran
        // during it and changed a section has made the saved table stale.
        guard generation == before &+ 1, var built = current.take() else { return }
        built.appendSections(newSections)
        table = built
        tableGeneration = generation
    }

    /// Called after `items` were appended to `section` from index `start`:
    /// a current table takes their slots, keeping each item's first place.
    internal func section(_ section: Section, didAppend items: some Collection<ViewModel>, at start: Int) {
        let wasCurrent = tableGeneration == generation
        generation &+= 1
        guard wasCurrent, var built = table else {
            table = nil
            return
        }
        table = nil  // so `built` is changed in place
        built.section(section, didAppend: items, at: start)
        table = built
        tableGeneration = generation
    }
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
            precondition(trackedSections.indices.contains(position), "Manager section index \(position) out of range 0..<\(trackedSections.count)")
            return trackedSections[position]
        }
        set { replaceSection(at: position, with: newValue) }
    }

    /// Iterates the sections as they are when iteration starts.
    public func makeIterator() -> IndexingIterator<[Section]> {
        sections.makeIterator()
    }
}

/// A manager takes part in Swift Observation: code that reads its section
/// list (``sections``, ``count``, a section by position, iteration) or its
/// ``common`` ViewModel inside `withObservationTracking` (or a SwiftUI
/// `body`) is told when they change. Reading an item through the manager
/// also reads its section's items, so item changes are heard too.
/// ``indexPath(of:)`` is not tracked. As with an `@Observable` class, an
/// `onChange` must not change the manager itself.
extension Manager: Observable {}
