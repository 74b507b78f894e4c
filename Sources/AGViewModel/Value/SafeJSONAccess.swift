import Foundation

/// Safe, typed reads by path that never crash on API data.
///
/// `JSONValue`, `JSONObject` and `ViewModel` all offer the same getters:
/// `string(at:)`, `int(at:)`, `int64(at:)`, `uint64(at:)`, `double(at:)`,
/// `float(at:)`, `bool(at:)`, `url(at:)`, `array(at:)` and `object(at:)`,
/// each also with a `default:`, plus ``read(_:at:)`` which throws a
/// ``JSONAccessError`` that says why a read failed, and
/// `read(_:at:resolve:)`, whose closure sees what was
/// found and decides the result. Conversions follow ``JSONReadable``.
///
/// A path is a literal, any `String` (a constant, a variable, a generated
/// key) or a ``JSONPath``; all three mean the same. `let kTitle = "title"`
/// then `json.string(at: kTitle)` reads the member `title`. See
/// ``JSONPath`` for the syntax, and how to write a key containing `.` or `[`.
///
/// Optional and default reads never build an error: a miss costs the walk
/// only. Reads with a single plain key, and plain ASCII paths without
/// escapes, allocate nothing for keys up to 15 bytes.
public protocol SafeJSONAccess {
    /// The value at `path`, or why there is none:
    /// ``JSONAccessError/Reason/missing``,
    /// ``JSONAccessError/Reason/notAContainer(found:)``, or
    /// ``JSONAccessError/Reason/null`` when a step before the last is `null`.
    /// A `null` at the end of the path is returned as a value.
    func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError>

    /// The raw value at `path`, `null` included, or `nil` when absent. Builds
    /// no error.
    func value(at path: JSONPath) -> JSONValue?

    /// The raw value at the path written in `path`, `null` included, or
    /// `nil` when absent. Builds no error.
    func value(at path: String) -> JSONValue?
}

extension SafeJSONAccess {
    /// The raw value at `path`, `null` included, or `nil` when absent.
    public func value(at path: JSONPath) -> JSONValue? {
        try? lookup(path).get()
    }

    /// The raw value at the path written in `path`, or `nil` when absent.
    public func value(at path: String) -> JSONValue? {
        value(at: JSONPath(path))
    }

    /// `true` when something (`null` included) is stored at `path`.
    public func containsValue(at path: JSONPath) -> Bool { value(at: path) != nil }
    /// `true` when something (`null` included) is stored at `path`.
    public func containsValue(at path: String) -> Bool { value(at: path) != nil }

    /// Reads `type` at `path`, or throws why it could not: missing, null or
    /// of the wrong type.
    public func read<T: JSONReadable>(_ type: T.Type, at path: JSONPath) throws(JSONAccessError) -> T {
        let value: JSONValue
        switch lookup(path) {
        case .success(let found): value = found
        case .failure(let error): throw error
        }
        if let result = T.read(from: value) { return result }
        if value.isNull { throw JSONAccessError(path: path, reason: .null) }
        throw JSONAccessError(path: path, reason: .typeMismatch(
            expected: T.expectedDescription, found: value.kind, value: value.briefDescription))
    }

    /// Reads `type` at the path written in `path`, or throws why it could not.
    public func read<T: JSONReadable>(_ type: T.Type, at path: String) throws(JSONAccessError) -> T {
        if let found = value(at: path), let result = T.read(from: found) { return result }
        return try read(type, at: JSONPath(path))  // the failure, with its reason
    }

    /// Reads `type` at `path` and lets `resolve` decide the result: it
    /// gets the raw value found (`nil` when nothing is there; a `null` is a
    /// value) and the value read by the ``JSONReadable`` rules (`nil` when
    /// it could not be read as `type`), and returns what the caller gets.
    ///
    /// ```swift
    /// // A missing count is 0; one the API sent in a form that is not a
    /// // number is logged and shown as 0 too.
    /// let count = json.read(Int.self, at: "count") { found, read in
    ///     if read == nil, let found { print("count: unexpected \(found)") }
    ///     return read ?? 0
    /// }
    /// ```
    public func read<T: JSONReadable>(
        _ type: T.Type, at path: JSONPath, resolve: (_ found: JSONValue?, _ read: T?) throws -> T
    ) rethrows -> T {
        let found = value(at: path)
        return try resolve(found, found.flatMap(T.read))
    }

