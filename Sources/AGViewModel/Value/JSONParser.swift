import Foundation

// TEMPORARY: a stand-in over JSONSerialization so other work can compile
// against the final API. The issue-2 work replaces this file entirely.

/// Where and why parsing failed.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in bytes.
    public var column: Int
    /// 0-based byte offset.
    public var offset: Int
    /// What is wrong.
    public var message: String
    /// `LINE:COLUMN: error: MESSAGE`.
    public var description: String { "\(line):\(column): error: \(message)" }
}

/// Parses JSON text into ``JSONValue``.
public struct JSONParser: Sendable {
    /// Parser settings.
    public struct Options: Sendable {
        /// Maximum nesting of arrays and objects.
        public var maximumDepth: Int = 512
        /// Default options.
        public init() {}
    }
    /// The settings.
    public var options: Options
    /// A parser.
    public init(options: Options = Options()) { self.options = options }

    /// Parses a complete document.
    public func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        do {
            let any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return Self.convert(any)
        } catch {
            throw JSONParseError(line: 1, column: 1, offset: 0, message: "invalid JSON")
        }
    }

    private static func convert(_ any: Any) -> JSONValue {
        switch any {
        case is NSNull: return .null
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            if let i = Int64(exactly: n.doubleValue), !String(describing: n).contains(".") { return .int(i) }
            return .double(n.doubleValue)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]: return .object(JSONObject(d.sorted { $0.key < $1.key }.map { ($0.key, convert($0.value)) }))
        default: return .null
        }
    }
}

extension JSONValue {
    /// Parses a complete JSON document.
    public init(parsing data: Data, options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(data)
    }
    /// Parses a complete JSON document.
    public init(parsing text: String, options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(Data(text.utf8))
    }
}
