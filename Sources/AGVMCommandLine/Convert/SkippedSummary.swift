import AGViewModel

/// The warning lines for skipped elements: one line per element, except
/// elements skipped because they are not objects (arrays of numbers or
/// strings), which are summed up in one line per section:
/// `10,001 elements skipped: numbers, not objects`.
enum SkippedSummary {
    /// The lines to print after `INPUT: warning: `, in order. Scalars
    /// skipped are said to be packaged by `scalarKeyHolder`'s `scalarKey`
    /// (`nil` for a `sectionsFrom` spec, which refuses it).
    static func lines(for skipped: [SkippedElement], scalarKeyHolder: String? = "a spec") -> [String] {
        var lines: [String] = []
        // Per section (nil for a single section): the kinds counted, in first-seen order.
        var groups: [(section: Int?, kinds: [(String, Int)], first: SkippedElement)] = []
        var lineOfGroup: [Int?: Int] = [:]
        // The group of each section: a lookup per element, not a search of
        // every group (a `sectionsFrom` document can have a section per element).
        var groupOfSection: [Int?: Int] = [:]
        for element in skipped {
            guard case .notAnObject(let found) = element.reason else {
                lines.append(element.description)
                continue
            }
            let section = sectionIndex(of: element.location)
            let kind = singular(found)
            if let index = groupOfSection[section] {
                if let k = groups[index].kinds.firstIndex(where: { $0.0 == kind }) {
                    groups[index].kinds[k].1 += 1
                } else {
                    groups[index].kinds.append((kind, 1))
                }
            } else {
                lineOfGroup[section] = lines.count
                groupOfSection[section] = groups.count
                lines.append("")
                groups.append((section, [(kind, 1)], element))
            }
        }
        for group in groups {
            let total = group.kinds.reduce(0) { $0 + $1.1 }
            let text: String
            if total == 1 {
                text = group.first.description
            } else {
                let prefix = group.section.map { "section \($0): " } ?? ""
                let kinds: String
                if group.kinds.count == 1 {
                    kinds = group.kinds[0].0 + "s"
                } else {
                    kinds = group.kinds.map { "\(grouped($0.1)) \($0.0)\($0.1 == 1 ? "" : "s")" }
                        .joined(separator: ", ")
                }
                let scalars = group.kinds.allSatisfy { $0.0 != "array" && $0.0 != "null" }
                let hint = scalars ? scalarKeyHolder.map { " (\($0) with \"scalarKey\" packages them)" } ?? "" : ""
                text = "\(prefix)\(grouped(total)) elements skipped: \(kinds), not objects\(hint)"
            }
            lines[lineOfGroup[group.section]!] = text
        }
        return lines
    }

    private static func sectionIndex(of location: PackagingLocation) -> Int? {
        if case .section(let index, _) = location { return index }
        return nil
    }

    private static func singular(_ kind: JSONValue.Kind) -> String {
        switch kind {
        case .int, .double, .bigInteger: "number"
        case .string: "string"
        case .bool: "boolean"
        case .array: "array"
        case .null: "null"
        case .object: "object"
        }
    }
}
