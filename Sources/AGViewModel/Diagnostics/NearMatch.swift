/// The word a mistyped one most likely meant, for "did you mean" hints in
/// spec errors and the tool's usage errors.
package enum NearMatch {
    /// The candidate nearest `word`, ignoring case, when it is at most one
    /// edit away (two for words of six characters or more); the first of
    /// equally near ones.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let allowed = max(1, min(2, word.count / 3))
        let folded = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let limit = best.map { $0.distance - 1 } ?? allowed
            if let distance = editDistance(folded, Array(candidate.lowercased()), limit: limit) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The edits between `a` and `b`, when there are at most `limit`:
    /// inserting, deleting or changing a character, or swapping two
    /// adjacent ones (`hlep` is one from `help`), each counting one.
    package static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0 ... b.count)
        var current = previous
        var previousBest = 0
        for i in 1 ... a.count {
            current[0] = i
            var rowBest = i
            for j in 1 ... b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowBest = min(rowBest, current[j])
            }
            // A later row is at least this row's best, or one more than
            // the row before's (a swap reaches two rows back).
            if min(rowBest, previousBest + 1) > limit { return nil }
            previousBest = rowBest
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
