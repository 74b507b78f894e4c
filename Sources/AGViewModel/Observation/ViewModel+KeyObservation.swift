/// Key observation: closures told about changes of chosen keys.
///
/// ## Rules
/// - **Equal values:** setting a key to a value that
///   `ViewModelValue.isSame(as:)` the stored one (or removing an absent key)
///   is not a change and notifies nobody, unless an observation asks for
///   ``KeyObservationOptions/includeEqualValues``.
/// - **Isolation:** handlers are ordinary closures, called synchronously in
///   the isolation domain that owns the ViewModel (the code that made the
///   change), before the setter returns, unless the ViewModel is already
///   delivering. A `@MainActor` cell's handler runs on the main actor.
/// - **Order and re-entrancy:** a callback may set keys (on any ViewModel),
///   add observers and remove observers, itself included. Changes made while
///   the ViewModel is delivering are queued and delivered after the current
///   delivery finishes, first made first delivered. So callbacks
///   never nest, and each observer sees a key's changes in order. The value
///   is always stored at once; only the notification waits.
/// - **Removal** takes effect at once, even for a change already being
///   delivered. Removing twice, or removing what was never added, does
///   nothing.
/// - **Batches:** see ``ViewModel/performBatchUpdates(_:)``.
extension ViewModel {
    /// Observes `key`; the token returned keeps the observation alive.
    ///
    /// ```swift
    /// let observation = viewModel.observe("title") { viewModel, key, change in
    ///     print(key, change.oldValue as Any, "->", change.newValue as Any)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key to observe.
    ///   - options: What to deliver; `[.old, .new]` by default.
    ///   - handler: Called with the ViewModel, the key and the change, synchronously
    ///     by the code that made the change.
    /// - Returns: A token: ``KeyObservation/cancel()`` it, or let it go, to stop.
    public func observe(
        _ key: String,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (ViewModel, String, KeyChange) -> Void
    ) -> KeyObservation {
        observe(CollectionOfOne(key), options: options, handler: handler)
    }

    /// Observes every key of `keys` with one handler; the token returned
    /// keeps the observation alive.
    ///
    /// - Parameters:
    ///   - keys: The keys to observe.
    ///   - options: What to deliver; `[.old, .new]` by default.
    ///   - handler: Called with the ViewModel, the key and the change, synchronously
    ///     by the code that made the change.
    /// - Returns: A token: ``KeyObservation/cancel()`` it, or let it go, to stop.
    public func observe(
        _ keys: some Sequence<String>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (ViewModel, String, KeyChange) -> Void
    ) -> KeyObservation {
        observe(keys, options: options, onRemove: nil) { _, viewModel, change in
            handler(viewModel, change.key, change)
        }
    }

    /// Registers one token-owned registration per key; the shared path of
    /// `observe` and `changes(for:)` (whose registrations `abandonment`
    /// marks once the stream's consumer stops).
    internal func observe(
        _ keys: some Sequence<String>,
        options: KeyObservationOptions,
        onRemove: (() -> Void)?,
        abandonment: AbandonmentFlag? = nil,
        invoke: @escaping ObserverRegistration.Invoke
    ) -> KeyObservation {
        var seen = Set<String>()
        let registrations = keys.filter { seen.insert($0).inserted }.map {
            ObserverRegistration(key: $0, options: options, observer: nil, ownedByToken: true,
                                 onRemove: onRemove, abandonment: abandonment, invoke: KeyObservation.deliver)
        }
        let token = KeyObservation(viewModel: self, registrations: registrations, handler: invoke)
        // Held weakly: a token released anywhere (a main-actor controller
        // freed on another thread) takes its handler along and leaves its
        // registrations orphaned; this ViewModel drops them in its own domain.
        for registration in registrations { registration.observer = token }
        register(registrations, options: options)
        return token
    }

