import Foundation
import Testing
@testable import AGViewModel

@Suite("Mutating and iterating JSON values")
struct JSONMutationTests {
    /// Setting the index one past the end, again and again, grows the
    /// array as appending does (by doubling), not to the exact size each
    /// time, which copied the whole array per element.
    @Test func settingOnePastTheEndGrowsGeometrically() {
        var json = JSONValue.array(JSONArray((0 ..< 1000).map { JSONValue.int(Int64($0)) }))
        json[1000] = 1000
        guard case .array(let grown) = json else { Issue.record("not an array"); return }
        #expect(grown.storage.capacity >= 2000)
        for i in 1001 ..< 5000 { json[i] = .int(Int64(i)) }
        #expect(json.count == 5000 && json[4999] == 4999 && json[1000] == 1000)
        var padded = JSONValue.array([])
        padded[3] = 1                                     // a jump is padded, and sized to it
        #expect(padded == [nil, nil, nil, 1])
    }

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

    /// A negative index written in a path is an index, not a key: the write
    /// changes nothing, rather than replacing the array with `{"[-1]": 9}`.
    /// Setting one index past the end again and again (`a[0]`, `a[1]`, …)
    /// grows the array as appending does, by doubling, not one slot at a time.
    @Test func settingPastTheEndGrowsGeometrically() {
        var json: JSONValue = ["a": []]
        var reallocations = 0
        var previous: ObjectIdentifier?
        for i in 0..<1_000 {
            json.setValue(.int(Int64(i)), at: "a[\(i)]")
            let buffer = json["a"].arrayValue!.storage.buffer.map(ObjectIdentifier.init)
            if buffer != previous { reallocations += 1 }
            previous = buffer
        }
        #expect(json["a"].arrayValue?.count == 1_000 && json["a"][999] == 999)
        #expect(reallocations < 20, "\(reallocations) reallocations for 1,000 elements")
    }

    @Test func writtenNegativeIndicesChangeNothing() {
        var array: JSONValue = [1, 2]
        array.setValue(9, at: "[-1]")
        array.setValue(9, at: "[-0]")
        #expect(array == [1, 2])
        var nested: JSONValue = ["items": [1, 2]]
        nested.setValue(9, at: "items[-1]")
        nested.setValue(9, at: "items[-1].x")
        #expect(nested == ["items": [1, 2]])
        #expect(nested.value(at: "items[-1]") == nil)
        let viewModel = ViewModel(["items": [1, 2]])
        viewModel.setValue(9, at: "items[-1]")
        #expect(viewModel["items"] == [1, 2] && viewModel.keys == ["items"])
    }

    /// An index no array can reach is ignored, by subscript, insert and
    /// path alike: padding up to it would overflow or exhaust memory.
    @Test func unreachableIndicesChangeNothing() {
        for index in [Int.max, Int.max - 1, JSONArray.maximumCount, 4_294_967_295] {
            var value: JSONValue = [1]
            value[index] = 2
            value.insert(3, at: index)
            value.setValue(4, at: "[\(index)]")
            value.setValue(5, at: JSONPath([.index(index), .key("x")]))
            #expect(value == [1])
            var nested: JSONValue = ["a": [1]]
            nested.setValue(2, at: "a[\(index)]")
            #expect(nested == ["a": [1]])
            let viewModel = ViewModel(["a": [1]])
            viewModel.setValue(2, at: "a[\(index)]")
            viewModel.setValue(2, at: "b[\(index)]")
            viewModel.setValue(2, at: JSONPath([.key("c"), .index(index)]))
            #expect(viewModel["a"] == [1] && viewModel.keys == ["a"])
            // Through optional chaining, onto a missing member or nothing.
            var chained: JSONValue = ["x": 1]
            chained["a"][index] = 1
            chained["x"][index] = 1
            #expect(chained == ["x": 1])
            var missing: JSONValue? = nil
            missing[index] = 1
            #expect(missing == nil)
        }
        var padded: JSONValue = []
        padded[2] = 1
        #expect(padded == [nil, nil, 1])
    }

