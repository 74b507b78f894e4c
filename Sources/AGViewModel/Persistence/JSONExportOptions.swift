/// How ``ViewModel/exportJSON(options:)`` (and the section and manager
/// forms) turn ViewModels into JSON.
///
/// ```swift
/// let json = manager.exportJSON(options: .everything)
/// let body = item.exportJSON(options: JSONExportOptions(
///     keyExchange: ["screenName": "screen_name"],
///     payload: { key, payload in
///         (payload as? Date).map { .string($0.ISO8601Format()) }   // nil: leave the key out
///     }))
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
    /// Turns a payload the exporter cannot write into JSON, or returns `nil`
    /// to leave its key out. Called with the ViewModel key (before the
    /// exchange) for every payload that is not a ViewModel, an array of
    /// ViewModels, a ``Section`` or a ``Manager``. Without it, `URL`
    /// payloads export as their absolute string and other payloads are left out.
    public var payload: ((_ key: String, _ payload: Any) -> JSONValue?)?

    /// Export options.
    public init(
        keys: KeySelection = .registered,
        keyExchange: [String: String] = [:],
        payload: ((_ key: String, _ payload: Any) -> JSONValue?)? = nil
    ) {
        self.keys = keys
        self.keyExchange = keyExchange
        self.payload = payload
    }

    /// Registered keys (the default; see ``KeySelection/registered``).
    public static var registered: JSONExportOptions { JSONExportOptions() }

    /// Every key of every ViewModel, ignoring registrations.
    public static var everything: JSONExportOptions { JSONExportOptions(keys: .everything) }
}
