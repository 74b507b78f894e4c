/// Type names the generated top-level packager must not take: a struct of
/// that name in the user's module would hide the type throughout it (a
/// `struct Error` breaks every `: Error` in the app, a `struct Image` every
/// SwiftUI `Image`). The module name steps past them (`Error2`).
///
/// The common names of the Swift standard library, Foundation, Observation,
/// SwiftUI and this library; a name missing here is still caught by the
/// user's compiler, and `--module` can always pick another.
enum ShadowedTypeNames {
    static let all: Set<String> = swift.union(foundation).union(userInterface).union(library)

    private static let swift: Set<String> = [
        "Any", "AnyObject", "Array", "AsyncSequence", "AsyncStream", "Bool", "Character", "ClosedRange",
        "Codable", "Collection", "Comparable", "CustomStringConvertible", "Decodable", "Dictionary",
        "Double", "Duration", "Encodable", "Equatable", "Error", "Float", "Hashable", "Hasher",
        "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "KeyPath", "MainActor", "Mirror",
        "Never", "ObjectIdentifier", "Optional", "Range", "RawRepresentable", "Result", "Sendable",
        "Sequence", "Set", "String", "Substring", "Task", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "Unicode", "Void",
    ]

    private static let foundation: Set<String> = [
        "AttributedString", "Bundle", "Calendar", "CharacterSet", "Data", "Date", "DateComponents",
        "DateFormatter", "Decimal", "FileManager", "IndexPath", "IndexSet", "JSONDecoder",
        "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Notification",
        "NotificationCenter", "NSError", "NSNumber", "NSObject", "NSString", "NumberFormatter",
        "Observable", "ObservationRegistrar", "Operation", "OperationQueue", "ProcessInfo",
        "Progress", "RunLoop", "Thread", "TimeInterval", "TimeZone", "Timer", "URL",
        "URLComponents", "URLRequest", "URLSession", "UserDefaults", "UUID",
    ]

    private static let userInterface: Set<String> = [
        "Alert", "Animation", "App", "Binding", "Button", "Color", "Environment", "Font", "Form",
        "Group", "Image", "Label", "Link", "List", "Menu", "Scene", "State", "Text", "Toggle", "View",
    ]

    private static let library: Set<String> = [
        "AGViewModel", "Archive", "ChangeSet", "Command", "IdentityRule", "JSONArray", "JSONObject",
        "JSONParser", "JSONPath", "JSONValue", "JSONWriter", "KeyChange", "KeyObservation",
        "Manager", "PackagingSpec", "Section", "SpecPackager", "ViewModel", "ViewModelPackager",
        "ViewModelValue",
    ]
}
