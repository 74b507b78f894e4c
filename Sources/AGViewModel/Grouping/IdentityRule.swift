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
///
/// A rule is `Sendable`: keep one in a `static let`, or hand it with
/// ``Manager/Snapshot``s to a diff on another task.
public struct IdentityRule: Sendable {
    // Fast path: read the key with the values, without a closure call.
    internal let key: String?
    internal let identify: (@Sendable (ViewModel) -> JSONValue?)?

    /// Identity is the JSON value stored under `key` (`null` counts as none).
    public static func key(_ key: String) -> IdentityRule {
        IdentityRule(key: key, identify: nil)
    }

    /// Identity is what `identify` returns (`nil` or `null` counts as none).
    ///
    /// It runs synchronously, where the change set is computed (once per
    /// item, or per header for a section rule) and where it is applied (once
    /// per item or header of both managers, to check that no row moved
    /// since); its reads are the caller's, as if it read the items itself.
    /// It must give a ViewModel the same identity each time, and a copy
    /// made from a snapshot the identity of its original: read JSON values
    /// and nested ViewModels, which snapshots keep, not other payloads.
    ///
    /// The closure is `@Sendable`, so the rule can go to a diff on another
    /// task: it reads the ViewModel it is given, and state of the caller's
    /// domain is read first and captured as a value
    /// (`let key = settings.identityKey; .custom { $0[key] }`).
    public static func custom(_ identify: @escaping @Sendable (ViewModel) -> JSONValue?) -> IdentityRule {
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

    /// The identity of `viewModel` read from its stored values, without
    /// Swift Observation tracking for a key rule, as the diff reads items.
    internal func storedIdentity(of viewModel: ViewModel) -> JSONValue? {
        guard let key else { return identity(of: viewModel) }
        return ChangeSet.storedIdentity(of: viewModel, key: key)
    }
}
