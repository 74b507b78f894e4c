/// What packaging a list produced: the ViewModels, an optional header, and
/// the elements that were left out, with where and why.
///
/// With the default policy (``PackagingPolicy/skipAndReport``) packaging
/// never stops at a bad element: it is reported here and the rest is
/// packaged.
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

/// An element left out of a packaging result: where it is, which key
/// failed (when one did) and why.
public struct SkippedElement: Sendable, Equatable, CustomStringConvertible {
    /// Where the element is.
    public var location: PackagingLocation
    /// Why it was skipped.
    public var reason: PackagingError.Reason

    /// Creates a report.
    public init(location: PackagingLocation, reason: PackagingError.Reason) {
        self.location = location
        self.reason = reason
    }

    /// The ViewModel key (or, for a read error in a code packager, the path
    /// read) that had no usable value; `nil` when no single key is at fault.
    public var key: String? { reason.key }

    /// For example `item 3: required key "id" (path id_str) has no value: id_str: missing`.
    public var description: String { "\(location): \(reason)" }
}

/// Why packaging failed: the typed error of the packaging layer.
///
/// Strict packaging (``PackagingPolicy/strict``) throws the first problem
/// as one of these; the default policy reports the same information as
/// ``SkippedElement``s.
public struct PackagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// The element is not a JSON object.
        case notAnObject(found: JSONValue.Kind)
        /// A required key has no value: `source` is the field's path or
        /// template, `cause` says what the read found.
        case missingRequiredValue(key: String, source: String, cause: JSONAccessError)
        /// A code packager's read failed (`try object.read(String.self, at:
        /// "id_str")`): the error names the path and what it found.
        case unreadableValue(JSONAccessError)
        /// The spec's items (or header) path does not lead to an array (or
        /// object), or the document has the wrong shape.
        case documentMismatch(JSONAccessError)
        /// The document is neither an array nor an object, so there is no
        /// list to package.
        case documentNotPackageable(found: JSONValue.Kind)
        /// A spec with several sections was applied as one list; use
        /// ``SpecPackager/packageSections(document:policy:)`` or
        /// ``SpecPackager/packageManager(document:policy:)``.
        case specHasSections(spec: String)
        /// A code packager threw this error, kept as it was thrown.
        case packagerFailed(any Error)

        /// The key (or path) at fault, when there is one.
        public var key: String? {
            switch self {
            case .missingRequiredValue(let key, _, _): key
            case .unreadableValue(let cause): cause.path.description
            default: nil
            }
        }

        /// A one-line explanation.
        public var description: String {
            switch self {
            case .notAnObject(let kind):
                return "expected an object, found \(kind.rawValue)"
            case let .missingRequiredValue(key, source, cause):
                return "required key \"\(key)\" (\(source)) has no value: \(cause)"
            case .unreadableValue(let cause), .documentMismatch(let cause):
                return "\(cause)"
            case .documentNotPackageable(let kind):
                return "expected an array or an object at the top level, found \(kind.rawValue)"
            case .specHasSections(let spec):
                return "spec \(spec) describes several sections; package it with packageSections(document:) or packageManager(document:)"
            case .packagerFailed(let error):
                return "the packager failed: \(error)"
            }
        }

        /// Equal reasons; errors a code packager threw compare equal when
        /// they are `Equatable`, of one type and `==`.
        public static func == (a: Reason, b: Reason) -> Bool {
            switch (a, b) {
            case let (.notAnObject(x), .notAnObject(y)): return x == y
            case let (.missingRequiredValue(k1, s1, c1), .missingRequiredValue(k2, s2, c2)):
                return k1 == k2 && s1 == s2 && c1 == c2
            case let (.unreadableValue(x), .unreadableValue(y)): return x == y
            case let (.documentMismatch(x), .documentMismatch(y)): return x == y
            case let (.documentNotPackageable(x), .documentNotPackageable(y)): return x == y
            case let (.specHasSections(x), .specHasSections(y)): return x == y
            case let (.packagerFailed(x), .packagerFailed(y)):
                guard let x = (x as Any) as? any Equatable else { return false }
                return x.isEqual(to: y)
            default: return false
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

    /// The key (or path) at fault, when there is one.
    public var key: String? { reason.key }

    /// For example `item 3: required key "id" (path id_str) has no value: id_str: missing`.
    public var description: String {
        location.map { "\($0): \(reason)" } ?? reason.description
    }
}

extension Equatable {
    /// `self == other` when `other` has the same type.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
