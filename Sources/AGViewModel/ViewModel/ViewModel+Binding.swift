import Foundation

// Binding view, size cache and refresh flags. All main actor: they talk to
// views, so they are main-actor state whatever domain owns the data.
extension ViewModel {
    // MARK: Binding view

    /// The view showing this ViewModel, held weakly; `nil` when none is
    /// bound or it has been deallocated.
    ///
    /// Setting a view that is bound to another ViewModel (a reused cell)
    /// unbinds it from that one, so refreshing the old ViewModel can never
    /// overwrite the cell's new contents. Setting does not apply the
    /// ViewModel to the view; ``bind(_:)`` does both.
    @MainActor
    public var bindingView: (any ViewModelBindable)? {
        get { bindingViewSlot }
        set {
            if let newValue {
                ViewBindings.attach(newValue, to: self)
            } else {
                ViewBindings.detach(from: self)
            }
        }
    }

    /// Makes `view` the binding view (see ``bindingView``) and applies this
    /// ViewModel to it now, which also clears ``needsRefresh``. Returns the
    /// ViewModel, for chaining.
    @MainActor
    @discardableResult
    public func bind(_ view: any ViewModelBindable) -> ViewModel {
        ViewBindings.attach(view, to: self)
        needsRefreshFlag = false
        view.apply(self)
        return self
    }

    /// Forgets the binding view. Returns the ViewModel, for chaining.
    @MainActor
    @discardableResult
    public func unbind() -> ViewModel {
        ViewBindings.detach(from: self)
        return self
    }

    // MARK: Size cache

    /// Whether the binding view's size must be computed again: it was
    /// flagged by ``setNeedsCachedSize()`` or nothing is cached yet.
    @MainActor
    public var needsCachedSize: Bool { needsCachedSizeFlag || sizeCache == nil }

    /// Marks the cached size stale (the data changed in a way that changes
    /// the layout); the next size request computes it again.
    ///
    /// A plain key write does not mark it, since most writes leave the
    /// layout alone: change layout-relevant values inside ``update(_:)`` or
    /// ``updateAndRefresh(_:)`` (or the bulk `refresh(_:updating:)` of a
    /// section or manager), which mark it, or call this.
    @MainActor @discardableResult
    public func setNeedsCachedSize() -> ViewModel {
        needsCachedSizeFlag = true
        return self
    }

    /// The binding view's size for this ViewModel in `context`.
    ///
    /// Returns the cached size when it is valid: not flagged by
    /// ``setNeedsCachedSize()``, computed in an equal `context` and, when
    /// a view is bound, by a view of its class.
    /// Otherwise asks the binding view, caches and returns its answer. `nil`
    /// when no valid size is cached and no binding view computes one.
    @MainActor
    public func sizeOfBindingView(in context: LayoutContext) -> CGSize? {
        guard let view = bindingViewSlot else { return cachedSize(in: context) }
        if let size = cachedSize(in: context, measuredBy: view) { return size }
        return computeSize(with: view, in: context)
    }

    /// The size `view` needs for this ViewModel in `context`, computed and
    /// cached on demand; a valid cached size measured by a view of the same
    /// class is returned without asking the view (a ViewModel shown as a
    /// header and as a cell is measured by each). Use it with a prototype
    /// view before any view is bound (a table's height callback).
    @MainActor
    public func size(using view: any ViewModelBindable, in context: LayoutContext) -> CGSize? {
        if let size = cachedSize(in: context, measuredBy: view) { return size }
        return computeSize(with: view, in: context)
    }

    /// The cached size when it is valid for `context`, without computing,
    /// whatever class of view measured it.
    @MainActor
    public func cachedSize(in context: LayoutContext) -> CGSize? {
        guard !needsCachedSizeFlag, let cache = sizeCache, cache.context == context else { return nil }
        return cache.size
    }

