import Foundation

extension ChangeSet {
    /// The changes that turn `old` into `new`.
    ///
    /// - Parameters:
    ///   - old: The manager on screen.
    ///   - new: The manager to show.
    ///   - identity: How items are recognised across the two (default: the
    ///     value under `"id"`; items without one are matched by position in
    ///     their section).
    ///   - sectionIdentity: How sections are recognised, applied to each
    ///     section's header; `nil` (the default) uses `identity`. Sections
    ///     without a header or value are matched by position. A Section
    ///     object found on both sides is always the same section, and so
    ///     are copies that snapshots made of one Section object (a diff of
    ///     `shown.snapshot.makeManager()` against
    ///     `fresh.snapshot.makeManager()` matches the sections `shown` and
    ///     `fresh` share), unless a side holds two sections copied from
    ///     one (an edited copy, a template): those go by their headers.
    ///
    /// Matching prefers an item's own section: within each kept section the
    /// *k*-th occurrence of an identity in the old section matches the
    /// *k*-th in the new one; identities left over are then matched across
    /// sections, again *k*-th with *k*-th in index-path order. So duplicate
    /// identities never trap: occurrences beyond the other side's count are
    /// deletes (old) or inserts (new). Content is compared over all stored
    /// values with ``ViewModelValue/isSame(as:)``, except that nested
    /// ViewModels (and lists of them), sections and managers are compared
    /// by their content, so a row whose nested ViewModel was packaged
    /// afresh, or made from a snapshot, with the same values is unchanged;
    /// the same ViewModel instance on both sides counts as unchanged.
    /// Commands' outputs are left out: a key with a command on both sides
    /// (or on the ViewModels snapshot copies were made from), or on one
    /// side with no value on the other. An output derives from the values
    /// compared, and only the shown row may have computed it (a cell ran an
    /// on-demand command). A value the other side holds as data is
    /// compared.
    ///
    /// Runs in O(n) plus O(k log k) per section for the k items that stay
    /// there, with n the number of items, plus the nested ViewModels
    /// compared (each pair found the same once per diff). Both managers
    /// must belong to the caller's isolation domain; to diff on another
    /// task, send it ``Manager/Snapshot``s and diff the managers they
    /// make. A snapshot leaves out payloads other than ViewModels,
    /// sections and managers (see ``ViewModel/Snapshot``), so diff a
    /// snapshot copy of the shown manager against a snapshot copy of the
    /// new one (`fresh.snapshot.makeManager()`), not against `fresh`
    /// itself: otherwise every row holding such a payload counts as
    /// changed and is reloaded. (A change of such a payload alone is then
    /// not seen.) The change set
    /// remembers both managers' layouts, so `apply(to:new:)` on a ``Manager``
    /// refuses the shown manager if a row with an identity was moved,
    /// deleted or added since (see there for the limits).
    public init(from old: Manager, to new: Manager, identity: IdentityRule = .default, sectionIdentity: IdentityRule? = nil) {
        var diff = Differ(old: old.sections, new: new.sections, itemRule: identity, sectionRule: sectionIdentity ?? identity)
        self = diff.run()
    }
}

/// A section's identity: the rule's value (with its occurrence number, so
/// duplicates stay distinct) or its position.
private enum SectionKey: Hashable {
    case value(JSONValue, occurrence: Int)
    case position(Int)
}

/// Occurrences of one identity not yet matched, as a queue threaded
/// through a "next with the same identity" array (`-1` ends it).
private struct Occurrences {
    var head = -1
    var tail = -1
}

