import Foundation

/// Parses JSON text (RFC 8259) into ``JSONValue``: strict, fast, and safe on
/// any input.
///
/// ```swift
/// let value = try JSONParser().parse(data)
/// let same = try JSONValue(parsing: #"{"id": 505874924095815681}"#)
/// ```
///
/// **Strict.** Every document RFC 8259 allows is accepted, with any value at
/// the top level; everything else is rejected with a ``JSONParseError`` that
/// gives line, column, byte offset and a message: trailing commas, leading
/// zeros, comments, `NaN`/`Infinity`, single quotes, unescaped control
/// characters, invalid UTF-8 (overlong forms, encoded surrogates, code points
/// above U+10FFFF, truncated sequences, stray continuation bytes), truncated
/// input and anything after the value.
///
/// **Rules where RFC 8259 leaves a choice:**
/// - *Byte-order mark*: one leading UTF-8 BOM (`EF BB BF`) is skipped; a BOM
///   anywhere else outside a string is an error.
/// - *Duplicate keys*: the last value wins, at the position of the first
///   occurrence (the same rule as setting a key on ``JSONObject``). Keys are
///   compared as Swift `String`s, so two keys that differ only in Unicode
///   normalization (`"\u00e9"` and `"e\u0301"`, both "é") are the same key.
/// - *Lone surrogates*: a `\uD800`–`\uDFFF` escape that is not part of a
///   valid high/low pair becomes U+FFFD (the replacement character), since a
///   Swift `String` cannot hold it. Valid pairs become their code point.
/// - *Numbers*: integer literals that fit in `Int64` become
///   ``JSONValue/int(_:)``; larger integer literals are kept as their exact
///   text in ``JSONValue/bigInteger(_:)``; numbers with a fraction or an
///   exponent become a correctly rounded ``JSONValue/double(_:)``. A number
///   too large for a double (`1e400`) is rejected; one too small becomes
///   zero. `-0` becomes `.double(-0.0)` so its sign survives.
/// - *Depth*: arrays and objects may nest ``Options/maximumDepth`` levels
///   (512 by default). The parser does not recurse, so even absurdly deep
///   input gives an error and never overflows the stack, on any thread.
public struct JSONParser: Sendable {
    /// Parser settings.
    public struct Options: Sendable, Hashable {
        /// The deepest nesting of arrays and objects accepted: `[[1]]` has
        /// depth 2. Deeper input is rejected with an error.
        public var maximumDepth: Int = 512

        /// Options with the given maximum depth (512 by default).
        public init(maximumDepth: Int = 512) {
            self.maximumDepth = maximumDepth
        }
    }

    /// The settings.
    public var options: Options

    /// A parser with `options`.
    public init(options: Options = Options()) { self.options = options }

    /// Parses a complete JSON document from `data` (UTF-8).
    public func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { bytes in parseResult(bytes) }
        return try result.get()
    }

    /// Parses a complete JSON document from UTF-8 `bytes`.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { bytes in parseResult(bytes) }
        return try result.get()
    }

    /// Parses a complete JSON document from `text`.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { utf8 in parseResult(UnsafeRawBufferPointer(utf8)) }
        return try result.get()
    }

    /// Parses a complete JSON document from UTF-8 `bytes`, which must stay
    /// valid for the duration of the call.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        try parseResult(bytes).get()
    }

    /// Parses `bytes` into a value or the positioned error.
    internal func parseResult(_ bytes: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return .failure(JSONParseError(line: 1, column: 1, offset: 0,
                                           message: "unexpected end of input, expected a JSON value"))
        }
        var scanner = JSONScanner(base: base.assumingMemoryBound(to: UInt8.self),
                                  count: bytes.count,
                                  maximumDepth: options.maximumDepth)
        let result: Result<JSONValue, JSONScanFailure>
        do {
            result = .success(try scanner.parseDocument())
        } catch {
            result = .failure(error)
        }
        scanner.finish()
        return result.mapError { failure in
            JSONParseError(offset: failure.offset, message: failure.message, in: bytes)
                .addingEncodingHint(for: bytes)
        }
    }
}

extension JSONParser {
    /// Parses `bytes` building only what `projection` reads. The whole
    /// document is checked as ``parseResult(_:)`` checks it; a document the
    /// projected parse rejects is parsed in full, for the exact error.
    internal func parseResult(_ bytes: UnsafeRawBufferPointer, keeping projection: JSONProjection) -> Result<JSONValue, JSONParseError> {
        guard !projection.readsEverything, let base = bytes.baseAddress, bytes.count > 0 else {
            return parseResult(bytes)
        }
        var scanner = JSONScanner(base: base.assumingMemoryBound(to: UInt8.self),
                                  count: bytes.count,
                                  maximumDepth: options.maximumDepth)
        let value: JSONValue?
        do {
            value = try scanner.parseProjectedDocument(projection)
        } catch {
            value = nil
        }
        scanner.finish()
        guard let value else { return parseResult(bytes) }
        return .success(value)
    }

    /// Parses `data` building only what `projection` reads.
    internal func parse(_ data: Data, keeping projection: JSONProjection) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { bytes in parseResult(bytes, keeping: projection) }
        return try result.get()
    }
}

extension JSONParser {
    /// Drops what the calling thread keeps between parses (the keys and
    /// object shapes it has seen, its working buffers), so its next parse
    /// starts as the thread's first one did. The benchmark's first-parse
    /// rows call it; nothing else needs to.
    package static func discardThreadCaches() {
        // The thread's table holds all of it; taken and not given back, it
        // is freed here.
        _ = JSONKeyInternTable.take()
    }
}

extension JSONValue {
    /// Parses a complete JSON document (UTF-8 data). See ``JSONParser``.
    public init(parsing data: Data, options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(data)
    }

    /// Parses a complete JSON document. See ``JSONParser``.
    public init(parsing text: String, options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(text)
    }

    /// Parses a complete JSON document (UTF-8 bytes). See ``JSONParser``.
    public init(parsing bytes: [UInt8], options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(bytes)
    }
}
