import AGViewModel

/// Renders managers, sections and ViewModels as a readable tree: what
/// `agvm convert` and `agvm inspect` print by default.
///
/// ```
/// books.json · 1 section · 8 items
/// └─ section 0 · 8 items
///    ├─ header · 4 keys
///    │  page        int     2
///    │  nextPage    url     "https://api.bookshelf.example/v1/books?page=3…"
///    ├─ item 0 · 9 keys
///    │  id          string  "1042"
///    │  title       string  "Swift Concurrency by Example"
/// ```
///
/// Each ViewModel shows its keys in order with the value's type and its
/// compact JSON, cut with `…` so no line is wider than the style's width.
/// Nested ViewModels and lists of them are indented under their key. Sections
/// are numbered from 0, like index paths; a section whose header has a
/// string `title` shows it. Keys registered for archives or export (an
/// archive keeps them) follow the counts: `archived keys id, title`, and
/// on a section or manager per part, `archived item keys id`. Output is a
/// pure function of the input and the ``OutputStyle``.
struct TreeRenderer {
    /// Width and colour.
    var style: OutputStyle

    /// Keys longer than this do not widen their ViewModel's key column.
    static let keyColumnLimit = 24

    // MARK: Public entry points

    /// The tree of `manager` under a root line naming `title`, with counts
    /// (and `skipped` elements and other `problems`, when there are some).
    func render(manager: Manager, title: String, skipped: Int = 0, problems: Int = 0) -> String {
        var counts = [counted(manager.count, "section"), counted(manager.itemCount, "item")]
        if skipped > 0 { counts.append("\(grouped(skipped)) skipped") }
        if problems > 0 { counts.append(counted(problems, "problem")) }
        return render(Node(label: [(title, .title)] + Self.details(counts), children: managerChildren(manager)))
    }

    /// The tree of one archive record under a root line naming `title`.
    func render(record: ArchiveRecord, title: String) -> String {
        render(node(for: record, title: title))
    }

    // MARK: Model

    typealias Segment = (text: String, role: OutputStyle.Role?)

    /// One labelled line with key rows under it and child nodes below.
    struct Node {
        var label: [Segment]
        var rows: [Row] = []
        var children: [Node] = []
    }

    /// One key of a ViewModel (or member of an object): key, type, value,
    /// and the rows of a nested ViewModel or list.
    struct Row {
        var key: String
        var type: String
        var value: String
        var valueRole: OutputStyle.Role?
        var nested: [Row] = []
    }

    func node(for record: ArchiveRecord, title: String) -> Node {
        switch record {
        case .value(let value):
            let (type, _, _) = Self.describe(value)
            var node = Node(label: [(title, .title)] + Self.details([type]))
            if case .object(let object) = value {
                node.rows = object.map { Self.row(key: $0.key, json: $0.value) }
            } else {
                node.rows = [Self.row(key: "value", json: value)]
            }
            return node
        case .viewModel(let viewModel):
            return Node(label: [(title, .title)]
                            + Self.details(["ViewModel", counted(viewModel.count, "key")] + Self.registrations(of: viewModel)),
                        rows: rows(of: viewModel))
        case .viewModels(let viewModels):
            return Node(label: [(title, .title)] + Self.details([counted(viewModels.count, "ViewModel")]),
                        children: viewModels.enumerated().map { viewModelNode("item \($0.offset)", $0.element) })
        case .section(let section):
            var node = sectionNode(section, index: 0)
            node.label = [(title, .title)] + Array(node.label.dropFirst())
            return node
        case .manager(let manager):
            let counts = [counted(manager.count, "section"), counted(manager.itemCount, "item")]
            let registrations = Self.registrations { (manager.archivedKeys(for: $0), manager.serializableKeys(for: $0)) }
            return Node(label: [(title, .title)] + Self.details(counts + registrations), children: managerChildren(manager))
        }
    }

    func managerChildren(_ manager: Manager) -> [Node] {
        var children: [Node] = []
        if let common = manager.common { children.append(viewModelNode("common", common)) }
        for (index, section) in manager.sections.enumerated() {
            children.append(sectionNode(section, index: index))
        }
        return children
    }

