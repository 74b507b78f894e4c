import Foundation

// TEMPORARY: a stand-in so other work can compile against the final API.
// The issue-2 work replaces this file entirely.

/// Why a value could not be written.
public struct JSONWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the path of the offending value.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Writes ``JSONValue`` as JSON text.
public struct JSONWriter: Sendable {
    /// Writer settings.
    public struct Options: Sendable, Hashable {
        /// Pretty-print with newlines and indentation.
        public var pretty = false
        /// Spaces per level when pretty.
        public var indent = 2
        /// Object keys in byte order instead of insertion order.
        public var sortedKeys = false
        /// Default options (compact, insertion order).
        public init(pretty: Bool = false, indent: Int = 2, sortedKeys: Bool = false) {
            self.pretty = pretty; self.indent = indent; self.sortedKeys = sortedKeys
        }
    }
    /// The settings.
    public var options: Options
    /// A writer.
    public init(options: Options = Options()) { self.options = options }

    /// The JSON text of `value` as UTF-8 bytes.
    public func write(_ value: JSONValue) throws(JSONWriteError) -> [UInt8] {
        var out = ""
        try Self.append(value, to: &out, options: options, level: 0)
        return Array(out.utf8)
    }

    private static func append(_ value: JSONValue, to out: inout String, options: Options, level: Int) throws(JSONWriteError) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .bigInteger(let s): out += s
        case .double(let d):
            guard d.isFinite else { throw JSONWriteError(message: "non-finite double \(d)") }
            out += d.description
        case .string(let s):
            out += "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
                default: out.unicodeScalars.append(u)
                }
            }
            out += "\""
        case .array(let a):
            out += "["
            for (i, e) in a.enumerated() { if i > 0 { out += "," }; try append(e, to: &out, options: options, level: level + 1) }
            out += "]"
        case .object(let o):
            out += "{"
            let members = options.sortedKeys ? o.sortedByKey() : o
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                try append(.string(m.key), to: &out, options: options, level: level + 1)
                out += ":"
                try append(m.value, to: &out, options: options, level: level + 1)
            }
            out += "}"
        }
    }
}

extension JSONValue {
    /// The JSON text of this value as data.
    public func jsonData(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> Data {
        Data(try JSONWriter(options: options).write(self))
    }
    /// The JSON text of this value.
    public func jsonString(options: JSONWriter.Options = .init()) throws(JSONWriteError) -> String {
        String(decoding: try JSONWriter(options: options).write(self), as: UTF8.self)
    }
}
