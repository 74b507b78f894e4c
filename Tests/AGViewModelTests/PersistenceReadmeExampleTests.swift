import Foundation
import Testing
import AGViewModel

/// The README's packaging, export and archive examples, run as written.
@Suite("Persistence README examples")
struct PersistenceReadmeExampleTests {
    static let data = Data("""
    {"statuses": [
      {"id_str": "1", "text": "hello", "user": {"screen_name": "ada"}},
      {"text": "no id"},
      {"id_str": "2", "text": "world", "user": {"screen_name": "bob"}}]}
    """.utf8)

    struct StatusPackager: ViewModelPackager {
        func package(_ status: JSONObject) throws -> sending ViewModel {
            let viewModel = ViewModel()
            viewModel["id"] = .string(try status.read(String.self, at: "id_str"))
            viewModel["text"] = .string(status.string(at: "text", default: ""))
            viewModel["handle"] = status.string(at: "user.screen_name").map { .string("@" + $0) }
            return viewModel
        }
    }

    @Test func packagingWithACodePackagerAndWithASpec() throws {
        let response = try JSONValue(parsing: Self.data)
        let manager = Manager()
        let (_, skipped) = manager.appendSections(packaging: [response["statuses"]?.arrayValue ?? []], using: StatusPackager())
        #expect(manager[0].map { $0["handle"] } == ["@ada", "@bob"])
        #expect(skipped.map(\.description) == [#"section 0, item 1: id_str: missing"#])

        let spec = try PackagingSpec(data: Data("""
        {"items": "statuses",
         "fields": [
           {"key": "id", "path": "id_str", "type": "string", "required": true},
           {"key": "text", "path": "text", "type": "string", "default": ""},
           {"key": "handle", "template": "@{user.screen_name}"}]}
        """.utf8), source: "timeline.spec.json")
        let (fromSpec, problems) = try SpecPackager(spec: spec).packageManager(document: response)
        #expect(problems.map(\.description) == [#"section 0, item 1: required key "id" (path id_str) has no value: id_str: missing"#])
        #expect(try fromSpec.exportJSONData(options: .everything) == manager.exportJSONData(options: .everything))
    }

    @Test func exportingImportingSavingAndLoading() throws {
        let (manager, _) = try SpecPackager(spec: PackagingSpec(json: ["items": "statuses"]))
            .packageManager(document: JSONValue(parsing: Self.data))
        manager.addSerializableKeys(["id_str", "text"], for: .items)
        let body = try manager.exportJSONData()
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"sections":[{"items":[{"id_str":"1","text":"hello"},{"text":"no id"},{"id_str":"2","text":"world"}]}]}"#)
        let restored = try Manager(importingJSON: body)
        #expect(restored[0].count == 3)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agvm-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cacheURL = directory.appendingPathComponent("timeline.agvm")
        try Archive.write(.manager(manager), to: cacheURL, keys: .everything)
        guard case .manager(let cached) = try Archive.read(from: cacheURL) else { Issue.record("kind"); return }
        #expect(cached[0][0]["user"]?["screen_name"] == "ada")

        let keyed = try NSKeyedArchiver.archivedData(withRootObject: ArchivedManager(manager), requiringSecureCoding: true)
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArchivedManager.self, from: keyed)?.manager
        #expect(back?.itemCount == 3)
    }
}
