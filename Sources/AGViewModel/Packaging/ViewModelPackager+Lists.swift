/// Packaging lists: every list, section and manager convenience goes
/// through ``ViewModelPackager/package(_:)`` here, once per element.
extension ViewModelPackager {
    /// One ViewModel per element, in order, each with the keys of `defaults`
    /// it did not set itself (the element's values win).
    ///
    /// ```swift
    /// let rows = ClosurePackager { (viewModel, book: Book) in
    ///     viewModel["title"] = .string(book.title)
    /// }.package(books, defaults: ViewModel(["style": "compact"]))
    /// ```
    ///
    /// Packaging runs synchronously and does not poll for cancellation. A
    /// packager that throws `CancellationError` (`try
    /// Task.checkCancellation()`) stops the list there: that element is
    /// reported (or thrown, with ``PackagingPolicy/strict``) with the reason
    /// ``PackagingError/Reason/packagerFailed(_:)``, and no later element is
    /// packaged.
    ///
    /// - Throws: With ``PackagingPolicy/strict``, the first element the
    ///   packager throws for, as a ``PackagingError`` located with
    ///   ``PackagingLocation/item(_:)``. The default policy never throws:
    ///   such elements are skipped and reported in ``PackagingResult/skipped``.
    public func package<Elements: Sequence, Policy: PackagingPolicy>(
        _ elements: Elements, defaults: ViewModel? = nil, policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> sending PackagingResult where Elements.Element == Element {
        var result = PackagingResult()
        result.items.reserveCapacity(elements.underestimatedCount)
        let defaultEntries = PackagingDefaults(defaults)
        for (index, element) in elements.enumerated() {
            switch try packagedItem(element, at: .item(index), section: nil, defaults: defaultEntries, policy: policy) {
            case .packaged(let item): result.items.append(item)
            case .skipped(let problem): result.skipped.append(problem)
            case .cancelled(let problem):
                result.skipped.append(problem)
                return result
            }
        }
        return result
    }

    /// The ViewModel for one element with the defaults added, or the problem
    /// `policy` let pass.
    @inline(__always)
    internal func packagedItem<Policy: PackagingPolicy>(
        _ element: Element, at location: PackagingLocation, section: Int?,
        defaults: PackagingDefaults, policy: Policy
    ) throws(Policy.Failure) -> sending PackagingOutcome {
        do {
            let item = try package(element)
            if !defaults.isEmpty { item.addMissingValues(defaults) }
            return .packaged(item)
        } catch {
            let problem = try SkippedElement.checked(location, PackagingError.Reason(error), section: section, policy: policy)
            return problem.reason.isCancellation ? .cancelled(problem) : .skipped(problem)
        }
    }
}

extension ViewModelPackager where Element == JSONObject {
    /// One ViewModel per element of a JSON array, in order, each with the
    /// keys of `defaults` it did not set itself (the element's values win).
    /// An element that is not an object (unless a ``SpecPackager`` wraps it
    /// under its `scalarKey`), or that the packager throws for, is skipped
    /// and reported (or, with ``PackagingPolicy/strict``, thrown).
    ///
    /// ```swift
    /// let result = StatusPackager().package(statuses)
    /// for problem in result.skipped { print(problem) }   // item 7: required key "id" …
    /// ```
    public func package<Policy: PackagingPolicy>(
        _ elements: [JSONValue], defaults: ViewModel? = nil, policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> sending PackagingResult {
        try packageElements(JSONArray(elements), section: nil, defaults: PackagingDefaults(defaults), policy: policy)
    }

    /// One ViewModel per element of a parsed JSON array (see
    /// ``package(_:defaults:policy:)-([JSONValue],_,_)``).
    public func package<Policy: PackagingPolicy>(
        _ elements: JSONArray, defaults: ViewModel? = nil, policy: Policy = .skipAndReport
    ) throws(Policy.Failure) -> sending PackagingResult {
        try packageElements(elements, section: nil, defaults: PackagingDefaults(defaults), policy: policy)
    }

    /// Packages the elements of a JSON array. `section`, when given, locates
    /// problems handed to `policy` inside that section; problems recorded in
    /// the result stay relative to it.
    internal func packageElements<Policy: PackagingPolicy>(
        _ elements: JSONArray, section: Int?, defaults: PackagingDefaults, policy: Policy
    ) throws(Policy.Failure) -> sending PackagingResult {
        var result = PackagingResult()
        result.items.reserveCapacity(elements.count)
        // A spec's `scalarKey` describes its items wherever they come from,
        // so a spec packager given a list wraps scalars as its documents do.
        let itemSource = (self as? SpecPackager)?.spec.itemSource
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = itemSource?.wrapped(element) ?? element else {
                result.skipped.append(try SkippedElement.checked(
                    .item(index), .notAnObject(found: element.kind), section: section, policy: policy))
                continue
            }
            switch try packagedItem(object, at: .item(index), section: section, defaults: defaults, policy: policy) {
            case .packaged(let item): result.items.append(item)
            case .skipped(let problem): result.skipped.append(problem)
            case .cancelled(let problem):
                result.skipped.append(problem)
                return result
            }
        }
        return result
    }

