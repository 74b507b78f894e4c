extension ViewModel {
    /// A ViewModel filled in one step from keys the caller guarantees are
    /// unique and all present in `values`. Used by decoders and packagers to
    /// skip the per-key write path: a new ViewModel has no observers yet.
    internal convenience init(uncheckedKeys keys: [String], values: [String: ViewModelValue]) {
        self.init()
        self.keyOrder = keys
        self.values = values
    }

    /// The keys in order and their values, read together under the lock.
    internal var storageSnapshot: (keys: [String], values: [String: ViewModelValue]) {
        lock.withLock { (keyOrder, values) }
    }
}
