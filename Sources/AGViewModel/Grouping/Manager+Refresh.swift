/// Bulk refreshes over every section, as ``Section`` offers for one, each
/// ViewModel once however many places hold it.
extension Manager {
    /// The ViewModels of `parts` of every section, each once.
    private func distinctViewModels(in parts: Section.Parts) -> [ViewModel] {
        Section.distinctViewModels(in: parts, of: sections)
    }

    /// Refreshes the bound views of `parts` of every section now.
    @MainActor
    public func refresh(_ parts: Section.Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.refresh() }
    }

    /// Merges `values` into `parts` of every section, marks their cached
    /// sizes stale, then refreshes them now; ViewModels that already hold
    /// `values` are not measured again, and refreshed only if a refresh is
    /// pending (``refresh(_:)`` refreshes every one).
    @MainActor
    public func refresh(_ parts: Section.Parts = .all, updating values: JSONObject) {
        for viewModel in distinctViewModels(in: parts) { viewModel.refresh(merging: values) }
    }

    /// Marks `parts` of every section as needing a refresh.
    @MainActor
    public func setNeedsRefresh(_ parts: Section.Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsRefresh() }
    }

    /// Merges `values` into `parts` of every section, marks their cached
    /// sizes stale and marks them as needing a refresh; ViewModels that
    /// already hold `values` are left alone.
    @MainActor
    public func setNeedsRefresh(_ parts: Section.Parts = .all, updating values: JSONObject) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsRefresh(merging: values) }
    }

    /// Marks `parts` of every section as needing their cached sizes recomputed.
    @MainActor
    public func setNeedsCachedSize(_ parts: Section.Parts = .all) {
        for viewModel in distinctViewModels(in: parts) { viewModel.setNeedsCachedSize() }
    }
}
