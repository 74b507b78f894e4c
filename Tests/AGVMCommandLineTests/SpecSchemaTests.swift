import AGViewModel
import Foundation
import Testing

/// The subset of JSON Schema that `Fixtures/specs/spec.schema.json` uses:
/// `type`, `enum`, `properties`, `required`, `additionalProperties: false`,
/// `items`, `minItems`, `minLength` and local `$ref`s into `$defs`.
struct SchemaValidator {
    let root: JSONObject

    /// The problems found in `value`, as `path: message`.
    func problems(in value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: .object(root), at: "$", into: &found)
        return found
    }

    private func check(_ value: JSONValue, against schemaValue: JSONValue, at path: String, into found: inout [String]) {
        guard case .object(var schema) = schemaValue else { return }
        if case .string(let reference)? = schema["$ref"] {
            guard reference.hasPrefix("#/$defs/"), case .object(let defs)? = root["$defs"],
                  case .object(let target)? = defs[String(reference.dropFirst("#/$defs/".count))] else {
                found.append("\(path): unresolvable $ref \(reference)")
                return
            }
            schema = target
        }
        for key in schema.keys where !Self.understood.contains(key) {
            found.append("\(path): the validator does not know schema keyword \(key)")
        }
        if case .string(let type)? = schema["type"], !Self.value(value, is: type) {
            found.append("\(path): expected \(type), found \(value.kind.rawValue)")
            return
        }
        if case .array(let options)? = schema["enum"], !options.contains(value) {
            found.append("\(path): \(value.briefDescription) is not one of \(options.map(\.briefDescription).joined(separator: ", "))")
        }
        if case .int(let minimum)? = schema["minLength"], case .string(let text) = value, text.count < minimum {
            found.append("\(path): shorter than \(minimum)")
        }
        if case .int(let minimum)? = schema["minItems"], case .array(let array) = value, array.count < minimum {
            found.append("\(path): fewer than \(minimum) items")
        }
        if let items = schema["items"], case .array(let array) = value {
            for (index, element) in array.enumerated() { check(element, against: items, at: "\(path)[\(index)]", into: &found) }
        }
        if case .object(let object) = value {
            let properties = schema["properties"]?.objectValue ?? [:]
            if case .array(let required)? = schema["required"] {
                for case .string(let name) in required where object[name] == nil {
                    found.append("\(path): missing \(name)")
                }
            }
            for (name, member) in object {
                if let property = properties[name] {
                    check(member, against: property, at: "\(path).\(name)", into: &found)
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): unknown member \(name)")
                }
            }
        }
    }

    static let understood: Set<String> = ["$schema", "$id", "$ref", "$defs", "title", "description", "type", "enum",
                                          "properties", "required", "additionalProperties", "items", "minItems", "minLength"]

    static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): true
        case ("integer", .int), ("integer", .bigInteger), ("number", .int), ("number", .double), ("number", .bigInteger): true
        default: false
        }
    }
}

@Suite("spec files: the JSON Schema")
struct SpecSchemaTests {
    let specs = packageRoot.appendingPathComponent("Fixtures/specs")

    func validator() throws -> SchemaValidator {
        let data = try Data(contentsOf: specs.appendingPathComponent("spec.schema.json"))
        return SchemaValidator(root: try #require(try JSONValue(parsing: data).objectValue))
    }

    @Test func everyBundledSpecValidatesAndLoads() throws {
        let validator = try validator()
        let names = try FileManager.default.contentsOfDirectory(atPath: specs.path).filter { $0.hasSuffix(".spec.json") }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let data = try Data(contentsOf: specs.appendingPathComponent(name))
            #expect(validator.problems(in: try JSONValue(parsing: data)) == [], "\(name)")
            _ = try PackagingSpec(data: data, source: name)
        }
    }

    @Test func theSchemaRejectsWhatTheLoaderRejects() throws {
        let validator = try validator()
        let cases: [(JSONValue, String)] = [
            (["feilds": []], "$: unknown member feilds"),
            (["items": 3], "$.items: expected string, found int"),
            (["items": ""], "$.items: shorter than 1"),
            (["fields": []], "$.fields: fewer than 1 items"),
            (["fields": [["path": "a", "type": "int"]]], "$.fields[0]: missing key"),
            (["fields": [["key": "a", "path": "a", "type": "integer"]]], #"$.fields[0].type: "integer" is not one of "string", "int", "double", "bool", "url", "array", "object""#),
            (["fields": [["key": "a", "pth": "a"]]], "$.fields[0]: unknown member pth"),
            (["sections": [["title": "x"]]], "$.sections[0]: missing items"),
            (["keyedBy": 1], "$.keyedBy: expected string, found int"),
        ]
        for (spec, problem) in cases {
            #expect(validator.problems(in: spec) == [problem])
            #expect(throws: PackagingSpecError.self) { try PackagingSpec(json: spec) }
        }
    }

    @Test func theSchemaKnowsEveryMemberTheLoaderAccepts() throws {
        let schema = try validator().root
        let topLevel = Set(schema["properties"]?.objectValue?.keys ?? [])
        #expect(topLevel == ["name", "items", "header", "fields", "headerFields", "sections", "sectionsFrom", "keyedBy", "scalarKey"])
        let field = schema["$defs"]?.objectValue?["field"]?.objectValue?["properties"]?.objectValue?.keys ?? []
        #expect(Set(field) == ["key", "path", "template", "type", "default", "required", "format"])
        let types = schema["$defs"]?.objectValue?["field"]?.objectValue?["properties"]?.objectValue?["type"]?.objectValue?["enum"]
        #expect(types == .array(PackagingSpec.FieldType.allCases.map { .string($0.rawValue) }))
    }
}
