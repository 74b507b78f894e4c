import AGViewModel

/// The typed-key value type inferred for a shape: the widest sensible Swift
/// type that reads every sample without loss.
enum KeyType: Equatable {
    case string, int, double, bool, url, array, object, value

    /// The Swift spelling of the value type of a `ViewModel.Key<...>`.
    var swiftName: String {
        switch self {
        case .string: "String"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .url: "URL"
        case .array: "[JSONValue]"
        case .object: "JSONObject"
        case .value: "JSONValue"
        }
    }

    /// The inferred type of `shape`, and why when it is not obvious.
    init(_ shape: JSONShape) {
        let kinds = shape.kinds
        switch kinds {
        case []: self = .value                      // null only: nothing to go on
        case [.bool]: self = .bool
        case [.int]: self = .int
        case [.double], [.int, .double]: self = .double
        // Beyond Int64 the exact text is the only lossless reading.
        case [.bigInteger], [.int, .bigInteger], [.int, .double, .bigInteger], [.double, .bigInteger]:
            self = kinds.contains(.double) ? .double : .string
        case [.string]: self = shape.allStringsAreURLs ? .url : .string
        case [.array]: self = .array
        case [.object]: self = .object
        default:
            // Strings mixed with numbers: a String key reads numbers as text.
            let scalarish: Set<JSONValue.Kind> = [.string, .int, .double, .bigInteger]
            self = kinds.isSubset(of: scalarish) ? .string : .value
        }
    }
}
