/// How ``ViewModel/exportJSON(options:)`` (and the section and manager
/// forms) turn ViewModels into JSON.
///
/// ```swift
/// let json = manager.exportJSON(options: .everything)
/// let body = item.exportJSON(options: JSONExportOptions(
///     keyExchange: ["screenName": "screen_name"],
///     payload: { key, payload in
///         guard let date = payload as? Date else { return .standard }   // URLs as strings
///         return .json(.string(date.ISO8601Format()))
///     },
///     skippedPayload: { skipped in log(skipped) }))  // "thumbnail: skipped payload of type Thumbnail"
/// ```
///
/// The options are not `Sendable`: an export runs synchronously where its
/// ViewModels live, so the payload converter may use that domain's state
/// (a `@MainActor` screen's image store, say). Make the options where you
/// export.
public struct JSONExportOptions {
    /// Which keys are exported (see ``KeySelection`` for the rule).
    public var keys: KeySelection
    /// Keys to rename on the way out, `[old: new]`, applied to the keys of
    /// every exported ViewModel (not to members inside JSON values). When a
    /// new name collides with a key also exported, the later key in the
    /// ViewModel's order wins, at the first one's position.
    public var keyExchange: [String: String]
    /// Decides how a payload the exporter cannot write by itself is
    /// exported: as a JSON value, left out, or as without a converter
    /// (``PayloadConversion/standard``). Called with the ViewModel key
    /// (before the exchange) for every payload that is not a ViewModel, an
    /// array of ViewModels, a ``Section`` or a ``Manager``. Without it,
    /// `URL` payloads export as their absolute string and other payloads
    /// are left out.
    public var payload: ((_ key: String, _ payload: Any) -> PayloadConversion)?
    /// Told of each payload the export leaves out without being asked to:
    /// one of a type the exporter cannot write (with no ``payload``
    /// converter, or one answering ``PayloadConversion/standard``), and a
    /// ViewModel, section or manager that contains itself, where it recurs.
    /// A payload the converter answers ``PayloadConversion/omit`` for is
    /// not reported. Paths name where the payload is held, as an archive
    /// reports what it leaves out: `sections[0].items[2].thumbnail`, with
    /// ViewModel keys before ``keyExchange`` and the indices of the lists
    /// exported (after an element left out as a cycle, the exported JSON
    /// has one element fewer before the one named). Reports come in the
    /// order the export writes: depth first, in key order (an archive
    /// reports each ViewModel's own skips before its nested ones').
    public var skippedPayload: ((SkippedPayload) -> Void)?

    /// How the ``payload`` converter exports one payload.
    public enum PayloadConversion {
        /// Export this value under the key.
        case json(JSONValue)
        /// Leave the key out.
        case omit
        /// Export as without a converter: a `URL` as its absolute string;
        /// any other payload left out.
        case standard
    }

    /// Export options.
    public init(
        keys: KeySelection = .registered,
        keyExchange: [String: String] = [:],
        payload: ((_ key: String, _ payload: Any) -> PayloadConversion)? = nil,
        skippedPayload: ((SkippedPayload) -> Void)? = nil
    ) {
        self.keys = keys
        self.keyExchange = keyExchange
        self.payload = payload
        self.skippedPayload = skippedPayload
    }

    /// Registered keys (the default; see ``KeySelection/registered``).
    public static var registered: JSONExportOptions { JSONExportOptions() }

    /// Every key of every ViewModel, ignoring registrations.
    public static var everything: JSONExportOptions { JSONExportOptions(keys: .everything) }
}