    @Test func removingFromAValueOfAnotherKindChangesNothing() {
        var array: JSONValue = [1, 2, 3]
        array["x"] = nil
        #expect(array == [1, 2, 3])
        var object: JSONValue = ["k": 1]
        object[0] = nil
        object[5] = nil
        #expect(object == ["k": 1])
        var text: JSONValue = "text"
        text["x"] = nil
        text[0] = nil
        #expect(text == "text")
        var short: JSONValue = [1]
        short[3] = nil
        #expect(short == [1])
        // Through chains too.
        var nested: JSONValue = ["a": [1, 2], "s": "s"]
        nested["a"]["x"] = nil
        nested["s"][0] = nil
        #expect(nested == ["a": [1, 2], "s": "s"])
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
        // A negative index anywhere leaves the value as it was.
        let before = json
        json.setValue(5, at: JSONPath([.key("other"), .index(-1)]))
        json.setValue(5, at: JSONPath([.key("user"), .key("names"), .index(-1)]))
        #expect(json == before)
        var scalar: JSONValue = "keep me"
        scalar.setValue(5, at: JSONPath([.index(0), .index(-1)]))
        #expect(scalar == "keep me")
        let viewModel = ViewModel(["x": 1])
        viewModel.setValue(5, at: JSONPath([.key("user"), .index(-1)]))
        #expect(viewModel.keys == ["x"])
    }

    @Test func objectsPrintAsJSON() {
        let object: JSONObject = ["a": 1, "b": [true]]
        #expect(object.description == #"{"a":1,"b":[true]}"#)
        #expect("\(object)" == #"{"a":1,"b":[true]}"#)
        #expect(String(reflecting: object) == object.description)
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

    /// The merge against a plain recursive model of the policy, on random
    /// objects that share keys at every level, with copies left unchanged.
    @Test func mergeAgreesWithTheRecursivePolicy() {
        func model(_ base: JSONValue, _ update: JSONValue) -> JSONValue {
            guard case .object(let u) = update, case .object(var b) = base else { return update }
            for (key, value) in u {
                if let existing = b[key] { b[key] = model(existing, value) } else { b[key] = value }
            }
            return .object(b)
        }
        var random = SplitMix64(seed: 0x3E26E)
        func value(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0 ..< (depth > 3 ? 3 : 6), using: &random) {
            case 0: return .int(Int64.random(in: 0 ..< 5, using: &random))
            case 1: return .null
            case 2: return ["x", .int(Int64(depth))]
            default:
                var object = JSONObject()
                for _ in 0 ..< Int.random(in: 0 ... 4, using: &random) {
                    object[["a", "b", "c", "d"].randomElement(using: &random)!] = value(depth + 1)
                }
                return .object(object)
            }
        }
        for _ in 0 ..< 2_000 {
            let base = value(0), update = value(0)
            let copy = base
            let merged = base.merging(update)
            let expected = model(base, update)
            #expect(merged == expected && merged.description == expected.description, "\(base) + \(update)")
            #expect(base == copy && base.description == copy.description)
        }
    }

