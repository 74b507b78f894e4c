import Foundation
import Testing
@testable import AGViewModel

@Suite("Safe JSON access")
struct SafeJSONAccessTests {
    static let tweet: JSONValue = try! JSONValue(parsing: """
    {
      "id": 505874924095815681,
      "id_str": "505874924095815681",
      "text": "hello",
      "retweet_count": "12",
      "favorite_count": 3.0,
      "score": 4.75,
      "possibly_sensitive": false,
      "truncated": 0,
      "verified": "yes",
      "place": null,
      "user": {"name": "Ann", "screen_name": "ann", "followers_count": "12k", "url": "https://ann.example/"},
      "entities": {"urls": [{"expanded_url": "https://example.com/a?b=c", "indices": [0, 22]}], "hashtags": []},
      "weird.key": "dotted"
    }
    """)

    @Test func readsByKeyAndByPath() {
        let t = Self.tweet
        #expect(t.string(at: "text") == "hello")
        #expect(t.string(at: "user.name") == "Ann")
        #expect(t.url(at: "entities.urls[0].expanded_url") == URL(string: "https://example.com/a?b=c"))
        #expect(t.int(at: "entities.urls[0].indices[1]") == 22)
        #expect(t.array(at: "entities.hashtags")?.isEmpty == true)
        #expect(t.object(at: "user")?.keys.first == "name")
        #expect(t.string(at: "weird\\.key") == "dotted")
        #expect(t.value(at: JSONPath([.key("weird.key")])) == "dotted")
        #expect(t.value(at: "place") == .null)
    }

    @Test func numbersAndStringsConvertBothWays() {
        let t = Self.tweet
        #expect(t.int64(at: "id") == 505874924095815681)
        #expect(t.int64(at: "id_str") == 505874924095815681)
        #expect(t.string(at: "id") == "505874924095815681")
        #expect(t.int(at: "retweet_count") == 12)
        #expect(t.int(at: "favorite_count") == 3)
        #expect(t.int(at: "score") == nil)  // not integral
        #expect(t.double(at: "score") == 4.75)
        #expect(t.double(at: "retweet_count") == 12)
        #expect(t.string(at: "score") == "4.75")
        #expect(t.bool(at: "possibly_sensitive") == false)
        #expect(t.bool(at: "truncated") == false)
        #expect(t.bool(at: "verified") == true)
        #expect(JSONValue.bigInteger("18446744073709551616").string(at: "") == "18446744073709551616")
        #expect(JSONValue.bigInteger("18446744073709551616").read(String.self, at: JSONPath([]), default: "") == "18446744073709551616")
        // Beyond Double's range an integer has no Double value: never infinity.
        let huge = JSONValue.bigInteger(String(repeating: "9", count: 400))
        #expect(huge.double(at: "") == nil)
        #expect(JSONValue.bigInteger("-" + String(repeating: "9", count: 400)).double(at: "") == nil)
        #expect(JSONValue.bigInteger("1" + String(repeating: "0", count: 300)).double(at: "") == 1e300)
    }

    @Test func defaultsCoverMissingNullAndWrongTypes() {
        let t = Self.tweet
        #expect(t.string(at: "user.bio", default: "none") == "none")
        #expect(t.string(at: "place.name", default: "nowhere") == "nowhere")
        #expect(t.int(at: "user.followers_count", default: -1) == -1)
        #expect(t.double(at: "text", default: 0) == 0)
        #expect(t.bool(at: "missing", default: true) == true)
        #expect(t.array(at: "user", default: []) == [])
        #expect(t.object(at: "text", default: ["a": 1]) == ["a": 1])
        #expect(t.url(at: "text") == URL(string: "hello"))
        #expect(t.url(at: "place") == nil)
        for text in ["", " https://example.com", "https://example.com ", "a\u{0}b", "line\nbreak", "\u{1B}[2J", "a\u{85}"] {
            #expect(JSONValue.string(text).urlValue == nil, "\(text.debugDescription)")
        }
        #expect(JSONValue.string("https://example.com/a b").urlValue?.absoluteString == "https://example.com/a%20b")
        #expect(JSONValue.string("images/1.png").urlValue?.relativeString == "images/1.png")
        // A big integer made by hand inside the Int64 range reads as the number it is.
        #expect(JSONValue.bigInteger("42").intValue == 42 && JSONValue.bigInteger("-7").int64Value == -7)
        #expect(JSONValue.bigInteger("12345678901234567890").intValue == nil)
        #expect(JSONValue.bigInteger("0").boolValue == false && JSONValue.bigInteger("-0").boolValue == false)
        #expect(JSONValue.bigInteger("12345678901234567890").boolValue == true)
        let fallback = URL(string: "https://example.com/none")!
        #expect(t.url(at: "place", default: fallback) == fallback)
        #expect(t.url(at: JSONPath("entities.urls[0].expanded_url"), default: fallback) == URL(string: "https://example.com/a?b=c"))
    }

