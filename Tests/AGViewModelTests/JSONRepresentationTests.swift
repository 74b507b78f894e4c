import Testing
@testable import AGViewModel

/// `hasSameRepresentation`, the change detection of stored JSON values,
/// against a plain recursive reference on random values and their edits.
@Suite("JSON sameness of form")
struct JSONRepresentationTests {
    /// The rule as written: same case, numbers by bits, strings by `==`,
    /// arrays element by element, objects key by key in order.
    private static func reference(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case let (.bigInteger(x), .bigInteger(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x.count == y.count && zip(x, y).allSatisfy { reference($0, $1) }
        case let (.object(x), .object(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && reference($0.value, $1.value) }
        default: false
        }
    }

    /// The paths of every value inside `value`, containers included.
    private static func paths(in value: JSONValue, at prefix: [JSONPath.Component] = []) -> [[JSONPath.Component]] {
        var found = [prefix]
        switch value {
        case .array(let elements):
            for (i, element) in elements.enumerated() { found += paths(in: element, at: prefix + [.index(i)]) }
        case .object(let members):
            for (key, member) in members { found += paths(in: member, at: prefix + [.key(key)]) }
        default: break
        }
        return found
    }

    @Test func agreesWithTheRuleOnRandomValuesAndEdits() throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: 7))
        var differing = 0
        for round in 0..<200 {
            let value = generator.value()
            // A copy with storage of its own: compared element by element.
            let copy = try JSONValue(parsing: JSONWriter().write(value))
            #expect(value.hasSameRepresentation(as: copy) && Self.reference(value, copy), "round \(round)")
            let all = Self.paths(in: value)
            let path = all[generator.int(0...all.count - 1)]
            var edited = copy
            edited.setValue(generator.scalar(), at: JSONPath(path))
            let expected = Self.reference(value, edited)
            #expect(value.hasSameRepresentation(as: edited) == expected, "round \(round) at \(JSONPath(path))")
            #expect(edited.hasSameRepresentation(as: value) == expected, "round \(round) at \(JSONPath(path))")
            if !expected { differing += 1 }
        }
        #expect(differing > 100)
    }

    @Test func aDifferenceAnywhereInALongArrayIsFound() {
        let long = JSONValue.array(JSONArray((0..<10_000).map { .object(["n": .int(Int64($0))]) }))
        for position in [0, 1, 5_000, 9_999] {
            var edited = long
            edited[position] = ["n": -1]
            #expect(!long.hasSameRepresentation(as: edited), "at \(position)")
        }
        var reordered = long
        reordered[9_999] = ["m": 9_999]
        #expect(!long.hasSameRepresentation(as: reordered))
        #expect(long.hasSameRepresentation(as: JSONValue.array(JSONArray((0..<10_000).map { .object(["n": .int(Int64($0))]) }))))
    }
}
