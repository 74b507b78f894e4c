import Foundation
import Testing
@testable import AGViewModel

/// Releasing a JSON value never recurses: values nested a million levels
/// deep are created and released, on a thread with a small stack.
@Suite("JSON deep release", .timeLimit(.minutes(1)))
struct JSONDeepReleaseTests {
    static let depth = 1_000_000

    /// Builds a `depth`-level value with `wrap`, releases it on a 256 KB
    /// stack and reports the depth it checked before releasing.
    private func buildAndRelease(_ wrap: @escaping @Sendable (JSONValue, Int) -> JSONValue) -> Int? {
        onSmallStackThread(stackSize: 256 * 1024) { () -> Int in
            var value: JSONValue = "leaf"
            for level in 0..<Self.depth { value = wrap(value, level) }
            var levels = 0
            var cursor = value
            while true {
                switch cursor {
                case .array(let elements): cursor = elements[elements.count == 3 ? 1 : 0]
                case .object(let object): cursor = object["child"]!
                default: return levels
                }
                levels += 1
            }
        }
    }

    @Test func aMillionNestedArraysAreReleased() {
        #expect(buildAndRelease { value, _ in .array([value]) } == Self.depth)
    }

    @Test func aMillionNestedObjectsAreReleased() {
        #expect(buildAndRelease { value, _ in .object(JSONObject([("child", value), ("n", 1)])) } == Self.depth)
    }

    @Test func aMillionMixedLevelsAreReleased() {
        #expect(buildAndRelease { value, level in
            level % 2 == 0 ? .array([1, value, "x"]) : .object(JSONObject([("child", value)]))
        } == Self.depth)
    }

    @Test func aMillionLevelsParsedThenReleased() throws {
        let text = String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth)
        let parsed = onSmallStackThread(stackSize: 256 * 1024) { () -> Bool in
            guard let value = try? JSONValue(parsing: text, options: .init(maximumDepth: .max)) else { return false }
            return value.arrayValue?.count == 1
        }
        #expect(parsed == true)
    }

    /// What `JSONSerialization` returns for a document at its own depth
    /// limit (512 levels of objects and arrays) converts on a 4 MB thread
    /// (debug frames are large; a release build converts about 1,100 levels
    /// on 512 KB). Swift collections are converted before any Foundation
    /// class is tried, which would bridge each whole subtree, level after
    /// level.
    @Test func foundationObjectsAtJSONSerializationsDepthConvert() throws {
        let depth = 256
        let text = String(repeating: "{\"a\":[", count: depth) + "true" + String(repeating: "]}", count: depth)
        let parsed = try JSONValue(parsing: text)
        let converted = onSmallStackThread(stackSize: 4 * 1024 * 1024) { () -> Bool in
            guard let foundation = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
                  let value = try? JSONValue(foundation) else { return false }
            return value == parsed
        }
        #expect(converted == true)
    }

    /// `==`, hashing and `description` of values a raised depth limit
    /// lets the parser build (a hundred thousand levels), on a 1 MB stack.
    @Test func deepValuesCompareHashAndPrint() {
        let checked = onSmallStackThread(stackSize: 1024 * 1024) { () -> Bool in
            let depth = 100_000
            let text = String(repeating: "[{\"a\":", count: depth) + "1" + String(repeating: "}]", count: depth)
            let other = String(repeating: "[{\"a\":", count: depth) + "2" + String(repeating: "}]", count: depth)
            guard let a = try? JSONValue(parsing: text, options: .init(maximumDepth: .max)),
                  let b = try? JSONValue(parsing: text, options: .init(maximumDepth: .max)),
                  let c = try? JSONValue(parsing: other, options: .init(maximumDepth: .max)) else { return false }
            var nan: JSONValue = .double(.nan)
            for _ in 0..<5_000 { nan = [nan] }
            return a == b && a != c && a.hashValue == b.hashValue && Set([a, b, c]).count == 2
                && nan.description.hasPrefix("[[[[") && nan.description.contains("[…]")
        }
        #expect(checked == true)
    }

    /// Objects nested 64 deep that differ at the bottom compare in one
    /// pass. Comparing again after a mismatch doubled the work per level
    /// (2^64 comparisons: it never ends), so the comparison runs on its own
    /// thread and a minute without an answer fails the test instead of
    /// hanging the run.
    @Test func nestedObjectsThatDifferCompareOnce() {
        var a: JSONValue = 1, b: JSONValue = 2
        for _ in 0..<64 {
            a = ["x": a, "y": true]
            b = ["x": b, "y": true]
        }
        let answered = DispatchSemaphore(value: 0)
        let results = Recorder<Bool>()
        Thread.detachNewThread { [a, b] in
            results.append(a != b)
            results.append(JSONObject([("y", true), ("x", a)]) != JSONObject([("x", b), ("y", true)]))
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 60) == .success, "no answer: the comparison does not end")
        #expect(results.items == [true, true])
    }

    @Test func sharedSubtreesSurviveTheirParentsRelease() {
        let shared: JSONValue = ["kept": [1, 2, ["deep": [3]]]]
        var parents: [JSONValue] = [[shared, shared], ["a": shared]]
        parents.removeAll()
        #expect(shared == ["kept": [1, 2, ["deep": [3]]]])
        let survivor = onSmallStackThread(stackSize: 256 * 1024) { () -> JSONValue in
            var value: JSONValue = ["inner": [true, nil]]
            let kept = value
            for _ in 0..<100_000 { value = .array([value, kept]) }
            return kept
        }
        #expect(survivor == ["inner": [true, nil]])
    }

    /// Every reference a released value held is let go, wherever it sat:
    /// after scalars, between them, as an object member, in a leaf
    /// container, or deep in a chain. A reference missed by the release
    /// leaves the probe's buffer shared. One probe holds a container (the
    /// release moves it to its work list), the other only scalars (the
    /// release lets it go where it sits).
    @Test(arguments: [true, false])
    func releasesEveryReferenceItHeld(probeHoldsAContainer: Bool) {
        var probe: JSONArray = probeHoldsAContainer ? [1, "two", [3]] : [1, "two"]
        let shapes: [(String, (JSONValue) -> JSONValue)] = [
            ("alone", { .array([$0]) }),
            ("after scalars", { [1, true, nil, "a long string, not a small one", 2.5, $0] }),
            ("between scalars", { [1, $0, "x", $0, 2] }),
            ("member", { ["a": 1, "b": $0, "c": "x", "d": [$0]] }),
            ("leaf objects in an array", { [["p": $0], ["q": 1], ["r": $0, "s": 2]] }),
            ("empty neighbours", { [[], [:], ["k": []], $0] }),
            ("chain", { value in
                var chain: JSONValue = ["end": value]
                for level in 0..<1_000 { chain = level % 2 == 0 ? [chain, 1] : ["next": chain, "also": value] }
                return chain
            }),
        ]
        for (name, wrap) in shapes {
            var value: JSONValue? = wrap(.array(probe))
            #expect(!isKnownUniquelyReferenced(&probe.storage.buffer!), "\(name): holds the probe")
            value = nil
            #expect(value == nil)
            #expect(isKnownUniquelyReferenced(&probe.storage.buffer!), "\(name): a reference was not released")
        }
    }
}

