/// Why a packaging spec was rejected: which file, which entry, what is wrong.
///
/// ```
/// timeline.spec.json: error: fields[2] (key "likes"): unknown type "integer" (did you mean "int"?); expected one of string, int, double, bool, url, array, object
/// timeline.spec.json:4:17: error: expected ',' or '}'
/// ```
///
/// Specs are checked completely when loaded, so a packager built from a
/// spec never fails because of the spec itself.
public struct PackagingSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An entry of a list in the spec: a field, or a section.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// The list, as a path in the spec: `fields`, `headerFields`,
        /// `sections`, or a section's list such as `sections[0].fields`.
        public var list: String
        /// The entry's position in the list, from 0.
        public var index: Int
        /// The entry's `key`, when it has a usable one.
        public var key: String?

        /// Creates an entry reference.
        public init(list: String, index: Int, key: String?) {
            self.list = list
            self.index = index
            self.key = key
        }

        /// For example `fields[2] (key "likes")`.
        public var description: String {
            "\(list)[\(index)]" + (key.map { " (key \"\($0)\")" } ?? "")
        }
    }

    /// The spec file's path, or the name the spec was given.
    public var source: String
    /// The 1-based line of a JSON syntax error.
    public var line: Int?
    /// The 1-based column of a JSON syntax error.
    public var column: Int?
    /// The field entry at fault, if the problem is in one.
    public var entry: Entry?
    /// What is wrong.
    public var message: String
    /// The file-system error, when the spec file could not be read.
    public var fileError: AtomicFileError?

    /// Creates an error.
    public init(
        source: String, line: Int? = nil, column: Int? = nil, entry: Entry? = nil, message: String, fileError: AtomicFileError? = nil
    ) {
        self.fileError = fileError
        self.source = source
        self.line = line
        self.column = column
        self.entry = entry
        self.message = message
    }

    /// `SOURCE[:LINE:COLUMN]: error: [ENTRY: ]MESSAGE`.
    public var description: String {
        var position = source
        if let line, let column { position += ":\(line):\(column)" }
        return "\(position): error: " + (entry.map { "\($0): " } ?? "") + message + (fileError.map { ": \($0)" } ?? "")
    }

    /// ` (did you mean "path"?)` when `word` is a near miss of one of `candidates`.
    internal static func suggestion(for word: String, in candidates: [String]) -> String {
        NearMatch.closest(to: word, in: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}
