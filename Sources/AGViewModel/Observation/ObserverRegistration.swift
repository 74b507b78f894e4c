/// One observer of one key: a token's closure, an observer object's closure,
/// or a change stream. Lives in its ViewModel's `ObservationCenter`.
///
/// An `observe` call on several keys makes one registration per key, so a
/// change to a key finds exactly its own observers.
internal final class ObserverRegistration {

    /// Calls the user's handler with the observer object (for tokens and
    /// streams, the token, which calls the handler it owns), the ViewModel
    /// and the change.
    typealias Invoke = (AnyObject?, ViewModel, KeyChange) -> Void

    let key: String
    let options: KeyObservationOptions
    let invoke: Invoke
    /// The observer object of `addObserver`, or the ``KeyObservation``
    /// token of `observe`, held weakly.
    weak var observer: AnyObject?
    /// Whether this registration belongs to an observer object or a token,
    /// so a `nil` `observer` means it is gone.
    let hasObserver: Bool
    /// The identity of the `addObserver` object, kept after the object is
    /// gone; `nil` for tokens and change streams, which nothing adds again.
    let observerIdentifier: ObjectIdentifier?
    /// Runs once, when the registration is removed or its
    /// ViewModel is deallocated (ends a change stream).
    let onRemove: (() -> Void)?
    /// A change stream's: set when its consumer stops.
    let abandonment: AbandonmentFlag?
    /// Set when removed: a delivery already under
    /// way skips it from then on.
    var isRemoved = false
    /// The registration that replaced this one when its observer object
    /// was added again for the key: the object never stopped observing,
    /// so changes queued for this one go to that one.
    var replacement: ObserverRegistration?
    /// The center whose list holds it, set when added: a center removes
    /// only its own registrations. A removed one may stay in the list,
    /// skipped by everything that reads the list, until the list is
    /// compacted.
    var listedIn: ObjectIdentifier?

    /// A registration for `observer`, or, when `ownedByToken`, for the
    /// token stored in ``observer`` before it is registered.
    init(key: String, options: KeyObservationOptions, observer: AnyObject?, ownedByToken: Bool = false,
         onRemove: (() -> Void)? = nil, abandonment: AbandonmentFlag? = nil, invoke: @escaping Invoke) {
        self.key = key
        self.options = options
        self.observer = observer
        self.hasObserver = observer != nil || ownedByToken
        self.observerIdentifier = ownedByToken ? nil : observer.map(ObjectIdentifier.init)
        self.onRemove = onRemove
        self.abandonment = abandonment
        self.invoke = invoke
    }

    /// Whether the observer object was deallocated, or the change stream's
    /// consumer stopped.
    var isOrphaned: Bool { (hasObserver && observer == nil) || abandonment?.isSet == true }

    /// The newest registration that replaced this one and is still
    /// registered, if any.
    var liveReplacement: ObserverRegistration? {
        var next = replacement
        while let candidate = next, candidate.isRemoved { next = candidate.replacement }
        return next
    }

    /// Whether this registration takes deliveries of `kind` (and of an
    /// equal-value set when `equalValue`).
    @inline(__always)
    func accepts(_ kind: KeyChange.Kind, equalValue: Bool) -> Bool {
        switch kind {
        case .initial: return true
        case .prior: return options.contains(.prior) && (!equalValue || options.contains(.includeEqualValues))
        case .change: return !equalValue || options.contains(.includeEqualValues)
        }
    }
}
