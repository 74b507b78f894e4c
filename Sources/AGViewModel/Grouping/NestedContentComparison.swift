/// Whether nested ViewModels show the same content, for the diff: a row
/// whose nested `author` ViewModel holds the same values as before is
/// unchanged, although a fresh packaging (or a snapshot) made a new object.
///
/// ViewModels are compared by their stored values, as the diff compares
/// items; lists of them element by element. A pair met again while it is
/// compared (a cycle, or sharing) counts as the same, so graphs of any
/// shape end, and a loop with its own stack holds chains of any depth.
/// Other payloads keep ``ViewModelValue/isSame(as:)``.
internal struct NestedContentComparison {
    private struct Pair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier
    }

    /// Pairs already taken as the same, or being compared.
    private var assumed: Set<Pair> = []
    private var pending: [(old: ViewModel, new: ViewModel)] = []

    /// Whether `old` and `new`, two values that are not
    /// ``ViewModelValue/isSame(as:)``, are nested ViewModels (or lists of
    /// them) with the same content.
    static func sameContent(_ old: ViewModelValue, _ new: ViewModelValue) -> Bool {
        var comparison = NestedContentComparison()
        guard comparison.enqueueNested(old, new) else { return false }
        return comparison.run()
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
            guard assumed.insert(Pair(old: ObjectIdentifier(old), new: ObjectIdentifier(new))).inserted else { continue }
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
