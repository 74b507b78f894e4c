extension ViewModel {
    /// The changes of `keys`, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in viewModel.changes(for: ["title", "likes"]) {
    ///     print(change.key, change.newValue as Any)
    /// }
    /// ```
    ///
    /// Each change carries its key and its old and new values. The sequence
    /// does not keep the ViewModel alive, and it ends when the ViewModel is
    /// deallocated, when its observers of these keys are removed
    /// (``removeObservers(forKeys:)``, ``removeAllObservers()``), or when the
    /// consuming task is cancelled (the observation is removed then). Changes
    /// are buffered between iterations; batches deliver one change per key.
    ///
    /// - Parameters:
    ///   - keys: The keys to observe.
    ///   - bufferingPolicy: How many undelivered changes to keep;
    ///     `.unbounded` by default.
    /// - Returns: A stream of changes.
    public func changes(
        for keys: some Sequence<String>,
        bufferingPolicy: AsyncStream<KeyChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<KeyChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: KeyChange.self, bufferingPolicy: bufferingPolicy)
        // The registrations hold the continuation; the stream holds the
        // token, which holds the ViewModel weakly.
        let observation = observe(keys, options: [.old, .new], onRemove: { continuation.finish() }) { _, _, change in
            continuation.yield(change)
        }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// The changes of `key`, as an asynchronous sequence; see
    /// ``changes(for:bufferingPolicy:)-(Sequence<String>,_)``.
    public func changes(
        for key: String,
        bufferingPolicy: AsyncStream<KeyChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<KeyChange> {
        changes(for: CollectionOfOne(key), bufferingPolicy: bufferingPolicy)
    }
}
