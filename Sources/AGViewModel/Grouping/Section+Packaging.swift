/// Packaging JSON objects into a section's ViewModels.
///
/// Every method takes the packaging step as a closure `(JSONObject) throws ->
/// ViewModel`; the overloads without `using:` use `ViewModel.init(_:)`, which
/// copies every member.
/// A packager type can slot in later by passing its method as the closure
/// (`using: packager.package`). Closures run outside the section's lock, and
/// a throwing closure leaves the section unchanged.
extension Section {
    /// Packages `object` and sets it as the header; returns the header.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func packageHeader(_ object: JSONObject) -> ViewModel {
        packageHeader(object, using: ViewModel.init(_:))
    }

    /// Packages `object` and sets it as the header; returns the header.
    @discardableResult
    public func packageHeader(_ object: JSONObject, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let viewModel = try package(object)
        header = viewModel
        return viewModel
    }

    /// Packages `object` and sets it as the footer; returns the footer.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func packageFooter(_ object: JSONObject) -> ViewModel {
        packageFooter(object, using: ViewModel.init(_:))
    }

    /// Packages `object` and sets it as the footer; returns the footer.
    @discardableResult
    public func packageFooter(_ object: JSONObject, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let viewModel = try package(object)
        footer = viewModel
        return viewModel
    }

    /// Packages `object` and sets it as the common ViewModel; returns it.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func packageCommon(_ object: JSONObject) -> ViewModel {
        packageCommon(object, using: ViewModel.init(_:))
    }

    /// Packages `object` and sets it as the common ViewModel; returns it.
    @discardableResult
    public func packageCommon(_ object: JSONObject, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let viewModel = try package(object)
        common = viewModel
        return viewModel
    }

    /// Packages `object` into an item (merging ``itemMerge`` into it) and
    /// appends it; returns the item.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func appendItem(packaging object: JSONObject) -> ViewModel {
        appendItem(packaging: object, using: ViewModel.init(_:))
    }

    /// Packages `object` into an item (merging ``itemMerge`` into it) and
    /// appends it; returns the item.
    @discardableResult
    public func appendItem(packaging object: JSONObject, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let item = try packagedItem(object, using: package)
        append(item)
        return item
    }

    /// Packages `object` into an item (merging ``itemMerge`` into it) and
    /// inserts it at `index`; traps when `index` is out of `0...count`.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func insertItem(packaging object: JSONObject, at index: Int) -> ViewModel {
        insertItem(packaging: object, at: index, using: ViewModel.init(_:))
    }

    /// Packages `object` into an item (merging ``itemMerge`` into it) and
    /// inserts it at `index`; traps when `index` is out of `0...count`.
    @discardableResult
    public func insertItem(packaging object: JSONObject, at index: Int, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let item = try packagedItem(object, using: package)
        insert(item, at: index)
        return item
    }

    /// Packages every object into an item (merging ``itemMerge`` into each)
    /// and appends them in order; returns the new items.
    /// Uses `ViewModel.init(_:)`, which copies every member.
    @discardableResult
    public func appendItems(packaging objects: [JSONObject]) -> [ViewModel] {
        appendItems(packaging: objects, using: ViewModel.init(_:))
    }

    /// Packages every object into an item (merging ``itemMerge`` into each)
    /// and appends them in order; returns the new items.
    @discardableResult
    public func appendItems(packaging objects: [JSONObject], using package: (JSONObject) throws -> ViewModel) rethrows -> [ViewModel] {
        let merge = itemMerge
        let newItems = try objects.map { object in
            let item = try package(object)
            if let merge { item.merge(merge) }
            return item
        }
        append(contentsOf: newItems)
        return newItems
    }

    /// Packages a JSON array of objects (as parsed from an API) into items
    /// and appends them; returns the new items.
    ///
    /// - Throws: ``GroupingError/expectedArray(path:found:)`` when `array` is
    ///   not an array, ``GroupingError/expectedObject(path:found:)`` for the
    ///   first element that is not an object (nothing is appended then), or
    ///   what `package` throws.
    @discardableResult
    public func appendItems(packaging array: JSONValue, using package: (JSONObject) throws -> ViewModel = ViewModel.init(_:)) throws -> [ViewModel] {
        try appendItems(packaging: Section.objects(in: array, path: []), using: package)
    }

    /// The packaged, merged item for `object`.
    private func packagedItem(_ object: JSONObject, using package: (JSONObject) throws -> ViewModel) rethrows -> ViewModel {
        let item = try package(object)
        if let merge = itemMerge { item.merge(merge) }
        return item
    }

    /// The objects of a JSON array, or a precise error naming the element
    /// of the wrong kind.
    internal static func objects(in array: JSONValue, path: [Int]) throws(GroupingError) -> [JSONObject] {
        guard let elements = array.arrayValue else {
            throw .expectedArray(path: path, found: array.kind)
        }
        var objects: [JSONObject] = []
        objects.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            guard let object = element.objectValue else {
                throw .expectedObject(path: path + [i], found: element.kind)
            }
            objects.append(object)
        }
        return objects
    }
}
