/// Whether nested ViewModels show the same content, for the diff: a row
/// whose nested `author` ViewModel holds the same values as before is
/// unchanged, although a fresh packaging (or a snapshot) made a new object.
///
/// ViewModels are compared by their stored values, as the diff compares
/// items; lists of them element by element. A pair met again while it is
/// compared (a cycle, or sharing) counts as the same, so graphs of any
/// shape end, and a loop with its own stack holds chains of any depth.
/// Other payloads keep ``ViewModelValue/isSame(as:)``.
///
/// One comparison serves a whole diff and remembers the pairs it found the
/// same: a nested graph every row shares (a current user packaged afresh)
/// is walked once, not once per row. The managers being diffed hold every
/// ViewModel meanwhile, so their identifiers stay theirs.
internal struct NestedContentComparison {
    private struct Pair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier
    }

    /// Pairs found the same by earlier comparisons.
    private var proven: Set<Pair> = []
    /// Pairs taken as the same, or being compared, in this comparison.
    private var assumed: Set<Pair> = []
    private var pending: [(old: ViewModel, new: ViewModel)] = []

    /// Whether `old` and `new`, two values that are not
    /// ``ViewModelValue/isSame(as:)``, are nested ViewModels (or lists of
    /// them) with the same content.
    mutating func sameContent(_ old: ViewModelValue, _ new: ViewModelValue) -> Bool {
        assumed.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        guard enqueueNested(old, new), run() else { return false }
        // Every pair assumed is then the same (a mismatch anywhere fails
        // the whole comparison): later ones need not walk them again.
        proven.formUnion(assumed)
        return true
    }

    /// Queues the ViewModel pairs of two nested values; `false` when they
    /// are not both ViewModels, or both lists of as many ViewModels.
    private mutating func enqueueNested(_ old: ViewModelValue, _ new: ViewModelValue) -> Bool {
        guard case .payload(let a) = old, case .payload(let b) = new else { return false }
        if let x = a as? ViewModel, let y = b as? ViewModel {
            pending.append((x, y))
            return true
        }
        guard let xs = NestedContent.viewModelList(a), let ys = NestedContent.viewModelList(b),
              xs.count == ys.count else { return false }
        for (x, y) in zip(xs, ys) { pending.append((x, y)) }
        return true
    }

    private mutating func run() -> Bool {
        while let (old, new) = pending.popLast() {
            if old === new { continue }
            let pair = Pair(old: ObjectIdentifier(old), new: ObjectIdentifier(new))
            guard !proven.contains(pair), assumed.insert(pair).inserted else { continue }
            let a = old.values, b = new.values
            guard a.count == b.count else { return false }
            for (key, entry) in a.storage {
                guard let other = b[key] else { return false }
                let value = entry.value
                if case .json(let x) = value, case .json(let y) = other {
                    if !x.hasSameRepresentation(as: y) { return false }
                } else if !value.isSame(as: other) && !enqueueNested(value, other) {
                    return false
                }
            }
        }
        return true
    }
}