    /// Values as deep as `setValue` builds them merge without running out
    /// of stack.
    @Test func deeplyNestedObjectsMerge() {
        let path = JSONPath(Array(repeating: .key("a"), count: 100_000))
        var base = JSONValue.null, update = JSONValue.null
        base.setValue(1, at: path)
        base.setValue("kept", at: "b")
        update.setValue(2, at: path)
        base.merge(update)
        #expect(base.value(at: path) == 2)
        #expect(base["b"] == "kept")
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

@Suite("Reading a JSON value as a Swift type")
struct JSONScalarReadTests {
    @Test func valuesReadByTheLenientRules() {
        let json: JSONValue = ["name": "Ann", "n": 42, "f": 1.5, "big": 18446744073709551615, "huge": -123456789012345678901234567890, "flag": "yes",
                               "y": "Y", "s": "12", "link": "https://example.com/a"]
        #expect(json["name"].stringValue == "Ann")
        #expect(json["n"].stringValue == "42")
        #expect(json["n"].intValue == 42)
        #expect(json["s"].intValue == 12)
        #expect(json["f"].intValue == nil)  // never truncated
        #expect(json["f"].doubleValue == 1.5)
        #expect(json["big"].uint64Value == UInt64.max)
        #expect(json["big"].int64Value == nil)
        #expect(json["big"] == .bigInteger("18446744073709551615"))  // literals of any size are exact
        #expect(json["huge"] == .bigInteger("-123456789012345678901234567890"))
        #expect(json["n"] == .int(42))
        #expect(json["flag"].boolValue == true)
        #expect(json["y"].boolValue == nil)  // "Y" is not a boolean
        #expect(json["link"].urlValue?.host == "example.com")
        #expect(json["missing"]["deeper"].stringValue == nil)
        #expect(json["name"]?.arrayValue == nil)
        #expect(JSONValue.null.stringValue == nil)
    }

    @Test func viewModelsReadStoredJSONWithoutErrors() {
        let vm = ViewModel(["user": ["name": "Ann", "ids": [1, 2]]])
        #expect(vm.value(at: JSONPath([.key("user"), .key("ids"), .index(1)])) == 2)
        #expect(vm.value(at: JSONPath([.key("nope"), .key("x")])) == nil)
        #expect(vm.int(at: "user.ids[0]") == 1)
        let key = "user.name"
        #expect(vm.string(at: key) == "Ann")
        #expect(vm.containsValue(at: "user.ids[1]"))
        #expect(!vm.containsValue(at: "user.ids[2]"))
    }

    @Test("a negative integer has no unsigned value")
    func negativeIntegersAreNotUnsigned() {
        #expect(JSONValue.int(-1).uint64Value == nil)
        #expect(JSONValue.int(.min).uint64Value == nil)
        #expect(JSONValue.int(7).uint64Value == 7)
        #expect(JSONValue(["n": -1]).uint64(at: "n") == nil)
    }

    @Test("a numeric string with a plus sign reads as a positive integer")
    func plusSignedStringsArePositive() {
        #expect(JSONValue.string("+3.0").intValue == 3)
        #expect(JSONValue.string("+1e3").int64Value == 1000)
        #expect(JSONValue.string("+2.50e1").uint64Value == 25)
        #expect(JSONValue.string("-3.0").intValue == -3)
    }
}

/// Setting and removing by path, against a plain recursive model of the
/// documented rules, and on paths far longer than any stack would walk
/// one call per step.
@Suite("Path mutation")
struct JSONPathMutationTests {
    /// The rules, one call per step.
    static func modelSet(_ target: JSONValue, _ newValue: JSONValue, _ path: ArraySlice<JSONPath.Component>) -> JSONValue {
        guard let first = path.first else { return newValue }
        switch first {
        case .key(let key):
            var object = target.objectValue ?? JSONObject()
            object[key] = modelSet(object[key] ?? .null, newValue, path.dropFirst())
            return .object(object)
        case .index(let index):
            var array = target.arrayValue ?? []
            while array.count <= index { array.append(.null) }
            array[index] = modelSet(array[index], newValue, path.dropFirst())
            return .array(array)
        }
    }

    static func modelRemove(_ target: JSONValue, _ path: ArraySlice<JSONPath.Component>) -> (JSONValue, JSONValue?) {
        guard let first = path.first else { return (.null, target) }
        switch (first, target) {
        case (.key(let key), .object(var object)):
            guard let child = object[key] else { return (target, nil) }
            if path.count == 1 { let removed = object.removeValue(forKey: key); return (.object(object), removed) }
            let (changed, removed) = modelRemove(child, path.dropFirst())
            object[key] = changed
            return (.object(object), removed)
        case (.index(let index), .array(var array)):
            guard array.indices.contains(index) else { return (target, nil) }
            if path.count == 1 { let removed = array.remove(at: index); return (.array(array), removed) }
            let (changed, removed) = modelRemove(array[index], path.dropFirst())
            array[index] = changed
            return (.array(array), removed)
        default:
            return (target, nil)
        }
    }

    static func randomValue(depth: Int, using random: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 2 : 4), using: &random) {
        case 0: return .int(Int64.random(in: 0..<9, using: &random))
        case 1: return ["a", "b", nil][Int.random(in: 0..<3, using: &random)].map(JSONValue.string) ?? .null
        case 2:
            var object = JSONObject()
            for key in ["a", "b", "c"].shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                object[key] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(object)
        default:
            return .array(JSONArray((0..<Int.random(in: 0...3, using: &random)).map { _ in
                randomValue(depth: depth + 1, using: &random)
            }))
        }
    }