/// Whether two ViewModels hold the same values, by `isSame` and, for JSON
/// on both sides (the usual case), by representation; other values that
/// differ so are passed to `sameNested` (nested content compared by the
/// diff). `key` (an identity, already known equal) is skipped, and so are
/// commands' outputs: they derive from the values compared, and one side
/// may not have computed them yet (a cell ran an on-demand command on the
/// shown row; the fresh one has not). A key is an output when both sides
/// have a command for it, or one side has and the other holds no value
/// there; a value the other side holds as data is compared.
internal func sameStoredContent(
    _ old: ViewModel, _ new: ViewModel, skippingKey key: String?,
    sameNested: (ViewModelValue, ViewModelValue) -> Bool
) -> Bool {
    let a = old.values, b = new.values
    @inline(__always) func same(_ value: ViewModelValue, _ other: ViewModelValue) -> Bool {
        if case .json(let x) = value, case .json(let y) = other { return x.hasSameRepresentation(as: y) }
        return value.isSame(as: other) || sameNested(value, other)
    }
    guard old.hasCommandOutputKeys || new.hasCommandOutputKeys else {
        guard a.count == b.count else { return false }
        for (k, entry) in a.storage where k != key {
            guard let other = b[k], same(entry.value, other) else { return false }
        }
        return true
    }
    let oldOutputs = old.commandOutputKeys, newOutputs = new.commandOutputKeys
    func isOutput(_ k: String) -> Bool {
        switch (oldOutputs.contains(k), newOutputs.contains(k)) {
        case (true, true): true
        case (true, false): b[k] == nil
        case (false, true): a[k] == nil
        case (false, false): false
        }
    }
    var compared = 0
    for (k, entry) in a.storage where !isOutput(k) {
        compared += 1
        guard k != key else { continue }
        guard let other = b[k], same(entry.value, other) else { return false }
    }
    return compared == b.storage.keys.count(where: { !isOutput($0) })
}

/// A ViewModel's identity.
@inline(__always)
private func identity(of item: ViewModel, _ rule: IdentityRule) -> JSONValue? {
    if let key = rule.key { return ChangeSet.identity(in: item.values, key: key) }
    return rule.identity(of: item)
}

/// The diff: items matched by identity through hash tables, Heckel-style,
/// first within each kept section (while both sides' values are hot in the
/// cache), then across sections for what is left; then a longest increasing
/// subsequence per section keeps the moves minimal.
private struct Differ {
    let oldSections: [Section]
    let newSections: [Section]
    let itemRule: IdentityRule
    let sectionRule: IdentityRule
    var result = ChangeSet()
    var nestedComparison = NestedContentComparison()

    init(old: [Section], new: [Section], itemRule: IdentityRule, sectionRule: IdentityRule) {
        oldSections = old
        newSections = new
        self.itemRule = itemRule
        self.sectionRule = sectionRule
    }

    mutating func run() -> ChangeSet {
        let oldIdentities = oldSections.map { $0.header.flatMap(sectionRule.identity(of:)) }
        let newIdentities = newSections.map { $0.header.flatMap(sectionRule.identity(of:)) }
        let (oldToNew, newToOld) = matchSections(Self.sectionKeys(oldIdentities), Self.sectionKeys(newIdentities))
        let (old, new) = diffItems(oldToNew: oldToNew, newToOld: newToOld)
        result.origin = ChangeSet.Origin(
            itemRule: itemRule, sectionRule: sectionRule,
            oldLayout: old.layout(sectionIdentities: oldIdentities, kept: oldToNew),
            newLayout: new.layout(sectionIdentities: newIdentities, kept: newToOld),
            deletedSections: result.deletedSections, insertedSections: result.insertedSections)
        return result
    }

    // MARK: Sections

    private static func sectionKeys(_ identities: [JSONValue?]) -> [SectionKey] {
        var seen: [JSONValue: Int] = [:]
        return identities.enumerated().map { index, identity in
            guard let value = identity else { return .position(index) }
            let occurrence = seen[value, default: 0]
            seen[value] = occurrence + 1
            return .value(value, occurrence: occurrence)
        }
    }

