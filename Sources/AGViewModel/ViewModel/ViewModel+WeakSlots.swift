/// A weak reference to an object, for a ViewModel's weak slots. Never
/// reassigned after `init`: a slot gets a new box instead.
internal final class WeakBox {
    weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

extension ViewModel {
    /// Stores `object` under `key` without retaining it; `nil` removes the
    /// slot. Returns the ViewModel, for chaining.
    ///
    /// Weak slots are separate from the keyed store: they are not JSON, are
    /// not exported or archived, do not send key changes and do not mark
    /// the commands depending on their key. When the object is
    /// deallocated, the slot reads as empty.
    @discardableResult
    public func setWeakObject(_ object: AnyObject?, forKey key: String) -> ViewModel {
        let box = object.map(WeakBox.init)
        weakSlots[key] = box
        return self
    }

    /// The object in the weak slot `key`, or `nil` when none was set or it
    /// has been deallocated.
    public func weakObject(forKey key: String) -> AnyObject? {
        guard let box = weakSlots[key] else { return nil }
        if let object = box.object { return object }
        // The object is gone: drop the empty box (unless replaced meanwhile).
        do {
            if weakSlots[key] === box { weakSlots[key] = nil }
        }
        return nil
    }

    /// The object in the weak slot `key` when it is a `T`, else `nil`.
    public func weakObject<T: AnyObject>(forKey key: String, as type: T.Type = T.self) -> T? {
        weakObject(forKey: key) as? T
    }

    /// Empties the weak slot `key`. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeWeakObject(forKey key: String) -> ViewModel {
        setWeakObject(nil, forKey: key)
    }

    /// The keys of the weak slots whose object is still alive.
    public var weakObjectKeys: [String] {
        let slots = weakSlots
        return slots.compactMap { $0.value.object == nil ? nil : $0.key }.sorted()
    }
}
