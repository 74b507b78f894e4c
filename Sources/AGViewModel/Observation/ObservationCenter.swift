import Foundation
import Observation

/// Everything that observes one ViewModel: key observers, the open batch,
/// Swift Observation's registrar and named-notification forwarders.
///
/// A ViewModel allocates its center on first use (see
/// `ViewModel.observationCenter`); from then on its writes go through
/// `store(_:forKey:in:)` here. All mutable state is guarded by the owning
/// ViewModel's `lock`, and no user code (handlers, `==` of payloads,
/// Observation `onChange` closures) ever runs while that lock is held.
internal final class ObservationCenter: @unchecked Sendable {
    // Unchecked: every `var` below is guarded by the owning ViewModel's lock.

    /// Observers by key: a change costs a lookup of its own key, whatever
    /// the number of observers of other keys.
    @exclusivity(unchecked) var observers: [String: [ObserverRegistration]] = [:]
    /// How many registrations ask for `.prior`; zero skips the prior check.
    @exclusivity(unchecked) var priorObserverCount = 0

    /// Depth of nested `performBatchUpdates` calls; 0 outside a batch.
    @exclusivity(unchecked) var batchDepth = 0
    /// The first old and the last new value of each key set in the batch.
    @exclusivity(unchecked) var batchedChanges: [String: (old: ViewModelValue?, new: ViewModelValue?)] = [:]
    /// Keys in the order of their first set in the batch.
    @exclusivity(unchecked) var batchedKeys: [String] = []

    /// Swift Observation: the registrar and the key path of each key read
    /// inside `withObservationTracking` (building one costs a microsecond,
    /// so they are cached; only these keys pay willSet/didSet on writes).
    let registrar = ObservationRegistrar()
    @exclusivity(unchecked) var trackedKeyPaths: [String: KeyPath<ViewModel, ViewModelValue?>] = [:]

    /// Named-notification forwarders (see `observeNotifications`).
    @exclusivity(unchecked) var notificationForwarders: [NotificationForwarder] = []

    deinit {
        // The ViewModel is being deallocated: nobody else can reach this
        // center any more. End change streams and notification observers.
        for registrations in observers.values {
            for registration in registrations { registration.onRemove?() }
        }
        for forwarder in notificationForwarders { forwarder.stop() }
    }

    // MARK: Writing

    /// The write path of an observed ViewModel: Observation willSet/didSet,
    /// prior notifications, batching, the equal-value rule, `keyDidChange`
    /// and observer delivery. Called with the ViewModel's lock held (the
    /// caller just read `observationCenter`); releases it.
    func store(_ newValue: ViewModelValue?, forKey key: String, in viewModel: ViewModel) -> ViewModelValue? {
        let keyPath = trackedKeyPaths.isEmpty ? nil : trackedKeyPaths[key]
        var priorObservers: [ObserverRegistration] = []
        if priorObserverCount > 0, batchDepth == 0, let registrations = observers[key],
           registrations.contains(where: { $0.options.contains(.prior) }) {
            priorObservers = registrations
        }
        // Announce before storing: Observation's willSet and `.prior`
        // observers must see the old value. Only when the value changes.
        var announced = false
        if keyPath != nil || !priorObservers.isEmpty {
            let current = viewModel.values[key]
            viewModel.lock.unlock()
            if !ViewModelValue.isSame(current, newValue) {
                announced = true
                if !priorObservers.isEmpty {
                    DeliveryQueue.deliver(
                        to: priorObservers, in: viewModel, key: key, old: current, new: nil, kind: .prior)
                }
                if let keyPath { registrar.willSet(viewModel, keyPath: keyPath) }
            }
            viewModel.lock.lock()
        }
        let old = viewModel.replaceValueLocked(newValue, forKey: key)
        let batched = batchDepth > 0
        var snapshot: [ObserverRegistration] = []
        if batched {
            if batchedChanges[key] != nil {
                batchedChanges[key]!.new = newValue
            } else {
                batchedChanges[key] = (old, newValue)
                batchedKeys.append(key)
            }
        } else if let registrations = observers[key] {
            snapshot = registrations
        }
        viewModel.lock.unlock()

        let changed = !ViewModelValue.isSame(old, newValue)
        if let keyPath, announced || changed {
            // A racing write may have changed the value after the check:
            // then announce late rather than never.
            if !announced { registrar.willSet(viewModel, keyPath: keyPath) }
            registrar.didSet(viewModel, keyPath: keyPath)
        }
        if batched { return old }
        if changed {
            viewModel.keyDidChange(key, from: old, to: newValue)
            if !snapshot.isEmpty {
                DeliveryQueue.deliver(
                    to: snapshot, in: viewModel, key: key, old: old, new: newValue, kind: .change)
            }
        } else if snapshot.contains(where: { $0.options.contains(.includeEqualValues) }) {
            DeliveryQueue.deliver(
                to: snapshot, in: viewModel, key: key, old: old, new: newValue, kind: .change, equalValue: true)
        }
        return old
    }

