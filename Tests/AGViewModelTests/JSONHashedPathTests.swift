import Testing
@testable import AGViewModel

@Suite("Paths with hashed keys read like plain paths")
struct JSONHashedPathTests {
    /// Objects on both sides of the hash-index threshold, at every depth.
    static let document: JSONObject = {
        func wide(_ prefix: String, extra: [String: JSONValue]) -> JSONValue {
            var object = JSONObject()
            for i in 0..<(JSONObject.indexThreshold + 3) { object["\(prefix)\(i)"] = .int(Int64(i)) }
            for (key, value) in extra.sorted(by: { $0.key < $1.key }) { object[key] = value }
            return .object(object)
        }
        let urls: JSONValue = [["expanded_url": "https://a.example", "indices": [0, 22]], .null, 7]
        var root = JSONObject()
        root["text"] = "hello"
        root["place"] = .null
        root["count"] = 3
        root["user"] = wide("u", extra: ["screen_name": "ann", "entities": wide("e", extra: ["urls": urls]), "nothing": .null])
        root["small"] = ["name": "Bo", "tags": ["a", "b"]]
        root["weird.key"] = "dotted"
        for i in 0..<JSONObject.indexThreshold { root["k\(i)"] = .bool(i % 2 == 0) }
        return root
    }()

    static let paths: [String] = [
        "text", "place", "count", "missing", "weird\\.key", "weird.key",
        "user", "user.screen_name", "user.u0", "user.u14", "user.missing", "user.nothing", "user.nothing.deeper",
        "user.entities.urls[0].expanded_url", "user.entities.urls[0].indices[1]", "user.entities.urls[0].indices[2]",
        "user.entities.urls[1].expanded_url", "user.entities.urls[2].x", "user.entities.urls[3]",
        "user.entities.e3", "user.entities.missing.deeper", "small.name", "small.tags[1]", "small.tags.name",
        "text.length", "count[0]", "[0]", "k0", "k11", "k12",
    ]

    @Test(arguments: paths)
    func findsWhatThePlainPathFinds(text: String) {
        let path = JSONPath(text)
        #expect(Self.document.lookup(JSONHashedPath(path)) == Self.document.lookup(path))
        #expect(Self.document.value(at: JSONHashedPath(path)) == Self.document.value(at: path))
    }

    /// Parsed objects: their index is built from interned keys, and a
    /// repeated key keeps its first position with the last value.
    @Test func readsParsedObjectsWithRepeatedKeys() throws {
        let wide = (0..<(JSONObject.indexThreshold + 2)).map { #""w\#($0)": \#($0)"# }.joined(separator: ", ")
        let text = #"{"id": 1, "user": {\#(wide), "screen_name": "ann", "screen_name": "bea", "deep": {\#(wide), "x": [true]}}, "id": 2, \#(wide)}"#
        guard case .object(let document) = try JSONValue(parsing: text) else {
            Issue.record("not an object")
            return
        }
        let paths = ["id", "w0", "w13", "user.screen_name", "user.w5", "user.deep.x[0]", "user.deep.w13", "user.deep.missing", "user.id", "id.x"]
        for text in paths {
            let path = JSONPath(text)
            #expect(document.lookup(JSONHashedPath(path)) == document.lookup(path), "\(text)")
            #expect(document.value(at: JSONHashedPath(path)) == document.value(at: path), "\(text)")
        }
        #expect(document.lookup(JSONHashedPath(JSONPath("user.screen_name"))) == .success("bea"))
        #expect(document.lookup(JSONHashedPath(JSONPath("id"))) == .success(2))
    }

    @Test func anEmptyPathIsTheObjectItself() {
        let path = JSONPath([])
        #expect(Self.document.lookup(JSONHashedPath(path)) == .success(.object(Self.document)))
        #expect(Self.document.value(at: JSONHashedPath(path)) == .object(Self.document))
    }

    /// An index rebuilt by mutation still answers with the same hashes.
    @Test func readsObjectsChangedAfterTheyWereBuilt() {
        var object = Self.document
        let path = JSONHashedPath(JSONPath("user.screen_name"))
        object["user"]?["screen_name"] = "bea"
        for i in 0..<40 { object["added\(i)"] = .int(Int64(i)) }
        object.removeValue(forKey: "k3")
        #expect(object.lookup(path) == .success("bea"))
        #expect(object.lookup(JSONHashedPath(JSONPath("added39"))) == .success(39))
        #expect(object.lookup(JSONHashedPath(JSONPath("k3"))) == object.lookup(JSONPath("k3")))
    }
}
