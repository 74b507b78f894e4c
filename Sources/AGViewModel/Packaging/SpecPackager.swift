import Foundation

/// A packager that follows a ``PackagingSpec``: the declarative counterpart
/// of a hand-written ``ViewModelPackager``.
///
/// ```swift
/// let packager = try SpecPackager(contentsOf: specURL)
/// let result = try packager.package(document: JSONValue(parsing: responseData))
/// header = result.header
/// rows = result.items
/// for skip in result.skipped { log(skip) }  // item 7: required key "id" (path id_str) has no value: id_str: missing
/// ```
///
/// A bad spec fails when it is loaded. Applying a spec never fails because
/// of one element: an element without a required value, or that is not an
/// object, is skipped and reported in ``PackagingResult/skipped``, and the
/// rest is packaged. Only a document whose items path does not lead to an
/// array throws.
public struct SpecPackager: ViewModelPackager {
    /// The spec this packager follows.
    public let spec: PackagingSpec

    /// A packager following `spec`.
    public init(spec: PackagingSpec) {
        self.spec = spec
    }

    /// A packager following the spec file at `url` (checked now).
    public init(contentsOf url: URL) throws(PackagingSpecError) {
        spec = try PackagingSpec(contentsOf: url)
    }

    /// The item ViewModel for `object`, following the spec's `fields`.
    /// Throws a ``PackagingError`` when a required value is missing.
    public func package(_ object: JSONObject, context: (any Sendable)?) throws -> ViewModel {
        try packageItem(object)
    }

    /// The item ViewModel for `object`; typed-throwing form of ``package(_:context:)``.
    public func packageItem(_ object: JSONObject) throws(PackagingError) -> ViewModel {
        guard let fields = spec.fields else { return ViewModel(object) }
        return try Self.apply(fields, to: object)
    }

    /// Packages a whole API response: the header and every item.
    ///
    /// - Throws: ``PackagingError`` with ``PackagingError/Reason/documentMismatch(_:)``
    ///   when the items path does not lead to an array (or, without an items
    ///   path, the document is neither an array nor an object), and with
    ///   ``PackagingError/Reason/packagerFailed(_:)`` for a spec that
    ///   describes several sections (use ``packageSections(document:)`` or
    ///   ``packageManager(document:)``).
    public func package(document: JSONValue) throws(PackagingError) -> PackagingResult {
        guard !spec.hasSections else {
            throw PackagingError(reason: .packagerFailed(
                "spec \(spec.source) describes several sections; use packageSections(document:) or packageManager(document:)"))
        }
        var result = PackagingResult()
        if spec.hasHeader {
            Self.packageHeader(of: document, at: spec.headerPath, fields: spec.headerFields, into: &result)
        }
        let elements: [JSONValue]
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
        Self.packageItems(elements, fields: spec.fields, into: &result)
        return result
    }

    /// Packages a response into one result per section: the spec's
    /// `sections` entries or `sectionsFrom` members in order (a single
    /// result for a spec without sections). A section whose items are not an
    /// array is packaged without items and reported at
    /// ``PackagingLocation/items``; locations in each result are relative to
    /// its section.
    ///
    /// - Throws: ``PackagingError`` when the document as a whole does not
    ///   fit: the `sectionsFrom` path leads to neither an object nor an
    ///   array, or (without sections) as ``package(document:)``.
    public func packageSections(document: JSONValue) throws(PackagingError) -> [PackagingResult] {
        if let entries = spec.sections {
            return entries.map { entry in
                var result = PackagingResult()
                if entry.headerPath != nil || entry.headerFields != nil {
                    Self.packageHeader(of: document, at: entry.headerPath, fields: entry.headerFields, into: &result)
                }
                switch Result(catching: { () throws(PackagingError) in try Self.elements(of: document, at: entry.itemsPath, source: entry.itemSource) }) {
                case .success(let elements): Self.packageItems(elements, fields: entry.fields, into: &result)
                case .failure(let error): result.skipped.append(SkippedElement(location: .items, reason: error.reason))
                }
                Self.setTitle(entry.title, of: &result)
                return result
            }
        }
        guard let path = spec.sectionsPath else { return [try package(document: document)] }
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
        return groups.map { group in
            var result = PackagingResult()
            if case .array(let elements) = group.value {
                Self.packageItems(elements, fields: spec.fields, into: &result)
            } else {
                result.skipped.append(SkippedElement(location: .items, reason: .documentMismatch(
                    Self.mismatch(at: group.path, expected: [JSONValue].expectedDescription, found: group.value))))
            }
            Self.setTitle(group.title, of: &result)
            return result
        }
    }

    /// Packages a response into a section: ``package(document:)`` wrapped
    /// with ``Section/init(packaged:footer:common:itemMerge:)``.
    public func packageSection(document: JSONValue) throws(PackagingError) -> (section: Section, skipped: [SkippedElement]) {
        let result = try package(document: document)
        return (Section(packaged: result), result.skipped)
    }

