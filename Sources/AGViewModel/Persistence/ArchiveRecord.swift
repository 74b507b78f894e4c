/// What an archive holds: one root record.
///
/// Archives keep data: each ViewModel's archived keys (see ``KeySelection``)
/// in order with their JSON values, nested ViewModels and lists of them,
/// sections and managers, and the key registrations of each (for export and
/// for archives), so what is read back exports and archives as the original
/// did. What belongs to a running screen is not archived: weak slots,
/// commands, the index path, the delegate, the binding view and its size
/// cache, observers. A ViewModel reachable twice is written twice (and read
/// back as two ViewModels), so sharing at every level multiplies: 23
/// ViewModels each holding the next under two keys write 38 MB.
///
/// ```swift
/// try Archive.write(.viewModel(profile), to: url)
/// if case .viewModel(let restored) = try Archive.read(from: url) { ... }
/// ```
public enum ArchiveRecord {
    /// A plain JSON value.
    case value(JSONValue)
    /// One ViewModel: its JSON keys in order, nested ViewModels (and lists
    /// of them) as nested records. Other payloads are skipped and reported.
    case viewModel(ViewModel)
    /// A list of ViewModels, as an array packager produces.
    case viewModels([ViewModel])
    /// A section: its header, footer, common and item-merge ViewModels and
    /// its items (key registrations of the section's parts apply).
    case section(Section)
    /// A manager: its common ViewModel and its sections (key registrations
    /// of the manager's parts apply to every section).
    case manager(Manager)

    /// The kind of record, for diagnostics: "value", "viewModel",
    /// "viewModels", "section" or "manager".
    public var kindName: String {
        switch self {
        case .value: "value"
        case .viewModel: "viewModel"
        case .viewModels: "viewModels"
        case .section: "section"
        case .manager: "manager"
        }
    }
}

/// A ViewModel payload the archive encoder or the JSON export could not
/// write and left out.
///
/// Archives hold JSON values, nested ViewModels, lists of ViewModels,
/// sections and managers; a JSON export also writes URLs, and whatever its
/// payload converter turns into JSON.
/// Anything else a ViewModel carries (an image, a formatter, a closure box)
/// is skipped, never a crash, and reported so the caller can decide whether
/// that matters (see ``JSONExportOptions/skippedPayload``).
public struct SkippedPayload: Sendable, Hashable, CustomStringConvertible {
    /// Why it was skipped.
    public enum Reason: Sendable, Hashable {
        /// The payload's type has no archive representation; the type name is given.
        case unsupportedType(String)
        /// The payload is a ViewModel (section, manager) that (indirectly)
        /// contains itself.
        case cycle
    }

    /// Where the payload sits: keys of nested ViewModels and indices in lists,
    /// from the root record.
    public var path: JSONPath
    /// Why it was skipped.
    public var reason: Reason

    /// Creates a report.
    public init(path: JSONPath, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// For example `avatar: skipped payload of type UIImage`.
    public var description: String {
        switch reason {
        case .unsupportedType(let name): "\(path): skipped payload of type \(name)"
        case .cycle: "\(path): skipped ViewModel that contains itself"
        }
    }
}
