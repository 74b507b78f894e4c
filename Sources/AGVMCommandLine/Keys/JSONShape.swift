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
                if let i = members.firstIndex(where: { $0.key == key }) {
                    members[i].shape.merge(member)
                } else {
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
    var nestedObjectShape: JSONShape? {
        if kinds == [.object] { return self }
        if kinds == [.array], let element = elements?.shape, element.kinds == [.object] { return element }
        return nil
    }

    private static func isWebURL(_ s: String) -> Bool {
        guard s.hasPrefix("http://") || s.hasPrefix("https://"),
              let url = URL(string: s), url.host != nil else { return false }
        return true
    }
}
