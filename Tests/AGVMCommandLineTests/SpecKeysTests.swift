import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

/// `agvm keys --spec`: key constants for the ViewModels a packaging spec
/// makes, checked against what the spec really packages.
@Suite("agvm keys --spec")
struct SpecKeysTests {
    static let fixtures = GoldenFileTests.fixtures.map(\.name)

    /// The constants in generated source: key → value type.
    static func constants(in source: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var type = ""
        for line in source.split(separator: "\n") {
            if let range = line.range(of: "where Value == ") {
                type = String(line[range.upperBound...].dropLast(2))   // " {"
            } else if line.contains("public static var"), let open = line.firstIndex(of: "\""),
                      let close = line.lastIndex(of: "\""), open < close {
                result[String(line[line.index(after: open)..<close]), default: []].append(type)
            }
        }
        return result
    }

    /// Whether `value` reads as the Swift type `type` names.
    static func reads(_ value: ViewModelValue, as type: String) -> Bool {
        let viewModel = ViewModel()
        viewModel[value: "value"] = value
        switch type {
        case "String": return viewModel.string(at: "value") != nil
        case "Int": return viewModel.int(at: "value") != nil
        case "Double": return viewModel.double(at: "value") != nil
        case "Bool": return viewModel.bool(at: "value") != nil
        case "URL": return viewModel.url(at: "value") != nil
        case "[JSONValue]": return viewModel.array(at: "value") != nil
        case "JSONObject": return viewModel.object(at: "value") != nil
        case "JSONValue": return true
        default: return false
        }
    }

