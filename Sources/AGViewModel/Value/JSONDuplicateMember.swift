/// Finds a member that repeats an earlier key of its object in JSON text.
///
/// The parser keeps the last value of a repeated key (see ``JSONParser``),
/// as most parsers do; in a configuration file such as a packaging spec
/// that silently drops a setting, so checked inputs read their text a
/// second time with this. Keys are compared as the parser compares them
/// (decoded, as `String`s).
internal enum JSONDuplicateMember {
    /// The first repeated member in `bytes`, which must be valid JSON: its
    /// key and the byte offset of its opening quote; `nil` when every
    /// object's keys are distinct.
    static func first(in bytes: UnsafeRawBufferPointer) -> (key: String, offset: Int)? {
        // One frame per open container: an object's keys so far (`nil` for
        // an array), and whether a string there now would be a key.
        var frames: [(keys: Set<String>?, expectingKey: Bool)] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"):
                frames.append(([], true))
            case UInt8(ascii: "["):
                frames.append((nil, false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                frames.removeLast()
            case UInt8(ascii: ","):
                if frames[frames.count - 1].keys != nil { frames[frames.count - 1].expectingKey = true }
            case UInt8(ascii: ":"):
                frames[frames.count - 1].expectingKey = false
            case UInt8(ascii: "\""):
                let start = i
                var escaped = false
                i += 1
                while bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 2 } else { i += 1 }
                }
                guard let top = frames.indices.last, frames[top].expectingKey else { break }
                // Without an escape the key is its bytes (valid UTF-8): no parse needed.
                let key: String? = escaped
                    ? (try? JSONValue(parsing: Array(bytes[start ... i]))).flatMap { if case .string(let k) = $0 { k } else { nil } }
                    : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + 1) ..< i]), as: UTF8.self)
                if let key, !frames[top].keys!.insert(key).inserted {
                    return (key, start)
                }
            default:
                break                              // whitespace, numbers, literals
            }
            i += 1
        }
        return nil
    }
}
