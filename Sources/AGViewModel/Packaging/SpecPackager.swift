import Foundation

/// A packager that follows a ``PackagingSpec``: the declarative counterpart
/// of a hand-written ``ViewModelPackager``, packaging through the same path.
///
/// ```swift
/// let packager = try SpecPackager(contentsOf: specURL)
/// let result = try packager.package(document: JSONValue(parsing: responseData))
/// header = result.header
/// rows = result.items
/// for problem in result.skipped { log(problem) }  // item 7: required key "id" (path id_str) has no value: id_str: missing
/// ```
///
/// A bad spec fails when it is loaded. With the default policy
/// (``PackagingPolicy/skipAndReport``) applying a spec never fails because
/// of one element: an element without a required value, or that is not an
/// object, is skipped and reported in ``PackagingResult/skipped``, and the
/// rest is packaged; only a document that does not fit as a whole throws
/// (its items path does not lead to an array, or, without one, it is
/// neither an array nor an object; see ``package(document:policy:)``).
/// With ``PackagingPolicy/strict`` the first problem (the header first,
/// then the items in order) is thrown.
///
/// Given a list of elements rather than a document (`package(_:)` on
/// `[JSONValue]`, a section's `appendItems(packaging:using:)`), it packages
/// them with the spec's own `fields`, and wraps scalars under the spec's
/// own `scalarKey` when it has one (a `sections` entry's are for documents).
/// A list is an array: `keyedBy` applies to documents only.
public struct SpecPackager: ViewModelPackager, Sendable {
    /// The spec this packager follows.
    public let spec: PackagingSpec

    /// What the spec reads from a document.
    internal let projection: JSONProjection

    /// The spec's item fields, with their paths hashed and their storage
    /// layouts made once.
    private let itemPackager: FieldPackager
    /// The spec's header fields, likewise.
    private let headerPackager: FieldPackager
    /// The item fields of each of the spec's `sections` entries, likewise
    /// (entries with the spec's own item fields share `itemPackager`'s).
    private let sectionPackagers: [FieldPackager]
    /// The header fields of each of the spec's `sections` entries, likewise.
    private let sectionHeaderPackagers: [FieldPackager]

    /// A packager following `spec`.
    public init(spec: PackagingSpec) {
        self.spec = spec
        projection = spec.projection
        let itemPackager = FieldPackager(fields: spec.fields)
        self.itemPackager = itemPackager
        headerPackager = FieldPackager(fields: spec.headerFields)
        sectionPackagers = spec.sections?.map { entry in
            entry.fields == spec.fields ? itemPackager : FieldPackager(fields: entry.fields)
        } ?? []
        sectionHeaderPackagers = spec.sections?.map { FieldPackager(fields: $0.headerFields) } ?? []
    }

    /// A packager following the spec file at `url` (checked now).
    public init(contentsOf url: URL) throws(PackagingSpecError) {
        self.init(spec: try PackagingSpec(contentsOf: url))
    }

    /// Parses an API response for this packager: the whole document is
    /// checked exactly as ``JSONParser`` checks it, with the same errors, but
    /// only the values the spec reads are built. Packaging the result gives
    /// what packaging a full parse gives, faster and with less memory.
    ///
    /// ```swift
    /// let packager = try SpecPackager(contentsOf: specURL)
    /// let (manager, skipped) = try packager.packageManager(document: packager.parseDocument(responseData))
    /// ```
    ///
    /// The result is meant for this packager only: members the spec never
    /// reads are left out, and array elements it skips over become `null`.
    /// So a missing key's error has no "did you mean" hint, which would
    /// name a key left out; parse in full to report one.
    public func parseDocument(_ data: Data, options: JSONParser.Options = .init()) throws(JSONParseError) -> JSONValue {
        try JSONParser(options: options).parse(data, keeping: projection)
    }

    /// The item ViewModel for `object`, following the spec's `fields`.
    /// Throws a ``PackagingError`` when a required value is missing.
    public func package(_ object: JSONObject) throws(PackagingError) -> sending ViewModel {
        try itemPackager.package(object)
    }

    /// Packages a whole API response: the header and every item.
    ///
    /// - Throws: ``PackagingError`` with ``PackagingError/Reason/documentMismatch(_:)``
    ///   when the items path does not lead to an array (or, without an items
    ///   path, the document is neither an array nor an object), with
    ///   ``PackagingError/Reason/specHasSections(spec:)`` for a spec that
    ///   describes several sections (use ``packageSections(document:policy:)``
    ///   or ``packageManager(document:policy:)``), and, with
    ///   ``PackagingPolicy/strict``, for the first element skipped.
    public func package(
        document: JSONValue, policy: some PackagingPolicy = .skipAndReport
    ) throws(PackagingError) -> sending PackagingResult {
        guard !spec.hasSections else {
            throw PackagingError(reason: .specHasSections(spec: spec.source))
        }
        return try packageSingleList(document: document, section: nil, policy: StrictOrSkip(policy))
    }

