#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Observation

/// A ViewModel takes part in Swift Observation key by key: code that reads
/// `viewModel["title"]` inside `withObservationTracking` (or a SwiftUI
/// `body`) is told when `title` changes, and not when another key changes.
///
/// ```swift
/// withObservationTracking {
///     titleLabel.text = viewModel.string(at: "title")
/// } onChange: {
///     // `title` is about to change
/// }
/// ```
///
/// Each key is its own observable property, identified by the key path
/// `\ViewModel.[observationKey: key]`.
extension ViewModel: Observable {
    /// The value of `key`, as the observable property Swift Observation
    /// tracks for it. Reads the store without tracking.
    internal subscript(observationKey key: String) -> ViewModelValue? {
        lock.withLock { values[key] }
    }

    /// Part of the tracking probe, see `trackAccessForObservation`.
    internal subscript(observationProbe probe: ObservationProbe) -> Bool {
        false
    }

    /// Registers a read of `key` with Swift Observation when the thread is
    /// inside `withObservationTracking`; costs a few nanoseconds otherwise.
    ///
    /// Observation offers no public "is tracking active" test, and building
    /// `\ViewModel.[observationKey: key]` costs about a microsecond, far too
    /// much for every read. So each read first reports one constant key
    /// path to a private registrar: when tracking is active, Observation
    /// hashes that key path into its access list, which runs
    /// `ObservationProbe.hash(into:)`, which flags the thread. Only then is
    /// the real (cached) key path built and reported. The probe registrar
    /// is never mutated, so the probe never fires `onChange` by itself.
    @inline(__always)
    internal func trackAccessForObservation(_ key: String) {
        probeRegistrar.access(self, keyPath: probeKeyPath)
        if pthread_getspecific(probeFlagKey) != nil {
            trackAccessSlow(key)
        }
    }

    @inline(never)
    private func trackAccessSlow(_ key: String) {
        // The flag may be stale (Observation also hashes key paths when it
        // installs or cancels tracking): clear it and probe again.
        pthread_setspecific(probeFlagKey, nil)
        probeRegistrar.access(self, keyPath: probeKeyPath)
        guard pthread_getspecific(probeFlagKey) != nil else { return }
        pthread_setspecific(probeFlagKey, nil)

        let (center, cached) = lock.withLock {
            let center = observationCenterLocked()
            return (center, center.trackedKeyPaths[key])
        }
        let keyPath: KeyPath<ViewModel, ViewModelValue?>
        if let cached {
            keyPath = cached
        } else {
            let built = \ViewModel.[observationKey: key]
            keyPath = lock.withLock {
                if let existing = center.trackedKeyPaths[key] { return existing }
                center.trackedKeyPaths[key] = built
                return built
            }
        }
        center.registrar.access(self, keyPath: keyPath)
    }
}

/// The subscript index of the tracking probe key path. Equal to itself;
/// hashing it means Observation is recording an access on this thread.
internal struct ObservationProbe: Hashable, Sendable {
    static func == (lhs: ObservationProbe, rhs: ObservationProbe) -> Bool { true }

    func hash(into hasher: inout Hasher) {
        pthread_setspecific(probeFlagKey, UnsafeRawPointer(bitPattern: 1))
        hasher.combine(0)
    }
}

/// The registrar the probe reports to; never mutated.
private let probeRegistrar = ObservationRegistrar()
/// The constant probe key path (built once).
private let probeKeyPath = \ViewModel.[observationProbe: ObservationProbe()]
/// Per-thread flag set by `ObservationProbe.hash(into:)`: non-nil = hit.
private let probeFlagKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
}()
