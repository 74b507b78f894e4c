import Foundation

/// A declarative mapping from API JSON to ViewModels, read from a JSON spec
/// file: change or ship a mapping without code, and use it from `agvm`.
///
/// ```json
/// {
///   "name": "timeline",
///   "items": "statuses",
///   "header": "search_metadata",
///   "fields": [
///     {"key": "id", "path": "id_str", "type": "string", "required": true},
///     {"key": "text", "path": "text", "type": "string", "default": ""},
///     {"key": "screenName", "path": "user.screen_name", "type": "string"},
///     {"key": "handle", "template": "@{user.screen_name}"},
///     {"key": "firstURL", "path": "entities.urls[0].expanded_url", "type": "url"},
///     {"key": "likes", "path": "favorite_count", "type": "int", "default": 0},
///     {"key": "lang", "path": "lang", "type": "string", "format": "uppercase"}
///   ],
///   "headerFields": [
///     {"key": "count", "path": "count", "type": "int"}
///   ]
/// }
/// ```
///
/// ## Top level
/// - `name` (string, optional): a name for messages.
/// - `items` (path, optional): the array whose elements become the items.
///   Without it the document itself is used: an array's elements, or an
///   object as the single item.
/// - `keyedBy` (key, optional): the items value may be an object whose
///   members are the items, in document order; each member's name is stored
///   under this key (see ``ItemSource``).
/// - `scalarKey` (key, optional): strings, numbers and booleans among the
///   items are packaged under this key instead of being skipped.
/// - `header` (path, optional): the object that becomes the header.
/// - `fields` (list, optional): how each item is packaged. Without it every
///   member of the element is copied unchanged, in order.
/// - `headerFields` (list, optional): how the header is packaged, read from
///   the `header` object (from the document itself when `header` is absent).
///   With `header` but without `headerFields`, the header object's members are
///   copied unchanged.
///
/// ## Field entries
/// - `key` (required): the ViewModel key; non-empty, unique in its list.
/// - `path`: where the value is, relative to the element:
///   `user.screen_name`, `entities.urls[0].expanded_url` (see ``JSONPath``).
/// - `template`: instead of `path`, a string with `{path}` placeholders,
///   `"@{user.screen_name}"`, optionally formatted, `{price|fixed:2}`,
///   `{published|date:long}`; `{{` and `}}` are literal braces. A placeholder
///   reads like a `string` field; if any placeholder has no value, neither
///   has the template. Its path names keys as a `path` does, and `\|`,
///   `\{`, `\}` and `\ ` name keys that hold those characters.
/// - `type`: `string`, `int`, `double`, `bool`, `url`, `array` or `object`.
///   Required with `path`; a template is a `string` (the default) or `url`.
///   Values convert as ``JSONReadable`` says (numbers to strings, numeric
///   strings to numbers, ...); a `url` must be a non-empty string that
///   Foundation's `URL(string:)` accepts (which is lenient, and more so on
///   Linux than on older Apple systems) and is stored as that string.
/// - `default` (optional): stored when the value is missing, null or does not
///   convert; it must itself convert to the type, or be `null` to store
///   null. A header field that a later page may lack (a next-page cursor)
///   needs `null`: ``Section/merge(_:)`` keeps values the incoming page
///   does not have.
/// - `required` (optional boolean, default false): with no value, the element
///   is skipped and reported (a required field cannot have a default). An
///   optional field with no value and no default leaves its key out.
/// - `format` (optional, `string` and `url` only): `lowercase`, `uppercase`
///   or `trim` (whitespace and newlines at both ends), applied to the value
///   read (not to the default).
///
/// ## Several sections
/// A spec can package a document into several sections (a ``Manager``, see
/// ``SpecPackager/packageManager(document:policy:)``) in one of two ways; either
/// replaces the top-level `items` and `header`.
///
/// ```json
/// {"sections": [
///    {"title": "Articles", "items": "groups.articles", "fields": [...]},
///    {"title": "Videos", "items": "groups.videos", "header": "groups.videos_meta"}],
///  "fields": [...]}
/// ```
///
/// - `sections` (list): one entry per section, in order. An entry has
///   `items` (path, required), and optionally `title` (string), `header`
///   (path), `fields` and `headerFields` (as above; without them the
///   top-level lists apply, `headerFields` only to entries with a
///   `header`, and top-level `headerFields` no entry takes are refused).
///   A `title` is stored under the key `title` of the section's header
///   ViewModel (created if the entry has no header); a header field of
///   that key is refused with it.
/// - `sectionsFrom` (path): the object whose members are arrays, one
///   section per member in order, titled with the member's name; or an array
///   whose elements are arrays, one untitled section each. Items use the
///   top-level `fields`.
///
/// A section whose items path does not lead to an array is packaged empty
/// and reported, so the manager keeps one section per entry.
///
/// Everything is checked when the spec is loaded: an unknown member or type,
/// a missing or duplicate key, a member given twice in one object (read
/// from JSON text), a bad path or template, a default of the wrong type.
/// The ``PackagingSpecError`` names the file, the entry and the problem.
///
/// The full reference, with every template format and error, is
/// `Fixtures/specs/README.md`; `Fixtures/specs/spec.schema.json` is a JSON
/// Schema for editors.
public struct PackagingSpec: Sendable, Hashable {
    /// A field's value type.
    public enum FieldType: String, Sendable, Hashable, CaseIterable {
        /// A string; numbers are read as their JSON text.
        case string
        /// A 64-bit integer; integral doubles and strings that spell an
        /// integer (`"42"`, `"3.0"`, `"1e3"`, not `"1.5"`) convert.
        case int
        /// A double; any number or numeric string converts.
        case double
        /// A boolean; numbers and the usual boolean words convert.
        case bool
        /// A non-empty string `URL(string:)` accepts, stored as that string.
        case url
        /// An array, stored unchanged.
        case array
        /// An object, stored unchanged.
        case object

