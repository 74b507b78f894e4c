extension ViewModel {
    /// Observes the key of a typed key: `vm.observe(.title) { ... }`. Same
    /// rules as ``observe(_:options:handler:)-(String,_,_)``.
    public func observe<Value>(
        _ key: VMKey<Value>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (ViewModel, String, KeyChange) -> Void
    ) -> KeyObservation {
        observe(key.name, options: options, handler: handler)
    }

    /// Observes the key of a typed key for `observer`, held weakly; adding
    /// the same observer again replaces its earlier registration.
    public func addObserver<Observer: AnyObject, Value>(
        _ observer: Observer,
        for key: VMKey<Value>,
        options: KeyObservationOptions = [.old, .new],
        handler: @escaping (Observer, ViewModel, String, KeyChange) -> Void
    ) {
        addObserver(observer, forKey: key.name, options: options, handler: handler)
    }

    /// The changes of a typed key as an `AsyncStream`.
    public func changes<Value>(for key: VMKey<Value>) -> AsyncStream<KeyChange.Snapshot> {
        changes(for: key.name)
    }
}
