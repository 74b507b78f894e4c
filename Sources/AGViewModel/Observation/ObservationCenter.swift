import Foundation
import Observation

/// Everything that observes one ViewModel: key observers, the open batch,
/// Swift Observation's registrar and named-notification forwarders.
///
/// A ViewModel allocates its center on first use (see
/// `ViewModel.observationCenter`); from then on its writes go through
/// `store(_:forKey:in:)` here. It belongs to its ViewModel's isolation
/// domain, like the ViewModel: no lock, and every handler runs synchronously
/// in that domain.
internal final class ObservationCenter {
    /// Observers by key: a change costs a lookup of its own key, whatever
    /// the number of observers of other keys.
    var observers: [String: [ObserverRegistration]] = [:]
    /// Per key, the number of registrations from which the next add sweeps
    /// out those whose observer is gone (see `add(_:removed:)`).
    var sweepLengths: [String: Int] = [:]
    /// Per key, where the next add looks for registrations whose observer
    /// is gone (see `sweepAFew(forKey:into:)`).
    var sweepCursors: [String: Int] = [:]
    /// Per key, how many registrations in its list are removed (see
    /// `removeInPlace`): they stay until they outnumber the live ones, so
    /// removing each of n observers costs O(1) on average, in any order.
    var removedInList: [String: Int] = [:]
    /// The keys each `addObserver` object has a registration for, so
    /// removing an object from every key visits its own keys only.
    var keysByObject: [ObjectIdentifier: Set<String>] = [:]
    /// Per key, the registration of each `addObserver` object (an object
    /// since gone keeps its entry until its registration is removed): a
    /// re-add finds the one it replaces without a scan.
    var objectRegistrations: [String: [ObjectIdentifier: ObserverRegistration]] = [:]
    /// How many registrations ask for `.prior`; zero skips the prior check.
    var priorObserverCount = 0

    /// Depth of nested `performBatchUpdates` calls; 0 outside a batch.
    var batchDepth = 0
    /// The first old and the last new value of each key set in the batch.
    var batchedChanges: [String: (old: ViewModelValue?, new: ViewModelValue?)] = [:]
    /// Keys in the order of their first set in the batch.
    var batchedKeys: [String] = []

    /// Swift Observation's registrar for this ViewModel, and the key paths
    /// of keys read while absent (stored keys keep theirs in the store).
    let registrar = ObservationRegistrar()
    var absentKeyPaths: [String: ViewModel.ObservedKeyPath] = [:]
    /// Whether the set of keys was read since a key was last added or
    /// removed: only then does adding or removing one report to Observation.
    var isKeySetRead = false

    /// Changes waiting for the delivery under way to finish.
    let deliveries = DeliveryQueue()

    /// Named-notification forwarders (see `observeNotifications`).
    var notificationForwarders: [NotificationForwarder] = []

    deinit {
        // The ViewModel is being deallocated: end change streams and
        // notification observers.
        // The registrations are removed with it: a token that outlives
        // its ViewModel must not match a later center at the same address.
        for registrations in observers.values {
            for registration in registrations where !registration.isRemoved {
                registration.isRemoved = true
                registration.listedIn = nil
                registration.onRemove?()
            }
        }
        for forwarder in notificationForwarders { forwarder.stop() }
    }

    // MARK: Writing

    /// No key observers and no open batch: a write needs nothing from the
    /// center unless Observation must hear of it.
    var isQuiet: Bool { batchDepth == 0 && observers.isEmpty }

