/// What a safe read found where the value it wanted was missing: the
/// container's keys, or the array's length. Kept by a ``JSONAccessError``
/// at the cost of a retain, and looked at only for its message.
internal enum MissingValueSurroundings: Sendable {
    /// The object a key was missing from.
    case object(JSONObject)
    /// The keys of the ViewModel a key was missing from.
    case keys([String])
    /// The length of the array an index was out of.
    case count(Int)

    /// Longer keys, and larger objects, are not searched: the message
    /// stays cheap whatever the document.
    private static let longestKey = 64
    private static let mostKeys = 1_000

    /// The key that looks most like `missing`: the same once case and the
    /// separators `_`, `-` and space are ignored, else the nearest within
    /// a typo or two (one edit per four characters, at least one from four
    /// characters on; none for shorter keys).
    func keyResembling(_ missing: String) -> String? {
        let candidates: [String]
        switch self {
        case .object(let object):
            guard object.count <= Self.mostKeys else { return nil }
            candidates = object.map(\.key)
        case .keys(let keys):
            guard keys.count <= Self.mostKeys else { return nil }
            candidates = keys
        case .count:
            return nil
        }
        let wanted = Self.folded(missing)
        guard !wanted.isEmpty, wanted.count <= Self.longestKey else { return nil }
        if let same = candidates.first(where: { $0 != missing && Self.folded($0) == wanted }) { return same }
        // Keys of three characters or fewer are too short to tell a typo.
        let allowed = wanted.count < 4 ? 0 : max(1, wanted.count / 4)
        guard allowed > 0 else { return nil }
        var best: (key: String, distance: Int)?
        for candidate in candidates where candidate != missing {
            let folded = Self.folded(candidate)
            guard abs(folded.count - wanted.count) <= allowed, folded.count <= Self.longestKey else { continue }
            let distance = NearMatch.editDistance(wanted, folded, limit: best.map { $0.distance - 1 } ?? allowed)
            if let distance { best = (candidate, distance) }
        }
        return best?.key
    }

    /// `key` lowercased, without `_`, `-` and spaces, as characters.
    private static func folded(_ key: String) -> [Character] {
        key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }.map { $0 }
    }
}
