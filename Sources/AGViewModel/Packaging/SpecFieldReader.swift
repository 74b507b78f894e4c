/// One spec field made ready to read from many objects: its path hashed
/// once, and whether reading it can fail decided once.
///
/// A class, so that the packaging loop reads a field's parts in place
/// instead of copying the whole ``PackagingSpec/Field`` (and retaining
/// each of its references) for every object.
internal final class SpecFieldReader: Sendable {
    /// The field.
    let field: PackagingSpec.Field
    /// The field's path source, hashed (`nil` for a template).
    let path: JSONHashedPath?
    /// Whether a missing value is an error: a required field with no
    /// default (templates take the general path too).
    let canFail: Bool

    init(_ field: PackagingSpec.Field) {
        self.field = field
        path = if case .path(let path) = field.source { JSONHashedPath(path) } else { nil }
        canFail = field.template != nil || (field.isRequired && field.defaultValue == nil)
    }

    /// The field's value in `object`: read, converted to the field's type,
    /// or its default; `nil` when there is none and the field is optional.
    ///
    /// - Throws: ``PackagingError`` when a required field has no value.
    @inline(__always)
    func value(in object: JSONObject) throws(PackagingError) -> JSONValue? {
        if let path {
            // The value is read without building an error; only a field
            // that can fail reads it again, to say why it is missing.
            if let found = object.value(at: path), !found.isNull, let value = field.type.convert(found, format: field.format) {
                return value
            }
            if !canFail { return field.defaultValue }
        }
        return try checkedValue(in: object)
    }

    /// ``value(in:)`` keeping why there is no value, for the error.
    private func checkedValue(in object: JSONObject) throws(PackagingError) -> JSONValue? {
        let raw: Result<JSONValue, JSONAccessError>
        if let template = field.template {
            raw = template.render(object).map(JSONValue.string)
        } else if let path {
            raw = object.lookup(path)
        } else {
            return nil  // unreachable: a path source always has a hashed path
        }
        let cause: JSONAccessError
        switch raw {
        case .success(let found):
            if !found.isNull, let value = field.type.convert(found, format: field.format) { return value }
            cause = SpecPackager.mismatch(
                at: path?.path ?? JSONPath([]), expected: field.type.expectedDescription, found: found)
        case .failure(let error):
            cause = error
        }
        if let defaultValue = field.defaultValue { return defaultValue }
        guard field.isRequired else { return nil }
        throw PackagingError(reason: .missingRequiredValue(
            key: field.key, source: field.source.description, cause: cause))
    }
}
