/// Names of view classes, for the UIKit helpers' reuse identifiers; kept
/// apart from UIKit so the rule is tested on every platform.
internal enum TypeName {
    /// The type's name, qualified by the types it is nested in but not by
    /// its module: `BookCell`, `SettingsScreen.DetailCell`. Two nested
    /// classes of one name then get two identifiers. A type declared in a
    /// function or as `private` has no stable qualified name (its runtime
    /// name holds an anonymous context): its plain name then.
    static func qualified(_ type: Any.Type) -> String {
        let reflected = String(reflecting: type)
        guard let dot = reflected.firstIndex(of: "."), !reflected.contains("(") else { return String(describing: type) }
        return String(reflected[reflected.index(after: dot)...])
    }
}
