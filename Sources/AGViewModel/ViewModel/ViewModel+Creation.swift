extension ViewModel {
    /// A ViewModel configured by `configure`, which runs once, now, on the
    /// new ViewModel:
    ///
    /// ```swift
    /// let viewModel = ViewModel {
    ///     $0[.title] = "Swift"
    ///     $0[.price] = 9.5
    /// }
    /// ```
    public convenience init(_ configure: (ViewModel) throws -> Void) rethrows {
        self.init()
        try configure(self)
    }

    /// A ViewModel holding the members of `object`, then configured by
    /// `configure` (to add derived values, payloads or commands).
    public convenience init(_ object: JSONObject, configure: (ViewModel) throws -> Void) rethrows {
        self.init(object)
        try configure(self)
    }
}
