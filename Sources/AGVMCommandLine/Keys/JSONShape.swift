import AGViewModel
import Foundation

/// What a key looks like across every sample seen: the kinds of its values,
/// how often it was present, and, for objects and arrays, the shape of what
/// they hold. Built from all elements of arrays, not just the first, so a
/// key present in only some elements is known to be optional.
struct JSONShape: Equatable {
    /// Non-null kinds seen.
    var kinds: Set<JSONValue.Kind> = []
    /// Whether `null` was seen.
    var sawNull = false
    /// How many values were merged into this shape.
    var occurrences = 0
    /// The first non-null value seen, for doc comments.
    var example: JSONValue?
    /// Whether every string seen is an absolute http(s) URL.
    var allStringsAreURLs = true
    /// Members of the objects seen, in order of first appearance.
    var members: [(key: String, shape: JSONShape)] = []
    /// How many objects were merged (a member seen fewer times is optional).
    var objectCount = 0
    /// The merged shape of all array elements.
    var elements: Box?
    /// For an object recognised as a map keyed by ids (see
    /// ``collapsingMaps()``): the merged shape of its values, described once.
    var mapValues: Box?
    /// How many distinct member names the map had.
    var mapMemberCount = 0
    /// Where each key is in ``members`` (large objects stay linear to fold).
    private var memberIndex: [String: Int] = [:]

    /// A reference wrapper so the shape can nest.
    final class Box: Equatable {
        var shape: JSONShape
        init(_ shape: JSONShape) { self.shape = shape }
        static func == (a: Box, b: Box) -> Bool { a.shape == b.shape }
    }

    static func == (a: JSONShape, b: JSONShape) -> Bool {
        a.kinds == b.kinds && a.sawNull == b.sawNull && a.occurrences == b.occurrences
            && a.members.map(\.key) == b.members.map(\.key)
            && a.members.map(\.shape) == b.members.map(\.shape) && a.elements == b.elements
            && a.mapValues == b.mapValues
    }

    /// The shape of `value`.
    init(of value: JSONValue) {
        merge(value)
    }

    init() {}

    /// Folds one more sample into the shape.
    mutating func merge(_ value: JSONValue) {
        occurrences += 1
        switch value {
        case .null:
            sawNull = true
            return
        case .string(let s):
            if allStringsAreURLs && !Self.isWebURL(s) { allStringsAreURLs = false }
        case .object(let object):
            objectCount += 1
            for (key, member) in object {
                if let i = memberIndex[key] {
                    members[i].shape.merge(member)
                } else {
                    memberIndex[key] = members.count
                    members.append((key, JSONShape(of: member)))
                }
            }
        case .array(let array):
            let box = elements ?? Box(JSONShape())
            for element in array { box.shape.merge(element) }
            elements = box
        default:
            break
        }
        kinds.insert(value.kind)
        if example == nil { example = value }
    }

    /// Whether a member of an enclosing object was missing from some objects
    /// or `null` in some.
    func isOptional(inParentOf count: Int) -> Bool {
        sawNull || occurrences < count
    }

    /// Whether the value's type varied across samples (nulls aside).
    var isMixed: Bool {
        let numeric: Set<JSONValue.Kind> = [.int, .double, .bigInteger]
        return kinds.count > 1 && !kinds.isSubset(of: numeric)
    }

    /// The objects this shape's value holds, directly or as array elements,
    /// which get a nested namespace of keys.
    /// Maps keyed by ids and arrays are looked through, however they nest
    /// (`[{"101": {...}}]`, `[[{...}]]`).
    var nestedObjectShape: JSONShape? {
        if kinds == [.object], let values = mapValues?.shape { return values.nestedObjectShape }
        if kinds == [.object] { return self }
        if kinds == [.array], let element = elements?.shape { return element.nestedObjectShape }
        return nil
    }

    /// How a path reaches ``nestedObjectShape`` from this value, as notes
    /// write it: `[id]` into a map's values, `[]` into an array's elements.
    var stepsToNestedObjects: String {
        if kinds == [.object], let values = mapValues?.shape { return "[id]" + values.stepsToNestedObjects }
        if kinds == [.array], let element = elements?.shape { return "[]" + element.stepsToNestedObjects }
        return ""
    }

    /// An absolute web URL that a `URL` key reads (``URL/read(from:)``
    /// refuses, for example, a space at either end or a control character).
    private static func isWebURL(_ s: String) -> Bool {
        guard s.hasPrefix("http://") || s.hasPrefix("https://"),
              let url = URL.read(from: .string(s)), url.host != nil else { return false }
        return true
    }