    /// Packages a response into a manager, one section per result of
    /// ``packageSections(document:)``; skipped elements are located with
    /// ``PackagingLocation/section(_:_:)``.
    public func packageManager(document: JSONValue) throws(PackagingError) -> (manager: Manager, skipped: [SkippedElement]) {
        let results = try packageSections(document: document)
        return (Manager(packaged: results), PackagingResult.skipped(inSections: results))
    }

    /// Parses `data` and packages it (see ``package(document:)``). A parse
    /// error is rethrown as is.
    public func package(jsonData data: Data) throws -> PackagingResult {
        try package(document: JSONValue(parsing: data))
    }

    // MARK: Applying fields

    private static func packageHeader(
        of document: JSONValue, at path: JSONPath?, fields: [PackagingSpec.Field]?, into result: inout PackagingResult
    ) {
        switch path.map({ document.lookup($0) }) ?? .success(document) {
        case .success(.object(let object)):
            do {
                result.header = try fields.map { fields throws(PackagingError) in try apply(fields, to: object) }
                    ?? ViewModel(object)
            } catch {
                result.skipped.append(SkippedElement(location: .header, reason: error.reason))
            }
        case .success(let other):
            result.skipped.append(SkippedElement(location: .header, reason: .documentMismatch(
                mismatch(at: path ?? JSONPath([]), expected: JSONObject.expectedDescription, found: other))))
        case .failure(let error):
            result.skipped.append(SkippedElement(location: .header, reason: .documentMismatch(error)))
        }
    }

    private static func elements(
        of document: JSONValue, at path: JSONPath, source: PackagingSpec.ItemSource
    ) throws(PackagingError) -> [JSONValue] {
        switch document.lookup(path) {
        case .success(let found):
            if let elements = source.elements(of: found) { return elements }
            throw PackagingError(reason: .documentMismatch(
                mismatch(at: path, expected: source.expectedItemsDescription, found: found)))
        case .failure(let error):
            throw PackagingError(reason: .documentMismatch(error))
        }
    }

    private static func packageItems(_ elements: [JSONValue], fields: [PackagingSpec.Field]?, into result: inout PackagingResult) {
        result.items.reserveCapacity(result.items.count + elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                result.skipped.append(SkippedElement(location: .item(index), reason: .notAnObject(found: element.kind)))
                continue
            }
            do {
                result.items.append(try fields.map { fields throws(PackagingError) in try apply(fields, to: object) }
                    ?? ViewModel(object))
            } catch {
                result.skipped.append(SkippedElement(location: .item(index), reason: error.reason))
            }
        }
    }

    /// Stores `title` under `title` in the header, creating one if needed.
    private static func setTitle(_ title: String?, of result: inout PackagingResult) {
        guard let title else { return }
        let header = result.header ?? ViewModel()
        header["title"] = .string(title)
        result.header = header
    }

    private static func mismatch(at path: JSONPath, expected: String, found: JSONValue) -> JSONAccessError {
        JSONAccessError(path: path, reason: found.isNull ? .null
            : .typeMismatch(expected: expected, found: found.kind, value: found.briefDescription))
    }

    /// A ViewModel with `fields` read from `object`.
    internal static func apply(_ fields: [PackagingSpec.Field], to object: JSONObject) throws(PackagingError) -> ViewModel {
        var keys: [String] = []
        keys.reserveCapacity(fields.count)
        var values = [String: ViewModelValue](minimumCapacity: fields.count)
        for field in fields {
            // Read the raw value, or keep why there is none.
            let raw: Result<JSONValue, JSONAccessError>
            if let template = field.template {
                raw = template.render(object).map(JSONValue.string)
            } else if case .path(let path) = field.source {
                raw = object.lookup(path)
            } else {
                continue  // unreachable: a template source always has a parsed template
            }
            var value: JSONValue?
            var cause: JSONAccessError?
            switch raw {
            case .success(let found):
                value = found.isNull ? nil : field.type.convert(found, format: field.format)
                if value == nil {
                    let path: JSONPath
                    if case .path(let p) = field.source { path = p } else { path = JSONPath([]) }
                    cause = mismatch(at: path, expected: field.type.expectedDescription, found: found)
                }
            case .failure(let error):
                cause = error
            }
            if value == nil { value = field.defaultValue }
            guard let value else {
                if field.isRequired, let cause {
                    throw PackagingError(reason: .missingRequiredValue(
                        key: field.key, source: field.source.description, cause: cause))
                }
                continue
            }
            keys.append(field.key)
            values[field.key] = .json(value)
        }
        // Keys are unique: the spec was checked when loaded.
        return ViewModel(uncheckedKeys: keys, values: values)
    }
}
