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
    ///   path, the document is neither an array nor an object).
    public func package(document: JSONValue) throws(PackagingError) -> PackagingResult {
        var result = PackagingResult()

        if spec.hasHeader {
            let found = spec.headerPath.map { document.lookup($0) } ?? .success(document)
            switch found {
            case .success(.object(let object)):
                do {
                    result.header = try spec.headerFields.map { fields throws(PackagingError) in try Self.apply(fields, to: object) }
                        ?? ViewModel(object)
                } catch {
                    result.skipped.append(SkippedElement(location: .header, reason: error.reason))
                }
            case .success(let other):
                let path = spec.headerPath ?? JSONPath([])
                result.skipped.append(SkippedElement(location: .header, reason: .documentMismatch(
                    Self.mismatch(at: path, expected: JSONObject.expectedDescription, found: other))))
            case .failure(let error):
                result.skipped.append(SkippedElement(location: .header, reason: .documentMismatch(error)))
            }
        }

        let elements: [JSONValue]
        if let itemsPath = spec.itemsPath {
            switch document.lookup(itemsPath) {
            case .success(.array(let array)): elements = array
            case .success(let other):
                throw PackagingError(reason: .documentMismatch(
                    Self.mismatch(at: itemsPath, expected: [JSONValue].expectedDescription, found: other)))
            case .failure(let error):
                throw PackagingError(reason: .documentMismatch(error))
            }
        } else {
            switch document {
            case .array(let array): elements = array
            case .object: elements = [document]
            default:
                throw PackagingError(reason: .documentMismatch(
                    Self.mismatch(at: JSONPath([]), expected: "an array or an object", found: document)))
            }
        }

        result.items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                result.skipped.append(SkippedElement(location: .item(index), reason: .notAnObject(found: element.kind)))
                continue
            }
            do {
                result.items.append(try packageItem(object))
            } catch {
                result.skipped.append(SkippedElement(location: .item(index), reason: error.reason))
            }
        }
        return result
    }

    /// Parses `data` and packages it (see ``package(document:)``). A parse
    /// error is rethrown as is.
    public func package(jsonData data: Data) throws -> PackagingResult {
        try package(document: JSONValue(parsing: data))
    }

    // MARK: Applying fields

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
