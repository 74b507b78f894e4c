/// Packaging API data into sections.
///
/// As for ``Section``, every element goes once through a
/// ``ViewModelPackager`` (``MemberCopyingPackager`` when none is given).
/// Bad elements are skipped and reported, located with
/// ``PackagingLocation/section(_:_:)`` by the group's index in the input;
/// with ``PackagingPolicy/strict`` the first is thrown and the manager is
/// left unchanged (sections are fully built before any is added).
extension Manager {
    /// Builds a new section with `build` and appends it; returns it.
    ///
    /// ```swift
    /// manager.appendSection { section in
    ///     section.header = ViewModel(["title": "Today"])
    ///     section.appendItems(packaging: events)
    /// }
    /// ```
    @discardableResult
    public func appendSection(_ build: (Section) throws -> Void) rethrows -> Section {
        let section = Section()
        try build(section)
        append(section)
        return section
    }

    /// Packages the elements of a JSON array into the items of a new
    /// section and appends it.
    ///
    /// - Returns: The new section and the skipped elements (located with
    ///   ``PackagingLocation/item(_:)``).
    @discardableResult
    public func appendSection<Policy: PackagingPolicy>(
        packaging elements: [JSONValue], using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> (section: Section, skipped: [SkippedElement]) {
        let section = Section()
        let result = try section.appendItems(packaging: elements, using: packager, policy: policy)
        append(section)
        return (section, result.skipped)
    }

    /// Packages groups of elements into new sections, one per group in
    /// order, and appends them. A packager that throws `CancellationError`
    /// stops it: no section is made for the groups after that one.
    ///
    /// - Returns: The new sections and the skipped elements, located with
    ///   ``PackagingLocation/section(_:_:)``.
    @discardableResult
    public func appendSections<Policy: PackagingPolicy>(
        packaging groups: [[JSONValue]], using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> (sections: [Section], skipped: [SkippedElement]) {
        try appendSections(JSONArray(groups.lazy.map { JSONValue.array($0) }), using: packager, policy: policy)
    }

    /// Packages a JSON array of arrays of objects (as parsed from an API)
    /// into new sections and appends them. A group that is not an array
    /// becomes an empty section reported at
    /// `.section(i, .items)`; a value that is not an array at all adds
    /// nothing and is reported at ``PackagingLocation/items``.
    @discardableResult
    public func appendSections<Policy: PackagingPolicy>(
        packaging groups: JSONValue, using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> (sections: [Section], skipped: [SkippedElement]) {
        guard case .array(let elements) = groups else {
            let result = try packager.packageArray(groups, section: nil, defaults: PackagingDefaults(nil), policy: policy)
            return ([], result.skipped)
        }
        return try appendSections(elements, using: packager, policy: policy)
    }

    private func appendSections<Policy: PackagingPolicy>(
        _ groups: JSONArray, using packager: some ViewModelPackager<JSONObject>, policy: Policy
    ) throws(Policy.Failure) -> (sections: [Section], skipped: [SkippedElement]) {
        var results: [PackagingResult] = []
        results.reserveCapacity(groups.count)
        for (index, group) in groups.enumerated() {
            let result = try packager.packageArray(group, section: index, defaults: PackagingDefaults(nil), policy: policy)
            results.append(result)
            if result.stoppedByCancellation { break }
        }
        let sections = results.map { Section(items: $0.items) }
        append(contentsOf: sections)
        return (sections, PackagingResult.skipped(inSections: results))
    }
}

extension Manager {
    /// Packages the elements of a parsed JSON array into a new section and
    /// appends it (see ``appendSection(packaging:using:policy:)-([JSONValue],_,_)``).
    @discardableResult
    public func appendSection<Policy: PackagingPolicy>(
        packaging elements: JSONArray, using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> (section: Section, skipped: [SkippedElement]) {
        let section = Section()
        let result = try section.appendItems(packaging: elements, using: packager, policy: policy)
        append(section)
        return (section, result.skipped)
    }

    /// Packages groups of parsed JSON arrays into new sections, one per
    /// group in order, and appends them.
    @discardableResult
    public func appendSections<Policy: PackagingPolicy>(
        packaging groups: [JSONArray], using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> (sections: [Section], skipped: [SkippedElement]) {
        try appendSections(JSONArray(groups.lazy.map { JSONValue.array($0) }), using: packager, policy: policy)
    }
}
