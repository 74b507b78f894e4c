extension Section {
    /// Merges `other` into this section: its header, footer, common and
    /// item-merge ViewModels into this section's (made empty first where
    /// this section has none), `other`'s values winning, then its items
    /// appended, in order.
    ///
    /// The items are the same instances, now in both sections (append
    /// `copy()`s for independent ones), as ``Manager/merge(_:)`` shares
    /// sections. Nested ViewModels in the merged values are shared too
    /// (as `ViewModel.merge(_:keys:)` shares them).
    ///
    /// ```swift
    /// page1.merge(page2)   // page 2's items follow page 1's; its header
    ///                      // values (a new "next" cursor) win
    /// ```
    ///
    /// A key the incoming part does not have keeps its value. So a value a
    /// later page can lack is stored there as `null`: a packaging spec
    /// field with `"default": null` (the last page's missing "next"
    /// cursor then clears page 1's, where leaving it out would keep it).
    public func merge(_ other: Section) {
        let incoming = (header: other.header, footer: other.footer, common: other.common,
                        itemMerge: other.itemMerge, items: other.items)
        // Only the parts that come in are set, so Observation hears of
        // nothing else.
        if let header = incoming.header { self.header = Self.merging(header, into: self.header) }
        if let footer = incoming.footer { self.footer = Self.merging(footer, into: self.footer) }
        if let common = incoming.common { self.common = Self.merging(common, into: self.common) }
        if let itemMerge = incoming.itemMerge { self.itemMerge = Self.merging(itemMerge, into: self.itemMerge) }
        append(contentsOf: incoming.items)
    }

    /// `own` with `incoming`'s values merged in, a new ViewModel standing
    /// in for a missing `own`.
    private static func merging(_ incoming: ViewModel, into own: ViewModel?) -> ViewModel {
        let target = own ?? ViewModel()
        target.merge(incoming)
        return target
    }
}
