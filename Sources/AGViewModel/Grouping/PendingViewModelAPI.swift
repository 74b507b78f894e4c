// PLACEHOLDER — replaced when the viewmodel branch lands (issue 3).
// The lead deletes this whole file at merge: the real ViewModel implements
// these agreed names (see BRIEF.md, "Shared names"). It exists only so the
// grouping branch compiles and its bulk operations can be tested now.
// Nothing outside Grouping/ and its tests may depend on it.

/// Placeholder flag storage, keyed by ViewModel identity (weakly held so a
/// reused address never inherits stale flags).
private final class PendingFlagTable: @unchecked Sendable {
    private struct Entry {
        weak var owner: ViewModel?
        var needsRefresh = false
        var needsCachedSize = false
    }

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func read(_ viewModel: ViewModel) -> (refresh: Bool, cachedSize: Bool) {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(viewModel)], entry.owner === viewModel else {
                return (false, false)
            }
            return (entry.needsRefresh, entry.needsCachedSize)
        }
    }

    func update(_ viewModel: ViewModel, _ body: (inout Bool, inout Bool) -> Void) {
        lock.withLock {
            let id = ObjectIdentifier(viewModel)
            var entry = entries[id].flatMap { $0.owner === viewModel ? $0 : nil } ?? Entry(owner: viewModel)
            body(&entry.needsRefresh, &entry.needsCachedSize)
            entries[id] = entry
        }
    }
}

private let pendingFlags = PendingFlagTable()

extension ViewModel {
    /// PLACEHOLDER (replaced when the viewmodel branch lands).
    var needsRefresh: Bool { pendingFlags.read(self).refresh }

    /// PLACEHOLDER (replaced when the viewmodel branch lands).
    var needsCachedSize: Bool { pendingFlags.read(self).cachedSize }

    /// PLACEHOLDER (replaced when the viewmodel branch lands).
    @MainActor func setNeedsRefresh() { pendingFlags.update(self) { refresh, _ in refresh = true } }

    /// PLACEHOLDER (replaced when the viewmodel branch lands).
    @MainActor func setNeedsCachedSize() { pendingFlags.update(self) { _, size in size = true } }

    /// PLACEHOLDER (replaced when the viewmodel branch lands): the real one
    /// updates the bound view; here it only clears the flag.
    @MainActor func refresh() { pendingFlags.update(self) { refresh, _ in refresh = false } }

    /// PLACEHOLDER (replaced when the viewmodel branch lands).
    @MainActor func refreshIfNeeded() { if needsRefresh { refresh() } }
}
