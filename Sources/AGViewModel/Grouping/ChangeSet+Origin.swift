import Foundation

extension ChangeSet {
    /// What a change set made by the diff remembers of the two managers it
    /// was computed from: a fingerprint of each side's layout (its sections
    /// and, in order, the identities of their items), so applying it to
    /// managers that changed since is refused.
    ///
    /// Index paths alone cannot tell: a row the user moved or deleted while
    /// the diff ran on another task leaves counts that may still add up,
    /// and the update would then reload, delete or keep the wrong rows.
    internal struct Origin: Sendable {
        /// How items are identified.
        var itemRule: IdentityRule
        /// How sections are identified, by their headers.
        var sectionRule: IdentityRule
        /// The old manager's layout; its deleted sections count by identity only.
        var oldLayout: Int
        /// The new manager's layout; its inserted sections count by identity only.
        var newLayout: Int
        /// The sections the diff deleted and inserted, as it found them
        /// (the public lists may have been edited since).
        var deletedSections: IndexSet
        var insertedSections: IndexSet
    }

    /// Throws when this change set came from the diff and `old` or `new`
    /// are no longer laid out as the managers it was computed from.
    internal func checkOrigin(old: [Section], new: [Section]) throws(GroupingError) {
        guard let origin else { return }
        let rules = (item: origin.itemRule, section: origin.sectionRule)
        // A custom rule that reads what a snapshot leaves out gives the
        // copy the diff saw other identities than the manager shown.
        let customHint = origin.itemRule.key == nil || origin.sectionRule.key == nil
            ? "; a custom identity rule must give a snapshot's copy the identities of its original" : ""
        if Self.layout(of: old, skipping: origin.deletedSections, rules: rules) != origin.oldLayout {
            throw .invalidChangeSet("the manager changed since the change set was computed (its sections, or the identities of their items in order, differ); compute the change set again from the manager as it is now\(customHint)")
        }
        if Self.layout(of: new, skipping: origin.insertedSections, rules: rules) != origin.newLayout {
            throw .invalidChangeSet("the new manager changed since the change set was computed (its sections, or the identities of their items in order, differ); compute the change set again\(customHint)")
        }
    }

    /// The fingerprint of `sections`: their count, each one's identity, and
    /// for each not in `skipping` (sections changed as a whole) its items'
    /// identities in order.
    internal static func layout(
        of sections: [Section], skipping: IndexSet, rules: (item: IdentityRule, section: IdentityRule)
    ) -> Int {
        var layout = LayoutHasher(sectionCount: sections.count)
        for (s, section) in sections.enumerated() {
            let items = skipping.contains(s) ? nil : section.items
            let identity = section.header.flatMap { rules.section.storedIdentity(of: $0) }
            layout.addSection(identity: identity, itemCount: items?.count)
            for item in items ?? [] { layout.addItem(identity: rules.item.storedIdentity(of: item)) }
        }
        return layout.finalize()
    }

    /// The identity under `key` read from the stored values (no observation
    /// tracking), as the diff reads it: `null` counts as none.
    internal static func storedIdentity(of viewModel: ViewModel, key: String) -> JSONValue? {
        identity(in: viewModel.values, key: key)
    }

    /// The identity under `key` in `values`; `null` counts as none.
    @inline(__always)
    internal static func identity(in values: StoredValues, key: String) -> JSONValue? {
        let value = values[key]?.json
        return value?.isNull == false ? value : nil
    }
}

/// Builds a layout fingerprint; the diff feeds it the identities it has
/// already read, the check reads them again.
internal struct LayoutHasher {
    private var hasher = Hasher()

    init(sectionCount: Int) { hasher.combine(sectionCount) }

    /// A section, with the number of its items that follow, or `nil` when
    /// its items are not part of the layout.
    mutating func addSection(identity: JSONValue?, itemCount: Int?) {
        hasher.combine(identity)
        hasher.combine(itemCount ?? -1)
    }

    /// The next item of the current section.
    mutating func addItem(identity: JSONValue?) { hasher.combine(identity) }

    consuming func finalize() -> Int { hasher.finalize() }
}
