/// Bulk refreshes over every section, as ``Section`` offers for one.
extension Manager {
    /// Refreshes the bound views of `parts` of every section now.
    @MainActor
    public func refresh(_ parts: Section.Parts = .all) {
        for section in sections { section.refresh(parts) }
    }

    /// Merges `values` into `parts` of every section, marks their cached
    /// sizes stale, then refreshes them now.
    @MainActor
    public func refresh(_ parts: Section.Parts = .all, updating values: JSONObject) {
        for section in sections { section.refresh(parts, updating: values) }
    }

    /// Marks `parts` of every section as needing a refresh.
    @MainActor
    public func setNeedsRefresh(_ parts: Section.Parts = .all) {
        for section in sections { section.setNeedsRefresh(parts) }
    }

    /// Merges `values` into `parts` of every section, marks their cached
    /// sizes stale and marks them as needing a refresh.
    @MainActor
    public func setNeedsRefresh(_ parts: Section.Parts = .all, updating values: JSONObject) {
        for section in sections { section.setNeedsRefresh(parts, updating: values) }
    }

    /// Marks `parts` of every section as needing their cached sizes recomputed.
    @MainActor
    public func setNeedsCachedSize(_ parts: Section.Parts = .all) {
        for section in sections { section.setNeedsCachedSize(parts) }
    }
}