    /// Reads `type` at the path written in `path` and lets `resolve`
    /// decide the result from the raw value found and the value read.
    public func read<T: JSONReadable>(
        _ type: T.Type, at path: String, resolve: (_ found: JSONValue?, _ read: T?) throws -> T
    ) rethrows -> T {
        let found = value(at: path)
        return try resolve(found, found.flatMap(T.read))
    }

    /// Reads `type` at `path`, or `fallback`.
    @inlinable
    public func read<T: JSONReadable>(_ type: T.Type, at path: JSONPath, default fallback: T) -> T {
        value(at: path).flatMap(T.read) ?? fallback
    }

    /// Reads `type` at the path written in `path`, or `fallback`.
    @inlinable
    public func read<T: JSONReadable>(_ type: T.Type, at path: String, default fallback: T) -> T {
        value(at: path).flatMap(T.read) ?? fallback
    }

    /// The string at `path` (numbers read as their text), or `nil`.
    public func string(at path: JSONPath) -> String? { value(at: path).flatMap(String.read) }
    /// The string at `path` (numbers read as their text), or `nil`.
    public func string(at path: String) -> String? { value(at: path).flatMap(String.read) }
    /// The string at `path`, or `fallback`.
    public func string(at path: JSONPath, default fallback: String) -> String { string(at: path) ?? fallback }
    /// The string at `path`, or `fallback`.
    public func string(at path: String, default fallback: String) -> String { string(at: path) ?? fallback }

    /// The integer at `path` (integral numbers and numeric strings), or `nil`.
    public func int(at path: JSONPath) -> Int? { value(at: path).flatMap(Int.read) }
    /// The integer at `path` (integral numbers and numeric strings), or `nil`.
    public func int(at path: String) -> Int? { value(at: path).flatMap(Int.read) }
    /// The integer at `path`, or `fallback`.
    public func int(at path: JSONPath, default fallback: Int) -> Int { int(at: path) ?? fallback }
    /// The integer at `path`, or `fallback`.
    public func int(at path: String, default fallback: Int) -> Int { int(at: path) ?? fallback }

    /// The 64-bit integer at `path`, or `nil`.
    public func int64(at path: JSONPath) -> Int64? { value(at: path).flatMap(Int64.read) }
    /// The 64-bit integer at `path`, or `nil`.
    public func int64(at path: String) -> Int64? { value(at: path).flatMap(Int64.read) }
    /// The 64-bit integer at `path`, or `fallback`.
    public func int64(at path: JSONPath, default fallback: Int64) -> Int64 { int64(at: path) ?? fallback }
    /// The 64-bit integer at `path`, or `fallback`.
    public func int64(at path: String, default fallback: Int64) -> Int64 { int64(at: path) ?? fallback }

    /// The unsigned 64-bit integer at `path`, exact up to `UInt64.max`, or `nil`.
    public func uint64(at path: JSONPath) -> UInt64? { value(at: path).flatMap(UInt64.read) }
    /// The unsigned 64-bit integer at `path`, exact up to `UInt64.max`, or `nil`.
    public func uint64(at path: String) -> UInt64? { value(at: path).flatMap(UInt64.read) }
    /// The unsigned 64-bit integer at `path`, or `fallback`.
    public func uint64(at path: JSONPath, default fallback: UInt64) -> UInt64 { uint64(at: path) ?? fallback }
    /// The unsigned 64-bit integer at `path`, or `fallback`.
    public func uint64(at path: String, default fallback: UInt64) -> UInt64 { uint64(at: path) ?? fallback }

