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
    /// does not keep the ViewModel alive. It ends (after the changes already
    /// buffered) when the ViewModel is deallocated, or when the observers of
    /// any of these keys are removed (``removeObservers(forKeys:)``,
    /// ``removeAllObservers()``). When the consuming task is cancelled, or the
    /// stream is dropped, the observation is removed. Changes made on any
    /// thread are buffered until the consumer asks; batches deliver one change
    /// per key; equal-value sets are not changes.
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
    /// `changes(for:bufferingPolicy:)` for several keys.
    public func changes(
        for key: String,
        bufferingPolicy: AsyncStream<KeyChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<KeyChange> {
        changes(for: CollectionOfOne(key), bufferingPolicy: bufferingPolicy)
    }
}
