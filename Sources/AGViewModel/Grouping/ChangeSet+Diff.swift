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
    ///     without a header or value are matched by position.
    ///
    /// Duplicate identities never trap: the *k*-th occurrence of an identity
    /// in the old manager (in index-path order) matches the *k*-th in the
    /// new one, and occurrences beyond the other side's count are deletes
    /// (old) or inserts (new). Content is compared over all stored values
    /// with ``ViewModelValue/isSame(as:)``; the same ViewModel instance on
    /// both sides counts as unchanged.
    ///
    /// Runs in O(n) plus O(k log k) per section for the k items that stay
    /// there, with n the number of items; the managers are read as snapshots.
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

/// The k-th (k ≥ 1) repeat of an item identity.
private struct RepeatKey: Hashable {
    var value: JSONValue
    var occurrence: Int
}

/// One side's items, flattened over the matched sections only (items of
/// deleted or inserted sections are covered by the section change).
private struct FlatItems {
    var viewModels: [ViewModel] = []
    var ids: [JSONValue?] = []
    // Stored values, when already snapshotted while reading the identity.
    var values: [[String: ViewModelValue]?] = []
    var section: [Int] = []
    var index: [Int] = []
    // Flat offset of each section's first item (count + 1 entries); unmatched
    // sections contribute no items.
    var start: [Int] = []

    init(sections: [Section], included: [Bool], rule: IdentityRule) {
        let lists = sections.enumerated().map { included[$0.offset] ? $0.element.items : [] }
        let total = lists.reduce(0) { $0 + $1.count }
        viewModels.reserveCapacity(total)
        ids.reserveCapacity(total)
        values.reserveCapacity(total)
        section.reserveCapacity(total)
        index.reserveCapacity(total)
        start.reserveCapacity(sections.count + 1)
        for (s, list) in lists.enumerated() {
            start.append(viewModels.count)
            for (i, item) in list.enumerated() {
                viewModels.append(item)
                section.append(s)
                index.append(i)
                if let key = rule.key {
                    // One lock for the identity and the content snapshot.
                    let stored = item.lock.withLock { item.values }
                    let id = stored[key]?.json
                    ids.append(id?.isNull == false ? id : nil)
                    values.append(stored)
                } else {
                    ids.append(rule.identity(of: item))
                    values.append(nil)
                }
            }
        }
        start.append(viewModels.count)
    }

    var count: Int { viewModels.count }

    mutating func storedValues(_ i: Int) -> [String: ViewModelValue] {
        if let stored = values[i] { return stored }
        let item = viewModels[i]
        let stored = item.lock.withLock { item.values }
        values[i] = stored
        return stored
    }
}

/// The diff: Heckel-style matching by identity through hash tables, then a
/// longest increasing subsequence per section to keep moves minimal.
private struct Differ {
    let oldSections: [Section]
    let newSections: [Section]
    let itemRule: IdentityRule
    let sectionRule: IdentityRule
    var result = ChangeSet()

    init(old: [Section], new: [Section], itemRule: IdentityRule, sectionRule: IdentityRule) {
        oldSections = old
        newSections = new
        self.itemRule = itemRule
        self.sectionRule = sectionRule
    }

    mutating func run() -> ChangeSet {
        let (oldToNew, newToOld) = matchSections()
        diffItems(oldToNew: oldToNew, newToOld: newToOld)
        return result
    }

    // MARK: Sections

    private func sectionKeys(_ sections: [Section]) -> [SectionKey] {
        var seen: [JSONValue: Int] = [:]
        return sections.enumerated().map { index, section in
            guard let header = section.header, let value = sectionRule.identity(of: header) else {
                return .position(index)
            }
            let occurrence = seen[value, default: 0]
            seen[value] = occurrence + 1
            return .value(value, occurrence: occurrence)
        }
    }