    /// Where each source identity (see `Section.sourceIdentity`) first
    /// appears in `sections`; those two different Section objects hold are
    /// added to `ambiguous`.
    private static func firstPositions(
        ofSourcesIn sections: [Section], ambiguous: inout Set<UInt64>
    ) -> [UInt64: Int] {
        var positions: [UInt64: Int] = Dictionary(minimumCapacity: sections.count)
        for (s, section) in sections.enumerated() {
            if let first = positions[section.sourceIdentity] {
                if sections[first] !== section { ambiguous.insert(section.sourceIdentity) }
            } else {
                positions[section.sourceIdentity] = s
            }
        }
        return positions
    }

    private mutating func matchSections(_ oldKeys: [SectionKey], _ newKeys: [SectionKey]) -> (oldToNew: [Int], newToOld: [Int]) {
        var oldIndex: [SectionKey: Int] = Dictionary(minimumCapacity: oldKeys.count)
        for (s, key) in oldKeys.enumerated() { oldIndex[key] = s }
        var oldToNew = [Int](repeating: -1, count: oldKeys.count)
        var newToOld = [Int](repeating: -1, count: newKeys.count)
        // The same Section object on both sides first: matched by position
        // or header alone, it could be taken for another section, and
        // applying would then change it in two places. Then copies that
        // snapshots made of one section, as the originals were shared:
        // a diff of snapshot copies sees what a diff of the originals sees.
        var oldObjects: [ObjectIdentifier: Int] = Dictionary(minimumCapacity: oldSections.count)
        for (s, section) in oldSections.enumerated() where oldObjects[ObjectIdentifier(section)] == nil {
            oldObjects[ObjectIdentifier(section)] = s
        }
        // A source held by two different Section objects on one side (a
        // section and an edited copy of its snapshot, or sections made from
        // one template snapshot) says nothing about which is which: those
        // are matched by header identity or position.
        var ambiguousSources = Set<UInt64>()
        let oldSources = Self.firstPositions(ofSourcesIn: oldSections, ambiguous: &ambiguousSources)
        _ = Self.firstPositions(ofSourcesIn: newSections, ambiguous: &ambiguousSources)
        for (t, section) in newSections.enumerated() {
            if let s = oldObjects[ObjectIdentifier(section)], oldToNew[s] < 0 {
                oldToNew[s] = t
                newToOld[t] = s
            }
        }
        for (t, section) in newSections.enumerated() where newToOld[t] < 0 {
            if !ambiguousSources.contains(section.sourceIdentity), let s = oldSources[section.sourceIdentity], oldToNew[s] < 0 {
                oldToNew[s] = t
                newToOld[t] = s
            }
        }
        for (t, key) in newKeys.enumerated() where newToOld[t] < 0 {
            if let s = oldIndex[key], oldToNew[s] < 0 {
                oldToNew[s] = t
                newToOld[t] = s
            } else {
                result.insertedSections.insert(t)
            }
        }
        for s in oldToNew.indices where oldToNew[s] < 0 { result.deletedSections.insert(s) }

        // Kept sections in new order; those off the longest increasing run
        // of old indices move.
        let kept = newToOld.enumerated().filter { $0.element >= 0 }
        let stays = longestIncreasingSubsequenceMask(kept.map(\.element))
        for (k, pair) in kept.enumerated() where !stays[k] {
            result.movedSections.append(.init(from: pair.element, to: pair.offset))
        }
        return (oldToNew, newToOld)
    }

    // MARK: Items

    /// Flat item arrays of one side over the kept sections (others are
    /// covered by their section change and contribute no items).
    fileprivate struct Side {
        var lists: [[ViewModel]]
        var start: [Int]  // flat offset of each section's first item; count + 1 entries
        var ids: [JSONValue?]
        var match: [Int]  // the flat index matched on the other side, or -1

        init(_ sections: [Section], kept: [Int]) {
            lists = sections.indices.map { kept[$0] >= 0 ? sections[$0].items : [] }
            start = [0]
            start.reserveCapacity(lists.count + 1)
            for list in lists { start.append(start[start.count - 1] + list.count) }
            ids = [JSONValue?](repeating: nil, count: start[start.count - 1])
            match = [Int](repeating: -1, count: ids.count)
        }

        var count: Int { ids.count }
    }

