/// A weak reference to an object, for a ViewModel's weak slots.
///
/// Only read and written under the owning ViewModel's lock. The object is
/// `Sendable` (an actor, a main-actor-isolated view or controller, an
/// immutable or internally synchronized class), so handing it out to any
/// thread is safe.
internal final class WeakBox {
    weak var object: (any AnyObject & Sendable)?

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
        lock.withLock {
            if let object {
                weakSlots[key] = WeakBox(object)
            } else {
                weakSlots[key] = nil
            }
        }
        return self
    }

    /// The object in the weak slot `key`, or `nil` when none was set or it
    /// has been deallocated.
    public func weakObject(forKey key: String) -> (any AnyObject & Sendable)? {
        lock.withLock {
            guard let box = weakSlots[key] else { return nil }
            guard let object = box.object else {
                // The object is gone: drop the empty box.
                weakSlots[key] = nil
                return nil
            }
            return object
        }
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
        lock.withLock {
            weakSlots.compactMap { $0.value.object == nil ? nil : $0.key }.sorted()
        }
    }
}
