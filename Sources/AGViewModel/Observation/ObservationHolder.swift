/// Keeps a change stream's observation alive from its own registrations,
/// until the stream ends or the observation is removed.
internal final class ObservationHolder {
    private var observation: KeyObservation?

    /// Holds `observation`.
    func hold(_ observation: KeyObservation) {
        self.observation = observation
    }

    /// Cancels the observation and lets it go.
    func cancel() {
        observation?.cancel()
        release()
    }

    /// Lets the observation go, cancelling it. The property is cleared
    /// first: cancelling runs the `onRemove` of its other keys, and those
    /// call here again.
    func release() {
        let last = observation
        observation = nil
        last?.cancel()
    }
}