    /// Diffs the items of the kept sections, and returns both sides with
    /// the identities read.
    private mutating func diffItems(oldToNew: [Int], newToOld: [Int]) -> (old: Side, new: Side) {
        var old = Side(oldSections, kept: oldToNew)
        var new = Side(newSections, kept: newToOld)
        var isChanged = [Bool](repeating: false, count: new.count)

        // 1. Within each kept section pair: every pair writes only its own
        //    ranges of the flat arrays.
        let pairs = newToOld.indices.filter { newToOld[$0] >= 0 }
        let rule = itemRule
        var occurrences: [JSONValue: Occurrences] = [:]
        var queue: [Int] = []
        for t in pairs {
            let s = newToOld[t]
            let olds = old.lists[s], news = new.lists[t]
            let o0 = old.start[s], n0 = new.start[t]
            // Clearing a table walks all of its capacity: keep it only when
            // it fits this section, or one big section would make the diff
            // of every small section after it as slow as its own.
            if occurrences.capacity > 4 * olds.count + 64 {
                occurrences = Dictionary(minimumCapacity: olds.count)
            } else {
                occurrences.removeAll(keepingCapacity: true)
                occurrences.reserveCapacity(olds.count)
            }
            queue.removeAll(keepingCapacity: true)
            for (i, item) in olds.enumerated() {
                let id = identity(of: item, rule)
                old.ids[o0 + i] = id
                queue.append(-1)
                if let id {
                    Self.enqueue(&occurrences[id, default: Occurrences()], i, &queue)
                }
            }
            for (j, item) in news.enumerated() {
                let id = identity(of: item, rule)
                new.ids[n0 + j] = id
                var i = -1
                if let id {
                    // One hash lookup; an absent identity leaves an empty queue.
                    i = Self.dequeue(&occurrences[id, default: Occurrences()], queue)
                } else if j < olds.count, old.ids[o0 + j] == nil {
                    // No identity: the id-less item at the same index.
                    i = j
                }
                guard i >= 0 else { continue }
                old.match[o0 + i] = n0 + j
                new.match[n0 + j] = o0 + i
                if olds[i] !== item {
                    // Matched by position, the key may be `null` on one side
                    // and missing (or another key) on the other.
                    let skipped = Self.identityKey(rule, ifSameIn: old.ids[o0 + i], id)
                    isChanged[n0 + j] = !sameStoredContent(olds[i], item, skippingKey: skipped) { nestedComparison.sameContent($0, $1) }
                }
            }
        }

        // 2. Across sections: identities still unmatched on both sides.
        var leftovers: [JSONValue: Occurrences] = [:]
        var next: [Int] = []
        var pool: [Int] = []
        for o in 0..<old.count where old.match[o] < 0 {
            guard let id = old.ids[o] else { continue }
            next.append(-1)
            pool.append(o)
            Self.enqueue(&leftovers[id, default: Occurrences()], pool.count - 1, &next)
        }
        if !leftovers.isEmpty {
            for n in 0..<new.count where new.match[n] < 0 {
                guard let id = new.ids[n], leftovers[id] != nil else { continue }
                let k = Self.dequeue(&leftovers[id, default: Occurrences()], next)
                guard k >= 0 else { continue }
                let o = pool[k]
                old.match[o] = n
                new.match[n] = o
                let a = old.item(o), b = new.item(n)
                if a !== b {
                    let skipped = Self.identityKey(itemRule, ifSameIn: old.ids[o], new.ids[n])
                    isChanged[n] = !sameStoredContent(a, b, skippingKey: skipped) { nestedComparison.sameContent($0, $1) }
                }
            }
        }

        // 3. Walk each kept new section: inserts, cross-section moves, and
        //    candidates for staying.
        var candidates: [(n: Int, oldIndex: Int)] = []
        for t in pairs {
            let s = newToOld[t]
            candidates.removeAll(keepingCapacity: true)
            for n in new.start[t]..<new.start[t + 1] {
                let o = new.match[n]
                if o < 0 {
                    result.insertedItems.append(IndexPath(item: n - new.start[t], section: t))
                } else if o >= old.start[s] && o < old.start[s + 1] {
                    candidates.append((n, o - old.start[s]))
                } else {
                    moveOrReplace(o, n, isChanged[n], old, new)
                }
            }
            let stays = longestIncreasingSubsequenceMask(candidates.map(\.oldIndex))
            for (k, candidate) in candidates.enumerated() {
                if stays[k] {
                    if isChanged[candidate.n] {
                        result.reloadedItems.append(IndexPath(item: candidate.oldIndex, section: s))
                    }
                } else {
                    moveOrReplace(new.match[candidate.n], candidate.n, isChanged[candidate.n], old, new)
                }
            }
        }

        // 4. Old items nobody matched are deletes.
        for o in 0..<old.count where old.match[o] < 0 {
            result.deletedItems.append(old.path(o))
        }

        result.deletedItems.sort()
        result.insertedItems.sort()
        result.reloadedItems.sort()
        result.movedItems.sort { $0.from < $1.from }
        return (old, new)
    }

