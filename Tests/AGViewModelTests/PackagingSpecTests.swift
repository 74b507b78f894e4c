import Foundation
import Testing
import AGViewModel

@Suite("Packaging spec validation")
struct PackagingSpecTests {
    func error(_ text: String) -> String? {
        do {
            _ = try PackagingSpec(data: Data(text.utf8), source: "timeline.spec.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aValidSpecIsReadCompletely() throws {
        let spec = try PackagingSpec(data: Data("""
        {"name": "timeline", "items": "statuses", "header": "search_metadata",
         "fields": [
           {"key": "id", "path": "id_str", "type": "string", "required": true},
           {"key": "handle", "template": "@{user.screen_name}"},
           {"key": "likes", "path": "favorite_count", "type": "double", "default": 0},
           {"key": "site", "path": "entities.urls[0].expanded_url", "type": "url", "format": "trim"}],
         "headerFields": [{"key": "count", "path": "count", "type": "int"}]}
        """.utf8), source: "t.json")
        #expect(spec.name == "timeline")
        #expect(spec.itemsPath == "statuses")
        #expect(spec.headerPath == "search_metadata")
        #expect(spec.source == "t.json")
        let fields = try #require(spec.fields)
        #expect(fields.map(\.key) == ["id", "handle", "likes", "site"])
        #expect(fields[0].isRequired)
        #expect(fields[1].type == .string)
        #expect(fields[1].source == .template("@{user.screen_name}"))
        #expect(fields[2].defaultValue == .double(0))  // converted to the field's type
        #expect(fields[3].source == .path("entities.urls[0].expanded_url"))
        #expect(fields[3].format == .trim)
        #expect(spec.headerFields?.first?.type == .int)
        #expect(spec.hasHeader)
        let minimal = try PackagingSpec(json: ["items": "data"])
        #expect(minimal.fields == nil)
        #expect(!minimal.hasHeader)
    }

    @Test(arguments: [
        // Whole-spec problems.
        ("[1]", "timeline.spec.json: error: a spec must be a JSON object, found array"),
        (#"{"feilds": []}"#, #"timeline.spec.json: error: unknown member "feilds" (did you mean "fields"?); a spec has name, items, header, fields, headerFields, sections, sectionsFrom, keyedBy, scalarKey"#),
        (#"{"fi\telds": []}"#, #"timeline.spec.json: error: unknown member "fi\telds" (did you mean "fields"?); a spec has name, items, header, fields, headerFields, sections, sectionsFrom, keyedBy, scalarKey"#),
        (#"{"itens": "a"}"#, #"timeline.spec.json: error: unknown member "itens" (did you mean "items"?); a spec has name, items, header, fields, headerFields, sections, sectionsFrom, keyedBy, scalarKey"#),
        (#"{"items": 3}"#, #"timeline.spec.json: error: "items" must be a path string, found int"#),
        (#"{"items": "a..b"}"#, #"timeline.spec.json: error: "items" is not a valid path: "a..b""#),
        (#"{"header": ""}"#, #"timeline.spec.json: error: "header" is not a valid path: """#),
        (#"{"name": false}"#, #"timeline.spec.json: error: "name" must be a string, found bool"#),
        (#"{"fields": {}}"#, #"timeline.spec.json: error: "fields" must be an array of field entries, found object"#),
        (#"{"fields": []}"#, #"timeline.spec.json: error: "fields" is empty; leave it out to copy every member"#),
        // Entry problems, naming the list, index and key.
        (#"{"fields": ["id"]}"#, "timeline.spec.json: error: fields[0]: a field entry must be an object, found string"),
        (#"{"fields": [{"path": "a", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0]: missing "key""#),
        (#"{"fields": [{"Key": "a", "path": "a", "type": "int"}]}"#,
         #"timeline.spec.json: error: fields[0]: missing "key"; found unknown member "Key" (did you mean "key"?)"#),
        (#"{"fields": [{"kye": "a", "path": "a", "type": "int"}]}"#,
         #"timeline.spec.json: error: fields[0]: missing "key"; found unknown member "kye" (did you mean "key"?)"#),
        (#"{"fields": [{"key": "", "path": "a", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0]: "key" is empty"#),
        (#"{"fields": [{"key": 1, "path": "a", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0]: "key" must be a string, found int"#),
        (#"{"fields": [{"key": "a", "path": "a", "type": "int"}, {"key": "a", "path": "b", "type": "int"}]}"#,
         #"timeline.spec.json: error: fields[1] (key "a"): duplicate key "a" (already used by fields[0])"#),
        (#"{"fields": [{"key": "a", "pth": "a", "type": "int"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "a"): unknown member "pth" (did you mean "path"?); an entry has key, path, template, type, default, required, format"#),
        (#"{"fields": [{"key": "a", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0] (key "a"): needs a "path" or a "template""#),
        (#"{"fields": [{"key": "a", "path": "a", "template": "{a}"}]}"#, #"timeline.spec.json: error: fields[0] (key "a"): has both "path" and "template"; use one"#),
        (#"{"fields": [{"key": "a", "path": "a[x]", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0] (key "a"): bad path "a[x]""#),
        (#"{"fields": [{"key": "a", "path": "a[-1]", "type": "int"}]}"#, #"timeline.spec.json: error: fields[0] (key "a"): bad path "a[-1]""#),
        (#"{"items": "list[-1]"}"#, #"timeline.spec.json: error: "items" is not a valid path: "list[-1]""#),
        (#"{"fields": [{"key": "a", "path": "a"}]}"#, #"timeline.spec.json: error: fields[0] (key "a"): missing "type"; expected one of string, int, double, bool, url, array, object"#),
        (#"{"headerFields": [{"key": "n", "path": "n", "type": "integer"}]}"#,
         #"timeline.spec.json: error: headerFields[0] (key "n"): unknown type "integer" (did you mean "int"?); expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "Boolean"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown type "Boolean" (did you mean "bool"?); expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "number"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown type "number" (did you mean "double"?); expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "dictionary"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown type "dictionary" (did you mean "object"?); expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "date"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown type "date"; expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "strin"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown type "strin" (did you mean "string"?); expected one of string, int, double, bool, url, array, object"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "int", "default": "many"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): default "many" is not an integer"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "int", "default": 1, "required": true}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): a required field cannot have a default"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "int", "required": "yes"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): "required" must be true or false, found string"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "int", "format": "trim"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): format "trim" applies to string and url fields, not int"#),
        (#"{"fields": [{"key": "n", "path": "n", "type": "string", "format": "lower"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "n"): unknown format "lower"; expected one of lowercase, uppercase, trim"#),
        (#"{"fields": [{"key": "h", "template": "@{user.name", "type": "string"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "h"): bad template "@{user.name": unclosed "{" (write "{{" for a literal brace)"#),
        (#"{"fields": [{"key": "h", "template": "a}b"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "h"): bad template "a}b": unmatched "}" (write "}}" for a literal brace)"#),
        (#"{"fields": [{"key": "h", "template": "a{}b"}]}"#, #"timeline.spec.json: error: fields[0] (key "h"): bad template "a{}b": empty placeholder "{}""#),
        (#"{"fields": [{"key": "h", "template": "{a{b}}"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "h"): bad template "{a{b}}": "{" inside a placeholder; write "{{" outside placeholders for a literal brace"#),
        (#"{"fields": [{"key": "h", "template": "{a..b}"}]}"#, #"timeline.spec.json: error: fields[0] (key "h"): bad template "{a..b}": bad path "a..b" in a placeholder"#),
        (#"{"fields": [{"key": "h", "template": "{a[-1]}"}]}"#, #"timeline.spec.json: error: fields[0] (key "h"): bad template "{a[-1]}": bad path "a[-1]" in a placeholder"#),
        // Settings that would silently lose a value.
        (#"{"items": "tags", "keyedBy": "k", "scalarKey": "k"}"#,
         #"timeline.spec.json: error: "keyedBy" and "scalarKey" both name the key "k"; a scalar member's value would be replaced by its name: give them different keys"#),
        (#"{"sections": [{"title": "Fixed", "items": "a", "header": "meta", "headerFields": [{"key": "title", "path": "n", "type": "int"}]}]}"#,
         #"timeline.spec.json: error: sections[0]: has a "title" and a header field with the key "title"; the title would replace it: rename the field, or leave out the section's "title""#),
        (#"{"sections": [{"items": "a"}, {"items": "b", "header": "h", "headerFields": [{"key": "n", "path": "n", "type": "int"}]}], "headerFields": [{"key": "c", "path": "c", "type": "int"}]}"#,
         #"timeline.spec.json: error: top-level "headerFields" apply to section entries that name a "header" and have no "headerFields" of their own, and no entry does: give the entries their own "headerFields", or a "header""#),
        (#"{"fields": [{"key": "h", "template": "{n}", "type": "int"}]}"#,
         #"timeline.spec.json: error: fields[0] (key "h"): a template makes a string; its type must be string or url, not int"#),
    ])
    func badSpecsAreRejectedNamingTheEntryAndProblem(spec: String, message: String) {
        #expect(error(spec) == message)
    }

    /// Braces are read scalar by scalar: a combining mark after one (which
    /// joins it into one Character) is literal text, not part of the brace.
    @Test func templateBracesAreScalarsNotCharacters() throws {
        func render(_ template: String) throws -> JSONValue? {
            let spec = try PackagingSpec(json: ["fields": [["key": "t", "template": .string(template)]]])
            return try SpecPackager(spec: spec).package(document: [["n": 1, "{\u{301}a": "wrong"]]).items.first?["t"]
        }
        #expect(try render("rank {n}\u{20E3}") == "rank 1\u{20E3}")
        #expect(try render("{n}\u{FE0F}\u{20E3}{{\u{301}a}}") == "1\u{FE0F}\u{20E3}{\u{301}a}")
        // `{{` then an unmatched `}`: an error, not a placeholder named "{́a".
        for bad in ["{{\u{301}a}", "a}\u{301}"] {
            let spec = #"{"fields": [{"key": "t", "template": "\#(bad)"}]}"#
            #expect(error(spec)?.contains("unmatched \"}\"") == true, "\(bad)")
        }
    }

    /// A placeholder names every key a `path` can: `\|`, `\{`, `\}` and
    /// an escaped space belong to the path, as `\.` does; unescaped spaces
    /// around it and its format are trimmed.
    @Test func placeholdersNameKeysWithEscapedTemplateCharacters() throws {
        let element: JSONValue = [["a|b": "bar", "a}b": "brace", "t ": "space", "t": "plain", "a.b": "dot", "n": 2.5]]
        func render(_ template: String) throws -> JSONValue? {
            let spec = try PackagingSpec(json: ["fields": [["key": "t", "template": .string(template)]]])
            return try SpecPackager(spec: spec).package(document: element).items.first?["t"]
        }
        #expect(try render(#"{a\|b}"#) == "bar")
        #expect(try render(#"{a\}b}"#) == "brace")
        #expect(try render(#"[{t\ }]"#) == "[space]")
        #expect(try render("[{ t }]") == "[plain]")
        #expect(try render(#"{a\.b}"#) == "dot")
        #expect(try render("{ n | fixed:2 }") == "2.50")
        // The same keys as paths.
        for (path, expected) in [(#"a\|b"#, "bar"), (#"a\}b"#, "brace"), (#"t\ "#, "space")] {
            let spec = try PackagingSpec(json: ["fields": [["key": "v", "path": .string(path), "type": "string"]]])
            #expect(try SpecPackager(spec: spec).package(document: element).items.first?["v"] == .string(expected))
        }
    }

    /// A member given twice in one object is refused at its second
    /// occurrence (JSON keeps the last, so the first setting was lost);
    /// keys are compared decoded, and equal keys in different objects are fine.
    @Test func aMemberGivenTwiceIsRefusedWhereItRepeats() throws {
        #expect(error(#"{"fields": [{"key": "v", "path": "a", "type": "int", "type": "string"}]}"#)
            == #"timeline.spec.json:1:54: error: member "type" is given twice in one object; the second would replace the first: keep one"#)
        #expect(error("{\n  \"items\": \"a\",\n  \"\\u0069tems\": \"b\"\n}")
            == #"timeline.spec.json:3:3: error: member "items" is given twice in one object; the second would replace the first: keep one"#)
        #expect(error(#"{"fields": [{"key": "a", "path": "a", "type": "int"}], "fields": [{"key": "b", "path": "b", "type": "int"}]}"#)?
            .hasPrefix("timeline.spec.json:1:56: error: member \"fields\" is given twice") == true)
        // The same key in sibling and nested objects, and as a value, is no repeat.
        #expect(error(#"{"items": "key", "fields": [{"key": "key", "path": "key.key", "type": "int"}, {"key": "b", "path": "b", "type": "int"}]}"#) == nil)
    }

    @Test func jsonSyntaxErrorsCarryTheirPosition() throws {
        let message = try #require(error("{\"items\": }"))
        #expect(message.hasPrefix("timeline.spec.json:1:"))
        #expect(message.contains(": error: "))
    }

    @Test func specFilesAreReadFromDiskWithTheirPathInErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agvm-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("bad.spec.json")
        try Data(#"{"fields": [{"key": "a"}]}"#.utf8).write(to: url)
        #expect(throws: PackagingSpecError(source: url.path, entry: .init(list: "fields", index: 0, key: "a"),
                                           message: #"needs a "path" or a "template""#)) {
            try SpecPackager(contentsOf: url)
        }
        let missing = directory.appendingPathComponent("none.json")
        do {
            _ = try PackagingSpec(contentsOf: missing)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(missing.path): error: cannot read the spec: cannot read \(missing.path): No such file or directory (while opening)")
        }
    }
}
