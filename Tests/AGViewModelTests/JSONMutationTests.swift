import Foundation
import Testing
import AGViewModel

@Suite("Mutating and iterating JSON values")
struct JSONMutationTests {
    @Test func indexAndKeySetters() {
        var json: JSONValue = [1, 2, 3]
        json[0] = 5
        #expect(json == [5, 2, 3])
        json[4] = "x"  // past the end: padded with null
        #expect(json == [5, 2, 3, nil, "x"])
        json[1] = nil  // removes
        #expect(json == [5, 3, nil, "x"])
        json[-1] = 9  // ignored
        #expect(json == [5, 3, nil, "x"])

        var object: JSONValue = ["a": 1]
        object["b"] = ["c": true]
        object["a"] = nil
        #expect(object == ["b": ["c": true]])
        var scalar: JSONValue = "s"
        scalar[0] = 1
        #expect(scalar == [1])
    }

    @Test func chainedSubscriptsReadAndCreate() {
        var json: JSONValue = ["user": ["name": "Ann", "tags": ["a", "b"]]]
        #expect(json["user"]["name"] == "Ann")
        #expect(json["user"]["tags"][1] == "b")
        #expect(json["user"]["missing"]["deeper"] == nil)
        #expect(json["user"]["tags"][9] == nil)
        json["user"]["name"] = "Bo"
        json["user"]["address"]["city"] = "Oslo"
        json["list"][1] = 5
        #expect(json == ["user": ["name": "Bo", "tags": ["a", "b"], "address": ["city": "Oslo"]], "list": [nil, 5]])
        json["nothing"]["here"] = nil
        #expect(json["nothing"] == nil)
    }

    @Test func setByPathCreatesContainers() {
        var json: JSONValue = [:]
        json.setValue("Ann", at: "user.names[1]")
        #expect(json == ["user": ["names": [nil, "Ann"]]])
        let key = "user.age"
        json.setValue(30, at: key)
        #expect(json.int(at: key) == 30)
        json.setValue(true, at: JSONPath([.key("a.b")]))
        #expect(json["a.b"] == true)
        json.setValue("replaced", at: "user.age.value")  // a scalar in the way is replaced
        #expect(json["user"]["age"] == ["value": "replaced"])
        #expect(json.removeValue(at: "user.names[1]") == "Ann")
        #expect(json.removeValue(at: "user.names[5]") == nil)
        #expect(json.removeValue(at: "nope.deeper") == nil)
        #expect(json["nope"] == nil)  // removing creates nothing
        #expect(json["user"]["names"] == [nil])
    }

    @Test func arrayEditsInPlace() {
        var json: JSONValue = [1]
        json.append(2)
        json.append(contentsOf: [3, 4])
        json.insert(0, at: 0)
        #expect(json == [0, 1, 2, 3, 4])
        #expect(json.remove(at: 2) == 2)
        #expect(json.remove(at: 99) == nil)
        #expect(json == [0, 1, 3, 4])
        json.arrayValue?.removeLast()
        json.arrayValue?.append("end")
        #expect(json == [0, 1, 3, "end"])
        var empty: JSONValue = nil
        empty.append("first")
        #expect(empty == ["first"])
        var object: JSONValue = ["k": [1]]
        object["k"]?.append(2)
        object.objectValue?["n"] = 1
        #expect(object == ["k": [1, 2], "n": 1])
        #expect(object.removeValue(forKey: "n") == 1)
    }

    @Test func mutationDoesNotCopySharedParts() {
        // A copy taken before a change keeps the old value (value semantics).
        var json: JSONValue = ["list": [1, 2]]
        let before = json
        json["list"]?.append(3)
        json["list"][0] = 9
        #expect(before == ["list": [1, 2]])
        #expect(json == ["list": [9, 2, 3]])
    }

    @Test func deepMergePolicy() {
        var settings: JSONValue = ["theme": ["color": "blue", "size": 12], "tags": ["a"], "keep": 1]
        settings.merge(["theme": ["size": 14, "font": "Mono"], "tags": ["b"], "new": nil])
        #expect(settings == ["theme": ["color": "blue", "size": 14, "font": "Mono"], "tags": ["b"], "keep": 1, "new": nil])
        #expect(settings.objectValue?.keys == ["theme", "tags", "keep", "new"])
        #expect(settings["theme"]?.objectValue?.keys == ["color", "size", "font"])
        #expect(JSONValue(["a": 1]).merging(5) == 5)
        #expect(JSONValue(5).merging(["a": 1]) == ["a": 1])
        #expect(JSONValue([1, 2]).merging([3]) == [3])
    }

    @Test func iterationYieldsMembersAndElements() {
        let object: JSONValue = ["b": 1, "a": 2]
        var seen: [String] = []
        for (key, value) in object { seen.append("\(key)=\(value)") }
        #expect(seen == ["b=1", "a=2"])
        let array: JSONValue = ["x", "y"]
        var elements: [JSONValue] = []
        var keys: [String] = []
        for (key, element) in array { keys.append(key); elements.append(element) }
        #expect(elements == ["x", "y"])
        #expect(keys == ["0", "1"])
        #expect(Array(JSONValue.int(1)).isEmpty)
        #expect(object.count == 2 && array.count == 2 && JSONValue("s").count == 0)
        #expect(object.map(\.key) == ["b", "a"])
    }
}