    @Test func errorsSayWhyAReadFailed() throws {
        let t = Self.tweet
        #expect(throws: JSONAccessError(path: "user.bio", reason: .missing)) {
            try t.read(String.self, at: "user.bio")
        }
        #expect(throws: JSONAccessError(path: "entities.urls[3]", reason: .missing)) {
            try t.read(String.self, at: "entities.urls[3].expanded_url")
        }
        #expect(throws: JSONAccessError(path: "place", reason: .null)) {
            try t.read(String.self, at: "place")
        }
        #expect(throws: JSONAccessError(path: "place", reason: .null)) {
            try t.read(String.self, at: "place.name")
        }
        #expect(throws: JSONAccessError(path: "text", reason: .notAContainer(found: .string))) {
            try t.read(String.self, at: "text.length")
        }
        #expect(throws: JSONAccessError(path: "user", reason: .notAContainer(found: .object))) {
            try t.read(String.self, at: "user[0]")
        }
        do {
            _ = try t.read(Int.self, at: "user.followers_count")
            Issue.record("12k is not an integer")
        } catch {
            #expect(error.reason == .typeMismatch(expected: "an integer", found: .string, value: "\"12k\""))
            #expect(error.description == "user.followers_count: expected an integer, found string \"12k\"")
        }
    }

    @Test func objectsAccessTheSameWay() throws {
        let user = try #require(Self.tweet.object(at: "user"))
        #expect(user.string(at: "screen_name") == "ann")
        #expect(user.lookup(JSONPath([])) == .success(.object(user)))
        #expect(throws: JSONAccessError(path: "nope", reason: .missing)) {
            try user.read(String.self, at: "nope")
        }
    }

    @Test func pathsParseAndPrint() {
        #expect(JSONPath(parsing: "entities.urls[0].expanded_url")?.components
            == [.key("entities"), .key("urls"), .index(0), .key("expanded_url")])
        #expect(JSONPath(parsing: "[2][0]")?.components == [.index(2), .index(0)])
        #expect(JSONPath(parsing: "a\\.b.c")?.components == [.key("a.b"), .key("c")])
        for bad in ["a..b", ".a", "a.", "a[x]", "a[-]", "a[--1]", "a[0", "a[0]b", "a[]"] {
            #expect(JSONPath(parsing: bad) == nil, "\(bad)")
        }
        #expect(JSONPath(parsing: "a[-1]")?.components == [.key("a"), .index(-1)])
        #expect(JSONPath(parsing: "a[-0]")?.components == [.key("a"), .index(-1)])
        // Past Int's range: an index that names nothing, never a key.
        #expect(JSONPath(parsing: "a[99999999999999999999]")?.components == [.key("a"), .index(.max)])
        #expect(JSONPath(parsing: "a[-99999999999999999999]")?.components == [.key("a"), .index(-1)])
        let vm = ViewModel(["a": [1]])
        vm.setValue(5, at: "a[99999999999999999999]")
        var json: JSONValue = ["a": [1]]
        json.setValue(5, at: "a[99999999999999999999]")
        #expect(vm.keys == ["a"] && vm["a"] == [1] && json == ["a": [1]])
        #expect(vm.value(at: "a[99999999999999999999]") == nil)
        // A key that starts with a combining mark stays its own key.
        let marked = JSONPath([.key("a"), .key("\u{301}b"), .key(".\u{301}")])
        #expect(JSONPath(parsing: marked.description) == marked)
        #expect(JSONPath("a.\u{301}b").components == [.key("a"), .key("\u{301}b")])
        let path = JSONPath([.key("a.b"), .index(1), .key("c[d")])
        #expect(path.description == "a\\.b[1].c\\[d")
        #expect(JSONPath(parsing: path.description) == path)
        // A malformed literal is one literal key, so it simply finds nothing.
        let literal: JSONPath = "a..b"
        #expect(literal.components == [.key("a..b")])
    }

    @Test func readsNeverTrapOnOddInput() {
        let odd: JSONValue = [1, "two", nil, [3], ["x": 4]]
        #expect(odd.int(at: "[0]") == 1)
        #expect(odd.int(at: "[1]") == nil)
        #expect(odd.int(at: "[99]") == nil)
        #expect(odd.int(at: "[3][0]") == 3)
        #expect(odd.int(at: "[4].x") == 4)
        #expect(odd.string(at: "x") == nil)
        #expect(JSONValue.double(1e300).int(at: JSONPath([])) == nil)
        #expect(JSONValue.string("1e999").double(at: JSONPath([])) == nil)
        #expect(JSONValue.string("nan").double(at: JSONPath([])) == nil)
    }

    @Test func floatsReadAnyNumberRoundedAndNeverOverflow() throws {
        let json: JSONValue = ["price": 9.99, "count": 3, "text": "2.5", "huge": 1e300, "big": "1e39",
                               "word": "nine", "none": nil]
        #expect(json.float(at: "price") == Float(9.99))
        #expect(json.float(at: "count") == 3)
        #expect(json.float(at: "text") == 2.5)
        #expect(json.float(at: "huge") == nil)       // past Float's range: not infinity
        #expect(json.float(at: "big") == nil)
        #expect(json.float(at: "word") == nil && json.float(at: "none") == nil && json.float(at: "missing") == nil)
        #expect(json.float(at: "huge", default: -1) == -1)
        // Exact values round once: an integer and a numeric string just
        // above a halfway point between two floats round up (through a
        // double they would land on the halfway point, then round to even).
        let exact = try JSONValue(parsing: #"{"i": 1152921573326323713, "s": "1.00000005960464477539062501"}"#)
        #expect(exact.float(at: "i") == Float(exactly: 1 << 60)! + Float(exactly: 1 << 37)!)
        #expect(exact.float(at: "s") == Float(1).nextUp)
        #expect(try json.read(Float.self, at: "price") == Float(9.99))
        #expect(throws: JSONAccessError.self) { try json.read(Float.self, at: "word") }
        // The same reads on a ViewModel, and typed keys store a float as its short text.
        let item = ViewModel(["price": 9.99])
        #expect(item.float(at: "price") == Float(9.99))
        let rating: ViewModel.Key<Float> = "rating"
        item[rating] = 0.1
        #expect(item.exportJSON(options: .everything)["rating"] == .double(0.1))
        #expect(item[rating] == 0.1 && item.float(at: "rating") == 0.1)
    }

    @Test func aResolveClosureSeesWhatWasFoundAndDecides() {
        let json: JSONValue = ["count": "12", "broken": "twelve", "none": nil, "exact": 5]
        var seen: [String: String] = [:]
        func count(at key: String) -> Int {
            json.read(Int.self, at: key) { found, read in
                seen[key] = "\(found.map { "\($0)" } ?? "absent") -> \(read.map(String.init) ?? "unreadable")"
                return read ?? -1
            }
        }
        #expect(count(at: "count") == 12)
        #expect(count(at: "broken") == -1)
        #expect(count(at: "none") == -1)
        #expect(count(at: "missing") == -1)
        #expect(count(at: "exact") == 5)
        #expect(seen == ["count": "\"12\" -> 12", "broken": "\"twelve\" -> unreadable", "none": "null -> unreadable",
                         "missing": "absent -> unreadable", "exact": "5 -> 5"])
        // A path value, and a closure that throws.
        struct Refused: Error {}
        #expect(json.read(String.self, at: JSONPath([.key("exact")])) { _, read in read ?? "" } == "5")
        #expect(throws: Refused.self) {
            try json.read(Int.self, at: "broken") { _, read in
                guard let read else { throw Refused() }
                return read
            }
        }
    }
}

