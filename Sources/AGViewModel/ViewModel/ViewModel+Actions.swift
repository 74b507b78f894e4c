extension ViewModel {
    /// The object told about actions the bound view reports; held weakly.
    /// Main actor only, like the views that report actions.
    @MainActor
    public var delegate: (any ViewModelDelegate)? {
        get { delegateSlot }
        set { delegateSlot = newValue }
    }

    /// Sets ``delegate``. Returns the ViewModel, for chaining.
    @MainActor
    @discardableResult
    public func setDelegate(_ delegate: (any ViewModelDelegate)?) -> ViewModel {
        delegateSlot = delegate
        return self
    }

    /// Reports `action` (with optional details in `info`) to the delegate,
    /// synchronously. Without a delegate (none set, or deallocated) the
    /// action is dropped and `false` is returned.
    @MainActor
    @discardableResult
    public func send(_ action: ViewModelAction, info: ViewModel? = nil) -> Bool {
        guard let delegate = delegateSlot else { return false }
        delegate.viewModel(self, didReceive: action, info: info)
        return true
    }
}
