#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// How deep the calling thread is in `JSONValue`'s `Codable` conformance:
/// decoding and encoding are synchronous, so a per-thread count is exact.
internal enum CodableNesting {
    /// Counts one more level of arrays and objects being decoded, or
    /// throws, counting nothing, past ``JSONValue/codableNestingLimit``.
    static func enterForDecoding() throws(DecodingError) {
        guard enter() else {
            // Not the decoder's coding path: building it recurses per level too.
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: message))
        }
    }

    /// Counts one more level of arrays and objects being encoded, or
    /// throws, counting nothing, past ``JSONValue/codableNestingLimit``.
    static func enterForEncoding(_ value: JSONValue) throws(EncodingError) {
        guard enter() else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: message))
        }
    }

    /// Counts one level less, after a level entered.
    static func leave() {
        depth -= 1
    }

    private static func enter() -> Bool {
        let depth = self.depth
        guard depth < JSONValue.codableNestingLimit else { return false }
        self.depth = depth + 1
        return true
    }

    private static var message: String {
        "JSON nested more than \(JSONValue.codableNestingLimit) levels deep; read it with JSONParser, write it with JSONWriter"
    }

    private static var depth: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()
}
