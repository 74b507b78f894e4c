extension ViewModel {
    /// An independent ViewModel with the same contents: changing one never
    /// changes the other.
    ///
    /// What is copied:
    /// - JSON values (values already).
    /// - Nested ViewModels, arrays of them, and ``Section`` and ``Manager``
    ///   payloads and arrays of them (their items, section-level ViewModels
    ///   and registered keys) are copied deeply, so an edit screen can
    ///   change a copy of a nested item freely. An object reachable twice (or containing
    ///   itself) is copied once, keeping the same shape.
    /// - Other payloads are shared by reference: the ViewModel cannot know
    ///   how to copy an image or a formatter. So are arrays nested in
    ///   arrays (`[[ViewModel]]`) and their ViewModels.
    /// - Weak slots (still weak, and pointing where the original's point,
    ///   even at an object this copy copied: a child's weak `parent` still
    ///   names the original parent), commands (the same `Command` objects,
    ///   with their own "needs execute" state), the index path and the
    ///   serializable and archived key registrations.
    ///
    /// Not copied: the delegate, the binding view, the size cache, the
    /// refresh flags and observers: they belong to the view showing the
    /// original.
    ///
    /// Copying recurses once per nested ViewModel, as does
    /// `debugDescription`: a 512 KB stack
    /// (Apple's default for secondary threads) holds chains of about 1,000
    /// nested ViewModels in an optimized build; deeper chains need a larger
    /// stack.
    public func copy() -> ViewModel {
        var memo = CopyMemo()
        return copy(memo: &memo)
    }

    internal func copy(memo: inout CopyMemo) -> ViewModel {
        if let done = memo.copy(of: self) { return done }
        let result = ViewModel()
        memo.record(result, of: self)
        let (slots, path, commands, dependents, registry) =
            (weakSlots, indexPathSlot, commandSlots, commandDependents, keyRegistry)
        // Untracked, as the library's other bulk reads: a copy made inside
        // an Observation scope does not make it hear every later write.
        let entries = untrackedEntries
        var values: [String: ViewModelValue] = Dictionary(minimumCapacity: entries.count)
        var order: [String] = []
        order.reserveCapacity(entries.count)
        for (key, value) in entries {
            switch value {
            case .payload(let payload):
                if let nested = NestedContent(payload) {
                    values[key] = .payload(nested.deepCopy(memo: &memo).payload)
                } else {
                    values[key] = .payload(NestedContent.copyOfGroupingList(payload, memo: &memo) ?? payload)
                }
            case .json:
                values[key] = value
            }
            order.append(key)
        }
        let liveSlots = slots.filter { $0.value.object != nil }
        // `result` is new and unseen by any observer, so it is filled
        // directly, as `init(_:)` does, rather than key by key.
        do {
            result.storage = values.mapValues(Entry.init)
            result.keyOrder = order
            result.weakSlots = liveSlots
            result.indexPathSlot = path
            result.commandSlots = commands.mapValues(CommandSlot.init(copying:))
            result.commandDependents = dependents
            result.snapshotCommandKeys = snapshotCommandKeys
            result.keyRegistry = registry
        }
        return result
    }
}
