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
        // Containers, compared with a work list: no depth overflows the stack.
        var pending = [(self, other)]
        while let (a, b) = pending.popLast() {
            if let verdict = Self.scalarRepresentationVerdict(a, b) {
                guard verdict else { return false }
                continue
            }
            switch (a, b) {
            case let (.array(x), .array(y)):
                guard x.count == y.count else { return false }
                if x.storage.buffer === y.storage.buffer { continue }
                for i in 0..<x.count { pending.append((x[i], y[i])) }
            case let (.object(x), .object(y)):
                guard x.count == y.count else { return false }
                if x._members.buffer === y._members.buffer { continue }
                for (first, second) in zip(x, y) {
                    guard first.key == second.key else { return false }
                    pending.append((first.value, second.value))
                }
            default:
                return false
            }
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
