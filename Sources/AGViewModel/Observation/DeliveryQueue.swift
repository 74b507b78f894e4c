#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A change waiting to be delivered to a snapshot of observers.
internal struct PendingDelivery {
    /// The observers registered for the key when the change was made.
    var registrations: [ObserverRegistration]
    var viewModel: ViewModel
    var key: String
    var old: ViewModelValue?
    var new: ViewModelValue?
    var kind: KeyChange.Kind
    /// A set to an equal value: only `.includeEqualValues` observers get it.
    var equalValue = false
}

/// The per-thread FIFO of changes to deliver: the heart of the re-entrancy
/// rule.
///
/// Delivery is synchronous on the thread that made the change. When that
/// thread is not delivering yet, the change is delivered at once. When it
/// is (a callback set a key, on any ViewModel), the change is appended to
/// the thread's queue and delivered after the current delivery returns, in
/// the order the changes were made. So every callback finishes before the
/// next starts, observers see each key's changes in order, and a callback
/// never re-enters itself through a change it made.
internal final class DeliveryQueue {
    // Only this thread touches its queue, and never with overlapping
    // accesses: skip the dynamic exclusivity checks on the hot path.
    @exclusivity(unchecked) private var isDelivering = false
    @exclusivity(unchecked) private var pending: [PendingDelivery] = []

    /// Delivers a change now, or queues it when this thread is delivering.
    static func deliver(
        to registrations: [ObserverRegistration], in viewModel: ViewModel, key: String,
        old: ViewModelValue?, new: ViewModelValue?, kind: KeyChange.Kind, equalValue: Bool = false
    ) {
        let queue = current
        if queue.isDelivering {
            queue.pending.append(PendingDelivery(
                registrations: registrations, viewModel: viewModel, key: key,
                old: old, new: new, kind: kind, equalValue: equalValue))
            return
        }
        queue.isDelivering = true
        run(registrations, viewModel, key, old, new, kind, equalValue)
        if !queue.pending.isEmpty { queue.drain() }
        queue.isDelivering = false
    }

    /// Runs `body`, which may `enqueue` deliveries; delivers them in order
    /// afterwards (or leaves them to the delivery already under way).
    static func deliverAll(_ body: (DeliveryQueue) -> Void) {
        let queue = current
        if queue.isDelivering {
            body(queue)
            return
        }
        queue.isDelivering = true
        body(queue)
        if !queue.pending.isEmpty { queue.drain() }
        queue.isDelivering = false
    }

    /// Appends `delivery` to this thread's queue.
    func enqueue(_ delivery: PendingDelivery) {
        pending.append(delivery)
    }

    private func drain() {
        var head = 0
        while head < pending.count {
            let next = pending[head]
            head += 1
            Self.run(next.registrations, next.viewModel, next.key, next.old, next.new, next.kind, next.equalValue)
        }
        // Drop the delivered changes (and the ViewModels they retain).
        pending.removeAll(keepingCapacity: pending.count <= 64)
    }

    /// Calls each registration that takes this delivery and is still
    /// registered. Never holds a lock while calling out.
    private static func run(
        _ registrations: [ObserverRegistration], _ viewModel: ViewModel, _ key: String,
        _ old: ViewModelValue?, _ new: ViewModelValue?, _ kind: KeyChange.Kind, _ equalValue: Bool
    ) {
        for registration in registrations where registration.accepts(kind, equalValue: equalValue) {
            // A callback earlier in this delivery, or another thread, may
            // have removed it: removal takes effect at once.
            viewModel.lock.lock()
            let removed = registration.isRemoved
            viewModel.lock.unlock()
            if removed { continue }
            let observer = registration.observer
            if registration.hasObserver && observer == nil {
                viewModel.purgeOrphanedObservers(forKey: registration.key)
                continue
            }
            let options = registration.options
            let change = KeyChange(
                key: key,
                oldValue: options.contains(.old) ? old : nil,
                newValue: options.contains(.new) && kind != .prior ? new : nil,
                kind: kind)
            registration.invoke(observer, viewModel, change)
        }
    }

    /// This thread's queue, created on first use.
    private static var current: DeliveryQueue {
        if let raw = pthread_getspecific(deliveryQueueKey) {
            return Unmanaged<DeliveryQueue>.fromOpaque(raw).takeUnretainedValue()
        }
        let queue = DeliveryQueue()
        pthread_setspecific(deliveryQueueKey, Unmanaged.passRetained(queue).toOpaque())
        return queue
    }
}

/// The thread-local slot holding each thread's `DeliveryQueue` (released
/// when the thread exits).
private let deliveryQueueKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let status = pthread_key_create(&key) { Unmanaged<DeliveryQueue>.fromOpaque($0).release() }
    #else
    let status = pthread_key_create(&key) { raw in
        if let raw { Unmanaged<DeliveryQueue>.fromOpaque(raw).release() }
    }
    #endif
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
}()