    func sectionNode(_ section: Section, index: Int) -> Node {
        var label: [Segment] = [("section \(index)", .title)]
        if case .string(let title)? = section.header?["title"] { label.append((" · ", .structure)); label.append((title, .title)) }
        label += Self.details([counted(section.count, "item")]
            + Self.registrations { (section.archivedKeys(for: $0), section.serializableKeys(for: $0)) })
        var node = Node(label: label)
        if let header = section.header { node.children.append(viewModelNode("header", header)) }
        if let common = section.common { node.children.append(viewModelNode("common", common)) }
        if let itemMerge = section.itemMerge { node.children.append(viewModelNode("item merge", itemMerge)) }
        for (index, item) in section.items.enumerated() { node.children.append(viewModelNode("item \(index)", item)) }
        if let footer = section.footer { node.children.append(viewModelNode("footer", footer)) }
        return node
    }

    func viewModelNode(_ name: String, _ viewModel: ViewModel) -> Node {
        let rows = rows(of: viewModel)
        return Node(label: [(name, nil)] + Self.details([counted(rows.count, "key")] + Self.registrations(of: viewModel)),
                    rows: rows)
    }

    /// A ViewModel's registered keys, as details: `archived keys id, title`.
    static func registrations(of viewModel: ViewModel) -> [String] {
        registration("archived keys", viewModel.archivedKeys) + registration("exported keys", viewModel.serializableKeys)
    }

    /// A section's or manager's registered keys per part, as details:
    /// `archived item keys id`.
    static func registrations(_ keys: (SectionPart) -> (archived: [String], exported: [String])) -> [String] {
        let names: [(SectionPart, String)] = [(.common, "common"), (.header, "header"), (.footer, "footer"), (.items, "item")]
        var details: [String] = []
        for (part, name) in names {
            let (archived, exported) = keys(part)
            details += registration("archived \(name) keys", archived) + registration("exported \(name) keys", exported)
        }
        return details
    }

    private static func registration(_ title: String, _ keys: [String]) -> [String] {
        keys.isEmpty ? [] : ["\(title) " + keys.joined(separator: ", ")]
    }

    /// The rows of a ViewModel's keys, nested ViewModels expanded.
    func rows(of viewModel: ViewModel, depth: Int = 0) -> [Row] {
        var rows: [Row] = []
        for key in viewModel.keys {
            guard let value = viewModel[value: key] else { continue }  // removed meanwhile
            switch value {
            case .json(let json):
                rows.append(Self.row(key: key, json: json))
            case .payload(let nested as ViewModel):
                rows.append(Row(key: key, type: "ViewModel", value: counted(nested.count, "key"),
                                valueRole: .structure, nested: nestedRows(of: nested, depth: depth)))
            case .payload(let list as [ViewModel]):
                var inner: [Row] = []
                for (index, nested) in list.enumerated() {
                    inner.append(Row(key: "[\(index)]", type: "ViewModel", value: counted(nested.count, "key"),
                                     valueRole: .structure, nested: nestedRows(of: nested, depth: depth)))
                }
                rows.append(Row(key: key, type: "[ViewModel]", value: counted(list.count, "item"),
                                valueRole: .structure, nested: inner))
            case .payload(let payload):
                rows.append(Row(key: key, type: "payload", value: "\(type(of: payload))", valueRole: .structure))
            }
        }
        return rows
    }

    /// The most nested ViewModel levels a tree shows.
    static let maximumDepth = 32

    /// The rows of a ViewModel nested `depth` levels down; past
    /// ``maximumDepth`` (a ViewModel may even, wrongly, contain itself) one
    /// row says that more is not shown.
    private func nestedRows(of nested: ViewModel, depth: Int) -> [Row] {
        if depth < Self.maximumDepth { return rows(of: nested, depth: depth + 1) }
        guard nested.count > 0 else { return [] }
        return [Row(key: "…", type: "", value: "deeper levels not shown", valueRole: .structure)]
    }

    static func row(key: String, json: JSONValue) -> Row {
        let (type, text, role) = describe(json)
        return Row(key: key, type: type, value: text, valueRole: role)
    }

    /// A JSON value's type name, compact text and colour.
    static func describe(_ value: JSONValue) -> (type: String, text: String, role: OutputStyle.Role?) {
        let text = (try? value.jsonString()) ?? value.briefDescription
        switch value {
        case .null: return ("null", text, .literal)
        case .bool: return ("bool", text, .literal)
        case .int: return ("int", text, .number)
        case .double: return ("double", text, .number)
        case .bigInteger: return ("bigint", text, .number)
        case .string: return ("string", text, .string)
        case .array(let array): return ("array(\(array.count))", text, nil)
        case .object(let object): return ("object(\(object.count))", text, nil)
        }
    }

    static func details(_ parts: [String]) -> [Segment] {
        parts.map { (" · " + $0, OutputStyle.Role.structure) }
    }

    // MARK: Layout