        /// The type that other schema languages (JSON Schema, Swift,
        /// TypeScript) call `name`, for the hint when a spec uses their word.
        internal static func named(inOtherSchemas name: String) -> FieldType? {
            switch name.lowercased() {
            case "integer", "int64", "long": .int
            case "number", "float", "decimal": .double
            case "boolean": .bool
            case "str", "text": .string
            case "uri": .url
            case "list": .array
            case "dictionary", "dict", "map": .object
            default: nil
            }
        }
    }

    /// A transformation of a string value.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Lowercased.
        case lowercase
        /// Uppercased.
        case uppercase
        /// Whitespace and newlines removed at both ends.
        case trim
    }

    /// Where a field's value comes from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The value at a path.
        case path(JSONPath)
        /// A template's text.
        case template(String)

        /// `path user.name` or `template "@{user.name}"`.
        public var description: String {
            switch self {
            case .path(let path): "path \(path)"
            case .template(let text): "template \"\(text)\""
            }
        }
    }

    /// One ViewModel key and how to fill it.
    public struct Field: Sendable, Hashable {
        /// The ViewModel key.
        public let key: String
        /// Where the value comes from.
        public let source: Source
        /// The value type.
        public let type: FieldType
        /// The value used when the data has none, already of `type`.
        public let defaultValue: JSONValue?
        /// Whether an element without a value is skipped.
        public let isRequired: Bool
        /// The format applied to a string value read from the data.
        public let format: Format?
        /// The parsed template, for template sources.
        internal let template: SpecTemplate?
    }

    /// The spec's name, if it has one.
    public let name: String?
    /// Where the items array is; `nil` for the document itself.
    public let itemsPath: JSONPath?
    /// Where the header object is; `nil` for none (or the document itself
    /// when ``headerFields`` is set).
    public let headerPath: JSONPath?
    /// How items are packaged; `nil` copies every member.
    public let fields: [Field]?
    /// How the header is packaged; `nil` copies every member.
    public let headerFields: [Field]?
    /// Where the spec came from, for messages.
    public let source: String
    /// The sections of a `sections` spec, in order; `nil` otherwise.
    public let sections: [SectionEntry]?
    /// The path of a `sectionsFrom` spec; `nil` otherwise.
    public let sectionsPath: JSONPath?
    /// How the items are taken from the items value (`keyedBy`, `scalarKey`).
    public let itemSource: ItemSource

    /// One entry of a spec's `sections` list, with the top-level field
    /// lists already applied where the entry has none.
    public struct SectionEntry: Sendable, Hashable {
        /// The section's title, stored under `title` in its header.
        public let title: String?
        /// Where the section's items array is.
        public let itemsPath: JSONPath
        /// Where the section's header object is.
        public let headerPath: JSONPath?
        /// How items are packaged; `nil` copies every member.
        public let fields: [Field]?
        /// How the header is packaged; `nil` copies every member.
        public let headerFields: [Field]?
        /// How the items are taken from the items value.
        public let itemSource: ItemSource
    }

    /// Whether the spec describes several sections (`sections` or `sectionsFrom`).
    public var hasSections: Bool { sections != nil || sectionsPath != nil }

    /// Whether the spec asks for a header.
    public var hasHeader: Bool { headerPath != nil || headerFields != nil }

    /// Loads and checks the spec file at `url`.
    public init(contentsOf url: URL) throws(PackagingSpecError) {
        let data: Data
        do {
            data = try AtomicFile.read(from: url)
        } catch {
            throw PackagingSpecError(source: url.path, message: "cannot read the spec", fileError: error)
        }
        try self.init(data: data, source: url.path)
    }

    /// Parses and checks a spec from JSON text; `source` names it in errors.
    public init(data: Data, source: String = "<spec>") throws(PackagingSpecError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw PackagingSpecError(source: source, line: error.line, column: error.column, message: error.message)
        }
        // Valid JSON keeps the last of two equal members: a setting given
        // twice would be lost without a word.
        let repeated: JSONParseError? = data.withUnsafeBytes { bytes in
            JSONDuplicateMember.first(in: bytes).map { key, offset in
                JSONParseError(offset: offset, message: "member \(MessageBounds.quotedKey(key)) is given twice in one object; "
                    + "the second would replace the first: keep one", in: bytes)
            }
        }
        if let repeated {
            throw PackagingSpecError(source: source, line: repeated.line, column: repeated.column, message: repeated.message)
        }
        try self.init(json: json, source: source)
    }

    /// Checks a spec given as a JSON value; `source` names it in errors.
    public init(json: JSONValue, source: String = "<spec>") throws(PackagingSpecError) {
        func fail(_ message: String) -> PackagingSpecError { PackagingSpecError(source: source, message: message) }
        guard case .object(let root) = json else {
            throw fail("a spec must be a JSON object, found \(json.kind.rawValue)")
        }
        let members = ["name", "items", "header", "fields", "headerFields", "sections", "sectionsFrom", "keyedBy", "scalarKey"]
        for key in root.keys where !members.contains(key) {
            throw fail("unknown member \(MessageBounds.quotedKey(key))\(PackagingSpecError.suggestion(for: key, in: members)); "
                + "a spec has \(members.joined(separator: ", "))")
        }
        func path(_ member: String) throws(PackagingSpecError) -> JSONPath? {
            try Self.path(root[member], member: member, fail: fail)
        }
        switch root["name"] {
        case nil: name = nil
        case .string(let text)?: name = text
        case let other?: throw fail("\"name\" must be a string, found \(other.kind.rawValue)")
        }
        itemsPath = try path("items")
        headerPath = try path("header")
        fields = try Self.fieldList(root["fields"], named: "fields", source: source)
        headerFields = try Self.fieldList(root["headerFields"], named: "headerFields", source: source)
        self.source = source
        itemSource = try ItemSource(parsing: root, fail: fail)

        sectionsPath = try path("sectionsFrom")
        if root["sections"] != nil || sectionsPath != nil {
            let form = sectionsPath != nil ? "sectionsFrom" : "sections"
            // Each section reads its items its own way: top-level item
            // settings would have nothing to apply to.
            for other in ["items", "header", "keyedBy", "scalarKey"] + (sectionsPath != nil ? ["sections", "headerFields"] : [])
            where root[other] != nil {
                let perSection = other == "items" || other == "header" || (form == "sections" && other != "sections")
                throw fail("\"\(other)\" cannot be used with \"\(form)\"" + (perSection ? "; give each section its own" : ""))
            }
        }
        sections = try Self.sectionList(root["sections"], fields: fields, headerFields: headerFields, source: source)
    }

    private static func path(
        _ value: JSONValue?, member: String, fail: (String) -> PackagingSpecError
    ) throws(PackagingSpecError) -> JSONPath? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            throw fail("\"\(member)\" must be a path string, found \(value.kind.rawValue)")
        }
        guard let path = JSONPath(parsing: text), !path.components.isEmpty, !path.hasNegativeIndex else {
            throw fail("\"\(member)\" is not a valid path: \"\(text)\"")
        }
        return path
    }

    private static func sectionList(
        _ value: JSONValue?, fields: [Field]?, headerFields: [Field]?, source: String
    ) throws(PackagingSpecError) -> [SectionEntry]? {
        guard let value else { return nil }
        guard case .array(let entries) = value, !entries.isEmpty else {
            throw PackagingSpecError(source: source, message: "\"sections\" must be a non-empty array of section entries, found "
                + (value.arrayValue != nil ? "an empty array" : value.kind.rawValue))
        }
        let members = ["title", "items", "header", "fields", "headerFields", "keyedBy", "scalarKey"]
        var result: [SectionEntry] = []
        var inheritsHeaderFields = false
        for (index, entry) in entries.enumerated() {
            func fail(_ message: String) -> PackagingSpecError {
                PackagingSpecError(source: source, entry: .init(list: "sections", index: index, key: nil), message: message)
            }
            guard case .object(let object) = entry else {
                throw fail("a section entry must be an object, found \(entry.kind.rawValue)")
            }
            for key in object.keys where !members.contains(key) {
                throw fail("unknown member \(MessageBounds.quotedKey(key))\(PackagingSpecError.suggestion(for: key, in: members)); "
                    + "a section entry has \(members.joined(separator: ", "))")
            }
            var title: String?
            switch object["title"] {
            case nil: break
            case .string(let text)?: title = text
            case let other?: throw fail("\"title\" must be a string, found \(other.kind.rawValue)")
            }
            guard let itemsPath = try path(object["items"], member: "items", fail: fail) else {
                throw fail("missing \"items\", the path of the section's array")
            }
            let list = "sections[\(index)]."
            let headerPath = try path(object["header"], member: "header", fail: fail)
            // The top-level header fields apply to entries that name a header.
            let ownHeaderFields = try fieldList(object["headerFields"], named: list + "headerFields", source: source)
            let entryHeaderFields = ownHeaderFields ?? (headerPath != nil ? headerFields : nil)
            if ownHeaderFields == nil && headerPath != nil { inheritsHeaderFields = true }
            // The title is stored under `title` after the header fields:
            // a header field of that key would be silently replaced.
            if title != nil, entryHeaderFields?.contains(where: { $0.key == "title" }) == true {
                throw fail("has a \"title\" and a header field with the key \"title\"; the title would replace it: "
                    + "rename the field, or leave out the section's \"title\"")
            }
            result.append(SectionEntry(
                title: title, itemsPath: itemsPath, headerPath: headerPath,
                fields: try fieldList(object["fields"], named: list + "fields", source: source) ?? fields,
                headerFields: entryHeaderFields,
                itemSource: try ItemSource(parsing: object, fail: fail)))
        }
        if headerFields != nil && !inheritsHeaderFields {
            throw PackagingSpecError(source: source, message: "top-level \"headerFields\" apply to section entries "
                + "that name a \"header\" and have no \"headerFields\" of their own, and no entry does: "
                + "give the entries their own \"headerFields\", or a \"header\"")
        }
        return result
    }

    private static func fieldList(_ value: JSONValue?, named list: String, source: String) throws(PackagingSpecError) -> [Field]? {
        guard let value else { return nil }
        guard case .array(let entries) = value else {
            throw PackagingSpecError(source: source, message: "\"\(list)\" must be an array of field entries, found \(value.kind.rawValue)")
        }
        guard !entries.isEmpty else {
            throw PackagingSpecError(source: source, message: "\"\(list)\" is empty; leave it out to copy every member")
        }
        var fields: [Field] = []
        var firstUse: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let field = try Field(parsing: entry, list: list, index: index, source: source)
            if let first = firstUse[field.key] {
                throw PackagingSpecError(
                    source: source, entry: .init(list: list, index: index, key: field.key),
                    message: "duplicate key \"\(field.key)\" (already used by \(list)[\(first)])")
            }
            firstUse[field.key] = index
            fields.append(field)
        }
        return fields
    }
}