    /// The write path of an observed ViewModel: Observation willSet/didSet,
    /// prior notifications, batching, the equal-value rule, `keyDidChange`
    /// and observer delivery.
    func store(_ newValue: ViewModelValue?, forKey key: String, in viewModel: ViewModel) -> ViewModelValue? {
        let announcesPrior = priorObserverCount > 0 && batchDepth == 0
        // The common write: a stored key, not read since its last change,
        // with no `.prior` observers: one lookup, nothing to announce.
        if var replaced = newValue, !announcesPrior, let index = viewModel.storage.index(forKey: key),
           viewModel.storage.values[index].replaceIfUnread(&replaced) {
            return didStore(replaced, newValue, forKey: key, in: viewModel)
        }
        let keyPathBeforePrior = viewModel.reportedKeyPath(forKey: key)
        // Known when the comparison below finds the value unchanged: then
        // no handler runs before the store, so comparing again (the whole
        // of a large value) would find the same.
        var isUnchanged: Bool?
        // Announce before storing: `.prior` observers and Observation's
        // willSet must see the old value. Only when the value changes.
        if keyPathBeforePrior != nil || announcesPrior {
            let current = viewModel.untrackedValue(forKey: key)
            // When it changes, `.prior` observers and Observation's `onChange`
            // run before the store and may write the key themselves: what is
            // replaced is compared again then.
            if ViewModelValue.isSame(current, newValue) {
                isUnchanged = true
            } else {
                var keyPath = keyPathBeforePrior
                if announcesPrior, let registrations = observers[key],
                   registrations.contains(where: { !$0.isRemoved && $0.options.contains(.prior) }) {
                    deliveries.deliver(PendingDelivery(
                        registrations: registrations, key: key, old: current, new: nil, kind: .prior), in: viewModel)
                    // A `.prior` observer may have read the key in a
                    // tracking scope: the scope read the old value.
                    keyPath = viewModel.reportedKeyPath(forKey: key)
                }
                if let keyPath {
                    viewModel.markChangeReported(forKey: key)
                    registrar.willSet(viewModel, keyPath: keyPath)
                    let old = replaceValue(newValue, forKey: key, in: viewModel, isKeyReported: true)
                    registrar.didSet(viewModel, keyPath: keyPath)
                    return didStore(old, newValue, forKey: key, in: viewModel)
                }
            }
        }
        let old = replaceValue(newValue, forKey: key, in: viewModel, isKeyReported: false)
        return didStore(old, newValue, forKey: key, in: viewModel, isUnchanged: isUnchanged)
    }

    /// Stores a change of `key` whose Observation `willSet` the caller
    /// has made (and whose `didSet` it makes after): the rest of `store`
    /// after its `willSet`, for a path edit written as a copy.
    func storeReported(_ newValue: ViewModelValue?, forKey key: String, in viewModel: ViewModel) {
        let old = replaceValue(newValue, forKey: key, in: viewModel, isKeyReported: true)
        _ = didStore(old, newValue, forKey: key, in: viewModel)
    }

    /// `ViewModel.replaceValue`, reporting to Observation a key added or
    /// removed when the set of keys was read since the last such report.
    /// (Two properties change then, the key and the key set, reported one
    /// after the other: a scope that read both and tracks again inside its
    /// `onChange` hears the write twice, as with an `@Observable` class
    /// that sets two properties.)
    ///
    /// A read of the key made while its change or the key set's is
    /// reported (an `onChange` that tracks again) went to the key's entry
    /// or to the absent keys; the key moves between the two when it is
    /// added or removed, and the read moves with it. `isKeyReported` says
    /// whether the key's own change was just reported; without that or the
    /// key set's report, no read can have been made.
    private func replaceValue(_ newValue: ViewModelValue?, forKey key: String, in viewModel: ViewModel,
                              isKeyReported: Bool) -> ViewModelValue? {
        guard isKeySetRead || isKeyReported,
              (viewModel.storage.index(forKey: key) == nil) == (newValue != nil) else {
            return viewModel.replaceValue(newValue, forKey: key)
        }
        let reportsKeySet = isKeySetRead
        if reportsKeySet {
            // Cleared first: a read made while the change is reported sets
            // it again.
            isKeySetRead = false
            registrar.willSet(viewModel, keyPath: ViewModel.keySetKeyPath)
        }
        let read = viewModel.reportedKeyPath(forKey: key)
        let old = viewModel.replaceValue(newValue, forKey: key)
        if let read { viewModel.keepRead(forKey: key, keyPath: read) }
        if reportsKeySet { registrar.didSet(viewModel, keyPath: ViewModel.keySetKeyPath) }
        return old
    }