    /// A moved item: a move when unchanged, else a delete plus an insert
    /// (UIKit cannot move and reload one item in the same batch).
    private mutating func moveOrReplace(_ o: Int, _ n: Int, _ changed: Bool, _ old: Side, _ new: Side) {
        let from = old.path(o), to = new.path(n)
        if changed {
            result.deletedItems.append(from)
            result.insertedItems.append(to)
        } else {
            result.movedItems.append(.init(from: from, to: to))
        }
    }

    /// The key of `rule` when both items hold the same value under it, so
    /// comparing their content may skip it; `nil` when it must be
    /// compared. Identities match by `==`, which takes `1` and `1.0` for
    /// one number; a row whose identity is now written differently shows
    /// it differently, so it is reloaded.
    private static func identityKey(_ rule: IdentityRule, ifSameIn old: JSONValue?, _ new: JSONValue?) -> String? {
        guard let old, let new, old.hasSameRepresentation(as: new) else { return nil }
        return rule.key
    }

    /// Appends occurrence `i` to a queue.
    @inline(__always)
    private static func enqueue(_ queue: inout Occurrences, _ i: Int, _ next: inout [Int]) {
        if queue.head < 0 {
            queue.head = i
        } else {
            next[queue.tail] = i
        }
        queue.tail = i
    }

    /// Takes the earliest occurrence from a queue, or `-1` when empty.
    @inline(__always)
    private static func dequeue(_ queue: inout Occurrences, _ next: [Int]) -> Int {
        let i = queue.head
        if i >= 0 { queue.head = next[i] }
        return i
    }
}

extension Differ.Side {
    /// The section of flat index `i` (binary search over the offsets).
    func section(of i: Int) -> Int {
        var lo = 0, hi = start.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if start[mid] <= i { lo = mid } else { hi = mid }
        }
        return lo
    }

    func path(_ i: Int) -> IndexPath {
        let s = section(of: i)
        return IndexPath(item: i - start[s], section: s)
    }

    func item(_ i: Int) -> ViewModel {
        let s = section(of: i)
        return lists[s][i - start[s]]
    }

    /// The layout fingerprint of this side (``ChangeSet/layout(of:skipping:rules:)``),
    /// from the identities the diff read: sections not kept (`kept[s] < 0`)
    /// count by identity only.
    func layout(sectionIdentities: [JSONValue?], kept: [Int]) -> Int {
        var layout = LayoutHasher(sectionCount: lists.count)
        for s in lists.indices {
            layout.addSection(identity: sectionIdentities[s], itemCount: kept[s] >= 0 ? lists[s].count : nil)
            for i in start[s]..<start[s + 1] { layout.addItem(identity: ids[i]) }
        }
        return layout.finalize()
    }
}
