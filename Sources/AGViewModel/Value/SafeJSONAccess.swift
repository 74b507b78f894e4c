import Foundation

/// Safe, typed reads by path that never crash on API data.
///
/// `JSONValue`, `JSONObject` and `ViewModel` all offer the same getters:
/// `string(at:)`, `int(at:)`, `double(at:)`, `bool(at:)`, `url(at:)`,
/// `array(at:)` and `object(at:)`, each also with a `default:`, plus
/// ``read(_:at:)`` which throws a ``JSONAccessError`` that says why a read
/// failed. Conversions follow ``JSONReadable``.
public protocol SafeJSONAccess {
    /// The value at `path`, or why there is none. Only ``JSONAccessError/Reason/missing``
    /// and ``JSONAccessError/Reason/notAContainer(found:)`` are reported here;
    /// `null` is returned as a value.
    func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError>
}

extension SafeJSONAccess {
    /// The raw value at `path`, `null` included, or `nil` when absent.
    public func value(at path: JSONPath) -> JSONValue? {
        try? lookup(path).get()
    }

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

    /// Reads `type` at `path`, or `nil`.
    @inlinable
    public func read<T: JSONReadable>(_ type: T.Type, at path: JSONPath, default fallback: T) -> T {
        (try? read(type, at: path)) ?? fallback
    }

    /// The string at `path` (numbers read as their text), or `nil`.
    public func string(at path: JSONPath) -> String? { try? read(String.self, at: path) }
    /// The string at `path`, or `fallback`.
    public func string(at path: JSONPath, default fallback: String) -> String { string(at: path) ?? fallback }
    /// The integer at `path` (integral numbers and numeric strings), or `nil`.
    public func int(at path: JSONPath) -> Int? { try? read(Int.self, at: path) }
    /// The integer at `path`, or `fallback`.
    public func int(at path: JSONPath, default fallback: Int) -> Int { int(at: path) ?? fallback }
    /// The 64-bit integer at `path`, or `nil`.
    public func int64(at path: JSONPath) -> Int64? { try? read(Int64.self, at: path) }
    /// The double at `path` (any number or numeric string), or `nil`.
    public func double(at path: JSONPath) -> Double? { try? read(Double.self, at: path) }
    /// The double at `path`, or `fallback`.
    public func double(at path: JSONPath, default fallback: Double) -> Double { double(at: path) ?? fallback }
    /// The boolean at `path` (booleans, numbers, boolean words), or `nil`.
    public func bool(at path: JSONPath) -> Bool? { try? read(Bool.self, at: path) }
    /// The boolean at `path`, or `fallback`.
    public func bool(at path: JSONPath, default fallback: Bool) -> Bool { bool(at: path) ?? fallback }
    /// The URL at `path` (from a string), or `nil`.
    public func url(at path: JSONPath) -> URL? { try? read(URL.self, at: path) }
    /// The array at `path`, or `nil`.
    public func array(at path: JSONPath) -> [JSONValue]? { try? read([JSONValue].self, at: path) }
    /// The array at `path`, or `fallback` (empty by default).
    public func array(at path: JSONPath, default fallback: [JSONValue]) -> [JSONValue] { array(at: path) ?? fallback }
    /// The object at `path`, or `nil`.
    public func object(at path: JSONPath) -> JSONObject? { try? read(JSONObject.self, at: path) }
    /// The object at `path`, or `fallback`.
    public func object(at path: JSONPath, default fallback: JSONObject) -> JSONObject { object(at: path) ?? fallback }
}

extension JSONValue: SafeJSONAccess {
    /// Walks `path` from this value.
    public func lookup(_ path: JSONPath) -> Result<JSONValue, JSONAccessError> {
        Self.walk(self, path.components[...], fullPath: path, depth: 0)
    }

    /// Walks `rest` from `start`; `depth` counts the components of `fullPath`
    /// already consumed, for error prefixes.
    internal static func walk(
        _ start: JSONValue, _ rest: ArraySlice<JSONPath.Component>, fullPath: JSONPath, depth: Int
    ) -> Result<JSONValue, JSONAccessError> {
        var current = start
        var step = depth
        for component in rest {
            step += 1
            switch (component, current) {
            case let (.key(key), .object(object)):
                guard let next = object[key] else {
                    return .failure(JSONAccessError(path: fullPath.prefix(step), reason: .missing))
                }
                current = next
            case let (.index(index), .array(array)):
                guard array.indices.contains(index) else {
                    return .failure(JSONAccessError(path: fullPath.prefix(step), reason: .missing))
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
        guard case .key(let key)? = path.components.first else {
            if path.components.isEmpty { return .success(.object(self)) }
            return .failure(JSONAccessError(path: JSONPath([]), reason: .notAContainer(found: .object)))
        }
        guard let first = self[key] else {
            return .failure(JSONAccessError(path: path.prefix(1), reason: .missing))
        }
        return JSONValue.walk(first, path.components.dropFirst(), fullPath: path, depth: 1)
    }
}
