import Testing
import AGViewModel

@Suite("JSONValue")
struct JSONValueTests {
    @Test func literalsKeepKeyOrder() {
        let value: JSONValue = ["title": "Swift", "price": 9.5, "tags": ["a"], "id": 505874924095815681]
        #expect(value.objectValue?.keys == ["title", "price", "tags", "id"])
        #expect(value["id"] == .int(505874924095815681))
        #expect(value["tags"]?[0] == "a")
    }

    @Test func interpolatedStringLiteralsAreStrings() {
        let number = 3
        let value: JSONValue = "Book \(number)"
        #expect(value == .string("Book 3"))
        let viewModel = ViewModel(["title": "t\(number)", "tags": ["a\(number)", "b"]])
        #expect(viewModel["title"] == "t3")
        #expect(viewModel["tags"] == ["a3", "b"])
    }

    @Test func objectEqualityIgnoresOrder() {
        let a: JSONValue = ["a": 1, "b": 2]
        let b: JSONValue = ["b": 2, "a": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        // One number rule: the case does not matter, the value does.
        #expect(JSONValue.int(1) == JSONValue.double(1))
        #expect(JSONValue.int(1) != JSONValue.double(1.5))
    }

    @Test("integer literals at the ends of the Int64 range are integers")
    func int64LiteralsAtTheEdges() throws {
        let max: JSONValue = 9223372036854775807
        let min: JSONValue = -9223372036854775808
        #expect(max.kind == .int && max == .int(.max))
        #expect(min.kind == .int && min == .int(.min))
        let beyond: JSONValue = 9223372036854775808
        #expect(beyond.kind == .bigInteger)
    }

    @Test("objects nested deeper than any recursion compare all their members")
    func deepObjectsCompareAllMembers() {
        let steps = Array(repeating: JSONPath.Component.key("a"), count: 300)
        var small = JSONValue.null
        small.setValue(["x": 1], at: JSONPath(steps))
        var large = small
        large.setValue(2, at: JSONPath(steps + [.key("y")]))
        #expect(small != large && large != small)
        var other = small
        other.setValue(3, at: JSONPath(steps + [.key("x")]))
        #expect(small != other)
        #expect(small == small.merging([:]))
    }

    /// A decoder that reports an object's keys in order gets an object
    /// with its members in that order.
    @Test func decodingKeepsTheMemberOrderTheDecoderReports() throws {
        let source: JSONValue = ["zebra": 1, "apple": ["mango": true, "kiwi": nil], "mango": "x"]
        let decoded = try JSONValue(from: OrderedValueDecoder(value: source))
        #expect(decoded.objectValue?.keys == ["zebra", "apple", "mango"])
        #expect(decoded["apple"]?.objectValue?.keys == ["mango", "kiwi"])
        #expect(decoded == source)
    }
}

@Suite("JSONValue description")
struct JSONValueDescriptionTests {
    @Test func descriptionIsCompactJSON() {
        let value: JSONValue = ["title": "Swift", "price": 9.5, "tags": ["a"], "none": nil]
        #expect(value.description == #"{"title":"Swift","price":9.5,"tags":["a"],"none":null}"#)
        #expect("\(JSONValue.string("x"))" == #""x""#)
    }

    @Test func nonFiniteDoublesDoNotFail() {
        let value: JSONValue = ["bad": .double(.nan), "list": [.double(.infinity)]]
        #expect(value.description == #"{"bad":nan,"list":[inf]}"#)
    }

    @Test("keys are escaped in the description of a value with a non-finite double")
    func nonFiniteDescriptionsEscapeKeys() {
        let value: JSONValue = ["say \"hi\"": .double(.nan), "line\n": [.double(-.infinity)]]
        #expect(value.description == #"{"say \"hi\"":nan,"line\n":[-inf]}"#)
    }

    @Test("a brief description counts elements and members in words")
    func briefDescriptionsCountContainers() {
        let one: JSONValue = [1]
        let two: JSONValue = [1, 2]
        let member: JSONValue = ["a": 1]
        #expect(one.briefDescription == "[1 element]")
        #expect(two.briefDescription == "[2 elements]")
        #expect(member.briefDescription == "{1 member}")
    }
}

/// A `Decoder` over a JSON value (objects and scalars) that reports object
/// keys in their order.
private struct OrderedValueDecoder: Decoder {
    var value: JSONValue
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self) }
        return KeyedDecodingContainer(Members<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch(JSONArray.self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Scalar(value: value, codingPath: codingPath) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "\(value)"))
    }

    struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var object: JSONObject
        var codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = object[key.stringValue] { return true }
            return false
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let member = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: ""))
            }
            return try T(from: OrderedValueDecoder(value: member, codingPath: codingPath + [key]))
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try OrderedValueDecoder(value: object[key.stringValue] ?? nil, codingPath: codingPath + [key]).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try OrderedValueDecoder(value: object[key.stringValue] ?? nil, codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { OrderedValueDecoder(value: .object(object), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            OrderedValueDecoder(value: object[key.stringValue] ?? nil, codingPath: codingPath + [key])
        }
    }

    struct Scalar: SingleValueDecodingContainer {
        var value: JSONValue
        var codingPath: [any CodingKey]
        func decodeNil() -> Bool {
            if case .null = value { return true }
            return false
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let scalar: Any? = switch value {
            case .bool(let b): b
            case .int(let i): i
            case .double(let d): d
            case .string(let s): s
            default: nil
            }
            guard let result = scalar as? T else {
                throw DecodingError.typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "\(value)"))
            }
            return result
        }
    }
}
