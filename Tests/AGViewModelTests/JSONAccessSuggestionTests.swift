import Testing
import AGViewModel

/// A missing value's message says what was there instead: the key that
/// looks like the one asked for, or how long the array is.
@Suite("Safe JSON access: what a miss suggests")
struct JSONAccessSuggestionTests {
    let user: JSONValue = [
        "followersCount": 12, "screen_name": "ada", "Verified": true, "id": 1, "url": "https://x",
        "photos": [["w": 1], ["w": 2]], "tags": [],
    ]

    func error(_ path: String, in value: JSONValue) -> JSONAccessError? {
        do {
            _ = try value.read(JSONValue.self, at: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRenamedKeyIsSuggested() throws {
        let renamed = try #require(error("followers_count", in: user))
        #expect(renamed.suggestion == "followersCount")
        #expect(renamed.description == #"followers_count: missing (did you mean "followersCount"?)"#)
        #expect(error("screenName", in: user)?.suggestion == "screen_name")
        #expect(error("verified", in: user)?.suggestion == "Verified")      // case only
    }

    @Test func aTypoIsSuggested() {
        #expect(error("scren_name", in: user)?.suggestion == "screen_name")  // one edit
        #expect(error("folowersCont", in: user)?.suggestion == "followersCount")
    }

    @Test func nothingAlikeSuggestsNothing() throws {
        let unrelated = try #require(error("location", in: user))
        #expect(unrelated.suggestion == nil)
        #expect(unrelated.description == "location: missing")
        // A short key is not matched to every other short key.
        #expect(error("ab", in: user)?.suggestion == nil)
        #expect(error("uri", in: user)?.suggestion == nil)          // "url" is one edit away
        #expect(error("date", in: ["name": 1])?.suggestion == nil)  // two edits in four letters
    }

    @Test func anIndexOutOfRangeSaysHowLongTheArrayIs() {
        #expect(error("photos[5].w", in: user)?.description == "photos[5]: missing (the array has 2 elements)")
        #expect(error("tags[0]", in: user)?.description == "tags[0]: missing (the array is empty)")
        #expect(error("photos[0].h", in: user)?.description == "photos[0].h: missing")
        #expect(error("photos[1].W", in: user)?.suggestion == "w")
    }

    /// Objects, values and ViewModels say the same; equality ignores it.
    @Test func everyReaderSuggestsAndEqualityIgnoresIt() throws {
        let object = try #require(user.objectValue)
        #expect(throws: JSONAccessError(path: "followers_count", reason: .missing)) {
            try object.read(Int.self, at: "followers_count")
        }
        do {
            _ = try object.read(Int.self, at: "followers_count")
        } catch {
            #expect(error.suggestion == "followersCount")
        }
        let viewModel = ViewModel(object)
        viewModel[value: "author"] = .payload(ViewModel(["displayName": "Ada"]))
        do {
            _ = try viewModel.read(String.self, at: "author.display_name")
            Issue.record("read a missing key")
        } catch {
            #expect(error.description == #"author.display_name: missing (did you mean "displayName"?)"#)
        }
        do {
            _ = try viewModel.read(String.self, at: "Screen-Name")
            Issue.record("read a missing key")
        } catch {
            #expect(error.suggestion == "screen_name")
        }
    }
}