extension SafeJSONAccessTests {
    @Test func theStringsOneAndZeroReadAsBooleans() {
        let json: JSONValue = ["on": "1", "off": "0", "word": "Yes"]
        #expect(json.bool(at: "on") == true)
        #expect(json.bool(at: "off") == false)
        #expect(json.bool(at: "word") == true)
    }

    @Test func urlsWithASpaceAtEitherEndDoNotRead() {
        let json: JSONValue = ["leading": " https://example.com/a", "trailing": "https://example.com/a ", "inner": "https://example.com/a b"]
        #expect(json.url(at: "leading") == nil)
        #expect(json.url(at: "trailing") == nil)
        #expect(json.url(at: "inner") != nil)
    }

    /// Values without an order (booleans, null, a string against a number)
    /// are `<=` only when `==`.
    @Test func unorderedValuesAreLessOrEqualOnlyWhenEqual() {
        let yes: JSONValue = true, no: JSONValue = false
        #expect(!(yes <= no))
        #expect(!(no <= yes))
        #expect(!(JSONValue.string("a") <= JSONValue.int(1)))
        #expect(!(JSONValue.null <= JSONValue.int(0)))
        #expect(yes <= yes)
    }
}

extension SafeJSONAccessTests {
    @Test func viewModelPathsWalkIntoNestedViewModelsAndLists() {
        let vm = ViewModel(["title": "T"])
            .set("author", payload: ViewModel(["name": "Ann"]))
            .set("reviews", payload: [ViewModel(["stars": 5]), ViewModel(["stars": 3])])
            .set("image", payload: NSObject())
        #expect(vm.value(at: JSONPath("author.name")) == "Ann")
        #expect(vm.value(at: "reviews") == [["stars": 5], ["stars": 3]])
        #expect(throws: JSONAccessError(path: "reviews", reason: .notAContainer(found: .array))) {
            try vm.read(Int.self, at: "reviews.stars")
        }
        #expect(throws: JSONAccessError(path: "image", reason: .missing)) {
            try vm.read(String.self, at: "image.size")
        }
        #expect(throws: JSONAccessError(path: JSONPath([]), reason: .notAContainer(found: .object))) {
            try vm.read(Int.self, at: "[0]")
        }
    }

    /// The JSON form of a ViewModel shows a nested ViewModel held twice
    /// both times; only a ViewModel containing itself is cut off as null.
    @Test func viewModelsHeldTwiceReadAsJSONEachTime() {
        let shared = ViewModel(["name": "Ann"])
        let vm = ViewModel().set("author", payload: shared).set("editor", payload: shared)
        #expect(vm.value(at: "") == ["author": ["name": "Ann"], "editor": ["name": "Ann"]])
        let looped = ViewModel(["n": 1])
        looped.set("list", payload: [looped, shared])
        #expect(looped.value(at: "") == ["n": 1, "list": [nil, ["name": "Ann"]]])
        looped.removeValue(forKey: "list")
    }
}