    /// The double at `path` (any number or numeric string), or `nil`.
    public func double(at path: JSONPath) -> Double? { value(at: path).flatMap(Double.read) }
    /// The double at `path` (any number or numeric string), or `nil`.
    public func double(at path: String) -> Double? { value(at: path).flatMap(Double.read) }
    /// The double at `path`, or `fallback`.
    public func double(at path: JSONPath, default fallback: Double) -> Double { double(at: path) ?? fallback }
    /// The double at `path`, or `fallback`.
    public func double(at path: String, default fallback: Double) -> Double { double(at: path) ?? fallback }

    /// The number at `path` as a `Float` (any number or numeric string,
    /// rounded to the nearest `Float` as ``JSONReadable`` says), or `nil`.
    public func float(at path: JSONPath) -> Float? { value(at: path).flatMap(Float.read) }
    /// The number at `path` as a `Float` (any number or numeric string,
    /// rounded to the nearest `Float` as ``JSONReadable`` says), or `nil`.
    public func float(at path: String) -> Float? { value(at: path).flatMap(Float.read) }
    /// The float at `path`, or `fallback`.
    public func float(at path: JSONPath, default fallback: Float) -> Float { float(at: path) ?? fallback }
    /// The float at `path`, or `fallback`.
    public func float(at path: String, default fallback: Float) -> Float { float(at: path) ?? fallback }

    /// The boolean at `path` (booleans, numbers, boolean words), or `nil`.
    public func bool(at path: JSONPath) -> Bool? { value(at: path).flatMap(Bool.read) }
    /// The boolean at `path` (booleans, numbers, boolean words), or `nil`.
    public func bool(at path: String) -> Bool? { value(at: path).flatMap(Bool.read) }
    /// The boolean at `path`, or `fallback`.
    public func bool(at path: JSONPath, default fallback: Bool) -> Bool { bool(at: path) ?? fallback }
    /// The boolean at `path`, or `fallback`.
    public func bool(at path: String, default fallback: Bool) -> Bool { bool(at: path) ?? fallback }

    /// The URL at `path` (from a string), or `nil`.
    public func url(at path: JSONPath) -> URL? { value(at: path).flatMap(URL.read) }
    /// The URL at `path` (from a string), or `nil`.
    public func url(at path: String) -> URL? { value(at: path).flatMap(URL.read) }
    /// The URL at `path`, or `fallback`.
    public func url(at path: JSONPath, default fallback: URL) -> URL { url(at: path) ?? fallback }
    /// The URL at the path written in `path`, or `fallback`.
    public func url(at path: String, default fallback: URL) -> URL { url(at: path) ?? fallback }

    /// The array at `path`, or `nil`.
    public func array(at path: JSONPath) -> JSONArray? { value(at: path)?.arrayValue }
    /// The array at `path`, or `nil`.
    public func array(at path: String) -> JSONArray? { value(at: path)?.arrayValue }
    /// The array at `path`, or `fallback`.
    public func array(at path: JSONPath, default fallback: JSONArray) -> JSONArray { array(at: path) ?? fallback }
    /// The array at `path`, or `fallback`.
    public func array(at path: String, default fallback: JSONArray) -> JSONArray { array(at: path) ?? fallback }

    /// The object at `path`, or `nil`.
    public func object(at path: JSONPath) -> JSONObject? { value(at: path)?.objectValue }
    /// The object at `path`, or `nil`.
    public func object(at path: String) -> JSONObject? { value(at: path)?.objectValue }
    /// The object at `path`, or `fallback`.
    public func object(at path: JSONPath, default fallback: JSONObject) -> JSONObject { object(at: path) ?? fallback }
    /// The object at `path`, or `fallback`.
    public func object(at path: String, default fallback: JSONObject) -> JSONObject { object(at: path) ?? fallback }
}

extension JSONValue: SafeJSONAccess {
    /// Walks `path` from this value.
    public func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError> {
        Self.walk(self, path.components[...], fullPath: path, depth: 0)
    }

    /// The value at `path`, or `nil`; builds no error.
    public func value(at path: JSONPath) -> JSONValue? {
        Self.walk(self, path.components[...])
    }