    // MARK: Batches

    /// Opens a batch. Call with the ViewModel's lock held.
    func beginBatchLocked() {
        batchDepth += 1
    }

    /// Closes a batch; the outermost one delivers one change per changed
    /// key (first old, last new), in the order the keys were first set.
    func endBatch(in viewModel: ViewModel) {
        viewModel.lock.lock()
        batchDepth -= 1
        guard batchDepth == 0, !batchedKeys.isEmpty else {
            viewModel.lock.unlock()
            return
        }
        let keys = batchedKeys
        let changes = batchedChanges
        batchedKeys = []
        batchedChanges = [:]
        let snapshots = keys.map { observers[$0] ?? [] }
        viewModel.lock.unlock()

        // Queue the whole batch before delivering any of it, so changes made
        // by its callbacks come after the batch.
        DeliveryQueue.deliverAll { queue in
            for (key, registrations) in zip(keys, snapshots) {
                let (old, new) = changes[key]!
                if !ViewModelValue.isSame(old, new) {
                    if registrations.contains(where: { $0.options.contains(.prior) }) {
                        queue.enqueue(PendingDelivery(
                            registrations: registrations, viewModel: viewModel, key: key,
                            old: old, new: nil, kind: .prior))
                    }
                    viewModel.keyDidChange(key, from: old, to: new)
                    if !registrations.isEmpty {
                        queue.enqueue(PendingDelivery(
                            registrations: registrations, viewModel: viewModel, key: key,
                            old: old, new: new, kind: .change))
                    }
                } else if registrations.contains(where: { $0.options.contains(.includeEqualValues) }) {
                    queue.enqueue(PendingDelivery(
                        registrations: registrations, viewModel: viewModel, key: key,
                        old: old, new: new, kind: .change, equalValue: true))
                }
            }
        }
    }

    // MARK: Registry (call with the ViewModel's lock held)

    /// Adds `registration` for its key. With an observer object, first
    /// removes that object's earlier registration for the key ("re-add"),
    /// and drops registrations whose observer is gone.
    func addLocked(_ registration: ObserverRegistration, removed: inout [ObserverRegistration]) {
        let key = registration.key
        var list = observers[key] ?? []
        if let observer = registration.observer {
            removeLocked(from: &list, into: &removed) { $0.isOrphaned || ($0.hasObserver && $0.observer === observer) }
        }
        list.append(registration)
        observers[key] = list
        if registration.options.contains(.prior) { priorObserverCount += 1 }
    }

    /// Removes the registrations of `key` matching `predicate`.
    func removeLocked(forKey key: String, into removed: inout [ObserverRegistration],
                      where predicate: (ObserverRegistration) -> Bool) {
        guard var list = observers[key] else { return }
        removeLocked(from: &list, into: &removed, where: predicate)
        observers[key] = list.isEmpty ? nil : list
    }

    /// Removes the registrations of every key matching `predicate`.
    func removeAllLocked(into removed: inout [ObserverRegistration],
                         where predicate: (ObserverRegistration) -> Bool) {
        for key in Array(observers.keys) {
            removeLocked(forKey: key, into: &removed, where: predicate)
        }
    }

    private func removeLocked(from list: inout [ObserverRegistration], into removed: inout [ObserverRegistration],
                              where predicate: (ObserverRegistration) -> Bool) {
        list.removeAll { registration in
            guard predicate(registration) else { return false }
            registration.isRemoved = true
            if registration.options.contains(.prior) { priorObserverCount -= 1 }
            removed.append(registration)
            return true
        }
    }
}

extension ViewModel {
    /// The observation center, allocated on first use. Call with `lock` held.
    internal func observationCenterLocked() -> ObservationCenter {
        if let center = observationCenter { return center }
        let center = ObservationCenter()
        observationCenter = center
        return center
    }

    /// Runs `body` on the center (allocated first) under the lock, then the
    /// `onRemove` of every registration it removed, outside the lock.
    internal func mutateObservers<T>(_ body: (ObservationCenter, inout [ObserverRegistration]) -> T) -> T {
        var removed: [ObserverRegistration] = []
        lock.lock()
        let result = body(observationCenterLocked(), &removed)
        lock.unlock()
        for registration in removed { registration.onRemove?() }
        return result
    }

    /// Removes registrations, if this ViewModel has a center at all (removing
    /// never allocates one), then runs their `onRemove` outside the lock.
    internal func removeObservers(_ body: (ObservationCenter, inout [ObserverRegistration]) -> Void) {
        var removed: [ObserverRegistration] = []
        lock.lock()
        if let center = observationCenter { body(center, &removed) }
        lock.unlock()
        for registration in removed { registration.onRemove?() }
    }

    /// Drops the registrations of `key` whose observer object is gone.
    internal func purgeOrphanedObservers(forKey key: String) {
        removeObservers { center, removed in
            center.removeLocked(forKey: key, into: &removed) { $0.isOrphaned }
        }
    }
}
