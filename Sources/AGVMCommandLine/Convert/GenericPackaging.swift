import AGViewModel

/// How `agvm convert` packages a document when no spec is given: a guess
/// at the lists a screen would show, that never drops data.
///
/// - An **array** becomes one section of ViewModels, one per element, with
///   no header; elements that are not objects are skipped and reported.
/// - An **object** is searched for *item lists*: members whose value is a
///   non-empty array of objects. Each becomes a section, in member order,
///   with the member's key as header title (`["title": key]`). When no
///   member is a list, members that are objects are searched one level
///   down the same way (`{"groups": {"articles": [...], "videos": [...]}}`
///   gives sections `articles` and `videos`). Every member that did not
///   become a section is kept in the manager's `common` ViewModel (a member
///   left over inside a searched object is kept as `outer.inner`, or
///   `outer.inner~2`, `~3`… when a member already has that name).
/// - An object without lists becomes one section with one item: the object.
/// - Anything else (a string, a number, `null`) is not packageable.
enum GenericPackaging {
    /// The manager for `document` and the elements that were skipped.
    static func package(_ document: JSONValue) throws(PackagingError) -> (Manager, [SkippedElement]) {
        switch document {
        case .array(let elements):
            let result = MemberCopyingPackager().package(elements)
            return (Manager(sections: [Section(items: result.items)]), result.skipped)
        case .object(let object):
            var sections: [Section] = []
            var common: [(String, JSONValue)] = []
            for (key, value) in object {
                if let list = itemList(value) {
                    sections.append(section(titled: key, list))
                } else {
                    common.append((key, value))
                }
            }
            if sections.isEmpty {
                // One level down, only when the top level has no lists.
                common = []
                // Members keep their own names; a nested leftover's name
                // must not take one, or setting it would drop a value.
                var names = Set(object.keys)
                for (key, value) in object {
                    guard case .object(let inner) = value, inner.contains(where: { itemList($0.value) != nil }) else {
                        common.append((key, value))
                        continue
                    }
                    for (innerKey, innerValue) in inner {
                        if let list = itemList(innerValue) {
                            sections.append(section(titled: innerKey, list))
                        } else {
                            common.append((uniqueName("\(key).\(innerKey)", notIn: &names), innerValue))
                        }
                    }
                }
            }
            guard !sections.isEmpty else {
                return (Manager(sections: [Section(items: [ViewModel(object)])]), [])
            }
            var commonViewModel: ViewModel?
            if !common.isEmpty {
                let viewModel = ViewModel()
                for (key, value) in common { viewModel[key] = value }
                commonViewModel = viewModel
            }
            return (Manager(sections: sections, common: commonViewModel), [])
        default:
            throw PackagingError(reason: .documentNotPackageable(found: document.kind))
        }
    }

    /// `name`, or `name~2`, `name~3`… the first not in `names`, which it
    /// is added to.
    static func uniqueName(_ name: String, notIn names: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while !names.insert(candidate).inserted {
            candidate = "\(name)~\(number)"
            number += 1
        }
        return candidate
    }

    /// The objects of `value` when it is a non-empty array of objects only.
    static func itemList(_ value: JSONValue) -> [JSONObject]? {
        guard case .array(let elements) = value, !elements.isEmpty else { return nil }
        var objects: [JSONObject] = []
        objects.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let object) = element else { return nil }
            objects.append(object)
        }
        return objects
    }

    private static func section(titled title: String, _ objects: [JSONObject]) -> Section {
        Section(items: objects.map(ViewModel.init(_:)), header: ViewModel(["title": .string(title)]))
    }
}
