import Synchronization

/// Marks a change stream whose consumer is gone. The stream's termination
/// handler sets it, on whatever thread the consumer stopped; the ViewModel
/// reads it in its own domain and drops the registrations it marks, as it
/// drops those of a freed token. An atomic flag, so neither side waits and
/// the ViewModel is never touched from the other thread.
internal final class AbandonmentFlag: Sendable {
    private let isSetStorage = Atomic<Bool>(false)

    /// Marks the stream abandoned.
    func set() { isSetStorage.store(true, ordering: .releasing) }

    /// Whether the stream was abandoned.
    var isSet: Bool { isSetStorage.load(ordering: .acquiring) }
}