extension SafeJSONAccessTests {
    /// An object and the value holding it explain a read that starts with
    /// an index alike: the object itself cannot be indexed.
    @Test func anIndexIntoAnObjectIsExplainedAlikeFromTheObjectAndItsValue() {
        let object: JSONObject = ["a": 1]
        let expected = JSONAccessError(path: JSONPath([]), reason: .notAContainer(found: .object))
        #expect(throws: expected) { try object.read(Int.self, at: "[0]") }
        #expect(throws: expected) { try JSONValue.object(object).read(Int.self, at: "[0]") }
        #expect(object.lookup("[0]") == JSONValue.object(object).lookup("[0]"))
    }

    /// A single key finds nothing in a value that is not an object.
    @Test func aKeyFindsNothingInAValueThatIsNotAnObject() {
        let values: [JSONValue] = ["title", 5, 1.5, true, nil, ["title"], [["title": 1]]]
        for value in values {
            #expect(value.value(at: "title") == nil, "\(value)")
            #expect(value.containsValue(at: "title") == false, "\(value)")
            #expect(value.string(at: "title") == nil, "\(value)")
        }
    }

    /// A string with an exponent marker but no exponent digits, or an
    /// exponent too large for any number, spells no integer.
    @Test func numericStringsWithABrokenOrHugeExponentAreNoIntegers() {
        let json: JSONValue = [
            "noDigits": "1e", "signOnly": "1e+", "huge": "1e18446744073709551616",
            "hugeNegative": "1e-18446744073709551616", "fine": "1e3",
        ]
        for key in ["noDigits", "signOnly", "huge", "hugeNegative"] {
            #expect(json.int(at: key) == nil, "\(key)")
            #expect(json.int64(at: key) == nil, "\(key)")
            #expect(json.uint64(at: key) == nil, "\(key)")
        }
        #expect(json.int(at: "fine") == 1000)
        #expect(json.double(at: "noDigits") == nil)
    }

