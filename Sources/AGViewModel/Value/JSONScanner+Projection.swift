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
                    if let child = try projectedMember(afterComma: false, of: states[states.count - 1].node, projection) {
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
                        if let child = try projectedMember(afterComma: true, of: states[states.count - 1].node, projection) {
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

    /// Reads an object member's key and colon (`pos` is after `{` or `,`):
    /// the node its value is read with, or `nil` when the member is left
    /// out (its value validated and skipped). A plain ASCII key is matched
    /// by its bytes against the node's members, so a key left out is never
    /// decoded or hashed, and a key read takes the projection's string.
    @inline(__always)
    mutating func projectedMember(afterComma: Bool, of object: Int32, _ projection: JSONProjection) throws(JSONScanFailure) -> Int32? {
        guard object >= 0 else {
            try parseKeyAndColon(afterComma: afterComma)
            return JSONProjection.everything
        }
        skipWhitespace()
        if pos < count && base[pos] == UInt8(ascii: "\"") {
            let quote = pos
            let start = pos &+ 1
            var p = start
            var stopped = false
            while p &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let mask = Self.stringStopMask(word)
                if mask != 0 {
                    p &+= mask.trailingZeroBitCount &>> 3
                    stopped = true
                    break
                }
                p &+= 8
            }
            if !stopped {
                while p < count {
                    let c = base[p]
                    if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                    p &+= 1
                }
            }
            if p < count && base[p] == UInt8(ascii: "\"") {
                let length = p &- start
                pos = p &+ 1
                skipWhitespace()
                guard pos < count && base[pos] == UInt8(ascii: ":") else { throw skipFailure() }
                pos &+= 1
                let members = projection.nodes[Int(object)].members
                for i in members.indices where members[i].utf8.count == length {
                    let matches = members[i].utf8.withUnsafeBufferPointer { key in
                        length == 0 || JSONKeyInternTable.equalBytes(key.baseAddress!, base + start, length: length)
                    }
                    if matches {
                        if keyCount == keyCapacity { growKeys() }
                        (keys + keyCount).initialize(to: members[i].key)
                        keyHashes[keyCount] = members[i].hash
                        keyCount += 1
                        return members[i].child
                    }
                }
                if !projection.nodes[Int(object)].hasNonASCIIKey {
                    try skipValue()
                    return nil
                }
                // A non-ASCII member key may still equal this key as a String.
                pos = quote
            }
        }
        // Escapes, non-ASCII, malformed, or a key to compare as a String:
        // the general path.
        try parseKeyAndColon(afterComma: afterComma)
        return try enterMember(of: object, projection)
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
