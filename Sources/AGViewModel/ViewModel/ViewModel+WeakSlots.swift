/// A weak reference to an object, for a ViewModel's weak slots.
///
/// Never reassigned after `init` (a slot gets a new box instead), so it can
/// be read outside the lock: loading a strong reference may end up running
/// the object's `deinit` (user code) if another thread drops the last
/// reference at that moment, and user code never runs under the lock. The
/// object is `Sendable` (an actor, a main-actor-isolated view or
/// controller, an immutable or internally synchronized class), so handing
/// it out to any thread is safe.
internal final class WeakBox: Sendable {
    weak let object: (any AnyObject & Sendable)?

    init(_ object: any AnyObject & Sendable) {
        self.object = object
    }
}

extension ViewModel {
    /// Stores `object` under `key` without retaining it; `nil` removes the
    /// slot. Returns the ViewModel, for chaining.
    ///
    /// Weak slots are separate from the keyed store: they are not JSON, are
    /// not exported or archived, and do not send key changes. When the object
    /// is deallocated, the slot reads as empty.
    ///
    /// Objects must be `Sendable` because a ViewModel can be read from any
    /// thread. UIKit views and view controllers are main-actor isolated and
    /// therefore `Sendable`; call their members on the main actor as usual.
    @discardableResult
    public func setWeakObject(_ object: (any AnyObject & Sendable)?, forKey key: String) -> ViewModel {
        let box = object.map(WeakBox.init)
        lock.withLock { weakSlots[key] = box }
        return self
    }

    /// The object in the weak slot `key`, or `nil` when none was set or it
    /// has been deallocated.
    public func weakObject(forKey key: String) -> (any AnyObject & Sendable)? {
        guard let box = lock.withLock({ weakSlots[key] }) else { return nil }
        if let object = box.object { return object }
        // The object is gone: drop the empty box (unless replaced meanwhile).
        lock.withLock {
            if weakSlots[key] === box { weakSlots[key] = nil }
        }
        return nil
    }

    /// The object in the weak slot `key` when it is a `T`, else `nil`.
    public func weakObject<T: AnyObject & Sendable>(forKey key: String, as type: T.Type = T.self) -> T? {
        weakObject(forKey: key) as? T
    }

    /// Empties the weak slot `key`. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeWeakObject(forKey key: String) -> ViewModel {
        setWeakObject(nil, forKey: key)
    }

    /// The keys of the weak slots whose object is still alive.
    public var weakObjectKeys: [String] {
        let slots = lock.withLock { weakSlots }
        return slots.compactMap { $0.value.object == nil ? nil : $0.key }.sorted()
    }
}