    /// Error messages show a value cut to 40 characters at most.
    @Test func briefDescriptionsAreCutToFortyCharacters() {
        let fits = JSONValue.string(String(repeating: "a", count: 38))
        #expect(fits.briefDescription == "\"" + String(repeating: "a", count: 38) + "\"")
        for count in [39, 40, 100] {
            let brief = JSONValue.string(String(repeating: "a", count: count)).briefDescription
            #expect(brief.count <= 40, "\(count)")
            #expect(brief.hasSuffix("…"), "\(count)")
        }
    }

    /// A failed read of the value itself (the empty path) names it "value".
    @Test func aFailureAtTheRootIsDescribedAsTheValue() {
        do {
            _ = try JSONValue.string("x").read(Int.self, at: "")
            Issue.record("a string read as an integer")
        } catch {
            #expect(error.path == JSONPath([]))
            #expect(error.description == "value: expected an integer, found string \"x\"")
        }
        #expect(JSONAccessError(path: JSONPath([]), reason: .null).description == "value: null")
    }

    @Test("a big integer rounds to the nearest float from its exact value")
    func bigIntegersRoundOnceToAFloat() throws {
        // 2^70 + 2^46 + 1, just above the halfway point between two floats.
        let json = try JSONValue(parsing: #"{"big": 1180591691086155481089}"#)
        #expect(json["big"] == .bigInteger("1180591691086155481089"))
        #expect(json.float(at: "big") == Float(sign: .plus, exponent: 70, significand: 1).nextUp)
    }

    @Test("a default gives way to the value found")
    func defaultsGiveWayToAValueFound() {
        let t = Self.tweet
        #expect(t.uint64(at: "id", default: 0) == 505874924095815681)
        #expect(t.float(at: JSONPath("score"), default: 0) == 4.75)
        #expect(t.object(at: "user", default: [:]).string(at: "name") == "Ann")
        #expect(t.object(at: "user", default: [:]).count == 4)
    }

    @Test("a null member counts as a value that is there")
    func aNullMemberIsContained() {
        let t = Self.tweet
        #expect(t.containsValue(at: JSONPath("place")))
        #expect(t.containsValue(at: "place"))
        #expect(!t.containsValue(at: JSONPath("place.name")))
        #expect(!t.containsValue(at: JSONPath("nowhere")))
    }

    @Test("a negative index finds nothing, and the error says it is missing")
    func aNegativeIndexIsMissing() {
        let t = Self.tweet
        #expect(t.lookup(JSONPath("entities.urls[-1]")) == .failure(JSONAccessError(path: "entities.urls[-1]", reason: .missing)))
        #expect(throws: JSONAccessError(path: "entities.urls[-1]", reason: .missing)) {
            try t.read(String.self, at: "entities.urls[-1].expanded_url")
        }
        #expect(t.string(at: "entities.urls[-1].expanded_url") == nil)
    }
}