    /// Records a stored value in the open batch, or reports the change.
    /// `isUnchanged` is whether `old` and `newValue` are the same, when
    /// already known.
    private func didStore(_ old: ViewModelValue?, _ newValue: ViewModelValue?, forKey key: String,
                          in viewModel: ViewModel, isUnchanged: Bool? = nil) -> ViewModelValue? {
        let isUnchanged = isUnchanged ?? ViewModelValue.isSame(old, newValue)
        if batchDepth > 0 {
            // Commands are marked at once, as outside a batch, so a command
            // executed inside the batch sees the values set before it.
            if !isUnchanged { viewModel.keyDidChange(key, from: old, to: newValue) }
            if batchedChanges[key] != nil {
                batchedChanges[key]!.new = newValue
            } else {
                batchedChanges[key] = (old, newValue)
                batchedKeys.append(key)
            }
            return old
        }
        let registrations = observers.isEmpty ? nil : observers[key]
        if !isUnchanged {
            viewModel.keyDidChange(key, from: old, to: newValue)
            if let registrations {
                deliveries.deliver(PendingDelivery(
                    registrations: registrations, key: key, old: old, new: newValue, kind: .change), in: viewModel)
            }
        } else if let registrations,
                  registrations.contains(where: { !$0.isRemoved && $0.options.contains(.includeEqualValues) }) {
            deliveries.deliver(Self.equalValueDeliveries(registrations, key: key, old: old, new: newValue), in: viewModel)
        }
        return old
    }

    // MARK: Batches

    /// Opens a batch.
    func beginBatch() {
        batchDepth += 1
    }

    /// Closes a batch; the outermost one delivers one change per changed
    /// key (first old, last new), in the order the keys were first set.
    func endBatch(in viewModel: ViewModel) {
        batchDepth -= 1
        guard batchDepth == 0, !batchedKeys.isEmpty else { return }
        let keys = batchedKeys
        let changes = batchedChanges
        batchedKeys = []
        batchedChanges = [:]
        let snapshots = keys.map { observers[$0] ?? [] }

        // Queue the whole batch before delivering any of it, so changes made
        // by its callbacks come after the batch.
        var batch: [PendingDelivery] = []
        for (key, registrations) in zip(keys, snapshots) {
            let (old, new) = changes[key]!
            if !ViewModelValue.isSame(old, new) {
                if registrations.contains(where: { !$0.isRemoved && $0.options.contains(.prior) }) {
                    batch.append(PendingDelivery(registrations: registrations, key: key, old: old, new: nil, kind: .prior))
                }
                if !registrations.isEmpty {
                    batch.append(PendingDelivery(registrations: registrations, key: key, old: old, new: new, kind: .change))
                }
            } else if registrations.contains(where: { !$0.isRemoved && $0.options.contains(.includeEqualValues) }) {
                batch.append(contentsOf: Self.equalValueDeliveries(registrations, key: key, old: old, new: new))
            }
        }
        deliveries.deliver(batch, in: viewModel)
    }

    /// The deliveries of an equal-value set, for `.includeEqualValues`
    /// observations: a `.prior` to those that also ask for it, then the
    /// change, as for any change they are delivered.
    private static func equalValueDeliveries(_ registrations: [ObserverRegistration], key: String,
                                             old: ViewModelValue?, new: ViewModelValue?) -> [PendingDelivery] {
        var deliveries: [PendingDelivery] = []
        if registrations.contains(where: { !$0.isRemoved && $0.options.isSuperset(of: [.prior, .includeEqualValues]) }) {
            deliveries.append(PendingDelivery(
                registrations: registrations, key: key, old: old, new: nil, kind: .prior, equalValue: true))
        }
        deliveries.append(PendingDelivery(
            registrations: registrations, key: key, old: old, new: new, kind: .change, equalValue: true))
        return deliveries
    }

    // MARK: Registry

