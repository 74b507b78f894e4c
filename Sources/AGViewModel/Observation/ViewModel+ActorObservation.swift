extension ViewModel {
    /// Observes `keys` on behalf of the actor that owns this ViewModel,
    /// which is held weakly; the handler runs isolated to it, so it can
    /// change the actor's state.
    ///
    /// ```swift
    /// actor CartStore {
    ///     let cart = ViewModel(["count": 0])
    ///     var badge = 0
    ///     func start() {
    ///         cart.addObserver(actor: self, forKey: "count") { store, cart, _, _ in
    ///             store.badge = cart.int(at: "count", default: 0)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Called from the actor (`observer` is `isolated`), which keeps this
    /// ViewModel in the actor's domain: its changes, and so the handler's
    /// calls, happen on the actor. (The `actor:` label keeps calls that pass
    /// an actor to the object form as they were.) A handler that captured
    /// `self` instead, through ``observe(_:options:handler:)-(String,_,_)``,
    /// would keep the actor alive (`[weak self]` is not actor-isolated).
    /// Re-adds and removal work as for any observer object.
    ///
    /// - Parameters:
    ///   - actor: The actor the observation belongs to; held weakly.
    ///   - keys: The keys to observe.
    ///   - options: What to deliver; `[.old, .new]` by default.
    ///   - handler: Called with the actor, the ViewModel, the key and the
    ///     change, synchronously by the code that made the change.
    public func addObserver<Observer: Actor>(
        actor observer: isolated Observer,
        forKeys keys: some Sequence<String>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (_ observer: isolated Observer, _ viewModel: ViewModel, _ key: String, _ change: KeyChange) -> Void
    ) {
        addObserver(observer as Observer, forKeys: keys, options: options) { (observer: Observer, viewModel, key, change) in
            // Changes happen where this ViewModel lives: on the actor it was
            // registered from (see above), so the handler runs on the actor
            // and what it is given never leaves it. The checker cannot see
            // that a non-Sendable ViewModel's code runs on that actor.
            nonisolated(unsafe) let isolatedHandler = handler, changed = viewModel, delivered = change
            observer.assumeIsolated { observer in isolatedHandler(observer, changed, key, delivered) }
        }
    }

    /// Observes `key` on behalf of the actor that owns this ViewModel; see
    /// ``addObserver(actor:forKeys:options:handler:)``.
    public func addObserver<Observer: Actor>(
        actor observer: isolated Observer,
        forKey key: String,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (_ observer: isolated Observer, _ viewModel: ViewModel, _ key: String, _ change: KeyChange) -> Void
    ) {
        addObserver(actor: observer, forKeys: CollectionOfOne(key), options: options, handler: handler)
    }

    /// Observes a typed key on behalf of the actor that owns this ViewModel;
    /// the handler gets the old and new values read as `Value`.
    public func addObserver<Observer: Actor, Value: ViewModelStorable>(
        actor observer: isolated Observer,
        for key: Key<Value>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (_ observer: isolated Observer, _ viewModel: ViewModel, _ old: Value?, _ new: Value?) -> Void
    ) {
        // The typed handler runs inside the isolated call above.
        nonisolated(unsafe) let typedHandler = handler
        addObserver(actor: observer, forKey: key.name, options: options) { observer, viewModel, _, change in
            typedHandler(observer, viewModel, change.oldValue.flatMap(Value.fromViewModelValue),
                         change.newValue.flatMap(Value.fromViewModelValue))
        }
    }
}
