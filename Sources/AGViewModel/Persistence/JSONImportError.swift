/// Why JSON could not be imported as a ViewModel, a section or a manager:
/// where in the document, and what is wrong.
///
/// ```
/// sections[2].items[5]: expected an object, found string
/// sections[0]: unknown member "rows"; a section has header, footer, common, itemMerge, items
/// ```
public struct JSONImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is, from the document root (empty for the root).
    public var path: JSONPath
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`, or the message alone at the root.
    public var description: String {
        path.components.isEmpty ? message : "\(path): \(message)"
    }
}