    /// Adds `registration` for its key. With an observer object added
    /// before, first removes that object's earlier registration for the key
    /// ("re-add"). Registrations whose observer is gone are swept out as the
    /// key's list grows: two are looked at per add, and all of them once the
    /// list has doubled since the last full sweep (sooner after explicit
    /// removals). Adding n observers costs O(n), and a key's list never
    /// holds more than twice the most observations it had live at once, plus
    /// one. A change of the key drops them all.
    func add(_ registration: ObserverRegistration, removed: inout [ObserverRegistration]) {
        let key = registration.key
        // The key's list is changed in place: a copy per add would make
        // adding n observers to one key O(n²).
        if let object = registration.observerIdentifier, let earlier = objectRegistrations[key]?[object] {
            // An observer gone since is no re-add: a new object at its
            // address takes later changes only. Nor does a re-add asking
            // for `.initial` take the changes queued for the earlier one:
            // its initial value, delivered after them, already holds them.
            let takesQueued = !earlier.isOrphaned && !registration.options.contains(.initial)
            if removeInPlace(earlier, into: &removed), takesQueued { earlier.replacement = registration }
        }
        sweepAFew(forKey: key, into: &removed)
        if observers[key, default: []].count >= sweepLengths[key, default: 0] {
            remove(forKey: key, from: &observers[key, default: []], into: &removed) { $0.isOrphaned }
            sweepLengths[key] = 2 * observers[key, default: []].count + 1
        }
        observers[key, default: []].append(registration)
        registration.listedIn = ObjectIdentifier(self)
        if let object = registration.observerIdentifier {
            objectRegistrations[key, default: [:]][object] = registration
            keysByObject[object, default: []].insert(key)
        }
        if registration.options.contains(.prior) { priorObserverCount += 1 }
    }

    /// Looks at two registrations of `key`, from where the last add stopped,
    /// and removes them if their observer is gone, in place as
    /// ``removeInPlace(_:into:)`` does: dead observers (and the handlers
    /// they leave) go within about half the list's length of adds, not
    /// only when the list has doubled.
    private func sweepAFew(forKey key: String, into removed: inout [ObserverRegistration]) {
        guard let count = observers[key]?.count, count > 0 else { return }
        var cursor = sweepCursors[key, default: 0]
        var marked = 0
        for _ in 0..<2 {
            if cursor >= count { cursor = 0 }
            let candidate = observers[key]![cursor]
            cursor += 1
            // Taking it out of the list here would shift the rest of the
            // list, O(n) per add.
            if !candidate.isRemoved, candidate.isOrphaned {
                didRemove(candidate, into: &removed)
                marked += 1
            }
        }
        sweepCursors[key] = cursor
        if marked > 0 { countRemovedInList(marked, forKey: key, listLength: count) }
    }

    /// Removes the registrations of `key` matching `predicate`.
    func remove(forKey key: String, into removed: inout [ObserverRegistration],
                      where predicate: (ObserverRegistration) -> Bool) {
        guard observers[key] != nil else { return }
        remove(forKey: key, from: &observers[key, default: []], into: &removed, where: predicate)
        if observers[key]?.isEmpty == true { forget(key) }
    }

    /// Drops the bookkeeping of `key`, which has no registrations left.
    private func forget(_ key: String) {
        observers[key] = nil
        sweepLengths[key] = nil
        sweepCursors[key] = nil
        if let objects = objectRegistrations[key] {
            for object in objects.keys { forgetKey(key, of: object) }
        }
        objectRegistrations[key] = nil
        removedInList[key] = nil
    }

    private func forgetKey(_ key: String, of object: ObjectIdentifier) {
        keysByObject[object]?.remove(key)
        if keysByObject[object]?.isEmpty == true { keysByObject[object] = nil }
    }

    /// Removes `registration` from its key's list, if there, leaving the
    /// list in place even when empty. It is marked removed and stays in
    /// the list, skipped, until the removed ones outnumber the live ones;
    /// then one pass drops them all. Finding its place in the list would
    /// cost a scan per removal, O(n²) for n observers removed oldest first.
    @discardableResult
    private func removeInPlace(_ registration: ObserverRegistration, into removed: inout [ObserverRegistration]) -> Bool {
        let key = registration.key
        guard registration.listedIn == ObjectIdentifier(self), !registration.isRemoved,
              let count = observers[key]?.count else { return false }
        didRemove(registration, into: &removed)
        countRemovedInList(1, forKey: key, listLength: count)
        return true
    }

    /// Counts `newlyRemoved` more registrations marked removed but left in
    /// `key`'s list of `listLength`; once they outnumber the live ones, one
    /// pass drops them all.
    private func countRemovedInList(_ newlyRemoved: Int, forKey key: String, listLength: Int) {
        let removedCount = removedInList[key, default: 0] + newlyRemoved
        if 2 * removedCount > listLength {
            observers[key]!.removeAll { $0.isRemoved }
            removedInList[key] = nil
            sweepCursors[key] = nil
        } else {
            removedInList[key] = removedCount
        }
    }

