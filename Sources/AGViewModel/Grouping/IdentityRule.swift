/// How a change set recognises "the same" item (or section) in an old and a
/// new ``Manager``.
///
/// By default an item is identified by the JSON value under `"id"`; a
/// section by the same rule applied to its header. Values are compared with
/// `JSONValue`'s `==`, so `1` and `"1"` are different identities. An item
/// (or section) without a value (no such key, `null`, or no header) is
/// identified by its position instead: the item at the same index of the
/// matching section, or the section at the same index.
///
/// ```swift
/// let byISBN = ChangeSet(from: old, to: new, identity: .key("isbn"))
/// let composite = ChangeSet(from: old, to: new, identity: .custom { item in
///     guard let kind = item["kind"], let id = item["id"] else { return nil }
///     return [kind, id]
/// })
/// ```
public struct IdentityRule {
    // Fast path: read the key with the values, without a closure call.
    internal let key: String?
    internal let identify: ((ViewModel) -> JSONValue?)?

    /// Identity is the JSON value stored under `key` (`null` counts as none).
    public static func key(_ key: String) -> IdentityRule {
        IdentityRule(key: key, identify: nil)
    }

    /// Identity is what `identify` returns (`nil` or `null` counts as none).
    /// It runs synchronously, in the caller's domain: once per item, and
    /// once more for both items of each pair matched across sections.
    public static func custom(_ identify: @escaping (ViewModel) -> JSONValue?) -> IdentityRule {
        IdentityRule(key: nil, identify: identify)
    }

    /// The default rule: the value under `"id"`.
    public static var `default`: IdentityRule { .key("id") }

    /// The identity of `viewModel` under this rule, or `nil` when it has none.
    public func identity(of viewModel: ViewModel) -> JSONValue? {
        let value: JSONValue?
        if let key { value = viewModel[key] } else { value = identify?(viewModel) }
        if let value, !value.isNull { return value }
        return nil
    }
}
