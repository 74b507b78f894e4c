/// Wrapping packaging results into sections and managers.
///
/// ```swift
/// let result = try SpecPackager(contentsOf: specURL).package(document: response)
/// let section = Section(packaged: result, itemMerge: ViewModel(["style": "card"]))
/// let manager = Manager(packaged: try packager.packageSections(document: response))
/// ```
extension Section {
    /// A section with the result's header and items. `itemMerge` (also kept
    /// as the section's ``itemMerge``) fills, in every item, the keys the
    /// item has no value for: the item's values win, as in all packaging.
    /// Skipped elements stay in `result`.
    public convenience init(
        packaged result: PackagingResult, footer: ViewModel? = nil, common: ViewModel? = nil, itemMerge: ViewModel? = nil
    ) {
        if let itemMerge {
            let defaults = PackagingDefaults(itemMerge)
            for item in result.items { item.addMissingValues(defaults) }
        }
        self.init(items: result.items, header: result.header, footer: footer, common: common, itemMerge: itemMerge)
    }
}

extension Manager {
    /// A manager with one section per result, in order (see
    /// ``Section/init(packaged:footer:common:itemMerge:)``).
    public convenience init(packaged results: [PackagingResult], common: ViewModel? = nil) {
        self.init(sections: results.map { Section(packaged: $0) }, common: common)
    }
}

extension PackagingResult {
    /// The skipped elements of every section's result, each located with
    /// ``PackagingLocation/section(_:_:)`` by the result's index.
    public static func skipped(inSections results: [PackagingResult]) -> [SkippedElement] {
        results.enumerated().flatMap { index, result in
            result.skipped.map { SkippedElement(location: .section(index, $0.location), reason: $0.reason) }
        }
    }
}

extension PackagingResult {
    /// Appends `other`'s items and skipped elements (its header is dropped).
    internal mutating func add(_ other: consuming PackagingResult) {
        items.append(contentsOf: other.items)
        skipped.append(contentsOf: other.skipped)
    }
}
