/// Whether nested ViewModels show the same content, for the diff: a row
/// whose nested `author` ViewModel holds the same values as before is
/// unchanged, although a fresh packaging (or a snapshot) made a new object.
///
/// ViewModels are compared by their stored values, as the diff compares
/// items; lists of them element by element; sections part by part (header,
/// footer, common, item merge, items) and managers by their common
/// ViewModel and sections. A pair met again while it is compared (a cycle,
/// or sharing) counts as the same, so graphs of any shape end, and a loop
/// with its own stack holds chains of any depth. Other payloads keep
/// ``ViewModelValue/isSame(as:)``.
///
/// One comparison serves a whole diff and remembers the pairs it found the
/// same: a nested graph every row shares (a current user packaged afresh)
/// is walked once, not once per row; and a nested object found different,
/// so a changed shared graph is not walked again per row either. The
/// managers being diffed hold every object meanwhile, so their
/// identifiers stay theirs.
internal struct NestedContentComparison {
    private struct Pair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier

        init(_ old: AnyObject, _ new: AnyObject) {
            (self.old, self.new) = (ObjectIdentifier(old), ObjectIdentifier(new))
        }
    }

    /// Two objects of one kind to compare.
    private enum Objects {
        case viewModels(ViewModel, ViewModel)
        case sections(Section, Section)
        case managers(Manager, Manager)
    }

    /// Pairs found the same by earlier comparisons.
    private var proven: Set<Pair> = []
    /// Single pairs found different by earlier comparisons.
    private var different: Set<Pair> = []
    /// Pairs taken as the same, or being compared, in this comparison.
    private var assumed: Set<Pair> = []
    private var pending: [Objects] = []

    /// Whether `old` and `new`, two values that are not
    /// ``ViewModelValue/isSame(as:)``, are nested ViewModels, lists of
    /// them, sections or managers with the same content.
    mutating func sameContent(_ old: ViewModelValue, _ new: ViewModelValue) -> Bool {
        // Clearing a set walks all of its capacity: one comparison of a big
        // graph must not make every later one of a small graph as slow.
        if assumed.capacity > 1024 { assumed = [] } else { assumed.removeAll(keepingCapacity: true) }
        pending.removeAll(keepingCapacity: true)
        guard enqueueNested(old, new) else { return false }
        // A single object pair can be remembered as different; a list
        // differs by one of its pairs, which one is not known.
        let single = pending.count == 1 ? Self.pair(of: pending[0]) : nil
        if let single, different.contains(single) { return false }
        guard run() else {
            if let single { different.insert(single) }
            return false
        }
        // Every pair assumed is then the same (a mismatch anywhere fails
        // the whole comparison): later ones need not walk them again.
        proven.formUnion(assumed)
        return true
    }

    private static func pair(of objects: Objects) -> Pair {
        switch objects {
        case .viewModels(let a, let b): Pair(a, b)
        case .sections(let a, let b): Pair(a, b)
        case .managers(let a, let b): Pair(a, b)
        }
    }

    /// Queues the object pairs of two nested values; `false` when they are
    /// not of one nested kind (or lists of different lengths).
    private mutating func enqueueNested(_ old: ViewModelValue, _ new: ViewModelValue) -> Bool {
        guard case .payload(let a) = old, case .payload(let b) = new,
              let x = NestedContent(a), let y = NestedContent(b) else { return false }
        switch (x, y) {
        case let (.viewModel(x), .viewModel(y)): pending.append(.viewModels(x, y))
        case let (.section(x), .section(y)): pending.append(.sections(x, y))
        case let (.manager(x), .manager(y)): pending.append(.managers(x, y))
        case let (.viewModels(xs), .viewModels(ys)):
            guard xs.count == ys.count else { return false }
            for (x, y) in zip(xs, ys) { pending.append(.viewModels(x, y)) }
        default: return false
        }
        return true
    }

    /// Queues two optional ViewModels of a section or manager; `false`
    /// when only one is there.
    private mutating func enqueue(_ old: ViewModel?, _ new: ViewModel?) -> Bool {
        guard let old, let new else { return old == nil && new == nil }
        pending.append(.viewModels(old, new))
        return true
    }

    private mutating func run() -> Bool {
        while let objects = pending.popLast() {
            let pair = Self.pair(of: objects)
            if pair.old == pair.new { continue }
            guard !proven.contains(pair), assumed.insert(pair).inserted else { continue }
            guard compare(objects) else { return false }
        }
        return true
    }

    /// Compares one pair's own content, queueing the objects it holds.
    private mutating func compare(_ objects: Objects) -> Bool {
        switch objects {
        case let .viewModels(old, new):
            guard sameStoredContent(old, new, skippingKey: nil, sameNested: { enqueueNested($0, $1) }) else { return false }
        case let .sections(old, new):
            let (a, b) = (old.untrackedItems, new.untrackedItems)
            guard a.count == b.count else { return false }
            for (x, y) in zip(old.untrackedSlotViewModels, new.untrackedSlotViewModels) {
                guard enqueue(x.viewModel, y.viewModel) else { return false }
            }
            for (x, y) in zip(a, b) { pending.append(.viewModels(x, y)) }
        case let .managers(old, new):
            let (a, b) = (old.untrackedSections, new.untrackedSections)
            guard a.count == b.count, enqueue(old.untrackedCommon, new.untrackedCommon) else { return false }
            for (x, y) in zip(a, b) { pending.append(.sections(x, y)) }
        }
        return true
    }
}