    /// The value at the path written in `path`, or `nil`; builds no error
    /// and, for plain paths with keys of up to 15 UTF-8 bytes, allocates
    /// nothing.
    public func value(at path: String) -> JSONValue? {
        path.withContiguousUTF8 { utf8 in
            switch JSONPath.TextShape(utf8: utf8) {
            case .singleKey:
                if case .object(let object) = self { return object[path] }
                return nil
            case .plain:
                return JSONPath.walk(self, plainUTF8: utf8)
            case .needsParsing:
                return Self.walk(self, JSONPath(path).components[...])
            }
        }
    }

    /// Walks `rest` from `start` without reporting why it stopped, in
    /// place (see ``Swift/UnsafePointer/descendant(at:keyHashes:)``).
    internal static func walk(_ start: JSONValue, _ rest: ArraySlice<JSONPath.Component>) -> JSONValue? {
        withUnsafePointer(to: start) { $0.descendant(at: rest)?.pointee }
    }

    /// Walks `rest` from `start`; `depth` counts the components of `fullPath`
    /// already consumed, for error prefixes.
    /// `keyHashes`, when given, holds the hash value of each key of
    /// `fullPath` (see ``JSONHashedPath``).
    internal static func walk(
        _ start: JSONValue, _ rest: ArraySlice<JSONPath.Component>, fullPath: JSONPath, depth: Int,
        keyHashes: [Int]? = nil
    ) -> Result<JSONValue, JSONAccessError> {
        var current = start
        var step = depth
        for component in rest {
            step += 1
            switch (component, current) {
            case let (.key(key), .object(object)):
                guard let position = object.index(forKey: key, hash: keyHashes?[step - 1]) else {
                    return .failure(JSONAccessError(missingAt: fullPath.prefix(step), in: .object(object)))
                }
                current = object._members[position].value
            case let (.index(index), .array(array)):
                guard array.indices.contains(index) else {
                    return .failure(JSONAccessError(missingAt: fullPath.prefix(step), in: .count(array.count)))
                }
                current = array[index]
            case (_, .null):
                return .failure(JSONAccessError(path: fullPath.prefix(step - 1), reason: .null))
            default:
                return .failure(JSONAccessError(
                    path: fullPath.prefix(step - 1), reason: .notAContainer(found: current.kind)))
            }
        }
        return .success(current)
    }
}

extension JSONObject: SafeJSONAccess {
    /// Walks `path` from this object; the first component must be a key.
    public func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError> {
        lookup(path, keyHashes: nil)
    }

    /// ``lookup(_:)``, with the hash value of each key of `path` when
    /// `keyHashes` is given.
    internal func lookup(_ path: JSONPath, keyHashes: [Int]?) -> Result<JSONValue, JSONAccessError> {
        guard case .key(let key)? = path.components.first else {
            if path.components.isEmpty { return .success(.object(self)) }
            return .failure(JSONAccessError(path: JSONPath([]), reason: .notAContainer(found: .object)))
        }
        guard let position = index(forKey: key, hash: keyHashes?[0]) else {
            return .failure(JSONAccessError(missingAt: path.prefix(1), in: .object(self)))
        }
        return JSONValue.walk(_members[position].value, path.components.dropFirst(), fullPath: path, depth: 1, keyHashes: keyHashes)
    }

    /// The value at `path`, or `nil`; builds no error.
    public func value(at path: JSONPath) -> JSONValue? {
        JSONValue.walk(.object(self), path.components[...])
    }

    /// The value at the path written in `path`, or `nil`; builds no error
    /// and, for plain paths with keys of up to 15 UTF-8 bytes, allocates
    /// nothing.
    public func value(at path: String) -> JSONValue? {
        path.withContiguousUTF8 { utf8 in
            switch JSONPath.TextShape(utf8: utf8) {
            case .singleKey:
                return self[path]
            case .plain:
                return JSONPath.walk(.object(self), plainUTF8: utf8)
            case .needsParsing:
                return JSONValue.walk(.object(self), JSONPath(path).components[...])
            }
        }
    }
}
