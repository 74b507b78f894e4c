/// An active observation of ViewModel keys, returned by
/// `ViewModel.observe(_:options:handler:)`.
///
/// Keep it as long as you want changes: calling ``cancel()``, or letting the
/// token be deallocated, ends the observation. The token holds its
/// ViewModel weakly, so it never keeps the ViewModel alive; if the ViewModel
/// goes first, the observation simply ends with it.
///
/// A deallocated token is never called again, wherever it is deallocated
/// (a `@MainActor` controller may be freed on another thread): the
/// ViewModel drops its registrations in its own domain, at the next change
/// of their keys. ``cancel()`` drops them at once.
public final class KeyObservation {
    private weak let viewModel: ViewModel?
    private let registrations: [ObserverRegistration]

    internal init(viewModel: ViewModel, registrations: [ObserverRegistration]) {
        self.viewModel = viewModel
        self.registrations = registrations
    }

    /// Ends the observation: no change is delivered to it from now on, even
    /// one already being delivered. Cancelling again does nothing.
    public func cancel() {
        guard let viewModel else { return }
        let targets = registrations
        viewModel.removeObservers { center, removed in
            for registration in targets where !registration.isRemoved {
                center.remove(forKey: registration.key, into: &removed) { $0 === registration }
            }
        }
    }

    /// Whether the observation has ended (cancelled, removed, or its
    /// ViewModel deallocated).
    public var isCancelled: Bool {
        guard viewModel != nil else { return true }
        return registrations.allSatisfy(\.isRemoved)
    }
}
