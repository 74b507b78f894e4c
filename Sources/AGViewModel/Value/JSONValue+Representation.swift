extension JSONValue {
    /// Whether `self` and `other` hold the same value in the same form, so
    /// that a view or an export shows no difference between them: the same
    /// case (`10` and `10.0` differ, as do `0` and `-0.0`, although they are
    /// `==`), strings by `==`, arrays element by element, and objects with
    /// the same keys in the same order.
    ///
    /// Change detection uses this instead of `==`, which compares numbers
    /// by value and objects regardless of order: replacing `10.0` with `10`
    /// changes what a view derived from the value shows.
    internal func hasSameRepresentation(as other: JSONValue) -> Bool {
        if let verdict = Self.scalarRepresentationVerdict(self, other) { return verdict }
        // Containers, walked in order with a stack of their own (no depth
        // overflows the stack), stopping at the first difference: a long
        // array that changed at its start is told apart at once.
        var frames: [RepresentationFrame] = []
        guard Self.enter(self, other, into: &frames) else { return false }
        while !frames.isEmpty {
            let pair: (JSONValue, JSONValue)
            switch frames[frames.count - 1] {
            case .array(let x, let y, let i):
                guard i < x.count else { frames.removeLast(); continue }
                frames[frames.count - 1] = .array(x, y, i + 1)
                pair = (x[i], y[i])
            case .object(let x, let y, let i):
                guard i < x.count else { frames.removeLast(); continue }
                frames[frames.count - 1] = .object(x, y, i + 1)
                let (first, second) = (x._members[i], y._members[i])
                guard first.key == second.key else { return false }
                pair = (first.value, second.value)
            }
            if let verdict = Self.scalarRepresentationVerdict(pair.0, pair.1) {
                guard verdict else { return false }
            } else if !Self.enter(pair.0, pair.1, into: &frames) {
                return false
            }
        }
        return true
    }

    /// A pair of containers being compared, and the next position.
    private enum RepresentationFrame {
        case array(JSONArray, JSONArray, Int)
        case object(JSONObject, JSONObject, Int)
    }

    /// Pushes the frame comparing two arrays or two objects; `false` when
    /// their counts differ. Containers sharing storage are the same.
    private static func enter(_ a: JSONValue, _ b: JSONValue, into frames: inout [RepresentationFrame]) -> Bool {
        switch (a, b) {
        case let (.array(x), .array(y)):
            guard x.count == y.count else { return false }
            if x.storage.buffer !== y.storage.buffer { frames.append(.array(x, y, 0)) }
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            if x._members.buffer !== y._members.buffer { frames.append(.object(x, y, 0)) }
        default:
            return false
        }
        return true
    }

    /// The verdict for two values of which at least one is not a container,
    /// or `nil` for two arrays or two objects.
    @inline(__always)
    private static func scalarRepresentationVerdict(_ a: JSONValue, _ b: JSONValue) -> Bool? {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case let (.bigInteger(x), .bigInteger(y)): x == y
        case let (.string(x), .string(y)): x == y
        case (.array, .array), (.object, .object): nil
        default: false
        }
    }
}