    private mutating func matchSections() -> (oldToNew: [Int], newToOld: [Int]) {
        let oldKeys = sectionKeys(oldSections)
        let newKeys = sectionKeys(newSections)
        var oldIndex: [SectionKey: Int] = Dictionary(minimumCapacity: oldKeys.count)
        for (s, key) in oldKeys.enumerated() { oldIndex[key] = s }
        var oldToNew = [Int](repeating: -1, count: oldKeys.count)
        var newToOld = [Int](repeating: -1, count: newKeys.count)
        for (t, key) in newKeys.enumerated() {
            if let s = oldIndex[key] {
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

    private mutating func diffItems(oldToNew: [Int], newToOld: [Int]) {
        var old = FlatItems(sections: oldSections, included: oldToNew.map { $0 >= 0 }, rule: itemRule)
        var new = FlatItems(sections: newSections, included: newToOld.map { $0 >= 0 }, rule: itemRule)

        // 1. Index the old identities: first occurrences in one table, the
        //    rare repeats in another.
        var firstOld: [JSONValue: Int] = Dictionary(minimumCapacity: old.count)
        var repeatOld: [RepeatKey: Int] = [:]
        var repeatCountOld: [JSONValue: Int] = [:]
        for o in 0..<old.count {
            guard let id = old.ids[o] else { continue }
            var isFirst = false
            Self.insertIfAbsent(&firstOld[id, default: -1], o, &isFirst)
            if !isFirst {
                let k = repeatCountOld[id, default: 0] + 1
                repeatCountOld[id] = k
                repeatOld[RepeatKey(value: id, occurrence: k)] = o
            }
        }

        // 2. Match every new item to an old one (or none).
        var oldMatch = [Int](repeating: -1, count: old.count)
        var newMatch = [Int](repeating: -1, count: new.count)
        var repeatCountNew: [JSONValue: Int] = [:]
        for n in 0..<new.count {
            var o = -1
            if let id = new.ids[n] {
                if let first = firstOld[id] {
                    if oldMatch[first] < 0 {
                        o = first
                    } else {
                        let k = repeatCountNew[id, default: 0] + 1
                        repeatCountNew[id] = k
                        o = repeatOld[RepeatKey(value: id, occurrence: k)] ?? -1
                    }
                }
            } else {
                // No identity: the id-less item at the same index of the
                // matching old section.
                let s = newToOld[new.section[n]]
                let candidate = old.start[s] + new.index[n]
                if candidate < old.start[s + 1], old.ids[candidate] == nil { o = candidate }
            }
            if o >= 0 {
                oldMatch[o] = n
                newMatch[n] = o
            }
        }

        // 3. Walk each kept new section: inserts, cross-section moves, and
        //    candidates for staying.
        var candidates: [(n: Int, oldIndex: Int)] = []
        for t in newToOld.indices where newToOld[t] >= 0 {
            let s = newToOld[t]
            candidates.removeAll(keepingCapacity: true)
            for n in new.start[t]..<new.start[t + 1] {
                let o = newMatch[n]
                if o < 0 {
                    result.insertedItems.append(IndexPath(item: new.index[n], section: t))
                } else if old.section[o] == s {
                    candidates.append((n, old.index[o]))
                } else {
                    moveOrReplace(o, n, &old, &new)
                }
            }
            let stays = longestIncreasingSubsequenceMask(candidates.map(\.oldIndex))
            for (k, candidate) in candidates.enumerated() {
                let o = newMatch[candidate.n]
                if stays[k] {
                    if changed(o, candidate.n, &old, &new) {
                        result.reloadedItems.append(IndexPath(item: old.index[o], section: s))
                    }
                } else {
                    moveOrReplace(o, candidate.n, &old, &new)
                }
            }
        }

        // 4. Old items nobody matched are deletes.
        for o in 0..<old.count where oldMatch[o] < 0 {
            result.deletedItems.append(IndexPath(item: old.index[o], section: old.section[o]))
        }

        result.deletedItems.sort()
        result.insertedItems.sort()
        result.reloadedItems.sort()
        result.movedItems.sort { $0.from < $1.from }
    }

    /// A moved item: a move when unchanged, else a delete plus an insert
    /// (UIKit cannot move and reload one item in the same batch).
    private mutating func moveOrReplace(_ o: Int, _ n: Int, _ old: inout FlatItems, _ new: inout FlatItems) {
        let from = IndexPath(item: old.index[o], section: old.section[o])
        let to = IndexPath(item: new.index[n], section: new.section[n])
        if changed(o, n, &old, &new) {
            result.deletedItems.append(from)
            result.insertedItems.append(to)
        } else {
            result.movedItems.append(.init(from: from, to: to))
        }
    }

    /// Whether the matched pair differs in stored content.
    private func changed(_ o: Int, _ n: Int, _ old: inout FlatItems, _ new: inout FlatItems) -> Bool {
        if old.viewModels[o] === new.viewModels[n] { return false }
        let a = old.storedValues(o)
        let b = new.storedValues(n)
        guard a.count == b.count else { return true }
        for (key, value) in a {
            guard let other = b[key], value.isSame(as: other) else { return true }
        }
        return false
    }

    /// Stores `value` into a default-subscript slot (one hash lookup) when
    /// the slot was absent (`-1`).
    @inline(__always)
    private static func insertIfAbsent(_ slot: inout Int, _ value: Int, _ inserted: inout Bool) {
        if slot < 0 {
            slot = value
            inserted = true
        }
    }
}
