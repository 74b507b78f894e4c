/// The shared packager: conveniences that build ViewModels with closures or
/// packagers, optionally starting from a common ViewModel.
///
/// ```swift
/// let common = ViewModel(["cellStyle": "compact"])
/// let header = Packager.viewModel(merging: common) { viewModel in
///     viewModel["title"] = "Timeline"
/// }
/// let rows = Packager.viewModels(from: statuses, merging: common) { viewModel, status in
///     viewModel["text"] = status["text"]
/// }
/// ```
///
/// Merging copies the common ViewModel's keys first (payloads are shared,
/// not copied), then the closure or packager writes its own, so its values
/// win. The section and manager conveniences build on these: an array of
/// elements becomes a ``Section``, an array of arrays a ``Manager``.
public enum Packager {
    /// A new ViewModel holding `common`'s keys, then filled by `configure`.
    public static func viewModel(
        merging common: ViewModel? = nil, _ configure: (ViewModel) throws -> Void
    ) rethrows -> ViewModel {
        let viewModel = common.map(startingFrom) ?? ViewModel()
        try configure(viewModel)
        return viewModel
    }

    /// One ViewModel per element, each holding `common`'s keys and then
    /// filled by `configure(viewModel, element)`. Use `.enumerated()` to get
    /// indices.
    public static func viewModels<Elements: Sequence>(
        from elements: Elements, merging common: ViewModel? = nil,
        _ configure: (ViewModel, Elements.Element) throws -> Void
    ) rethrows -> [ViewModel] {
        var result: [ViewModel] = []
        result.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            let viewModel = common.map(startingFrom) ?? ViewModel()
            try configure(viewModel, element)
            result.append(viewModel)
        }
        return result
    }

    /// The ViewModel `packager` makes from `object`, on top of `common`'s keys.
    public static func viewModel(
        from object: JSONObject, using packager: some ViewModelPackager,
        context: (any Sendable)? = nil, merging common: ViewModel? = nil
    ) throws -> ViewModel {
        let packaged = try packager.package(object, context: context)
        guard let common else { return packaged }
        let merged = startingFrom(common)
        let (keys, values) = packaged.storageSnapshot
        for key in keys { merged[value: key] = values[key] }
        return merged
    }

    /// The ViewModels `packager` makes from `elements`, each on top of
    /// `common`'s keys; elements it cannot package are skipped and reported.
    public static func viewModels(
        from elements: [JSONValue], using packager: some ViewModelPackager,
        context: (any Sendable)? = nil, merging common: ViewModel? = nil
    ) -> PackagingResult {
        var result = packager.package(elements, context: context)
        if let common {
            result.items = result.items.map { packaged in
                let merged = startingFrom(common)
                let (keys, values) = packaged.storageSnapshot
                for key in keys { merged[value: key] = values[key] }
                return merged
            }
        }
        return result
    }

    // MARK: Sections and managers

    /// A section whose items are made by `configure(viewModel, element)`,
    /// each on top of `common`'s keys (as ``viewModels(from:merging:_:)``).
    ///
    /// ```swift
    /// let section = Packager.section(from: statuses) { viewModel, status in
    ///     viewModel["text"] = status["text"]
    /// }
    /// ```
    public static func section<Elements: Sequence>(
        from elements: Elements, merging common: ViewModel? = nil,
        _ configure: (ViewModel, Elements.Element) throws -> Void
    ) rethrows -> Section {
        Section(items: try viewModels(from: elements, merging: common, configure))
    }

    /// A manager with one section per group of elements, in order, each
    /// made as ``section(from:merging:_:)`` does.
    public static func manager<Groups: Sequence>(
        from groups: Groups, merging common: ViewModel? = nil,
        _ configure: (ViewModel, Groups.Element.Element) throws -> Void
    ) rethrows -> Manager where Groups.Element: Sequence {
        var sections: [Section] = []
        for group in groups { sections.append(try section(from: group, merging: common, configure)) }
        return Manager(sections: sections)
    }

    /// A section of the ViewModels `packager` makes from `elements` (see
    /// ``viewModels(from:using:context:merging:)``); elements it cannot
    /// package are skipped and returned.
    public static func section(
        from elements: [JSONValue], using packager: some ViewModelPackager,
        context: (any Sendable)? = nil, merging common: ViewModel? = nil
    ) -> (section: Section, skipped: [SkippedElement]) {
        let result = viewModels(from: elements, using: packager, context: context, merging: common)
        return (Section(packaged: result), result.skipped)
    }

    /// A manager with one section per group of elements, packaged by
    /// `packager`; skipped elements are located with
    /// ``PackagingLocation/section(_:_:)``.
    ///
    /// ```swift
    /// let (manager, skipped) = Packager.manager(from: [articles, videos], using: StatusPackager())
    /// ```
    public static func manager(
        from groups: [[JSONValue]], using packager: some ViewModelPackager,
        context: (any Sendable)? = nil, merging common: ViewModel? = nil
    ) -> (manager: Manager, skipped: [SkippedElement]) {
        let results = groups.map { viewModels(from: $0, using: packager, context: context, merging: common) }
        return (Manager(packaged: results), PackagingResult.skipped(inSections: results))
    }

    /// A new ViewModel with `common`'s keys and values.
    private static func startingFrom(_ common: ViewModel) -> ViewModel {
        common.copyOfStore()
    }
}