    /// ``package(document:policy:)`` for a spec without sections; a strict
    /// error names `section` when given (as when packaged as a manager).
    private func packageSingleList<Base>(
        document: JSONValue, section: Int?, policy: StrictOrSkip<Base>
    ) throws(PackagingError) -> PackagingResult {
        var result = PackagingResult()
        if spec.hasHeader {
            result = try Self.packageHeader(
                of: document, at: spec.headerPath, using: headerPackager, section: section, policy: policy)
        }
        let elements: JSONArray
        if let itemsPath = spec.itemsPath {
            elements = try Self.elements(of: document, at: itemsPath, source: spec.itemSource)
        } else {
            switch document {
            case .array: elements = spec.itemSource.elements(of: document) ?? []
            case .object: elements = spec.itemSource.memberNameKey != nil ? spec.itemSource.elements(of: document) ?? [] : [document]
            default:
                throw PackagingError(reason: .documentMismatch(
                    Self.mismatch(at: JSONPath([]), expected: "an array or an object", found: document)))
            }
        }
        result.add(try Self.packageItems(elements, using: itemPackager, section: section, policy: policy))
        return result
    }

    /// Packages a response into one result per section: the spec's
    /// `sections` entries or `sectionsFrom` members in order (a single
    /// result for a spec without sections). A section whose items are not an
    /// array is packaged without items and reported at
    /// ``PackagingLocation/items``; locations in each result are relative to
    /// its section (a strict error's location names the section).
    ///
    /// - Throws: ``PackagingError`` when the document as a whole does not
    ///   fit: the `sectionsFrom` path leads to neither an object nor an
    ///   array, or (without sections) as ``package(document:policy:)``;
    ///   with ``PackagingPolicy/strict``, the first problem.
    public func packageSections(
        document: JSONValue, policy: some PackagingPolicy = .skipAndReport
    ) throws(PackagingError) -> sending [PackagingResult] {
        let policy = StrictOrSkip(policy)
        if let entries = spec.sections {
            var results: [PackagingResult] = []
            results.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                var result = PackagingResult()
                if entry.headerPath != nil || entry.headerFields != nil {
                    result = try Self.packageHeader(
                        of: document, at: entry.headerPath, using: sectionHeaderPackagers[index], section: index,
                        policy: policy)
                }
                switch Result(catching: { () throws(PackagingError) in try Self.elements(of: document, at: entry.itemsPath, source: entry.itemSource) }) {
                case .success(let elements):
                    result.add(try Self.packageItems(elements, using: sectionPackagers[index], section: index, policy: policy))
                case .failure(let error):
                    result.skipped.append(try SkippedElement.checked(.items, error.reason, section: index, policy: policy))
                }
                Self.setTitle(entry.title, of: &result)
                results.append(result)
            }
            return results
        }
        guard let path = spec.sectionsPath else { return [try packageSingleList(document: document, section: 0, policy: policy)] }
        let groups: [(title: String?, path: JSONPath, value: JSONValue)]
        switch document.lookup(path) {
        case .success(.object(let object)):
            groups = object.map { (title: $0.key, path: JSONPath(path.components + [.key($0.key)]), value: $0.value) }
        case .success(.array(let array)):
            groups = array.enumerated().map { (title: nil, path: JSONPath(path.components + [.index($0.offset)]), value: $0.element) }
        case .success(let other):
            throw PackagingError(reason: .documentMismatch(
                Self.mismatch(at: path, expected: "an object of arrays or an array of arrays", found: other)))
        case .failure(let error):
            throw PackagingError(reason: .documentMismatch(error))
        }
        var results: [PackagingResult] = []
        results.reserveCapacity(groups.count)
        for (index, group) in groups.enumerated() {
            var result = PackagingResult()
            if case .array(let elements) = group.value {
                result.add(try Self.packageItems(elements, using: itemPackager, section: index, policy: policy))
            } else {
                result.skipped.append(try SkippedElement.checked(.items, .documentMismatch(
                    Self.mismatch(at: group.path, expected: [JSONValue].expectedDescription, found: group.value)),
                    section: index, policy: policy))
            }
            Self.setTitle(group.title, of: &result)
            results.append(result)
        }
        return results
    }

    /// Packages a response into a section: ``package(document:policy:)``
    /// wrapped with ``Section/init(packaged:footer:common:itemMerge:)``.
    public func packageSection(
        document: JSONValue, policy: some PackagingPolicy = .skipAndReport
    ) throws(PackagingError) -> sending (section: Section, skipped: [SkippedElement]) {
        let result = try package(document: document, policy: policy)
        return (Section(packaged: result), result.skipped)
    }

    /// Packages a response into a manager, one section per result of
    /// ``packageSections(document:policy:)``; skipped elements are located
    /// with ``PackagingLocation/section(_:_:)``.
    public func packageManager(
        document: JSONValue, policy: some PackagingPolicy = .skipAndReport
    ) throws(PackagingError) -> sending (manager: Manager, skipped: [SkippedElement]) {
        let results = try packageSections(document: document, policy: policy)
        return (Manager(packaged: results), PackagingResult.skipped(inSections: results))
    }

    // MARK: Applying fields

    /// A result holding the header, or the problem that kept it out.
    private static func packageHeader<Policy: PackagingPolicy>(
        of document: JSONValue, at path: JSONPath?, using packager: FieldPackager, section: Int?,
        policy: Policy
    ) throws(Policy.Failure) -> sending PackagingResult {
        let reason: PackagingError.Reason
        switch path.map({ document.lookup($0) }) ?? .success(document) {
        case .success(.object(let object)):
            do throws(PackagingError) {
                return PackagingResult(header: try packager.package(object))
            } catch {
                reason = error.reason
            }
        case .success(let other):
            reason = .documentMismatch(mismatch(at: path ?? JSONPath([]), expected: JSONObject.expectedDescription, found: other))
        case .failure(let error):
            reason = .documentMismatch(error)
        }
        return PackagingResult(skipped: [try SkippedElement.checked(.header, reason, section: section, policy: policy)])
    }

    private static func elements(
        of document: JSONValue, at path: JSONPath, source: PackagingSpec.ItemSource
    ) throws(PackagingError) -> JSONArray {
        switch document.lookup(path) {
        case .success(let found):
            if let elements = source.elements(of: found) { return elements }
            throw PackagingError(reason: .documentMismatch(
                mismatch(at: path, expected: source.expectedItemsDescription, found: found)))
        case .failure(let error):
            throw PackagingError(reason: .documentMismatch(error))
        }
    }

    /// The items, through the one packaging path shared with code packagers.
    private static func packageItems<Policy: PackagingPolicy>(
        _ elements: JSONArray, using packager: FieldPackager, section: Int?, policy: Policy
    ) throws(Policy.Failure) -> sending PackagingResult {
        try packager.packageElements(elements, section: section, defaults: PackagingDefaults(nil), policy: policy)
    }

    /// Stores `title` under `title` in the header, creating one if needed.
    private static func setTitle(_ title: String?, of result: inout PackagingResult) {
        guard let title else { return }
        let header = result.header ?? ViewModel()
        header["title"] = .string(title)
        result.header = header
    }

    internal static func mismatch(at path: JSONPath, expected: String, found: JSONValue) -> JSONAccessError {
        JSONAccessError(path: path, reason: found.isNull ? .null
            : .typeMismatch(expected: expected, found: found.kind, value: found.briefDescription))
    }

    /// A ViewModel with the fields of `readers` read from `object`, laid
    /// out by `layout` (made from the readers' keys). The fields are read
    /// in order, so the first failing one is the error.
    internal static func apply(
        _ readers: [SpecFieldReader], layout: SpecViewModelLayout, to object: JSONObject
    ) throws(PackagingError) -> ViewModel {
        guard !readers.isEmpty else { return ViewModel() }
        // The closure does not throw: a typed error through
        // `withUnsafeTemporaryAllocation` needs Swift 6.3.
        var failure: PackagingError?
        let viewModel = withUnsafeTemporaryAllocation(of: JSONValue?.self, capacity: readers.count) {
            values -> ViewModel? in
            let base = values.baseAddress!
            for (index, reader) in readers.enumerated() {
                do throws(PackagingError) {
                    (base + index).initialize(to: try reader.value(in: object))
                } catch {
                    base.deinitialize(count: index)
                    failure = error
                    return nil
                }
            }
            return layout.viewModel(movingValuesFrom: values)
        }
        if let failure { throw failure }
        return viewModel!
    }
}

/// Packages objects with a field list (a spec's items, a section's or the
/// header's fields); `nil` fields copy every member.
internal struct FieldPackager: ViewModelPackager, Sendable {
    /// The fields, ready for all the objects packaged; `nil` copies every member.
    let readers: [SpecFieldReader]?
    /// The storage layout of the fields' keys.
    let layout: SpecViewModelLayout

    init(fields: [PackagingSpec.Field]?) {
        readers = fields?.map(SpecFieldReader.init)
        layout = SpecViewModelLayout(keys: fields?.map(\.key) ?? [])
    }

    @inline(__always)
    func package(_ object: JSONObject) throws(PackagingError) -> sending ViewModel {
        guard let readers else { return ViewModel(object) }
        return try SpecPackager.apply(readers, layout: layout, to: object)
    }
}

/// A policy as document packaging needs it: whatever `base` throws becomes
/// the problem as a ``PackagingError``, the one error of these functions.
private struct StrictOrSkip<Base: PackagingPolicy>: PackagingPolicy {
    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    @inline(__always)
    func handle(_ problem: SkippedElement) throws(PackagingError) {
        do {
            try base.handle(problem)
        } catch {
            throw PackagingError(location: problem.location, reason: problem.reason)
        }
    }
}
