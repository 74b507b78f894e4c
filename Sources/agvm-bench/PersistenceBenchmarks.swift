import AGViewModel
import Foundation

/// Packaging, export and archives: twitter.json's statuses packaged with a
/// spec into a manager (one section of statuses), then exported to JSON,
/// archived and read back.
///
/// - `spec packaging`: parse + spec packaging into a manager, in MB/s of
///   source JSON, against `JSONSerialization` plus a hand-written loop
///   copying the same fields into `[String: Any]` dictionaries.
/// - `json export`: the manager exported to JSON bytes (everything), in
///   thousands of items per second, against `JSONSerialization.data` of the
///   peer's equivalent `["sections": [["items": [...]]]]` content.
/// - `archive write` / `archive read`: the manager encoded to and decoded
///   from an in-memory archive (header and CRC-32 included), in thousands of
///   items per second, against `NSKeyedArchiver` / `NSKeyedUnarchiver` of the
///   peer's content (NSDictionary / NSArray with the same data).
enum PersistenceBenchmarks {
    static let group = BenchmarkGroup(name: "persistence") { context in
        guard let url = context.inputs.first(where: { $0.lastPathComponent.contains("twitter") }) else {
            throw BenchmarkError("the persistence group needs twitter.json among the inputs")
        }
        return try run(url: url, runs: context.runs)
    }

    /// The mapping both sides implement.
    static let specText = """
    {"name": "timeline", "items": "statuses",
     "fields": [
       {"key": "id", "path": "id_str", "type": "string", "required": true},
       {"key": "text", "path": "text", "type": "string", "default": ""},
       {"key": "screenName", "path": "user.screen_name", "type": "string"},
       {"key": "handle", "template": "@{user.screen_name}"},
       {"key": "avatar", "path": "user.profile_image_url_https", "type": "url"},
       {"key": "firstURL", "path": "entities.urls[0].expanded_url", "type": "url"},
       {"key": "likes", "path": "favorite_count", "type": "int", "default": 0},
       {"key": "retweets", "path": "retweet_count", "type": "int", "default": 0},
       {"key": "favorited", "path": "favorited", "type": "bool"},
       {"key": "lang", "path": "lang", "type": "string", "format": "lowercase"},
       {"key": "user", "path": "user", "type": "object"},
       {"key": "entities", "path": "entities", "type": "object"}]}
    """

    /// The same mapping, by hand, over Foundation's types.
    static func peerPackage(_ data: Data) throws -> [[String: Any]] {
        try peerPackage(parsed: JSONSerialization.jsonObject(with: data))
    }

    /// The hand-written loop alone, over an already parsed document.
    static func peerPackage(parsed: Any) throws -> [[String: Any]] {
        let root = parsed as? [String: Any]
        guard let statuses = root?["statuses"] as? [Any] else { throw BenchmarkError("no statuses") }
        var out: [[String: Any]] = []
        out.reserveCapacity(statuses.count)
        for case let status as [String: Any] in statuses {
            guard let id = status["id_str"] as? String else { continue }
            var item: [String: Any] = ["id": id]
            item["text"] = status["text"] as? String ?? ""
            let user = status["user"] as? [String: Any]
            if let name = user?["screen_name"] as? String {
                item["screenName"] = name
                item["handle"] = "@" + name
            }
            if let avatar = user?["profile_image_url_https"] as? String, !avatar.isEmpty, URL(string: avatar) != nil {
                item["avatar"] = avatar
            }
            let entities = status["entities"] as? [String: Any]
            if let urls = entities?["urls"] as? [Any], let first = urls.first as? [String: Any],
               let url = first["expanded_url"] as? String, !url.isEmpty, URL(string: url) != nil {
                item["firstURL"] = url
            }
            item["likes"] = (status["favorite_count"] as? NSNumber)?.int64Value ?? 0
            item["retweets"] = (status["retweet_count"] as? NSNumber)?.int64Value ?? 0
            if let favorited = status["favorited"] as? Bool { item["favorited"] = favorited }
            if let lang = status["lang"] as? String { item["lang"] = lang.lowercased() }
            if let user { item["user"] = user }
            if let entities { item["entities"] = entities }
            out.append(item)
        }
        return out
    }