    /// Every key of every header and item the spec packages from its
    /// fixture has a constant, of a type its value reads as.
    @Test(arguments: fixtures)
    func everyPackagedKeyHasAConstantOfItsType(name: String) throws {
        let specPath = fixture("specs/\(name).spec.json")
        let io = CapturedIO()
        #expect(io.run("keys", specPath, "--spec", "--module", "M") == 0, "\(io.error)")
        #expect(io.error.isEmpty)
        let constants = Self.constants(in: io.output)
        #expect(!constants.isEmpty)

        let packager = try SpecPackager(contentsOf: URL(fileURLWithPath: specPath))
        let document = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: fixture("\(name).json"))))
        let manager = try packager.packageManager(document: document).manager
        var checked = 0
        for section in manager.sections {
            for viewModel in [section.header].compactMap({ $0 }) + section.items {
                for key in viewModel.keys {
                    let types = try #require(constants[key], "\(name): no constant for \(key)")
                    let value = try #require(viewModel[value: key])
                    #expect(types.contains { Self.reads(value, as: $0) }, "\(name): \(key) = \(value) is not \(types)")
                    checked += 1
                }
            }
        }
        #expect(checked > 10)
    }

    @Test func oneConstantPerKeyAndTypeWhateverTheParts() {
        let io = CapturedIO()
        #expect(io.run("keys", fixture("specs/search.spec.json"), "--spec", "--module", "Search") == 0)
        let constants = Self.constants(in: io.output)
        #expect(constants["id"] == ["String"])             // in three sections
        #expect(constants["title"] == ["String"])          // section titles and items
        #expect(io.output.components(separatedBy: "public static var id:").count == 2)
    }

    /// One key stored with two types gets two constants, the second numbered.
    @Test func aKeyWithTwoTypesGetsTwoNames() throws {
        let spec = #"{"header": "meta", "headerFields": [{"key": "count", "path": "n", "type": "string"}], "fields": [{"key": "count", "path": "n", "type": "int"}]}"#
        let io = CapturedIO(files: ["two.json": Data(spec.utf8)])
        #expect(io.run("keys", "two.json", "--spec", "--module", "Two") == 0, "\(io.error)")
        #expect(io.output.contains(#"public static var count: Self { "count" }"#))
        #expect(io.output.contains(#"public static var count2: Self { "count" }"#))
    }

    /// Keys the spec stores besides its fields: section titles, and, in a
    /// part without fields (which copies the objects), member names
    /// (`keyedBy`) and scalar items (`scalarKey`). With fields, those are
    /// only what the fields read, and the items hold the fields' keys.
    @Test func keysBesidesTheFields() throws {
        let spec = #"""
            {"sections": [{"title": "Open", "items": "open", "keyedBy": "slug", "scalarKey": "raw"},
                          {"title": "Done", "items": "done", "keyedBy": "id", "scalarKey": "value",
                           "fields": [{"key": "id", "path": "id", "type": "int"}]}],
             "fields": [{"key": "name", "path": "name", "type": "string"}]}
            """#
        let io = CapturedIO(files: ["extra.json": Data(spec.utf8)])
        #expect(io.run("keys", "extra.json", "--spec", "--module", "Extra") == 0, "\(io.error)")
        #expect(Self.constants(in: io.output) == ["title": ["String"], "name": ["String"], "id": ["Int"]])
        #expect(io.output.contains("/// `title`: section headers: the section's title"))

        let copying = #"{"items": "open", "keyedBy": "slug", "scalarKey": "raw"}"#
        let copyingIO = CapturedIO(files: ["copy.json": Data(copying.utf8)])
        #expect(copyingIO.run("keys", "copy.json", "--spec", "--module", "Copy") == 0, "\(copyingIO.error)")
        #expect(Self.constants(in: copyingIO.output) == ["slug": ["String"], "raw": ["JSONValue"]])
    }

    /// The constants name what the packaged items hold.
    @Test func theConstantsAreTheKeysThePackagedItemsHold() throws {
        let spec = #"""
            {"items": "products", "keyedBy": "id", "scalarKey": "raw",
             "fields": [{"key": "id", "path": "id", "type": "int"}, {"key": "name", "path": "title", "type": "string"}]}
            """#
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(spec.utf8), source: "shop.spec.json"))
        let document = try JSONParser().parse(Data(#"{"products": {"17": {"title": "A"}, "18": "B"}}"#.utf8))
        let stored = Set(try packager.package(document: document).items.flatMap(\.keys))
        let io = CapturedIO(files: ["shop.spec.json": Data(spec.utf8)])
        #expect(io.run("keys", "shop.spec.json", "--spec", "--module", "Shop") == 0, "\(io.error)")
        #expect(Self.constants(in: io.output) == ["id": ["Int"], "name": ["String"]])
        #expect(Set(Self.constants(in: io.output).keys) == stored)
    }

    @Test func aSpecWithoutFieldsIsReportedAndWritesNothing() throws {
        let directory = try GeneratedKeysCompileTests.makeTemporaryDirectory("agvm-spec-keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("Keys.swift")
        try Data("// kept\n".utf8).write(to: output)
        let io = CapturedIO(files: ["copy.json": Data(#"{"items": "rows"}"#.utf8)])
        #expect(io.run("keys", "copy.json", "--spec", "--module", "Copy", "-o", output.path) == 1)
        #expect(io.error.contains(#"copy.json: note: items: no "fields": the API's keys are copied as they are"#))
        #expect(io.error.contains("the spec names no keys"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "// kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Keys.swift"])
    }

    @Test func misuseIsAUsageError() {
        let spec = fixture("specs/feed.spec.json")
        for (arguments, message) in [
            (["keys", spec, "--spec", "--packager", "--module", "F"], "'--spec' and '--packager' do not go together"),
            (["keys", spec, "--spec", "--language", "objc", "--module", "F"], "'--spec' needs '--language swift'"),
        ] {
            let io = CapturedIO()
            #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 2, "\(arguments)")
            #expect(io.error.contains(message), "\(io.error)")
        }
        // A sample given as a spec: the spec error, naming the file.
        let io = CapturedIO()
        #expect(io.run("keys", fixture("feed.json"), "--spec", "--module", "F") == 1)
        #expect(io.error.contains("feed.json"), "\(io.error)")
    }
}