    /// Removes `registration` if it is still registered.
    func remove(_ registration: ObserverRegistration, into removed: inout [ObserverRegistration]) {
        guard removeInPlace(registration, into: &removed) else { return }
        let key = registration.key
        if observers[key]?.isEmpty == true {
            forget(key)
        } else if let length = sweepLengths[key] {
            // One live observation fewer: the next sweep comes sooner (once
            // all were removed, gone ones wait for at most one add).
            sweepLengths[key] = Swift.max(0, length - 2)
        }
    }

    /// Removes the registrations `observer` made for `key`: an
    /// `addObserver` object's one registration, found by identity (so also
    /// from the object's own `deinit`, when weak references to it already
    /// read `nil`), or a token's.
    func remove(observer: AnyObject, forKey key: String, into removed: inout [ObserverRegistration]) {
        if let token = observer as? KeyObservation {
            for registration in token.registrations where registration.key == key { remove(registration, into: &removed) }
        } else if let registration = objectRegistrations[key]?[ObjectIdentifier(observer)] {
            remove(registration, into: &removed)
        }
    }

    /// Removes every registration `observer` made, on every key: by the
    /// object's own keys, or the token's own registrations.
    func remove(observer: AnyObject, into removed: inout [ObserverRegistration]) {
        if let token = observer as? KeyObservation {
            for registration in token.registrations { remove(registration, into: &removed) }
        } else if let keys = keysByObject[ObjectIdentifier(observer)] {
            for key in keys { remove(observer: observer, forKey: key, into: &removed) }
        }
    }

    /// Removes the registrations of every key matching `predicate`.
    func removeAll(into removed: inout [ObserverRegistration],
                         where predicate: (ObserverRegistration) -> Bool) {
        for key in Array(observers.keys) {
            remove(forKey: key, into: &removed, where: predicate)
        }
    }

    /// Removes the registrations of `list` (`key`'s) matching
    /// `predicate`, and drops those removed before.
    private func remove(forKey key: String, from list: inout [ObserverRegistration],
                        into removed: inout [ObserverRegistration],
                        where predicate: (ObserverRegistration) -> Bool) {
        list.removeAll { registration in
            if registration.isRemoved { return true }
            guard predicate(registration) else { return false }
            didRemove(registration, into: &removed)
            return true
        }
        removedInList[key] = nil
        sweepCursors[key] = nil
    }

    /// Marks `registration`, taken out of its key's list or left there to
    /// be dropped later (see `removeInPlace`), as removed.
    private func didRemove(_ registration: ObserverRegistration, into removed: inout [ObserverRegistration]) {
        registration.isRemoved = true
        if let object = registration.observerIdentifier, objectRegistrations[registration.key]?[object] === registration {
            objectRegistrations[registration.key]?[object] = nil
            forgetKey(registration.key, of: object)
        }
        if registration.options.contains(.prior) { priorObserverCount -= 1 }
        removed.append(registration)
    }
}

extension ViewModel {
    /// The observation center, allocated on first use.
    internal func observationCenterAllocated() -> ObservationCenter {
        if let center = observationCenter { return center }
        let center = ObservationCenter()
        observationCenter = center
        return center
    }

    /// Runs `body` on the center (allocated first), then the `onRemove` of
    /// every registration it removed, once the registry is consistent.
    internal func mutateObservers<T>(_ body: (ObservationCenter, inout [ObserverRegistration]) -> T) -> T {
        var removed: [ObserverRegistration] = []
        let result = body(observationCenterAllocated(), &removed)
        for registration in removed { registration.onRemove?() }
        return result
    }

    /// Removes registrations, if this ViewModel has a center at all (removing
    /// never allocates one), then runs their `onRemove`.
    internal func removeObservers(_ body: (ObservationCenter, inout [ObserverRegistration]) -> Void) {
        var removed: [ObserverRegistration] = []
        if let center = observationCenter { body(center, &removed) }
        for registration in removed { registration.onRemove?() }
    }

    /// Drops the registrations of `key` whose observer object is gone.
    internal func purgeOrphanedObservers(forKey key: String) {
        removeObservers { center, removed in
            center.remove(forKey: key, into: &removed) { $0.isOrphaned }
        }
    }
}
