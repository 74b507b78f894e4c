import Foundation

// Reading exported JSON back (the shapes are described in JSONExport.swift).
//
// Import is the inverse of an export with ``JSONExportOptions/everything``
// and no key exchange: a manager, section or ViewModel reads back with the
// same structure, keys (in order) and values. JSON cannot tell a nested
// ViewModel from a JSON object, so nested ViewModels (and sections and
// managers stored as payloads) read back as the JSON objects they were
// exported as, and URLs and converted payloads as the JSON they became; read them with `ViewModel(importingJSON:)` where a screen
// needs them as ViewModels. Unknown members and wrong kinds are errors that
// name their path.

extension ViewModel {
    /// A ViewModel holding the members of `json`, which must be an object.
    public convenience init(importingJSON json: JSONValue) throws(JSONImportError) {
        try self.init(JSONImporter.object(json, at: []))
    }

    /// A ViewModel read from JSON text holding an object.
    public convenience init(importingJSON data: Data) throws {
        try self.init(importingJSON: JSONValue(parsing: data, options: JSONImporter.parsingOptions))
    }
}

extension Section {
    /// A section read from its exported JSON shape: an object with optional
    /// `header`, `footer`, `common` and `itemMerge` objects and an `items`
    /// array of objects (missing means no items).
    public convenience init(importingJSON json: JSONValue) throws(JSONImportError) {
        let parts = try JSONImporter.section(json, at: [])
        self.init(items: parts.items, header: parts.header, footer: parts.footer,
                  common: parts.common, itemMerge: parts.itemMerge)
    }

    /// A section read from JSON text in its exported shape.
    public convenience init(importingJSON data: Data) throws {
        try self.init(importingJSON: JSONValue(parsing: data, options: JSONImporter.parsingOptions))
    }
}

extension Manager {
    /// A manager read from its exported JSON shape: an object with an
    /// optional `common` object and a `sections` array of sections (missing
    /// means none).
    public convenience init(importingJSON json: JSONValue) throws(JSONImportError) {
        let root = try JSONImporter.object(json, at: [])
        try JSONImporter.checkMembers(root, allowed: ["common", "sections"], what: "a manager", at: [])
        let common = try root["common"].map { value throws(JSONImportError) in
            ViewModel(try JSONImporter.object(value, at: [.key("common")]))
        }
        var sections: [Section] = []
        if let value = root["sections"] {
            guard case .array(let elements) = value else {
                throw JSONImportError(path: JSONPath([.key("sections")]),
                                      message: "expected an array, found \(value.kind.rawValue)")
            }
            sections.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                let parts = try JSONImporter.section(element, at: [.key("sections"), .index(i)])
                sections.append(Section(items: parts.items, header: parts.header, footer: parts.footer,
                                        common: parts.common, itemMerge: parts.itemMerge))
            }
        }
        self.init(sections: sections, common: common)
    }

    /// A manager read from JSON text in its exported shape.
    public convenience init(importingJSON data: Data) throws {
        try self.init(importingJSON: JSONValue(parsing: data, options: JSONImporter.parsingOptions))
    }
}

/// The shape checks of an import.
internal enum JSONImporter {
    /// Exported text reads back whatever the parser accepted: an item as
    /// deep as the parser's limit is exported inside a manager's
    /// `{"sections": [{"items": [...]}]}`, four levels more.
    static let parsingOptions = JSONParser.Options(maximumDepth: JSONParser.Options().maximumDepth + 4)

    static let sectionMembers = ["header", "footer", "common", "itemMerge", "items"]

    static func object(_ value: JSONValue, at path: [JSONPath.Component]) throws(JSONImportError) -> JSONObject {
        guard case .object(let object) = value else {
            throw JSONImportError(path: JSONPath(path), message: "expected an object, found \(value.kind.rawValue)")
        }
        return object
    }

    static func checkMembers(
        _ object: JSONObject, allowed: [String], what: String, at path: [JSONPath.Component]
    ) throws(JSONImportError) {
        for key in object.keys where !allowed.contains(key) {
            throw JSONImportError(path: JSONPath(path), message:
                "unknown member \(MessageBounds.quotedKey(key)); \(what) has \(allowed.joined(separator: ", "))")
        }
    }

    static func section(
        _ value: JSONValue, at path: [JSONPath.Component]
    ) throws(JSONImportError) -> (items: [ViewModel], header: ViewModel?, footer: ViewModel?, common: ViewModel?, itemMerge: ViewModel?) {
        let root = try object(value, at: path)
        try checkMembers(root, allowed: sectionMembers, what: "a section", at: path)
        func part(_ name: String) throws(JSONImportError) -> ViewModel? {
            guard let value = root[name] else { return nil }
            return ViewModel(try object(value, at: path + [.key(name)]))
        }
        var items: [ViewModel] = []
        if let value = root["items"] {
            guard case .array(let elements) = value else {
                throw JSONImportError(path: JSONPath(path + [.key("items")]),
                                      message: "expected an array, found \(value.kind.rawValue)")
            }
            items.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                items.append(ViewModel(try object(element, at: path + [.key("items"), .index(i)])))
            }
        }
        return (items, try part("header"), try part("footer"), try part("common"), try part("itemMerge"))
    }
}
