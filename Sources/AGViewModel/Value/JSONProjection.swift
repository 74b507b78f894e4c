/// The parts of a document a reader needs, as a tree of paths: which members
/// of an object and which elements of an array to build. A parse with a
/// projection checks the whole document exactly like a full parse but builds
/// only those values; everything else is validated and dropped.
///
/// A node lists the members and elements read below it; a member or element
/// that leads to ``everything`` is built whole. An object's members the node
/// does not list are left out; an array's elements the node does not read
/// are left out after the last index read, and become `null` before it, so
/// indices keep their meaning. A container of another kind than the node
/// expects, or at a node read as both kinds (one of its readers must then
/// find the wrong kind), is built whole, so a reader that finds the wrong
/// kind sees exactly what a full parse gives, counts included. Unless its
/// kind decides: a node whose readers pick by kind (the elements of an
/// array, or an object as itself) builds only what the reader of the kind
/// found reads.
internal struct JSONProjection: Sendable, Hashable {
    /// The child of a member or element that is built whole.
    static let everything: Int32 = -1
    /// The node of the document itself.
    static let root: Int32 = 0

    struct Member: Sendable, Hashable {
        var key: String
        var hash: Int
        var child: Int32
        /// The key's UTF-8, to match a key's raw bytes without decoding it.
        var utf8: [UInt8]
    }

    struct Element: Sendable, Hashable {
        var index: Int
        var child: Int32
    }

    struct Node: Sendable, Hashable {
        /// Built whole after all (a reader wants this value itself).
        var isWhole = false
        /// `true` when this node applies to objects: only `members` are built.
        var readsMembers = false
        var members: [Member] = []
        /// `true` when a member's key is not ASCII. Such a key can equal an
        /// ASCII key of other bytes as a `String` (U+212A KELVIN SIGN is
        /// `"K"`), so a key that matches no member's bytes still needs the
        /// `String` comparison.
        var hasNonASCIIKey = false
        /// The node of every element, when the array's elements are read.
        var everyElement: Int32?
        /// Elements read by index.
        var elements: [Element] = []
        /// One past the largest index in `elements`.
        var elementLimit = 0
        /// Read as both kinds by readers that each take only their kind, so
        /// neither can find the wrong one.
        var kindDecides = false

        var readsElements: Bool { everyElement != nil || !elements.isEmpty }
    }

    var nodes: [Node] = [Node()]

    /// While building: the child of each node's member or element, so that
    /// adding a path finds the steps already there in constant time (a
    /// spec with thousands of fields would otherwise take quadratic time).
    private var childLookup: [ChildStep: Int32] = [:]

    private struct ChildStep: Sendable, Hashable {
        var parent: Int32
        var component: JSONPath.Component
    }

    /// `true` when nothing can be left out: a parse with this projection
    /// builds the whole document.
    var readsEverything: Bool { nodes[0].isWhole }

    /// The node an object at `node` is built with: `everything` unless the
    /// node names its members and reads no elements.
    @inline(__always)
    func objectNode(_ node: Int32) -> Int32 {
        guard node >= 0 else { return Self.everything }
        let n = nodes[Int(node)]
        return n.isWhole || !n.readsMembers || (n.readsElements && !n.kindDecides) ? Self.everything : node
    }

    /// The node an array at `node` is built with: `everything` unless the
    /// node reads its elements and names no members.
    @inline(__always)
    func arrayNode(_ node: Int32) -> Int32 {
        guard node >= 0 else { return Self.everything }
        let n = nodes[Int(node)]
        return n.isWhole || !n.readsElements || (n.readsMembers && !n.kindDecides) ? Self.everything : node
    }

    /// The child of `object`'s member `key` (with hash value `hash`), or
    /// `nil` when the member is left out.
    @inline(__always)
    func member(_ key: String, hash: Int, of object: Int32) -> Int32? {
        for member in nodes[Int(object)].members where member.hash == hash && member.key == key {
            return member.child
        }
        return nil
    }

    // MARK: Building

    /// Marks the value at `path` below `start` as read whole.
    mutating func readWhole(_ path: JSONPath, from start: Int32 = root) {
        guard let node = node(at: path, from: start) else { return }
        nodes[Int(node)] = Node(isWhole: true)
    }

    /// Marks the value at `node` as read as an object by a reader that
    /// names no member of it (an array there is built whole).
    mutating func readAsObject(_ node: Int32) {
        guard node >= 0, !nodes[Int(node)].isWhole else { return }
        nodes[Int(node)].readsMembers = true
    }

    /// Lets the kind of the value at `node` decide which of its readers
    /// apply: its members when it is an object, its elements when it is an
    /// array. Only for readers that never look at the other kind.
    mutating func letKindDecide(_ node: Int32) {
        guard node >= 0 else { return }
        nodes[Int(node)].kindDecides = true
    }

    /// Marks the value at `node` as read whole.
    mutating func readWhole(_ node: Int32) {
        guard node >= 0 else { return }
        nodes[Int(node)] = Node(isWhole: true)
    }

    /// The node of the value at `path` below `start`, created as needed;
    /// `nil` when some prefix of it is already read whole.
    mutating func node(at path: JSONPath, from start: Int32 = root) -> Int32? {
        var current = start
        for component in path.components {
            guard current >= 0, !nodes[Int(current)].isWhole else { return nil }
            let parent = Int(current)
            switch component {
            case .key(let key):
                nodes[parent].readsMembers = true
                let step = ChildStep(parent: Int32(parent), component: component)
                if let existing = childLookup[step] {
                    current = existing
                } else {
                    current = addNode()
                    childLookup[step] = current
                    nodes[parent].members.append(Member(key: key, hash: key.hashValue, child: current, utf8: Array(key.utf8)))
                    if key.utf8.contains(where: { $0 >= 0x80 }) { nodes[parent].hasNonASCIIKey = true }
                }
            case .index(let index):
                let step = ChildStep(parent: Int32(parent), component: component)
                if let existing = childLookup[step] {
                    current = existing
                } else {
                    current = addNode()
                    childLookup[step] = current
                    nodes[parent].elements.append(Element(index: index, child: current))
                    // Saturating: a path may name index `Int.max`.
                    nodes[parent].elementLimit = max(nodes[parent].elementLimit, index == .max ? .max : index + 1)
                }
            }
        }
        guard current >= 0, !nodes[Int(current)].isWhole else { return nil }
        return current
    }

    /// The node every element of the array at `node` is read with.
    mutating func everyElement(of node: Int32) -> Int32? {
        guard node >= 0, !nodes[Int(node)].isWhole else { return nil }
        if let existing = nodes[Int(node)].everyElement { return existing }
        let child = addNode()
        nodes[Int(node)].everyElement = child
        return child
    }

    /// The finished projection: an element read both by index and as one of
    /// every element is built whole (a node cannot follow two trees).
    func finished() -> JSONProjection {
        var result = self
        result.childLookup = [:]
        for i in result.nodes.indices where result.nodes[i].everyElement != nil {
            for j in result.nodes[i].elements.indices {
                result.nodes[i].elements[j].child = Self.everything
            }
        }
        return result
    }

    private mutating func addNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }
}
