import Foundation

/// The documents the bench measures: files named on the command line, else
/// the shared corpora beside a clone (`../shared/data/twitter.json` and
/// `citm_catalog.json`), else documents of the same shapes generated here,
/// so the bench runs on a fresh clone.
enum BenchmarkCorpus {
    /// The shared corpora's file names.
    static let sharedNames = ["twitter.json", "citm_catalog.json"]

    /// A file that cannot be used, with the system's reason.
    struct MissingFile: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot read \(path): \(reason)" }
    }

    /// The inputs for `paths` (checked readable), or the default corpora.
    /// `note` is called with one line saying which defaults were chosen.
    static func inputs(for paths: [String], note: (String) -> Void) throws -> [URL] {
        if !paths.isEmpty {
            for path in paths {
                let fd = open(path, O_RDONLY)
                guard fd >= 0 else { throw MissingFile(path: path, reason: String(cString: strerror(errno))) }
                var info = stat()
                let isDirectory = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                close(fd)
                if isDirectory { throw MissingFile(path: path, reason: "is a directory") }
            }
            return paths.map { URL(fileURLWithPath: $0) }
        }
        let forceGenerated = ProcessInfo.processInfo.environment["AGVM_BENCH_GENERATED"] != nil
        for directory in forceGenerated ? [] : sharedDirectories() {
            let urls = sharedNames.map { directory.appendingPathComponent($0) }
            if urls.allSatisfy({ FileManager.default.isReadableFile(atPath: $0.path) }) {
                return urls
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agvm-bench-corpus")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let twitter = directory.appendingPathComponent("twitter.generated.json")
        let catalogue = directory.appendingPathComponent("citm_catalog.generated.json")
        try Data(twitterLike(statuses: 100).utf8).write(to: twitter, options: .atomic)
        try Data(catalogueLike(events: 2_000).utf8).write(to: catalogue, options: .atomic)
        note((forceGenerated ? "AGVM_BENCH_GENERATED set" : "no ../shared/data beside the clone")
            + ": measuring generated corpora in \(directory.path) "
            + "(pass files as arguments to measure your own)")
        return [twitter, catalogue]
    }

    /// Where shared corpora may be: beside the working directory, beside the
    /// package (this file is in Sources/agvm-bench), and AGVM_BENCH_DATA.
    static func sharedDirectories() -> [URL] {
        var directories: [URL] = []
        if let custom = ProcessInfo.processInfo.environment["AGVM_BENCH_DATA"] {
            directories.append(URL(fileURLWithPath: custom))
        }
        directories.append(URL(fileURLWithPath: "../shared/data"))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        directories.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data"))
        return directories
    }

    /// A search-API-like document: `{"statuses": [...], "search_metadata": {...}}`
    /// with users, entities, Unicode text and escapes, deterministic.
    static func twitterLike(statuses count: Int) -> String {
        var generator = BenchRandom(seed: 0x5EED)
        let words = ["swift", "actor", "東京", "café", "naïve", "\\\"quoted\\\"", "line\\nbreak", "emoji 😀", "data", "json"]
        var statuses: [String] = []
        statuses.reserveCapacity(count)
        for i in 0 ..< count {
            let id = 505_874_924_095_815_681 + i
            let text = (0 ..< 12).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
            let user = Int(generator.next() % 500)
            let url = generator.next() % 3 == 0 ? "[]" : #"[{"url": "https://t.co/\#(i)", "expanded_url": "https://example.com/post/\#(i)", "indices": [0, 22]}]"#
            statuses.append("""
            {"id": \(id), "id_str": "\(id)", "text": "\(text)", "created_at": "Sun Aug 31 00:29:15 +0000 2014",
             "user": {"id": \(user), "screen_name": "user_\(user)", "name": "User \(user)", "followers_count": \(generator.next() % 100_000),
                      "profile_image_url_https": "https://pbs.example.com/profile_images/\(user)/avatar.png", "verified": \(user % 7 == 0)},
             "entities": {"hashtags": [], "urls": \(url), "user_mentions": []},
             "favorite_count": \(generator.next() % 1000), "retweet_count": \(generator.next() % 300),
             "favorited": false, "retweeted": false, "lang": "\(["en", "ja", "fr"][i % 3])", "coordinates": null}
            """)
        }
        return #"{"statuses": ["# + statuses.joined(separator: ",\n") + #"], "search_metadata": {"count": \#(count), "max_id": 505874924095815681}}"#
    }

    /// A catalogue-like document: maps keyed by ids, nested arrays of numbers.
    static func catalogueLike(events count: Int) -> String {
        var generator = BenchRandom(seed: 0xC17)
        var events: [String] = []
        var performances: [String] = []
        for i in 0 ..< count {
            let id = 138_586_341 + 4 * i
            events.append(#""\#(id)": {"description": null, "id": \#(id), "logo": "/images/UE0AAAAACEKo6QAAAAZDSVRN\#(i)", "name": "Event \#(i)", "subTopicIds": [337184269, 337184283], "subjectCode": null, "subtitle": null, "topicIds": [324846099, 107888604]}"#)
            let prices = (0 ..< 3).map { _ in #"{"amount": \#(generator.next() % 200_000), "audienceSubCategoryId": 337100890, "seatCategoryId": 338937295}"# }
            performances.append(#"{"eventId": \#(id), "id": \#(339_887_544 + i), "logo": null, "name": null, "prices": [\#(prices.joined(separator: ", "))], "seatCategories": [{"areas": [{"areaId": 205705999, "blockIds": []}], "seatCategoryId": 338937295}], "start": \#(1_372_615_200_000 + i * 3_600_000), "venueCode": "PLEYEL_PLEYEL"}"#)
        }
        return #"{"areaNames": {"205705993": "Arrière-scène central", "205705994": "1er balcon central"}, "events": {"# + events.joined(separator: ",\n")
            + #"}, "performances": ["# + performances.joined(separator: ",\n") + #"], "venueNames": {"PLEYEL_PLEYEL": "Salle Pleyel"}}"#
    }
}
