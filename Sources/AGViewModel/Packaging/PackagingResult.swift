/// What packaging a list produced: the ViewModels, an optional header, and
/// the elements that were left out with the reason.
///
/// Packaging never stops at a bad element: it is reported here and the rest
/// is packaged.
public struct PackagingResult {
    /// The header ViewModel, when the packaging has one.
    public var header: ViewModel?
    /// The packaged ViewModels, in source order (skipped elements left out).
    public var items: [ViewModel]
    /// The elements that could not be packaged, in source order.
    public var skipped: [SkippedElement]

    /// A result.
    public init(header: ViewModel? = nil, items: [ViewModel] = [], skipped: [SkippedElement] = []) {
        self.header = header
        self.items = items
        self.skipped = skipped
    }
}

/// Which part of a document a packaging problem concerns.
public enum PackagingLocation: Sendable, Hashable, CustomStringConvertible {
    /// The header object.
    case header
    /// The element at this index of the items array.
    case item(Int)
    /// The items array as a whole (it is missing or not an array).
    case items
    /// A location inside the section at this index, for several sections.
    indirect case section(Int, PackagingLocation)

    /// `header`, `item 3`, `items` or `section 1, item 3`.
    public var description: String {
        switch self {
        case .header: "header"
        case .item(let index): "item \(index)"
        case .items: "items"
        case let .section(index, location): "section \(index), \(location)"
        }
    }
}

/// An element left out of a packaging result, and why.
public struct SkippedElement: Sendable, Hashable, CustomStringConvertible {
    /// Where the element is.
    public var location: PackagingLocation
    /// Why it was skipped.
    public var reason: PackagingError.Reason

    /// Creates a report.
    public init(location: PackagingLocation, reason: PackagingError.Reason) {
        self.location = location
        self.reason = reason
    }

    /// For example `item 3: required key "id" (path id_str): id_str: missing`.
    public var description: String { "\(location): \(reason)" }
}

/// Why packaging failed.
public struct PackagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The element is not a JSON object.
        case notAnObject(found: JSONValue.Kind)
        /// A required key has no value: `source` is the field's path or
        /// template, `cause` says what the read found.
        case missingRequiredValue(key: String, source: String, cause: JSONAccessError)
        /// The spec's items (or header) path does not lead to an array (or object).
        case documentMismatch(JSONAccessError)
        /// A code packager threw this error (its description).
        case packagerFailed(String)

        /// A one-line explanation.
        public var description: String {
            switch self {
            case .notAnObject(let kind):
                return "expected an object, found \(kind.rawValue)"
            case let .missingRequiredValue(key, source, cause):
                return "required key \"\(key)\" (\(source)) has no value: \(cause)"
            case .documentMismatch(let cause):
                return "\(cause)"
            case .packagerFailed(let message):
                return message
            }
        }
    }

    /// Where it happened; `nil` for the document as a whole.
    public var location: PackagingLocation?
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(location: PackagingLocation? = nil, reason: Reason) {
        self.location = location
        self.reason = reason
    }

    /// For example `item 3: required key "id" (path id_str) has no value: id_str: missing`.
    public var description: String {
        location.map { "\($0): \(reason)" } ?? reason.description
    }
}