    static func run(url: URL, runs: Int) throws -> [BenchmarkResult] {
        let data = try Data(contentsOf: url)
        let input = url.lastPathComponent
        let packager = SpecPackager(spec: try PackagingSpec(data: Data(specText.utf8), source: "bench spec"))

        // Sanity: both sides package the same number of items.
        let (manager, skipped) = try packager.packageManager(document: JSONValue(parsing: data))
        let peerItems = try peerPackage(data)
        guard manager.count == 1, manager.itemCount == peerItems.count, !peerItems.isEmpty, skipped.isEmpty else {
            throw BenchmarkError("sides disagree: \(manager.itemCount) vs \(peerItems.count) items")
        }
        let peerManager = sharingOneNull(["sections": [["items": peerItems]]]) as! [String: Any]
        let count = Double(manager.itemCount)

        var results: [BenchmarkResult] = []
        let megabytes = Double(data.count) / 1_000_000
        let packaging = try measureInterleaved(runs: runs, ours: {
            blackHole(try packager.packageManager(document: JSONValue(parsing: data)))
        }, peer: {
            blackHole(try peerPackage(data))
        })
        results.append(BenchmarkResult(
            benchmark: "spec packaging", input: input, unit: "MB/s", ours: megabytes / packaging.ours,
            peer: "JSONSerialization+loop", peerValue: megabytes / packaging.peer))

        // Export and archives: repeat inside each sample so a sample lasts milliseconds.
        let repeats = 10
        let exported = try manager.exportJSONData(options: .everything)
        let peerExported = try JSONSerialization.data(withJSONObject: peerManager)
        guard try JSONValue(parsing: exported)["sections"]?[0]?["items"]?.arrayValue?.count == peerItems.count,
              peerExported.count > 0 else {
            throw BenchmarkError("exports disagree")
        }
        let export = try measureInterleaved(runs: runs, ours: {
            for _ in 0 ..< repeats { blackHole(try manager.exportJSONData(options: .everything)) }
        }, peer: {
            blackHole(try JSONSerialization.data(withJSONObject: peerManager))
        })
        results.append(BenchmarkResult(
            benchmark: "json export", input: input, unit: "Kitems/s", ours: count * Double(repeats) / export.ours / 1000,
            peer: "JSONSerialization.data", peerValue: count / export.peer / 1000))

        let encoder = ArchiveEncoder(keys: .everything)
        let peerArray = peerManager as NSDictionary
        let ourArchive = try encoder.encode(.manager(manager)).data
        let peerArchive = try NSKeyedArchiver.archivedData(withRootObject: peerArray, requiringSecureCoding: false)
        // swift-corelibs NSKeyedArchiver takes seconds for 100 statuses (it
        // grows faster than linearly), so the peer runs once per sample and
        // at most 3 samples are taken.
        let write = try measureInterleaved(runs: min(runs, 3), ours: {
            for _ in 0 ..< repeats { blackHole(try encoder.encode(.manager(manager))) }
        }, peer: {
            blackHole(try NSKeyedArchiver.archivedData(withRootObject: peerArray, requiringSecureCoding: false))
        })
        results.append(BenchmarkResult(
            benchmark: "archive write", input: input, unit: "Kitems/s", ours: count * Double(repeats) / write.ours / 1000,
            peer: "NSKeyedArchiver", peerValue: count / write.peer / 1000))

        let decoder = ArchiveDecoder()
        guard case .manager(let back) = try decoder.decode(ourArchive), back.itemCount == manager.itemCount,
              let peerBack = try unarchive(peerArchive),
              ((peerBack["sections"] as? [Any])?.first as? [String: Any])?["items"].map({ ($0 as? [Any])?.count }) == peerItems.count else {
            throw BenchmarkError("archives do not read back")
        }
        let read = try measureInterleaved(runs: runs, ours: {
            for _ in 0 ..< repeats { blackHole(try decoder.decode(ourArchive)) }
        }, peer: {
            for _ in 0 ..< repeats { blackHole(try unarchive(peerArchive)) }
        })
        results.append(BenchmarkResult(
            benchmark: "archive read", input: input, unit: "Kitems/s", ours: count * Double(repeats) / read.ours / 1000,
            peer: "NSKeyedUnarchiver", peerValue: count * Double(repeats) / read.peer / 1000))
        if ProcessInfo.processInfo.environment["AGVM_BENCH_VERBOSE"] != nil {
            // Where the time goes: parse and packaging apart, on both sides.
            let document = try JSONValue(parsing: data)
            let foundation = try JSONSerialization.jsonObject(with: data)
            let packagingOnly = try measureInterleaved(runs: runs, ours: { blackHole(try packager.packageManager(document: document)) },
                                                       peer: { blackHole(try peerPackage(parsed: foundation)) })
            let parseOnly = try measureInterleaved(runs: runs, ours: { blackHole(try JSONValue(parsing: data)) },
                                                   peer: { blackHole(try JSONSerialization.jsonObject(with: data)) })
            FileHandle.standardError.write(Data("""
                persistence: packaging only \(packagingOnly.ours * 1e3) ms (peer loop \(packagingOnly.peer * 1e3) ms); \
                parse only \(parseOnly.ours * 1e3) ms (JSONSerialization \(parseOnly.peer * 1e3) ms)

                """.utf8))
            FileHandle.standardError.write(Data("persistence: \(manager.itemCount) items; export \(exported.count) bytes, JSONSerialization \(peerExported.count) bytes; archive \(ourArchive.count) bytes, NSKeyedArchiver \(peerArchive.count) bytes\n".utf8))
        }
        return results
    }

    /// `value` with every `NSNull` replaced by one shared instance.
    ///
    /// `JSONSerialization` on Linux makes a new `NSNull` per `null` (and so
    /// does `NSNull()`): they are all equal but hash by address.
    /// `NSKeyedArchiver` keeps the objects it has seen in a hashed dictionary,
    /// which traps ("Duplicate keys of type 'AnyHashable'") when two of these
    /// nulls meet in one probe sequence. That depends on the hash seed, so
    /// about one run in eight crashed. One instance is what the archiver would
    /// have kept anyway.
    static func sharingOneNull(_ value: Any) -> Any {
        switch value {
        case is NSNull: sharedNull
        case let dictionary as [String: Any]: dictionary.mapValues(sharingOneNull)
        case let array as [Any]: array.map(sharingOneNull)
        default: value
        }
    }

    static let sharedNull = NSNull()

    static func unarchive(_ data: Data) throws -> NSDictionary? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSDictionary
    }
}
