/// What a ViewModel stores under a key: a JSON value, or a payload that is
/// not JSON (a nested ViewModel, a section, a manager, an image, a formatter).
///
/// Like the ViewModel holding it, a stored value belongs to the ViewModel's
/// isolation domain; ``ViewModel/Snapshot`` gives a `Sendable` copy. Exports
/// and archives write JSON values and the payloads they know (nested
/// ViewModels, sections, managers) and skip or report the others.
public enum ViewModelValue {
    /// A JSON value.
    case json(JSONValue)
    /// Anything else a view needs.
    // `indirect` boxes the existential, so the enum is a plain loadable
    // value: copies are a retain instead of value-witness calls, which
    // makes key reads and writes (of JSON, the common case) 2-3x faster.
    indirect case payload(Any)

    /// The JSON value, or `nil` for a payload.
    @inlinable
    public var json: JSONValue? {
        if case .json(let value) = self { return value }
        return nil
    }

    /// The payload, or `nil` for a JSON value.
    @inlinable
    public var payload: Any? {
        if case .payload(let value) = self { return value }
        return nil
    }

    /// Runs `edit` on the JSON value where it is, held by nothing else
    /// meanwhile, so the edit copies no container it does not change.
    /// Does nothing to a payload.
    internal mutating func editJSON(_ edit: (inout JSONValue) -> Void) {
        guard case .json(var json) = self else { return }
        self = .json(.null)
        edit(&json)
        self = .json(json)
    }

    /// Whether two stored values are the same for change detection.
    ///
    /// JSON values are the same when they hold the same value in the same
    /// form: `10` and `10.0` are `==` but not the same here (nor are `0` and
    /// `-0.0`, or two objects with their members in another order), since a
    /// view or an export shows them differently. Objects are the same by
    /// identity, arrays of ViewModels by the identity of their elements,
    /// other payloads by `==` when they are `Equatable` of the same type;
    /// otherwise two values are never the same.
    public func isSame(as other: ViewModelValue) -> Bool {
        switch (self, other) {
        case let (.json(a), .json(b)):
            return a.hasSameRepresentation(as: b)
        case let (.payload(a), .payload(b)):
            if type(of: a) is AnyClass, type(of: b) is AnyClass {
                return (a as AnyObject) === (b as AnyObject)
            }
            // Lists of ViewModels, element by element, by identity.
            if let x = NestedContent.viewModelList(a), let y = NestedContent.viewModelList(b) {
                return x.count == y.count && zip(x, y).allSatisfy { $0 === $1 }
            }
            if let x = a as? any Equatable { return x.isEqual(to: b) }
            return false
        default:
            return false
        }
    }
}

extension Equatable {
    /// `self == other` when `other` has the same type.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
