extension KeyChange {
    /// A `Sendable` copy of a key change, as change streams deliver it to
    /// another task: the values are ``ViewModel/Snapshot/Value``s.
    public struct Snapshot: Sendable {
        /// The key that changed.
        public var key: String
        /// The value before the change; `nil` when the key was absent (or
        /// the value is a payload a snapshot cannot hold).
        public var oldValue: ViewModel.Snapshot.Value?
        /// The value after the change; `nil` when the key was removed (or
        /// the value is a payload a snapshot cannot hold).
        public var newValue: ViewModel.Snapshot.Value?
        /// Why this change is delivered.
        public var kind: Kind

        /// A copy of `change`.
        public init(_ change: KeyChange) {
            key = change.key
            var run = SnapshotRun()
            oldValue = change.oldValue.flatMap { ViewModel.Snapshot.Value($0, run: &run) }
            newValue = change.newValue.flatMap { ViewModel.Snapshot.Value($0, run: &run) }
            kind = change.kind
        }
    }
}

extension ViewModel {
    /// The changes of `keys`, as an asynchronous sequence another task can
    /// read.
    ///
    /// ```swift
    /// for await change in viewModel.changes(for: ["title", "likes"]) {
    ///     print(change.key, change.newValue?.json as Any)
    /// }
    /// ```
    ///
    /// Each change carries its key and `Sendable` copies of its old and new
    /// values. The sequence does not keep the ViewModel alive. It ends
    /// (after the changes already buffered) when the ViewModel is
    /// deallocated, or when the observers of any of these keys are removed
    /// (``removeObservers(forKeys:)``, ``removeAllObservers()``); a stream
    /// of no keys ends at once. When the consumer stops (its task is
    /// cancelled, the stream is dropped), the observation no longer counts
    /// in ``observerCount(forKey:)`` and is removed in this ViewModel's
    /// domain at the next change of these keys, or while observers of them
    /// are added, so a screen that opens a new stream each time it appears
    /// does not pile them up: a key's registrations never number more than
    /// twice the most observations it had live at once, plus one. Changes
    /// are buffered until the consumer asks; batches deliver one change per
    /// key; equal-value sets are not changes.
    ///
    /// - Parameters:
    ///   - keys: The keys to observe.
    ///   - bufferingPolicy: How many undelivered changes to keep;
    ///     `.unbounded` by default.
    /// - Returns: A stream of changes.
    public func changes(
        for keys: some Sequence<String>,
        bufferingPolicy: AsyncStream<KeyChange.Snapshot>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<KeyChange.Snapshot> {
        changeStream(of: keys, options: [.old, .new], bufferingPolicy: bufferingPolicy, element: KeyChange.Snapshot.init)
    }

    /// A stream of `element(change)` for the changes of `keys`: the shared
    /// path of the plain and typed change streams.
    internal func changeStream<Element: Sendable>(
        of keys: some Sequence<String>,
        options: KeyObservationOptions,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        element: @escaping (KeyChange) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let keys = Array(keys)
        // No key, no observation to end it: nothing will ever come.
        guard !keys.isEmpty else {
            continuation.finish()
            return stream
        }
        // The registrations keep the token (and so themselves) alive until
        // the stream is terminated or the observation removed; the token
        // holds the ViewModel weakly. A consumer that stops marks them, on
        // its own thread, for this ViewModel to drop.
        let holder = ObservationHolder()
        let abandonment = AbandonmentFlag()
        continuation.onTermination = { _ in abandonment.set() }
        holder.hold(observe(keys, options: options, onRemove: {
            continuation.finish()
            holder.release()
        }, abandonment: abandonment) { _, _, change in
            if case .terminated = continuation.yield(element(change)) {
                holder.cancel()
            }
        })
        return stream
    }

    /// The changes of `key`, as an asynchronous sequence; see
    /// `changes(for:bufferingPolicy:)` for several keys.
    public func changes(
        for key: String,
        bufferingPolicy: AsyncStream<KeyChange.Snapshot>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<KeyChange.Snapshot> {
        changes(for: CollectionOfOne(key), bufferingPolicy: bufferingPolicy)
    }
}
