import AGViewModel
import Foundation

/// The app task on a twitter-style feed: JSON bytes to one row per status
/// (seven fields), as a Manager of ViewModels through the declarative spec
/// packager (parsing for the spec: everything checked, only what it reads
/// built), against Foundation's `JSONDecoder` into `Codable` structs (which
/// likewise decode only the fields the structs declare). A second row runs
/// the same task on a full `JSONValue(parsing:)`, and a third compares the
/// two ways of parsing.
enum JSONAppTaskBenchmark {
    /// The seven fields a timeline cell shows.
    static let specText = #"""
    {"name": "timeline", "items": "statuses", "fields": [
      {"key": "id", "path": "id_str", "type": "string", "required": true},
      {"key": "text", "path": "text", "type": "string", "default": ""},
      {"key": "screenName", "path": "user.screen_name", "type": "string"},
      {"key": "avatarURL", "path": "user.profile_image_url_https", "type": "string"},
      {"key": "reposts", "path": "retweet_count", "type": "int", "default": 0},
      {"key": "likes", "path": "favorite_count", "type": "int", "default": 0},
      {"key": "link", "path": "entities.urls[0].expanded_url", "type": "string"}]}
    """#

    /// The same fields as the structs a `Codable` app declares.
    struct Timeline: Decodable { let statuses: [Status] }
    struct Status: Decodable {
        let id_str: String
        let text: String?
        let user: User?
        let retweet_count: Int?
        let favorite_count: Int?
        let entities: Entities?
    }
    struct User: Decodable {
        let screen_name: String?
        let profile_image_url_https: String?
    }
    struct Entities: Decodable { let urls: [URLEntity]? }
    struct URLEntity: Decodable { let expanded_url: String? }

    /// The result rows for inputs with a top-level `statuses` array, else none.
    static func results(data: Data, name: String, runs: Int) throws -> [BenchmarkResult] {
        guard case .array(let statuses)? = try JSONValue(parsing: data)["statuses"], !statuses.isEmpty else { return [] }
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(specText.utf8)))
        let parsedForTheSpec = {
            let (manager, skipped) = try packager.packageManager(document: try packager.parseDocument(data))
            blackHole(manager.itemCount &+ skipped.count)
        }
        let parsedInFull = {
            let (manager, skipped) = try packager.packageManager(document: try JSONValue(parsing: data))
            blackHole(manager.itemCount &+ skipped.count)
        }
        let decoded = {
            let timeline = try JSONDecoder().decode(Timeline.self, from: data)
            blackHole(timeline.statuses.count)
        }
        return [
            try row("app: spec -> Manager", ours: parsedForTheSpec, peer: "JSONDecoder (Codable)", decoded, data: data, name: name, runs: runs),
            try row("app: same, full parse", ours: parsedInFull, peer: "JSONDecoder (Codable)", decoded, data: data, name: name, runs: runs),
            try row("app: spec -> Manager", ours: parsedForTheSpec, peer: "same, full parse", parsedInFull, data: data, name: name, runs: runs),
        ]
    }

    /// `ours` against `peer`, interleaved.
    private static func row(_ benchmark: String, ours: @escaping () throws -> Void, peer peerName: String, _ peer: @escaping () throws -> Void,
                            data: Data, name: String, runs: Int) throws -> BenchmarkResult {
        let oursReps = try JSONBenchmarks.repetitions(ours)
        let peerReps = try JSONBenchmarks.repetitions(peer)
        let t = try measureInterleaved(
            runs: runs,
            ours: { for _ in 0..<oursReps { try ours() } },
            peer: { for _ in 0..<peerReps { try peer() } })
        let bytes = Double(data.count)
        return BenchmarkResult(
            benchmark: benchmark, input: name, unit: "MB/s",
            ours: bytes * Double(oursReps) / t.ours / 1e6,
            peer: peerName,
            peerValue: bytes * Double(peerReps) / t.peer / 1e6)
    }
}
