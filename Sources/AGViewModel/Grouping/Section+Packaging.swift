/// Packaging API data into a section's items.
///
/// Every method goes through a ``ViewModelPackager`` (by default
/// ``MemberCopyingPackager``, which copies every member), once per element,
/// with the section's ``itemMerge`` as defaults: **the element's values
/// win**, the item-merge values fill the keys it did not set. Items are
/// fully packaged before any is added, so strict packaging that throws
/// leaves the section unchanged.
///
/// ```swift
/// let section = Section(itemMerge: ViewModel(["style": "card"]))
/// let result = section.appendItems(packaging: statuses, using: StatusPackager())
/// for problem in result.skipped { print(problem) }       // item 3: required key "id" …
/// try section.appendItems(packaging: more, policy: .strict)   // throws PackagingError
/// ```
extension Section {
    /// Packages the elements of a JSON array into items and appends them.
    /// Elements that are not objects (unless a ``SpecPackager`` wraps them
    /// under its `scalarKey`), or that the packager throws for, are
    /// skipped and reported (or, with ``PackagingPolicy/strict``, thrown).
    ///
    /// - Returns: The new items and the skipped elements.
    @discardableResult
    public func appendItems<Policy: PackagingPolicy>(
        packaging elements: [JSONValue], using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> PackagingResult {
        let result = try packager.packageElements(JSONArray(elements), section: nil, defaults: itemDefaults, policy: policy)
        append(contentsOf: result.items)
        return result
    }

    /// Packages a JSON value that should be an array of objects (as parsed
    /// from an API) into items and appends them; a value that is not an
    /// array is reported at ``PackagingLocation/items``.
    @discardableResult
    public func appendItems<Policy: PackagingPolicy>(
        packaging array: JSONValue, using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> PackagingResult {
        let result = try packager.packageArray(array, section: nil, defaults: itemDefaults, policy: policy)
        append(contentsOf: result.items)
        return result
    }

    /// Packages the elements of a JSON array into items and inserts them at
    /// `index`, in order; traps when `index` is out of `0...count`.
    @discardableResult
    public func insertItems<Policy: PackagingPolicy>(
        packaging elements: [JSONValue], at index: Int,
        using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(), policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> PackagingResult {
        let result = try packager.packageElements(JSONArray(elements), section: nil, defaults: itemDefaults, policy: policy)
        insert(contentsOf: result.items, at: index)
        return result
    }

    /// The item-merge values, read once per packaging run.
    private var itemDefaults: PackagingDefaults {
        PackagingDefaults(itemMerge)
    }
}

extension Section {
    /// Packages the elements of a parsed JSON array into items and appends
    /// them (see ``appendItems(packaging:using:policy:)-([JSONValue],_,_)``).
    @discardableResult
    public func appendItems<Policy: PackagingPolicy>(
        packaging elements: JSONArray, using packager: some ViewModelPackager<JSONObject> = MemberCopyingPackager(),
        policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> PackagingResult {
        let result = try packager.packageElements(elements, section: nil, defaults: PackagingDefaults(itemMerge), policy: policy)
        append(contentsOf: result.items)
        return result
    }
}
