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
}
