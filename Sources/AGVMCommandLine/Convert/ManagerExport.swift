import AGViewModel

// STAND-IN: the library's JSON export (`Manager.exportJSON(options:)`,
// issue 6 part 2) is not on main yet. This file is the only place the tool
// builds export JSON; replace its body with the library call when it lands.

/// The JSON export of managers and ViewModels, as `agvm convert --to json`
/// and `agvm inspect --to json` write it.
///
/// A manager exports as `{"common": {...}, "sections": [...]}`, a section as
/// `{"header": {...}, "footer": {...}, "common": {...}, "itemMerge": {...},
/// "items": [...]}` (absent parts left out; the library's agreed shape), a ViewModel as an object of
/// its keys in order; nested ViewModels become objects, lists of them arrays,
/// and other payloads (which have no JSON form) are left out.
enum ManagerExport {
    static func json(_ manager: Manager) -> JSONValue {
        var root = JSONObject()
        if let common = manager.common { root["common"] = json(common) }
        root["sections"] = .array(manager.sections.map { json($0) })
        return .object(root)
    }

    static func json(_ section: Section) -> JSONValue {
        var object = JSONObject()
        if let header = section.header { object["header"] = json(header) }
        if let footer = section.footer { object["footer"] = json(footer) }
        if let common = section.common { object["common"] = json(common) }
        if let itemMerge = section.itemMerge { object["itemMerge"] = json(itemMerge) }
        object["items"] = .array(section.items.map { json($0) })
        return .object(object)
    }

    static func json(_ viewModel: ViewModel, depth: Int = 0) -> JSONValue {
        var object = JSONObject()
        for key in viewModel.keys {
            switch viewModel[value: key] {
            case .json(let value)?:
                object[key] = value
            case .payload(let nested as ViewModel)? where depth < 64:
                object[key] = json(nested, depth: depth + 1)
            case .payload(let list as [ViewModel])? where depth < 64:
                object[key] = .array(list.map { json($0, depth: depth + 1) })
            default:
                continue
            }
        }
        return .object(object)
    }

    /// The export of an archive record's content.
    static func json(_ record: ArchiveRecord) -> JSONValue {
        switch record {
        case .value(let value): value
        case .viewModel(let viewModel): json(viewModel)
        case .viewModels(let list): .array(list.map { json($0) })
        }
    }
}