    /// The cached size when it is valid for `context` and was measured by
    /// a view of `view`'s class.
    @MainActor
    private func cachedSize(in context: LayoutContext, measuredBy view: any ViewModelBindable) -> CGSize? {
        guard let size = cachedSize(in: context), sizeCache?.viewType == ObjectIdentifier(type(of: view)) else { return nil }
        return size
    }

    @MainActor
    private func computeSize(with view: any ViewModelBindable, in context: LayoutContext) -> CGSize? {
        // Clear the flag first: a change made while the view measures
        // flags the new size stale again.
        needsCachedSizeFlag = false
        guard let size = view.size(for: self, in: context) else {
            sizeCache = nil
            return nil
        }
        sizeCache = SizeCache(size: size, context: context, viewType: ObjectIdentifier(type(of: view)))
        return size
    }

    // MARK: Refresh

    /// Whether the binding view should be refreshed: marked by
    /// ``setNeedsRefresh()`` or ``update(_:)`` and not refreshed since.
    @MainActor
    public var needsRefresh: Bool { needsRefreshFlag }

    /// Marks the binding view as needing a refresh. Several marks before
    /// ``refreshIfNeeded()`` give one refresh.
    @MainActor @discardableResult
    public func setNeedsRefresh() -> ViewModel {
        needsRefreshFlag = true
        return self
    }

    /// Refreshes the binding view when marked; does nothing otherwise.
    @MainActor @discardableResult
    public func refreshIfNeeded() -> ViewModel {
        guard needsRefreshFlag else { return self }
        return refresh()
    }

    /// Applies this ViewModel to the binding view now (when there is one)
    /// and clears ``needsRefresh``.
    @MainActor @discardableResult
    public func refresh() -> ViewModel {
        needsRefreshFlag = false
        bindingViewSlot?.apply(self)
        return self
    }

    /// Runs `body` to change the data, marks the cached size stale, and
    /// refreshes the binding view now. When `body` throws, which may be
    /// after it changed data, the cached size and the view are marked
    /// stale (see ``refreshIfNeeded()``) and the error is rethrown.
    @MainActor @discardableResult
    public func updateAndRefresh(_ body: (ViewModel) throws -> Void) rethrows -> ViewModel {
        do {
            try body(self)
        } catch {
            markStale()
            throw error
        }
        needsCachedSizeFlag = true
        return refresh()
    }

    /// A section's or manager's `refresh(_:updating:)` for this ViewModel:
    /// ``updateAndRefresh(_:)`` merging `values` when they change it, else
    /// only a refresh still pending.
    @MainActor
    internal func refresh(merging values: JSONObject) {
        if needsUpdate(merging: values) {
            updateAndRefresh { $0.merge(values) }
        } else {
            refreshIfNeeded()
        }
    }

    /// A section's or manager's `setNeedsRefresh(_:updating:)` for this
    /// ViewModel: ``update(_:)`` merging `values` when they change it.
    @MainActor
    internal func setNeedsRefresh(merging values: JSONObject) {
        if needsUpdate(merging: values) { update { $0.merge(values) } }
    }

    /// Whether merging `values` changes a stored value, or `values` is
    /// empty (a plain re-measure): a ViewModel that already holds them is
    /// neither measured nor refreshed again.
    private func needsUpdate(merging values: JSONObject) -> Bool {
        values.isEmpty || values.contains { key, value in
            guard let stored = untrackedValue(forKey: key) else { return true }
            return !stored.isSame(as: .json(value))
        }
    }

    /// Runs `body` to change the data, marks the cached size stale, and
    /// marks the binding view as needing a refresh (see
    /// ``refreshIfNeeded()``), for several updates that end in one refresh.
    /// When `body` throws, the same marks are made (it may have changed
    /// data first) and the error is rethrown.
    @MainActor @discardableResult
    public func update(_ body: (ViewModel) throws -> Void) rethrows -> ViewModel {
        defer { markStale() }
        try body(self)
        return self
    }