    func render(_ root: Node) -> String {
        var out = ""
        emit(root, linePrefix: "", childPrefix: "", into: &out)
        return out
    }

    private func emit(_ node: Node, linePrefix: String, childPrefix: String, into out: inout String) {
        line(glyphs: linePrefix, node.label, into: &out)
        emitRows(node.rows, prefix: childPrefix + (node.children.isEmpty ? "" : "│  "), into: &out)
        for (index, child) in node.children.enumerated() {
            let last = index == node.children.count - 1
            emit(child, linePrefix: childPrefix + (last ? "└─ " : "├─ "),
                 childPrefix: childPrefix + (last ? "   " : "│  "), into: &out)
        }
    }

    private func emitRows(_ rows: [Row], prefix: String, into out: inout String) {
        guard !rows.isEmpty else { return }
        // Cut to the width here too: a key of zero-width characters (or one
        // letter with 100,000 combining marks) has almost no width.
        let keys = rows.map { row in
            let key = Self.printable(row.key)
            return style.width.map { DisplayWidth.cut(key, to: $0) } ?? key
        }
        let keyWidth = min(keys.map { DisplayWidth.of($0) }.max() ?? 0, Self.keyColumnLimit)
        let typeWidth = rows.map(\.type.count).max() ?? 0
        for (row, key) in zip(rows, keys) {
            let key = Self.pad(key, keyWidth)
            let type = Self.pad(row.type, typeWidth)
            let used = DisplayWidth.of(prefix) + DisplayWidth.of(key) + 2 + type.count + 2
            var value = Self.printable(row.value, escapingBackslashes: false)
            if let width = style.width {
                let room = width - used
                if room >= 1 {
                    value = DisplayWidth.cut(value, to: room)
                } else {
                    // Deep nesting or a very long key: cut the line as a whole.
                    let plain = DisplayWidth.cut(prefix + key + "  " + type + "  " + value, to: width)
                    out += style.paint(plain, .structure) + "\n"
                    emitRows(row.nested, prefix: prefix + "  ", into: &out)
                    continue
                }
            }
            out += style.paint(prefix, .structure) + style.paint(key, .key) + "  "
                + style.paint(type, .structure) + "  " + (row.valueRole.map { style.paint(value, $0) } ?? value)
            out += "\n"
            emitRows(row.nested, prefix: prefix + "  ", into: &out)
        }
    }

    /// Writes glyphs and label segments, cutting the label as a whole to
    /// the width: what is cut off, later segments included, shows as `…`.
    private func line(glyphs: String, _ label: [Segment], into out: inout String) {
        var room = style.width.map { $0 - DisplayWidth.of(glyphs) } ?? Int.max
        var text = style.paint(glyphs, .structure)
        let pieces = label.map { (text: Self.printable($0.text), role: $0.role) }
        for (index, piece) in pieces.enumerated() where room > 0 {
            let width = DisplayWidth.of(piece.text)
            let fits = (width < room || (width == room && index == pieces.count - 1))
                && piece.text.unicodeScalars.count / DisplayWidth.scalarsPerColumn <= room
            let shown = fits ? piece.text : DisplayWidth.cut(pieces[index...].map(\.text).joined(), to: room)
            text += piece.role.map { style.paint(shown, $0) } ?? shown
            if !fits { break }
            room -= width
        }
        out += text + "\n"
    }

    /// `text` with its control characters (C0, DEL, C1, the line and
    /// paragraph separators and the bidirectional controls) written as JSON
    /// escapes: keys, values and titles come from API data, and a raw newline,
    /// escape sequence or direction override would break the layout or
    /// drive the terminal. In keys, titles and file names a backslash is
    /// written `\\` too, so an escape shown is never text that merely looks
    /// like one; a value's JSON escapes its own, and a message keeps its
    /// backslashes as they are.
    static func printable(_ text: String, escapingBackslashes: Bool = true) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x20 ..< 0x7F: false
            case 0 ..< 0x20, 0x7F ... 0x9F, 0x2028 ... 0x202E, 0x2066 ... 0x2069, 0x200E, 0x200F: true
            default: scalar.properties.isBidiControl
            }
        }
        // Printable ASCII without a backslash, most text: kept as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !(escapingBackslashes && $0 == UInt8(ascii: "\\")) }) {
            return text
        }
        let backslash: Unicode.Scalar? = escapingBackslashes ? "\\" : nil
        guard text.unicodeScalars.contains(where: { isControl($0) || $0 == backslash }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case backslash: result += "\\\\"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let missing = width - DisplayWidth.of(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }
}