/// `JSONArray` behaves as a Swift array with value semantics.
@Suite("JSONArray collection")
struct JSONArrayTests {
    @Test func copiesAreIndependent() {
        var a: JSONArray = [1, "two", [3]]
        let b = a
        a[0] = 10
        a.append(4)
        #expect(b == [1, "two", [3]])
        #expect(a == [10, "two", [3], 4])
        var c = a
        c.remove(at: 1)
        #expect(a.count == 4 && c == [10, [3], 4])
    }

    @Test func replacesRangesInPlaceAndByReallocating() {
        var a = JSONArray((0..<10).map { JSONValue.int(Int64($0)) })
        a.replaceSubrange(2..<5, with: ["x"])
        #expect(a == [0, 1, "x", 5, 6, 7, 8, 9])
        a.replaceSubrange(0..<0, with: Array(repeating: JSONValue.null, count: 20))
        #expect(a.count == 28 && a[19] == nil && a[20] == 0)
        a.insert(true, at: a.count)
        #expect(a.last == true)
        a.removeAll(where: { $0 == nil })
        #expect(a == [0, 1, "x", 5, 6, 7, 8, 9, true])
        a.removeAll()
        #expect(a.isEmpty && a == [])
    }

    @Test func readsLikeASwiftArray() {
        let value: JSONValue = .array([1, 2, 3] as [JSONValue])
        guard case .array(let items) = value else { Issue.record("not an array"); return }
        #expect(items.map { $0.intValue ?? 0 }.reduce(0, +) == 6)
        #expect(Array(items) == [1, 2, 3] as [JSONValue])
        #expect(items.description == "[1,2,3]" || items.description.contains("1"))
        var hasher = Hasher(), other = Hasher()
        hasher.combine(items)
        other.combine(JSONArray([1, 2.0, 3]))
        #expect(hasher.finalize() == other.finalize(), "numbers hash by value, as in JSONValue")
    }

    @Test func mutatesNestedValuesThroughJSONValue() {
        var json: JSONValue = ["list": [1, 2]]
        json["list"]?.arrayValue?.append(3)
        #expect(json == ["list": [1, 2, 3]])
    }

    @Test("an array that starts like a longer one is not equal to it")
    func aPrefixIsNotEqual() {
        let short: JSONArray = [1, 2]
        let long: JSONArray = [1, 2, 3]
        #expect(short != long)
        #expect(JSONValue.array(short) != JSONValue.array(long))
        let nested: JSONValue = ["list": [1]]
        #expect(nested != ["list": [1, nil]])
    }
}
