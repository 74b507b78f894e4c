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
            let distance = editDistance(folded, Array(candidate.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Levenshtein distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0 ... b.count)
        for i in 1 ... a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
