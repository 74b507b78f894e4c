import AGViewModel

/// The JSON export `agvm convert --to json` and `agvm inspect --to json`
/// write: the library's export (``Manager/exportJSON(options:)`` and its
/// section and ViewModel forms) with every key: `convert` packages data
/// that has no key registrations, and `inspect` shows all an archive holds,
/// whatever it registers.
///
/// A manager exports as `{"common": {...}, "sections": [...]}`, a section as
/// `{"header": {...}, "footer": {...}, "common": {...}, "itemMerge": {...},
/// "items": [...]}` (absent parts left out).
enum ManagerExport {
    static func json(_ manager: Manager) -> JSONValue {
        manager.exportJSON(options: .everything)
    }

    /// The export of an archive record's content.
    static func json(_ record: ArchiveRecord) -> JSONValue {
        switch record {
        case .value(let value): value
        case .viewModel(let viewModel): viewModel.exportJSON(options: .everything)
        case .viewModels(let list): .array(list.map { $0.exportJSON(options: .everything) })
        case .section(let section): section.exportJSON(options: .everything)
        case .manager(let manager): manager.exportJSON(options: .everything)
        }
    }
}