    /// Folds another shape into this one, as if its samples had been merged here.
    mutating func absorb(_ other: JSONShape) {
        kinds.formUnion(other.kinds)
        sawNull = sawNull || other.sawNull
        occurrences += other.occurrences
        if example == nil { example = other.example }
        allStringsAreURLs = allStringsAreURLs && other.allStringsAreURLs
        objectCount += other.objectCount
        for (key, member) in other.members {
            if let i = memberIndex[key] {
                members[i].shape.absorb(member)
            } else {
                memberIndex[key] = members.count
                members.append((key, member))
            }
        }
        if let theirs = other.elements {
            let box = elements ?? Box(JSONShape())
            box.shape.absorb(theirs.shape)
            elements = box
        }
        if let theirs = other.mapValues {
            let box = mapValues ?? Box(JSONShape())
            box.shape.absorb(theirs.shape)
            mapValues = box
            mapMemberCount = max(mapMemberCount, other.mapMemberCount)
        }
    }

    // MARK: - Maps keyed by ids

    /// Objects with at least this many members whose values are objects of
    /// one shape are maps whatever their member names.
    static let manyObjectMembers = 32
    /// Objects with at least this many members of one scalar kind are
    /// lookup tables whatever their member names.
    static let manyScalarMembers = 200

    /// This shape with every object that is really a map keyed by ids (a
    /// catalogue's `{"138586341": {...}, ...}`, a lookup table) described
    /// once by the merged shape of its values, inside and out.
    func collapsingMaps() -> JSONShape {
        var result = self
        result.members = members.map { ($0.key, $0.shape.collapsingMaps()) }
        if let elements { result.elements = Box(elements.shape.collapsingMaps()) }
        guard result.isMapLike else { return result }
        var values = JSONShape()
        for (_, member) in result.members { values.absorb(member) }
        // Members of a map value may themselves be maps now that they are merged.
        result.mapValues = Box(values.collapsingMaps())
        result.mapMemberCount = result.members.count
        result.members = []
        result.memberIndex = [:]
        return result
    }

    /// ``collapsingMaps()`` for key constants: the object whose keys become
    /// constants (the sample, or the elements of top-level arrays, however
    /// nested) is not collapsed into a map of values without keys of their
    /// own (flags, strings, numbers): its member names are the keys asked
    /// for.
    func collapsingMapsForConstants() -> JSONShape {
        if kinds == [.array], let elements {
            var result = self
            result.elements = Box(elements.shape.collapsingMapsForConstants())
            return result
        }
        var result = collapsingMaps()
        if result.isMapOfValuesWithoutKeys {
            result = self
            result.collapseBelow()
        }
        return result
    }

    /// Collapses the maps this shape holds, but not this shape itself.
    private mutating func collapseBelow() {
        members = members.map { ($0.key, $0.shape.collapsingMaps()) }
        if let elements { self.elements = Box(elements.shape.collapsingMaps()) }
    }

    /// Whether this is a collapsed map whose values hold no objects.
    private var isMapOfValuesWithoutKeys: Bool {
        guard let values = mapValues?.shape else { return false }
        return values.nestedObjectShape == nil
    }

    /// Whether this object's members look like entries of a map rather than
    /// fields of a record: one kind of value, and names that are ids
    /// (numbers, hashes, UUIDs) or so many members of one shape that they
    /// cannot be fields.
    private var isMapLike: Bool {
        guard kinds == [.object], !members.isEmpty else { return false }
        var valueKinds: Set<JSONValue.Kind> = []
        for (_, member) in members { valueKinds.formUnion(member.kinds) }
        let numeric: Set<JSONValue.Kind> = [.int, .double, .bigInteger]
        guard valueKinds.count == 1 || (!valueKinds.isEmpty && valueKinds.isSubset(of: numeric)) else { return false }
        // One member is enough when its name is a number; opaque tokens need company.
        if members.allSatisfy({ Self.isIdentifierLike($0.key) }),
           members.count >= 2 || members[0].key.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return true
        }
        if valueKinds == [.object], members.count >= Self.manyObjectMembers {
            // One shape: on average each value has at least half of all keys seen.
            var union = Set<String>()
            var total = 0
            for (_, member) in members {
                total += member.members.count
                for (key, _) in member.members { union.insert(key) }
            }
            return !union.isEmpty && total * 2 >= union.count * members.count
        }
        return members.count >= Self.manyScalarMembers && valueKinds != [.object] && valueKinds != [.array]
    }

    /// Numbers (`138586341`, `-7`), UUIDs and hex digests, and long opaque
    /// tokens mixing letters and digits (`-Mx3fK9a2bQ7zL0pR1sT`).
    static func isIdentifierLike(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard !scalars.isEmpty, scalars.allSatisfy({ $0.isASCII }) else { return false }
        let digits = scalars.filter { ("0"..."9").contains($0) }.count
        let body = scalars.first == "-" ? scalars.dropFirst() : scalars[...]
        if !body.isEmpty && body.allSatisfy({ ("0"..."9").contains($0) }) { return true }
        let hex = scalars.filter { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }.count
        if scalars.count >= 8, digits > 0, hex + scalars.filter({ $0 == "-" }).count == scalars.count { return true }
        let letters = scalars.filter { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }.count
        let tokenCharacters = scalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" }
        return scalars.count >= 16 && tokenCharacters && digits >= 2 && letters >= 2
    }
}
