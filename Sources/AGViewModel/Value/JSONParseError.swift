/// Where and why parsing JSON text failed.
///
/// Every rejection of ``JSONParser`` carries the position of the offending
/// byte and a message a person can act on:
///
/// ```swift
/// do { _ = try JSONValue(parsing: #"{"a": 1,}"#) }
/// catch { print(error) }  // 1:9: error: trailing comma is not allowed before '}'
/// ```
///
/// A token missing at the end of the input (a truncated document) is
/// reported just past the last byte; a UTF-8 sequence cut off by the end,
/// at its first byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem (lines end at `\n`, `\r\n` or a lone
    /// `\r`, as editors count them).
    public var line: Int
    /// The 1-based column of the problem, counted in bytes of UTF-8 from the
    /// start of the line (a leading byte-order mark is not counted).
    public var column: Int
    /// The 0-based byte offset of the problem in the input.
    public var offset: Int
    /// What is wrong, for example `expected ',' or '}' after object member`.
    public var message: String

    /// Creates an error.
    public init(line: Int, column: Int, offset: Int, message: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    /// `LINE:COLUMN: error: MESSAGE`, the form compilers use, so editors can
    /// jump to the position when a file name is put in front.
    public var description: String { "\(line):\(column): error: \(message)" }
}

extension JSONParseError {
    /// The error for `message` at byte `offset` of `bytes`, with line and
    /// column worked out from the text before it. Only runs on failure.
    internal init(offset: Int, message: String, in bytes: UnsafeRawBufferPointer) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end {
            switch bytes[i] {
            case UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\r") where i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n"):
                break                                 // a lone CR (old Mac files)
            default:
                continue
            }
            line += 1
            lineStart = i + 1
        }
        var column = end - lineStart + 1
        if line == 1, Self.hasByteOrderMark(bytes), end >= 3 { column -= 3 }
        self.init(line: line, column: column, offset: offset, message: message)
    }

    internal static func hasByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}
