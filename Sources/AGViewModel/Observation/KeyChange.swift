/// One change of one key of a ViewModel, as delivered to observers and
/// change streams.
public struct KeyChange {
    /// Why a change is delivered.
    public enum Kind: Sendable, Hashable {
        /// The current value, delivered once at registration (`.initial`).
        case initial
        /// The key is about to change (`.prior`); `newValue` is always `nil`.
        /// In a batch the new value is already stored (see
        /// ``KeyObservationOptions/prior``).
        case prior
        /// The key changed.
        case change
    }

    /// The key that changed.
    public var key: String
    /// The value before the change; `nil` when the key was absent or the
    /// observation did not ask for `.old`.
    public var oldValue: ViewModelValue?
    /// The value after the change; `nil` when the key was removed or the
    /// observation did not ask for `.new`.
    public var newValue: ViewModelValue?
    /// Why this change is delivered.
    public var kind: Kind

    /// A change of `key`.
    public init(key: String, oldValue: ViewModelValue?, newValue: ViewModelValue?, kind: Kind = .change) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
        self.kind = kind
    }

    /// Whether this is the notification sent before a change (`.prior`).
    public var isPrior: Bool { kind == .prior }

    /// Whether this is the delivery of the current value at registration.
    public var isInitial: Bool { kind == .initial }
}

extension ViewModelValue {
    /// Whether two optional stored values are the same for change detection:
    /// both absent, or both present and `isSame(as:)`.
    @inline(__always)
    internal static func isSame(_ a: ViewModelValue?, _ b: ViewModelValue?) -> Bool {
        // JSON first, by pattern: cheaper than copying both values into the
        // general `isSame(as:)` (this runs on every write).
        if case .json(let x)? = a, case .json(let y)? = b { return x.hasSameRepresentation(as: y) }
        guard let a else { return b == nil }
        guard let b else { return false }
        return a.isSame(as: b)
    }
}
