extension ViewModel {
    /// Observes a typed key; the handler gets the old and new values read as
    /// `Value` (`nil` when absent, or when the observation did not ask for
    /// them). Same rules as ``observe(_:options:handler:)-(String,_,_)``.
    /// The handler is not told which kind of notification it gets: with
    /// `.prior` (old value, `nil`) or `.initial` (`nil`, current value),
    /// use the string-key form, whose ``KeyChange`` says.
    ///
    /// ```swift
    /// let token = book.observe(.price) { book, old, new in
    ///     print("price", old ?? 0, "->", new ?? 0)
    /// }
    /// ```
    public func observe<Value: ViewModelStorable>(
        _ key: Key<Value>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (_ viewModel: ViewModel, _ old: Value?, _ new: Value?) -> Void
    ) -> KeyObservation {
        observe(key.name, options: options) { viewModel, _, change in
            handler(viewModel, change.oldValue.flatMap(Value.fromViewModelValue),
                    change.newValue.flatMap(Value.fromViewModelValue))
        }
    }

    /// Observes a typed key for `observer`, held weakly; adding the same
    /// observer again replaces its earlier registration. The handler gets
    /// the old and new values read as `Value`, not the kind of
    /// notification (see the typed `observe` above).
    ///
    /// ```swift
    /// book.addObserver(cell, for: .title) { cell, book, old, new in
    ///     cell.titleText = new ?? ""
    /// }
    /// ```
    public func addObserver<Observer: AnyObject, Value: ViewModelStorable>(
        _ observer: Observer,
        for key: Key<Value>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (_ observer: Observer, _ viewModel: ViewModel, _ old: Value?, _ new: Value?) -> Void
    ) {
        addObserver(observer, forKey: key.name, options: options) { observer, viewModel, _, change in
            handler(observer, viewModel, change.oldValue.flatMap(Value.fromViewModelValue),
                    change.newValue.flatMap(Value.fromViewModelValue))
        }
    }

    /// Stops `observer`'s observation of a typed key.
    public func removeObserver<Value>(_ observer: AnyObject, for key: Key<Value>) {
        removeObserver(observer, forKey: key.name)
    }

    /// Stops every observation of a typed key: observer objects, tokens and
    /// change streams.
    public func removeObservers<Value>(for key: Key<Value>) {
        removeObservers(forKey: key.name)
    }

    /// The number of live observations of a typed key.
    public func observerCount<Value>(for key: Key<Value>) -> Int {
        observerCount(forKey: key.name)
    }

    /// The new values of a typed key, as an asynchronous sequence another
    /// task can read (`nil` when the key is removed or unreadable as
    /// `Value`). Same rules as ``changes(for:bufferingPolicy:)-(String,_)``.
    ///
    /// ```swift
    /// for await title in book.changes(for: .title) { print(title ?? "-") }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key to observe.
    ///   - bufferingPolicy: How many undelivered values to keep;
    ///     `.unbounded` by default, `.bufferingNewest(1)` for the latest only.
    public func changes<Value: ViewModelStorable & Sendable>(
        for key: Key<Value>,
        bufferingPolicy: AsyncStream<Value?>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Value?> {
        changeStream(of: CollectionOfOne(key.name), options: [.new], bufferingPolicy: bufferingPolicy) { change in
            change.newValue.flatMap(Value.fromViewModelValue)
        }
    }
}