    /// Packages `array`'s elements; a value that is not an array is
    /// reported at ``PackagingLocation/items``.
    internal func packageArray<Policy: PackagingPolicy>(
        _ array: JSONValue, section: Int?, defaults: PackagingDefaults, policy: Policy
    ) throws(Policy.Failure) -> sending PackagingResult {
        guard case .array(let elements) = array else {
            let mismatch = JSONAccessError(path: JSONPath([]), reason: array.isNull ? .null
                : .typeMismatch(expected: [JSONValue].expectedDescription, found: array.kind, value: array.briefDescription))
            return PackagingResult(skipped: [try SkippedElement.checked(.items, .documentMismatch(mismatch), section: section, policy: policy)])
        }
        return try packageElements(elements, section: section, defaults: defaults, policy: policy)
    }
}

/// One element packaged, or the problem that kept it out.
internal enum PackagingOutcome {
    case packaged(ViewModel)
    case skipped(SkippedElement)
    /// The packager threw `CancellationError`: the list stops here.
    case cancelled(SkippedElement)
}

extension PackagingResult {
    /// Whether packaging stopped because the packager threw
    /// `CancellationError` (the last problem says so).
    internal var stoppedByCancellation: Bool { skipped.last?.reason.isCancellation == true }
}

extension SkippedElement {
    /// The problem to record, after `policy` let it pass. The policy sees
    /// the location inside `section` (when given); the record keeps it relative.
    @inline(__always)
    internal static func checked<Policy: PackagingPolicy>(
        _ location: PackagingLocation, _ reason: PackagingError.Reason, section: Int?, policy: Policy
    ) throws(Policy.Failure) -> SkippedElement {
        try policy.handle(SkippedElement(location: section.map { .section($0, location) } ?? location, reason: reason))
        return SkippedElement(location: location, reason: reason)
    }
}

extension PackagingError.Reason {
    /// Whether the packager threw `CancellationError`.
    internal var isCancellation: Bool {
        guard case .packagerFailed(let error) = self else { return false }
        return error is CancellationError
    }

    /// The reason for an error a packager threw: a ``PackagingError``'s own
    /// reason, a read error as ``unreadableValue(_:)``, anything else kept
    /// whole as ``packagerFailed(_:)``.
    internal init(_ error: any Error) {
        switch error {
        case let error as PackagingError: self = error.reason
        case let error as JSONAccessError: self = .unreadableValue(error)
        default: self = .packagerFailed(error)
        }
    }
}

/// The JSON values of a defaults ViewModel (or a section's item merge), read
/// once per packaging run. Only JSON values are copied into items: they are
/// values, so every item stays independent and can be sent on its own. A
/// payload (a nested ViewModel, an image) is not shared between items.
internal struct PackagingDefaults: Sendable {
    var entries: [(key: String, value: JSONValue)]

    init(_ viewModel: ViewModel?) {
        entries = viewModel?.orderedEntries().compactMap { entry in
            if case .json(let value) = entry.value { return (entry.key, value) }
            return nil
        } ?? []
    }

    var isEmpty: Bool { entries.isEmpty }
}

extension ViewModel {
    /// Stores each default whose key this ViewModel has no value for, in
    /// order: the one merge rule of packaging (the element's values win).
    internal func addMissingValues(_ defaults: PackagingDefaults) {
        // Untracked: the ViewModel is being packaged and nothing observes it
        // yet, and a tracked read of an absent key builds its key path.
        for (key, value) in defaults.entries where untrackedValue(forKey: key) == nil {
            self[value: key] = .json(value)
        }
    }
}