    @Test func setAndRemoveFollowTheModel() {
        var random = SplitMix64(seed: 0x5EED_0A7)
        for _ in 0..<3_000 {
            let value = Self.randomValue(depth: 0, using: &random)
            let path = (0..<Int.random(in: 0...4, using: &random)).map { _ -> JSONPath.Component in
                Bool.random(using: &random) ? .key(["a", "b", "c"][Int.random(in: 0..<3, using: &random)])
                    : .index(Int.random(in: 0..<4, using: &random))
            }
            let newValue: JSONValue = .int(Int64.random(in: 100..<200, using: &random))
            var set = value
            set.setValue(newValue, at: JSONPath(path))
            #expect(set == Self.modelSet(value, newValue, path[...]), "set \(JSONPath(path)) on \(value)")
            var removed = value
            let taken = removed.removeValue(at: JSONPath(path))
            let (expected, expectedTaken) = Self.modelRemove(value, path[...])
            #expect(removed == expected && taken == expectedTaken, "remove \(JSONPath(path)) from \(value)")
        }
    }

    /// Edits by path change the document's own containers: the large array
    /// under `a.b` keeps its buffer through sets and removals at and beside it.
    @Test func editsByPathHappenInPlace() {
        var document: JSONValue = ["a": ["b": .array(JSONArray((0..<10_000).map { JSONValue.int(Int64($0)) })), "c": 1]]
        func bufferOfB() -> ObjectIdentifier? {
            document.value(at: "a.b")?.arrayValue?.storage.buffer.map(ObjectIdentifier.init)
        }
        let original = bufferOfB()
        #expect(original != nil)
        document.setValue(-5, at: "a.b[5]")
        #expect(bufferOfB() == original)
        #expect(document.removeValue(at: "a.b[7]") == 7)
        #expect(bufferOfB() == original)
        document.setValue(["x": 1], at: "a.d.e")
        #expect(document.removeValue(at: "a.c") == 1)
        #expect(document.removeValue(at: "a.d.e.x") == 1)
        #expect(bufferOfB() == original)
        #expect(document.value(at: "a.b")?.arrayValue?.count == 9_999)
        #expect(document.value(at: "a.b[5]") == -5)
    }

    /// A path of 100,000 steps on a 256 KB stack: set builds that many
    /// levels, remove walks them back.
    @Test func pathsOfAnyLengthAreWalkedWithoutRecursion() {
        let done = onSmallStackThread(stackSize: 256 * 1024) { () -> Bool in
            let steps = 100_000
            let path = JSONPath((0..<steps).map { $0.isMultiple(of: 2) ? .key("k") : .index(0) })
            var value: JSONValue = [:]
            value.setValue("leaf", at: path)
            guard value.value(at: path) == "leaf" else { return false }
            guard value.removeValue(at: path) == "leaf" else { return false }
            return value.value(at: path) == nil && value.removeValue(at: path) == nil
        }
        #expect(done == true)
    }
}

