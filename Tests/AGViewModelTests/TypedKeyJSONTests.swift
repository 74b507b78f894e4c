import Testing
import AGViewModel

private nonisolated extension ViewModel.Key where Value == String {
    static var statusID: Self { "id_str" }
    static var statusText: Self { "text" }
    static var dottedName: Self { "user.name" }
}
private nonisolated extension ViewModel.Key where Value == Int {
    static var retweets: Self { "retweet_count" }
}

@Suite("Typed keys on raw JSON")
struct TypedKeyJSONTests {
    let status: JSONObject = [
        "id_str": "42", "text": "hello", "retweet_count": "7", "user.name": "flat",
        "user": ["name": "nested"], "nothing": nil,
    ]

    @Test func subscriptsReadLeniently() {
        #expect(status[.statusText] == "hello")
        #expect(status[.retweets] == 7)                  // a numeric string reads as a number
        #expect(status[ViewModel.Key<Int>("text")] == nil) // not readable: nil, no crash
        #expect(status[ViewModel.Key<String>("missing")] == nil)
        #expect(status[.retweets, default: 0] == 7)
        #expect(status[ViewModel.Key<Int>("missing"), default: -1] == -1)

        let value = JSONValue.object(status)
        #expect(value[.statusText] == "hello")
        #expect(JSONValue.array([1])[.statusText] == nil)  // not an object
        #expect(JSONValue.null[.retweets, default: 3] == 3)
    }

    /// A key is one member, never a path: the dotted name is the flat member.
    @Test func aKeyNameIsNotAPath() throws {
        #expect(status[.dottedName] == "flat")
        #expect(try status.read(.dottedName) == "flat")
        #expect(status.string(at: "user.name") == "nested")
    }

    @Test func readThrowsWhyItFailed() throws {
        #expect(try status.read(.statusID) == "42")
        #expect(try JSONValue.object(status).read(.retweets) == 7)
        #expect(try ViewModel(status).read(.statusText) == "hello")

        #expect { try status.read(ViewModel.Key<String>("missing")) } throws: { error in
            (error as? JSONAccessError)?.reason == .missing
        }
        #expect { try status.read(ViewModel.Key<String>("nothing")) } throws: { error in
            (error as? JSONAccessError)?.reason == .null
        }
        #expect { try status.read(ViewModel.Key<Int>("text")) } throws: { error in
            guard case .typeMismatch? = (error as? JSONAccessError)?.reason else { return false }
            return true
        }
    }

    /// A literal still reads the untyped value where both fit.
    @Test func aLiteralReadsTheJSONValue() {
        let text = status["text"]
        #expect(text == .string("hello"))
        let typed: String? = status[.statusText]
        #expect(typed == "hello")
    }

    /// With a default too, a literal reads the untyped value on an object
    /// and on a value alike; a typed key, or a context asking for a type,
    /// reads the typed one.
    @Test func aLiteralWithADefaultReadsTheJSONValueOnBoth() {
        let value = JSONValue.object(status)
        let fromObject = status["retweet_count", default: 0]
        let fromValue = value["retweet_count", default: 0]
        #expect(fromObject == .string("7"))
        #expect(fromValue == .string("7"))
        #expect(type(of: fromObject) == type(of: fromValue))
        #expect(value["missing", default: 0] == 0)
        #expect(JSONValue.array([1])["text", default: "none"] == "none")
        let typed: Int = value["retweet_count", default: 0]
        #expect(typed == 7)
        #expect(value[.retweets, default: 0] == 7)

        var counts = JSONValue.null
        counts["likes", default: 0] = 3
        #expect(counts == ["likes": 3])
    }

    /// What a hand-written packager writes with generated keys.
    @Test func packagingWithTheSameKeys() throws {
        let viewModel = ViewModel()
        viewModel[.statusID] = try status.read(.statusID)
        viewModel[.statusText] = status[.statusText]
        viewModel[.retweets] = status[.retweets, default: 0]
        #expect(viewModel.exportJSON(options: .everything) == ["id_str": "42", "text": "hello", "retweet_count": 7])
    }
}