extension PackagingSpec.Field {
    static let members = ["key", "path", "template", "type", "default", "required", "format"]

    init(parsing entry: JSONValue, list: String, index: Int, source: String) throws(PackagingSpecError) {
        var key: String?
        func fail(_ message: String) -> PackagingSpecError {
            PackagingSpecError(source: source, entry: .init(list: list, index: index, key: key), message: message)
        }
        guard case .object(let object) = entry else {
            throw fail("a field entry must be an object, found \(entry.kind.rawValue)")
        }
        switch object["key"] {
        case nil:
            // A misspelt "key" (`Key`, `kye`) is the likelier mistake: say so.
            for name in object.keys where !Self.members.contains(name) && NearMatch.closest(to: name, in: ["key"]) != nil {
                throw fail("missing \"key\"; found unknown member \(MessageBounds.quotedKey(name)) (did you mean \"key\"?)")
            }
            throw fail("missing \"key\"")
        case .string(let text)?:
            guard !text.isEmpty else { throw fail("\"key\" is empty") }
            key = text
        case let other?: throw fail("\"key\" must be a string, found \(other.kind.rawValue)")
        }
        for name in object.keys where !Self.members.contains(name) {
            throw fail("unknown member \(MessageBounds.quotedKey(name))\(PackagingSpecError.suggestion(for: name, in: Self.members)); "
                + "an entry has \(Self.members.joined(separator: ", "))")
        }
        func string(_ member: String) throws(PackagingSpecError) -> String? {
            guard let value = object[member] else { return nil }
            guard case .string(let text) = value else {
                throw fail("\"\(member)\" must be a string, found \(value.kind.rawValue)")
            }
            return text
        }

        // Source: exactly one of path and template.
        let pathText = try string("path")
        let templateText = try string("template")
        let source: PackagingSpec.Source
        var template: SpecTemplate?
        switch (pathText, templateText) {
        case (nil, nil): throw fail("needs a \"path\" or a \"template\"")
        case (_?, _?): throw fail("has both \"path\" and \"template\"; use one")
        case (let text?, nil):
            guard let path = JSONPath(parsing: text), !path.components.isEmpty, !path.hasNegativeIndex else {
                throw fail("bad path \"\(text)\"")
            }
            source = .path(path)
        case (nil, let text?):
            do {
                template = try SpecTemplate(parsing: text)
            } catch {
                throw fail("bad template \"\(text)\": \(error.message)")
            }
            source = .template(text)
        }

        // Type.
        let typeNames = PackagingSpec.FieldType.allCases.map(\.rawValue)
        let type: PackagingSpec.FieldType
        if let name = try string("type") {
            guard let known = PackagingSpec.FieldType(rawValue: name) else {
                let hint = PackagingSpec.FieldType.named(inOtherSchemas: name).map { " (did you mean \"\($0.rawValue)\"?)" }
                    ?? PackagingSpecError.suggestion(for: name, in: typeNames)
                throw fail("unknown type \"\(name)\"\(hint); "
                    + "expected one of \(typeNames.joined(separator: ", "))")
            }
            type = known
        } else if template != nil {
            type = .string
        } else {
            throw fail("missing \"type\"; expected one of \(typeNames.joined(separator: ", "))")
        }
        if template != nil, type != .string, type != .url {
            throw fail("a template makes a string; its type must be string or url, not \(type.rawValue)")
        }

        // Required, default, format.
        var isRequired = false
        if let value = object["required"] {
            guard case .bool(let flag) = value else {
                throw fail("\"required\" must be true or false, found \(value.kind.rawValue)")
            }
            isRequired = flag
        }
        var defaultValue: JSONValue?
        if let value = object["default"] {
            if isRequired { throw fail("a required field cannot have a default") }
            // `null` stores null: a later page merged over an earlier one
            // then clears the earlier value (a next-page cursor).
            guard let converted = value.isNull ? .null : type.convert(value, format: nil) else {
                throw fail("default \(value.briefDescription) is not \(type.expectedDescription)")
            }
            defaultValue = converted
        }
        var format: PackagingSpec.Format?
        if let name = try string("format") {
            let formatNames = PackagingSpec.Format.allCases.map(\.rawValue)
            guard let known = PackagingSpec.Format(rawValue: name) else {
                throw fail("unknown format \"\(name)\"\(PackagingSpecError.suggestion(for: name, in: formatNames)); "
                    + "expected one of \(formatNames.joined(separator: ", "))")
            }
            guard type == .string || type == .url else {
                throw fail("format \"\(name)\" applies to string and url fields, not \(type.rawValue)")
            }
            format = known
        }
        self.init(key: key!, source: source, type: type, defaultValue: defaultValue,
                  isRequired: isRequired, format: format, template: template)
    }
}