extension JSONMutationTests {
    @Test("appending to a copy of an array with room to spare leaves the original alone")
    func appendingToACopyLeavesTheOriginalArrayAlone() {
        var original: JSONValue = [1]
        original.append(2)
        original.append(3)  // storage for 4: room to spare
        var copy = original
        copy.append(4)
        #expect(original == [1, 2, 3])
        #expect(copy == [1, 2, 3, 4])
    }

    @Test("adding a key to a copy of an object with room to spare leaves the original alone")
    func addingAKeyToACopyLeavesTheOriginalObjectAlone() {
        var original = JSONObject()
        original["a"] = 1
        var copy = original
        copy["b"] = 2
        #expect(original.count == 1)
        #expect(original["b"] == nil)
        #expect(copy.count == 2)
    }
}

extension JSONMutationTests {
    @Test("taking an element through the index subscript removes it")
    func takingAnElementRemovesIt() {
        var json: JSONValue = [1, 2, 3]
        #expect(json[1].take() == 2)
        #expect(json == [1, 3])
        var object: JSONValue = ["a": 1, "b": 2]
        #expect(object["a"].take() == 1)
        #expect(object == ["b": 2])
    }

    @Test("setting objectValue or arrayValue to nil leaves the value as it was, taking it in place leaves it empty")
    func clearingTheContainerViews() {
        var object: JSONValue = ["a": 1]
        object.objectValue = nil
        #expect(object == ["a": 1])
        #expect(object.objectValue.take()?.count == 1)
        #expect(object == [:] && object.kind == .object)
        var array: JSONValue = [1, 2]
        array.arrayValue = nil
        #expect(array == [1, 2])
        #expect(array.arrayValue.take()?.count == 2)
        #expect(array == [] && array.kind == .array)
    }

    @Test("setting through a chain on a value that is not an object makes the objects on the way")
    func chainsCreateObjectsOnNonObjects() {
        var empty: JSONValue = nil
        empty["user"]["name"] = "Ann"
        #expect(empty == ["user": ["name": "Ann"]])
        var scalar: JSONValue = 5
        scalar["a"]["b"] = 1
        #expect(scalar == ["a": ["b": 1]])
        var json: JSONValue = [:]
        json["a"]["b"]["c"] = 1
        #expect(json == ["a": ["b": ["c": 1]]])
    }

    @Test("an ignored index in a chain creates nothing on the way")
    func ignoredIndexInAChainCreatesNothing() {
        var json: JSONValue = [:]
        json["a"][-1]["x"] = 1
        #expect(json == [:])
        #expect(json.objectValue?.keys == [])
    }

    @Test("removing the index just past the end changes nothing")
    func removingJustPastTheEndChangesNothing() {
        var json: JSONValue = [1]
        json[1] = nil
        #expect(json == [1])
    }

    @Test("appending or inserting into a value of another kind makes an array of the new elements")
    func appendingToAScalarMakesAnArray() {
        var text: JSONValue = "x"
        text.append(1)
        #expect(text == [1])
        var number: JSONValue = 7
        number.append(contentsOf: [1, 2])
        #expect(number == [1, 2])
        var object: JSONValue = ["k": 1]
        object.insert(true, at: 0)
        #expect(object == [true])
    }

    @Test("inserting past the end pads with null up to the index, a negative index is ignored")
    func insertingPastTheEndPads() {
        var json: JSONValue = [1]
        json.insert(5, at: 3)
        #expect(json == [1, nil, nil, 5])
        json.insert(9, at: -1)
        #expect(json == [1, nil, nil, 5])
        var scalar: JSONValue = "keep"
        scalar.insert(9, at: -1)
        #expect(scalar == "keep")
    }
}
