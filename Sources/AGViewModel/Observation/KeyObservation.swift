/// An active observation of ViewModel keys, returned by
/// `ViewModel.observe(_:options:handler:)`.
///
/// Keep it as long as you want changes: calling ``cancel()``, or letting the
/// token be deallocated, ends the observation. The token holds its
/// ViewModel weakly, so it never keeps the ViewModel alive; if the ViewModel
/// goes first, the observation simply ends with it.
///
/// The token owns the handler, and its deallocation never touches the
/// ViewModel, since it may happen on any thread (a `@MainActor` controller
/// can be freed on another one): the handler, and whatever it captures, goes
/// with the token at once, and is never called again. The ViewModel drops
/// the empty registrations later, in its own domain: at the next change of
/// their keys, or a few at each observer added to those keys (a key's
/// registrations never number more than twice the most observations it had
/// live at once, plus one). ``cancel()`` drops them at once.
public final class KeyObservation {
    private weak let viewModel: ViewModel?
    /// Its registrations, one per key, in its ViewModel's center.
    internal let registrations: [ObserverRegistration]
    /// The handler, owned here: the registrations reach it through the
    /// token, which they hold weakly, so they never keep what it captures.
    private let handler: ObserverRegistration.Invoke

    internal init(viewModel: ViewModel, registrations: [ObserverRegistration], handler: @escaping ObserverRegistration.Invoke) {
        self.viewModel = viewModel
        self.registrations = registrations
        self.handler = handler
    }

    /// The registrations' `invoke`: calls the handler of the token
    /// delivered as the observer (the registration drops a `nil` one).
    internal static func deliver(_ token: AnyObject?, _ viewModel: ViewModel, _ change: KeyChange) {
        (token as? KeyObservation)?.handler(nil, viewModel, change)
    }

    /// Ends the observation: no change is delivered to it from now on, even
    /// one already being delivered. Cancelling again does nothing.
    public func cancel() {
        guard let viewModel else { return }
        let targets = registrations
        viewModel.removeObservers { center, removed in
            for registration in targets { center.remove(registration, into: &removed) }
        }
    }

    /// Whether the observation has ended (cancelled, removed, or its
    /// ViewModel deallocated).
    public var isCancelled: Bool {
        guard viewModel != nil else { return true }
        return registrations.allSatisfy(\.isRemoved)
    }
}