extension PackagingSpec.FieldType {
    /// What a value of this type is, for messages ("an integer").
    public var expectedDescription: String {
        switch self {
        case .string: String.expectedDescription
        case .int: Int64.expectedDescription
        case .double: Double.expectedDescription
        case .bool: Bool.expectedDescription
        case .url: URL.expectedDescription
        case .array: [JSONValue].expectedDescription
        case .object: JSONObject.expectedDescription
        }
    }

    /// `value` as this type (with `format` applied to strings), or `nil`.
    @inline(__always)
    internal func convert(_ value: JSONValue, format: PackagingSpec.Format?) -> JSONValue? {
        switch self {
        case .string:
            guard let text = String.read(from: value) else { return nil }
            return .string(format.map { $0.apply(to: text) } ?? text)
        case .int:
            return Int64.read(from: value).map(JSONValue.int)
        case .double:
            return Double.read(from: value).map(JSONValue.double)
        case .bool:
            return Bool.read(from: value).map(JSONValue.bool)
        case .url:
            guard case .string(var text) = value else { return nil }
            if let format { text = format.apply(to: text) }
            guard URL.read(from: .string(text)) != nil else { return nil }
            return .string(text)
        case .array:
            if case .array = value { return value }
            return nil
        case .object:
            if case .object = value { return value }
            return nil
        }
    }
}

extension PackagingSpec.Format {
    /// `text` transformed.
    internal func apply(to text: String) -> String {
        switch self {
        case .lowercase: text.lowercased()
        case .uppercase: text.uppercased()
        case .trim: text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
