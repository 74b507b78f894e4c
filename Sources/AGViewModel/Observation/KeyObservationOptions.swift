/// What a key observation delivers, and when.
///
/// The options mirror key-value observing: `.old` and `.new` choose which
/// values a ``KeyChange`` carries, `.initial` delivers the current value at
/// registration, `.prior` adds a notification before each change.
/// `.includeEqualValues` lifts the equal-value rule for one observation.
///
/// The default for every `observe` and `addObserver` call is `[.old, .new]`.
public struct KeyObservationOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Options from raw bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Each change carries the value before the change in `oldValue`.
    public static let old = KeyObservationOptions(rawValue: 1 << 0)

    /// Each change carries the value after the change in `newValue`.
    public static let new = KeyObservationOptions(rawValue: 1 << 1)

    /// Delivers the current value once at registration, as a change of kind
    /// ``KeyChange/Kind/initial`` (with `newValue` when `.new` is set).
    ///
    /// Added inside a batch (``ViewModel/performBatchUpdates(_:)``), as
    /// every observer added there, it also hears the batch's changes when
    /// the batch ends: a key set in the batch before the registration
    /// arrives once as its initial value and again as a change from the
    /// value before the batch. An observer object added again for a key
    /// inside a callback, with changes still queued for its earlier
    /// registration, gets its initial value instead of those changes.
    public static let initial = KeyObservationOptions(rawValue: 1 << 2)

    /// Also delivers a notification of kind ``KeyChange/Kind/prior`` before
    /// each change (with `oldValue` when `.old` is set, never a `newValue`).
    ///
    /// Outside a batch it arrives before the value is stored. Inside a batch
    /// (``ViewModel/performBatchUpdates(_:)``), in a merge or deep merge
    /// (heard once complete), or queued behind a delivery
    /// in progress, it arrives right before its change notification, when
    /// the new value is already stored: read the old one from `oldValue`.
    /// With ``includeEqualValues``, an equal-value set gets one too, right
    /// before its change (the value stored is the same).
    public static let prior = KeyObservationOptions(rawValue: 1 << 3)

    /// Delivers sets of a value equal to the current one too.
    ///
    /// Normally setting a key to a value that `ViewModelValue.isSame(as:)` the
    /// stored one is not a change and notifies nobody.
    public static let includeEqualValues = KeyObservationOptions(rawValue: 1 << 4)
}