    /// Marks the cached size stale and the binding view as needing a
    /// refresh.
    @MainActor
    private func markStale() {
        needsCachedSizeFlag = true
        needsRefreshFlag = true
    }
}

/// Which ViewModel each view is bound to, so binding a reused view to a new
/// ViewModel unbinds it from the old one.
@MainActor
internal enum ViewBindings {
    private final class WeakViewModel {
        weak var viewModel: ViewModel?
        init(_ viewModel: ViewModel) { self.viewModel = viewModel }
    }

    private static var owners: [ObjectIdentifier: WeakViewModel] = [:]
    private static var pruneThreshold = 64

    /// Views to tell that a binding ended, in the order the bindings
    /// ended. Every change of binding is made before any view is told, so
    /// a view that binds again from `didUnbind(from:)` finds the bindings
    /// settled; and each change first tells the views still waiting, so no
    /// view hears of an old binding after a new one.
    private static var pendingUnbinds: [(view: any ViewModelBindable, viewModel: ViewModel)] = []

    private static func tellUnboundViews() {
        while !pendingUnbinds.isEmpty {
            let (view, viewModel) = pendingUnbinds.removeFirst()
            view.didUnbind(from: viewModel)
        }
    }

    static func attach(_ view: any ViewModelBindable, to viewModel: ViewModel) {
        tellUnboundViews()
        let id = ObjectIdentifier(view)
        if let previous = owners[id]?.viewModel, previous !== viewModel,
           previous.bindingViewSlot === view {
            previous.bindingViewSlot = nil
            pendingUnbinds.append((view, previous))
        }
        if let current = viewModel.bindingViewSlot, current !== view {
            owners[ObjectIdentifier(current)] = nil
            pendingUnbinds.append((current, viewModel))
        }
        viewModel.bindingViewSlot = view
        owners[id] = WeakViewModel(viewModel)
        if owners.count >= pruneThreshold { prune() }
        tellUnboundViews()
    }

    static func detach(from viewModel: ViewModel) {
        tellUnboundViews()
        guard let current = viewModel.bindingViewSlot else { return }
        owners[ObjectIdentifier(current)] = nil
        viewModel.bindingViewSlot = nil
        pendingUnbinds.append((current, viewModel))
        tellUnboundViews()
    }

    /// Unbinds `view` from the ViewModel it shows, if any: a reused view
    /// that is now filled by hand must not be overwritten when that
    /// ViewModel refreshes.
    static func detach(view: any ViewModelBindable) {
        tellUnboundViews()
        let previous = viewModel(boundTo: view)
        owners[ObjectIdentifier(view)] = nil
        guard let previous else { return }
        previous.bindingViewSlot = nil
        pendingUnbinds.append((view, previous))
        tellUnboundViews()
    }

    /// The ViewModel `view` is bound to: an entry is trusted only while
    /// that ViewModel still holds that very view.
    static func viewModel(boundTo view: any ViewModelBindable) -> ViewModel? {
        guard let viewModel = owners[ObjectIdentifier(view)]?.viewModel,
              viewModel.bindingViewSlot === view else { return nil }
        return viewModel
    }

    /// Binds a reused `view` to `viewModel`, or unbinds it when there is
    /// none (the table helpers' dequeue).
    static func rebind(_ view: any ViewModelBindable, to viewModel: ViewModel?) {
        if let viewModel { viewModel.bind(view) } else { detach(view: view) }
    }

    /// Drops entries whose view or ViewModel is gone. An identifier of a
    /// dead view may be reused by a new object; entries are only trusted
    /// when the ViewModel still holds that very view, so this is cleanup,
    /// not correctness.
    private static func prune() {
        owners = owners.filter { id, entry in
            guard let viewModel = entry.viewModel, let view = viewModel.bindingViewSlot else { return false }
            return ObjectIdentifier(view) == id
        }
        pruneThreshold = max(64, owners.count * 2)
    }
}
