/// Parsing with a ``JSONProjection``: the same grammar and checks as
/// ``JSONScanner/parseValues()``, but members and elements the projection
/// leaves out are only validated (``skipValue()``), never built.
///
/// Errors here need not match a full parse: the parser re-parses a rejected
/// document in full for the exact, positioned error. What must hold is that
/// every document a full parse rejects is rejected here too.
extension JSONScanner {
    /// The projection state of an open container.
    struct ProjectionState {
        /// The container's node, or ``JSONProjection/everything``.
        var node: Int32
        /// The index of the next element (arrays).
        var nextIndex = 0
    }

    /// Parses the whole input with `projection`.
    mutating func parseProjectedDocument(_ projection: JSONProjection) throws(JSONScanFailure) -> JSONValue {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        try parseProjectedValues(projection)
        skipWhitespace()
        if pos < count { throw JSONScanFailure(offset: pos, message: "unexpected content after the JSON value") }
        valueCount -= 1
        return values.move()
    }

    /// ``parseValues()`` with a projection.
    mutating func parseProjectedValues(_ projection: JSONProjection) throws(JSONScanFailure) {
        var states: [ProjectionState] = []
        var node = JSONProjection.root
        readValue: while true {
            skipWhitespace()
            guard pos < count else { throw JSONScanFailure(offset: pos, message: "unexpected end of input") }
            switch base[pos] {
            case UInt8(ascii: "\""):
                push(.string(try parseString()))
            case UInt8(ascii: "{"):
                try openFrame(isObject: true)
                states.append(ProjectionState(node: projection.objectNode(node)))
                skipWhitespace()
                if pos < count && base[pos] == UInt8(ascii: "}") {
                    pos += 1
                    closeObject()
                    states.removeLast()
                } else {
                    try parseKeyAndColon(afterComma: false)
                    if let child = try enterMember(of: states[states.count - 1].node, projection) {
                        node = child
                        continue readValue
                    }
                }
            case UInt8(ascii: "["):
                try openFrame(isObject: false)
                states.append(ProjectionState(node: projection.arrayNode(node)))
                skipWhitespace()
                if pos < count && base[pos] == UInt8(ascii: "]") {
                    pos += 1
                    closeArray()
                    states.removeLast()
                } else if let child = try enterElement(of: &states[states.count - 1], projection) {
                    node = child
                    continue readValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                push(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                push(.bool(true))
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                push(.bool(false))
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                push(.null)
            default:
                throw unexpectedValueStart()
            }

            // A value is complete (or was left out): continue or close.
            while true {
                guard let top = frames.last else { return }
                skipWhitespace()
                guard pos < count else { throw JSONScanFailure(offset: pos, message: "unexpected end of input") }
                let c = base[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    if top.isObject {
                        try parseKeyAndColon(afterComma: true)
                        if let child = try enterMember(of: states[states.count - 1].node, projection) {
                            node = child
                            continue readValue
                        }
                    } else {
                        skipWhitespace()
                        if pos < count && base[pos] == UInt8(ascii: "]") {
                            throw JSONScanFailure(offset: pos, message: "trailing comma is not allowed before ']'")
                        }
                        if let child = try enterElement(of: &states[states.count - 1], projection) {
                            node = child
                            continue readValue
                        }
                    }
                    continue
                }
                guard c == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw JSONScanFailure(offset: pos, message: "expected ',' or the end of the container")
                }
                pos += 1
                if top.isObject { closeObject() } else { closeArray() }
                states.removeLast()
            }
        }
    }

    /// After an object member's key: the node its value is read with, or
    /// `nil` when the member is left out (its key dropped, its value
    /// validated and skipped).
    @inline(__always)
    mutating func enterMember(of object: Int32, _ projection: JSONProjection) throws(JSONScanFailure) -> Int32? {
        guard object >= 0 else { return JSONProjection.everything }
        if let child = projection.member(keys[keyCount - 1], hash: keyHashes[keyCount - 1], of: object) {
            return child
        }
        keyCount -= 1
        (keys + keyCount).deinitialize(count: 1)
        try skipValue()
        return nil
    }

    /// At an array element: the node it is read with, or `nil` when it is
    /// left out (validated and skipped; a `null` stands in for it before the
    /// last index read).
    @inline(__always)
    mutating func enterElement(of state: inout ProjectionState, _ projection: JSONProjection) throws(JSONScanFailure) -> Int32? {
        let index = state.nextIndex
        state.nextIndex += 1
        guard state.node >= 0 else { return JSONProjection.everything }
        let node = projection.nodes[Int(state.node)]
        for element in node.elements where element.index == index { return element.child }
        if let every = node.everyElement { return every }
        try skipValue()
        if index < node.elementLimit { push(.null) }
        return nil
    }
}
