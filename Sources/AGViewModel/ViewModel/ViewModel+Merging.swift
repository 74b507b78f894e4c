extension ViewModel {
    // Merges and removals go key by key through the single write path, so
    // each changed key is reported (observers, dependent commands). Key
    // observers hear of a merge once it is complete, so a handler reading
    // another member of the same update, or a value derived from several
    // of them, never sees half of it.

    /// Runs `body` with its changes' deliveries held until it returns: a
    /// partial API update must not be seen half applied. A merge sets each
    /// key once, so holding the deliveries (queued in order) is all a
    /// batch would do, without its bookkeeping.
    internal func asOneUpdate(_ body: () -> Void) {
        if let center = observationCenter, !center.observers.isEmpty {
            center.deliveries.holding(in: self, body)
        } else {
            body()
        }
    }

    /// Sets every member of `object` (or only those named in `keys`, when
    /// given) on this ViewModel, overwriting equal keys. A key in `keys`
    /// that `object` lacks is left as it is (the Objective-C original
    /// removed it): remove it with `removeValue(forKey:)`. Key observers
    /// hear of the merge once it is complete, each changed key in
    /// order: a handler never sees half an update.
    /// Returns the ViewModel, for chaining.
    @discardableResult
    public func merge(_ object: JSONObject, keys: [String]? = nil) -> ViewModel {
        asOneUpdate {
            if let keys {
                for key in keys {
                    if let value = object[key] { store(.json(value), forKey: key) }
                }
            } else {
                for (key, value) in object { store(.json(value), forKey: key) }
            }
        }
        return self
    }

    /// Sets every value of `other` (or only those under `keys`, when given)
    /// on this ViewModel, JSON and payloads alike, overwriting equal keys.
    /// A key in `keys` that `other` lacks is left as it is.
    /// Nested ViewModels are shared, not copied (merge a ``copy()`` for an
    /// independent one). Returns the ViewModel, for chaining.
    @discardableResult
    public func merge(_ other: ViewModel, keys: [String]? = nil) -> ViewModel {
        asOneUpdate {
            if let keys {
                for key in keys {
                    if let value = other.storedValue(forKey: key) { store(value, forKey: key) }
                }
            } else {
                // Read `other` fully before writing, so merging a ViewModel into
                // itself is harmless.
                for (key, value) in other.orderedEntries() { store(value, forKey: key) }
            }
        }
        return self
    }

    /// Merges `other`'s values under the given typed keys. Returns the
    /// ViewModel, for chaining.
    @discardableResult
    public func merge<each Value>(_ other: ViewModel, keys: repeat Key<each Value>) -> ViewModel {
        var names: [String] = []
        for key in repeat each keys { names.append(key.name) }
        return merge(other, keys: names)
    }

    /// Removes the value under `key` and returns it, or `nil` when there
    /// was none.
    @discardableResult
    public func removeValue(forKey key: String) -> ViewModelValue? {
        store(nil, forKey: key)
    }

    /// Removes the value under the typed `key` and returns it read as
    /// `Value`.
    @discardableResult
    public func removeValue<Value: ViewModelStorable>(for key: Key<Value>) -> Value? {
        store(nil, forKey: key.name).flatMap(Value.fromViewModelValue)
    }

    /// Removes every stored value. Weak slots, commands, the index path and
    /// the UI state are kept, so an automatic command runs again as its
    /// inputs go (its key ends holding the result for none of them, absent
    /// when that is `nil`). Returns the ViewModel, for chaining.
    @discardableResult
    public func removeAll() -> ViewModel {
        // Last key first: removal from the end of the key order is cheapest.
        // The untracked key order: a removal is no read of the key set.
        for key in keyOrder.reversed() { store(nil, forKey: key) }
        // A derived key that came before its inputs was removed after its
        // command last ran: run them all for the empty ViewModel.
        if !commandSlots.isEmpty { markAutomaticCommands() }
        return self
    }
}
