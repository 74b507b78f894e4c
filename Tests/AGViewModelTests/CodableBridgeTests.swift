import Foundation
import Testing
import AGViewModel

@Suite("Codable types to and from JSON values and ViewModels")
struct CodableBridgeTests {
    struct Author: Codable, Equatable {
        var name: String
        var followerCount: Int
    }

    struct Post: Codable, Equatable {
        var id: UInt64
        var title: String
        var tags: [String]
        var score: Double?
        var author: Author
        var published: Date
    }

    let post = Post(id: .max, title: "Hello", tags: ["a", "b"], score: nil,
                    author: Author(name: "Ada", followerCount: 3), published: Date(timeIntervalSince1970: 1_700_000_000))

    var coders: (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return (encoder, decoder)
    }

    @Test func aValueRoundTripsWithTheCodersStrategies() throws {
        let (encoder, decoder) = coders
        let json = try JSONValue(encoding: post, encoder: encoder)
        #expect(json["id"] == JSONValue(UInt64.max))             // exact
        #expect(json["author"]?["follower_count"] == 3)          // the key strategy applied
        #expect(json["published"] == "2023-11-14T22:13:20Z")     // the date strategy applied
        #expect(json["score"] == nil)                            // nil is left out, as JSONEncoder does
        #expect(try json.decode(Post.self, decoder: decoder) == post)
        #expect(try json.objectValue?.decode(Post.self, decoder: decoder) == post)
    }

    /// A `JSONValue` inside a model is data, as a `[String: T]` is: key
    /// strategies rename the model's properties, not the value's keys
    /// (which could collide: `aB` and `a_b`).
    @Test func keyStrategiesLeaveTheKeysOfJSONValuesAlone() throws {
        struct Event: Codable, Equatable { var eventName: String; var metadata: JSONValue }
        let (encoder, decoder) = coders
        let text = #"{"event_name":"x","metadata":{"user_id":7,"aB":1,"a_b":2,"nested":{"utm_source":"a"}}}"#
        let event = try decoder.decode(Event.self, from: Data(text.utf8))
        #expect(event.metadata == (try JSONValue(parsing: text))["metadata"])
        encoder.outputFormatting = .sortedKeys
        let written = try encoder.encode(Event(eventName: "y", metadata: ["userId": 1, "URLString": ["innerKey": 2]]))
        #expect(String(decoding: written, as: UTF8.self) == #"{"event_name":"y","metadata":{"URLString":{"innerKey":2},"userId":1}}"#)
        // Through the bridge, both ways.
        let model = Event(eventName: "z", metadata: ["userId": 1])
        let json = try JSONValue(encoding: model, encoder: encoder)
        #expect(json == ["event_name": "z", "metadata": ["userId": 1]])
        #expect(try json.decode(Event.self, decoder: decoder) == model)
    }

    /// Property-list coders carry JSON values too (objects through their
    /// dictionaries).
    @Test func propertyListCodersRoundTripJSONValues() throws {
        let json: JSONValue = ["b": 1, "a": ["x": "y", "n": [1, 2]], "c": true]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let enc = PropertyListEncoder(); enc.outputFormat = format
            let data = try enc.encode(["v": json])
            let back = try PropertyListDecoder().decode([String: JSONValue].self, from: data)
            #expect(back["v"]?["a"]?["n"] == [1, 2])
            #expect(back["v"]?.count == 3)
        }
    }

    @Test func aViewModelIsMadeFromAndDecodedToAModel() throws {
        let (encoder, decoder) = coders
        let viewModel = try ViewModel(encoding: post, encoder: encoder)
        #expect(viewModel.string(at: "author.name") == "Ada")
        // In the encoder's key order (Foundation's follows no declaration order).
        #expect(Set(viewModel.keys) == ["id", "title", "tags", "author", "published"])
        viewModel["title"] = "Edited"
        var expected = post
        expected.title = "Edited"
        #expect(try viewModel.decode(Post.self, decoder: decoder) == expected)

        // A nested ViewModel decodes as the nested object.
        viewModel[value: "author"] = .payload(try ViewModel(encoding: Author(name: "Grace", followerCount: 9), encoder: encoder))
        expected.author = Author(name: "Grace", followerCount: 9)
        #expect(try viewModel.decode(Post.self, decoder: decoder) == expected)
    }

    /// The documented limit: a fraction travels as a `Double`.
    @Test func decimalsOfFifteenSignificantDigitsComeBackExactly() throws {
        struct Price: Codable { var amount: Decimal }
        for text in ["0.1", "123456789012.345", "999999999999999", "1.00000000000001", "-0.000000000000123456789012345"] {
            let amount = try #require(Decimal(string: text))
            let viewModel = try ViewModel(encoding: Price(amount: amount))
            #expect(try viewModel.decode(Price.self).amount == amount, "\(text)")
        }
        let long = try #require(Decimal(string: "12345678901234567890.123"))
        let rounded = try ViewModel(encoding: Price(amount: long)).decode(Price.self).amount
        #expect(rounded != long)
        #expect(abs(NSDecimalNumber(decimal: rounded - long).doubleValue) < 10_000)
    }

    @Test func failuresNameWhatWentWrong() throws {
        #expect(throws: EncodingError.self) { try ViewModel(encoding: ["not", "an", "object"]) }
        do {
            _ = try ViewModel(encoding: 3)
            Issue.record("made a ViewModel from a number")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.debugDescription.contains("encodes as int"))
        }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Double.nan) }

        let wrong: JSONValue = ["name": "Ada", "followerCount": "many"]
        do {
            _ = try wrong.decode(Author.self)
            Issue.record("decoded a string as an Int")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["followerCount"])
        }
    }
}
