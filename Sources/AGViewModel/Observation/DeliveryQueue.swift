/// A change waiting to be delivered to a snapshot of observers.
internal struct PendingDelivery {
    /// The observers registered for the key when the change was made.
    var registrations: [ObserverRegistration]
    var key: String
    var old: ViewModelValue?
    var new: ViewModelValue?
    var kind: KeyChange.Kind
    /// A set to an equal value: only `.includeEqualValues` observers get it.
    var equalValue = false
}

/// A ViewModel's FIFO of changes to deliver: the heart of the re-entrancy
/// rule.
///
/// Delivery is synchronous, in the ViewModel's isolation domain. When the
/// ViewModel is not delivering yet, a change is delivered at once. When it
/// is (a callback set one of its keys), the change is appended to the queue
/// and delivered after the current delivery returns, in the order the
/// changes were made. So every callback of a ViewModel finishes before its
/// next one starts, observers see each key's changes in order, and a
/// callback never re-enters itself through a change it made.
internal final class DeliveryQueue {
    private var isDelivering = false
    private var pending: [PendingDelivery] = []

    /// Delivers `delivery` now, or queues it when a delivery is under way.
    func deliver(_ delivery: PendingDelivery, in viewModel: ViewModel) {
        if isDelivering {
            pending.append(delivery)
            return
        }
        isDelivering = true
        Self.run(delivery, in: viewModel)
        if !pending.isEmpty { drain(in: viewModel) }
        isDelivering = false
    }

    /// Queues `deliveries` as one run (nothing made by their callbacks comes
    /// between them), then delivers them unless a delivery is under way.
    func deliver(_ deliveries: [PendingDelivery], in viewModel: ViewModel) {
        guard !deliveries.isEmpty else { return }
        pending.append(contentsOf: deliveries)
        if isDelivering { return }
        isDelivering = true
        drain(in: viewModel)
        isDelivering = false
    }

    /// Runs `body`, queuing the deliveries of the changes it makes, then
    /// delivers them in order (or leaves them to the delivery under way).
    func holding(in viewModel: ViewModel, _ body: () -> Void) {
        if isDelivering { return body() }
        isDelivering = true
        body()
        if !pending.isEmpty { drain(in: viewModel) }
        isDelivering = false
    }

    private func drain(in viewModel: ViewModel) {
        var head = 0
        while head < pending.count {
            let next = pending[head]
            head += 1
            Self.run(next, in: viewModel)
        }
        // Drop the delivered changes (and the values they retain).
        pending.removeAll(keepingCapacity: pending.count <= 64)
    }

    /// Calls each registration that takes this delivery and is still
    /// registered, or the one that replaced it when its observer object
    /// was added again for the key since the change was queued.
    private static func run(_ delivery: PendingDelivery, in viewModel: ViewModel) {
        // The registrations a replacement must not duplicate: those listed
        // and those already reached through an earlier replaced one (the
        // list may hold several replaced registrations of one observer).
        // Made only when a replaced registration turns up.
        var reached: Set<ObjectIdentifier>?
        for listed in delivery.registrations {
            var registration = listed
            // A callback earlier in this delivery may have removed it:
            // removal takes effect at once. A re-add is no removal: the
            // object still observes the key, through its new registration.
            if registration.isRemoved {
                guard let live = registration.liveReplacement else { continue }
                if reached == nil { reached = Set(delivery.registrations.map(ObjectIdentifier.init)) }
                guard reached!.insert(ObjectIdentifier(live)).inserted else { continue }
                registration = live
            }
            guard registration.accepts(delivery.kind, equalValue: delivery.equalValue) else { continue }
            let observer = registration.observer
            if registration.hasObserver && observer == nil {
                viewModel.purgeOrphanedObservers(forKey: registration.key)
                continue
            }
            let options = registration.options
            let change = KeyChange(
                key: delivery.key,
                oldValue: options.contains(.old) ? delivery.old : nil,
                newValue: options.contains(.new) && delivery.kind != .prior ? delivery.new : nil,
                kind: delivery.kind)
            registration.invoke(observer, viewModel, change)
        }
    }
}