    /// Observes `key` on behalf of `observer`, which is held weakly: the
    /// observation ends by itself when `observer` is deallocated.
    ///
    /// Adding the same observer for the same key again replaces its earlier
    /// registration (a "re-add") instead of adding a second one, so a
    /// reused cell can simply add itself again.
    ///
    /// ```swift
    /// viewModel.addObserver(cell, forKey: "likes") { cell, viewModel, key, change in
    ///     cell.likesChanged(to: change.newValue?.json)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - observer: The object the observation belongs to; held weakly.
    ///   - key: The key to observe.
    ///   - options: What to deliver; `[.old, .new]` by default.
    ///   - handler: Called with the observer, the ViewModel, the key and the
    ///     change, synchronously by the code that made the change.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer,
        forKey key: String,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (Observer, ViewModel, String, KeyChange) -> Void
    ) {
        addObserver(observer, forKeys: CollectionOfOne(key), options: options, handler: handler)
    }

    /// Observes every key of `keys` on behalf of `observer`, which is held
    /// weakly. Replaces the observer's earlier registration for any of these
    /// keys ("re-add"); its registrations for other keys stay.
    ///
    /// - Parameters:
    ///   - observer: The object the observation belongs to; held weakly.
    ///   - keys: The keys to observe.
    ///   - options: What to deliver; `[.old, .new]` by default.
    ///   - handler: Called with the observer, the ViewModel, the key and the
    ///     change, synchronously by the code that made the change.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer,
        forKeys keys: some Sequence<String>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (Observer, ViewModel, String, KeyChange) -> Void
    ) {
        let invoke: ObserverRegistration.Invoke = { object, viewModel, change in
            // Only registrations of `observer` (an `Observer`) call this.
            handler(unsafeDowncast(object!, to: Observer.self), viewModel, change.key, change)
        }
        var seen = Set<String>()
        let registrations = keys.filter { seen.insert($0).inserted }.map {
            ObserverRegistration(key: $0, options: options, observer: observer, invoke: invoke)
        }
        register(registrations, options: options)
    }

    /// Adds `registrations`, then delivers `.initial` values if asked.
    private func register(_ registrations: [ObserverRegistration], options: KeyObservationOptions) {
        mutateObservers { center, removed in
            for registration in registrations { center.add(registration, removed: &removed) }
        }
        guard options.contains(.initial), let center = observationCenter else { return }
        center.deliveries.deliver(registrations.map {
            PendingDelivery(registrations: [$0], key: $0.key, old: nil, new: untrackedValue(forKey: $0.key), kind: .initial)
        }, in: self)
    }

    /// Stops every observation `observer` added, on every key. Given a
    /// ``KeyObservation`` token, it ends that observation, as
    /// ``KeyObservation/cancel()`` does.
    public func removeObserver(_ observer: AnyObject) {
        removeObservers { center, removed in
            center.remove(observer: observer, into: &removed)
        }
    }

    /// Stops `observer`'s observation of `key`.
    public func removeObserver(_ observer: AnyObject, forKey key: String) {
        removeObserver(observer, forKeys: CollectionOfOne(key))
    }

    /// Stops `observer`'s observations of `keys`; its other keys stay observed.
    public func removeObserver(_ observer: AnyObject, forKeys keys: some Sequence<String>) {
        removeObservers { center, removed in
            for key in keys { center.remove(observer: observer, forKey: key, into: &removed) }
        }
    }

    /// Stops every observation of `key`: observer objects, tokens (which
    /// become inert) and change streams (which finish).
    public func removeObservers(forKey key: String) {
        removeObservers(forKeys: CollectionOfOne(key))
    }

    /// Stops every observation of each key of `keys`.
    public func removeObservers(forKeys keys: some Sequence<String>) {
        removeObservers { center, removed in
            for key in keys { center.remove(forKey: key, into: &removed) { _ in true } }
        }
    }

    /// Stops every observation of every key.
    public func removeAllObservers() {
        removeObservers { center, removed in
            center.removeAll(into: &removed) { _ in true }
        }
    }

    /// The number of live observations of `key` (observers whose object is
    /// gone are not counted).
    public func observerCount(forKey key: String) -> Int {
        observationCenter?.observers[key]?.count(where: { !$0.isRemoved && !$0.isOrphaned }) ?? 0
    }
}
