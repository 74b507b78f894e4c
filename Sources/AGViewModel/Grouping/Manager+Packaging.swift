/// Packaging sections from JSON.
///
/// As for ``Section``, the packaging step is a closure
/// `(JSONObject) throws -> ViewModel` (`ViewModel.init(_:)` when omitted); a
/// packager can be passed as `using: packager.package`. A section is fully
/// built before it is added, so a throwing closure leaves the manager
/// unchanged.
extension Manager {
    /// Builds a new section with `build` and appends it; returns it.
    ///
    /// ```swift
    /// manager.appendSection { section in
    ///     section.packageHeader(["title": "Today"])
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

    /// Packages `objects` into the items of a new section and appends it.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func appendSection(packaging objects: [JSONObject]) -> Section {
        appendSection(packaging: objects, using: ViewModel.init(_:))
    }

    /// Packages `objects` into the items of a new section and appends it.
    @discardableResult
    public func appendSection(packaging objects: [JSONObject], using package: (JSONObject) throws -> ViewModel) rethrows -> Section {
        try appendSection { try $0.appendItems(packaging: objects, using: package) }
    }

    /// Packages a JSON array of objects into the items of a new section and
    /// appends it.
    ///
    /// - Throws: ``GroupingError`` naming the first element of the wrong
    ///   kind (nothing is appended then), or what `package` throws.
    @discardableResult
    public func appendSection(packaging array: JSONValue, using package: (JSONObject) throws -> ViewModel = ViewModel.init(_:)) throws -> Section {
        try appendSection(packaging: Section.objects(in: array, path: []), using: package)
    }

    /// Packages each array of objects into a new section and appends the
    /// sections in order; returns them.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func appendSections(packaging arrays: [[JSONObject]]) -> [Section] {
        appendSections(packaging: arrays, using: ViewModel.init(_:))
    }

    /// Packages each array of objects into a new section and appends the
    /// sections in order; returns them.
    @discardableResult
    public func appendSections(packaging arrays: [[JSONObject]], using package: (JSONObject) throws -> ViewModel) rethrows -> [Section] {
        let newSections = try arrays.map { objects in
            let section = Section()
            try section.appendItems(packaging: objects, using: package)
            return section
        }
        append(contentsOf: newSections)
        return newSections
    }

    /// Packages a JSON array of arrays of objects into sections and appends
    /// them; returns them.
    ///
    /// - Throws: ``GroupingError`` naming the first element of the wrong
    ///   kind, such as `element [2][5] is string, expected an object`
    ///   (nothing is appended then), or what `package` throws.
    @discardableResult
    public func appendSections(packaging arrays: JSONValue, using package: (JSONObject) throws -> ViewModel = ViewModel.init(_:)) throws -> [Section] {
        guard let elements = arrays.arrayValue else {
            throw GroupingError.expectedArray(path: [], found: arrays.kind)
        }
        let objects = try elements.enumerated().map { (i, element) throws(GroupingError) in
            try Section.objects(in: element, path: [i])
        }
        return try appendSections(packaging: objects, using: package)
    }
}
