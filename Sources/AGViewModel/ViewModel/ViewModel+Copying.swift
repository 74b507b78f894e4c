extension ViewModel {
    /// An independent ViewModel with the same contents: changing one never
    /// changes the other.
    ///
    /// What is copied:
    /// - JSON values (values already).
    /// - Nested ViewModels, and arrays of them, are copied deeply, so an
    ///   edit screen can change a copy of a nested item freely. A ViewModel
    ///   reachable twice (or containing itself) is copied once, keeping the
    ///   same shape.
    /// - Other payloads are shared by reference: they are `Sendable`, and
    ///   the ViewModel cannot know how to copy an image or a formatter.
    /// - Weak slots (still weak), commands (the same `Command` objects,
    ///   with their own "needs execute" state), the index path and the
    ///   serializable and archived key registrations.
    ///
    /// Not copied: the delegate, the binding view, the size cache, the
    /// refresh flags and observers: they belong to the view showing the
    /// original.
    public func copy() -> ViewModel {
        var copies: [ObjectIdentifier: ViewModel] = [:]
        return copy(memo: &copies)
    }

    private func copy(memo: inout [ObjectIdentifier: ViewModel]) -> ViewModel {
        if let done = memo[ObjectIdentifier(self)] { return done }
        let result = ViewModel()
        memo[ObjectIdentifier(self)] = result
        let (slots, path, commands, dependents, registry) =
            (weakSlots, indexPathSlot, commandSlots, commandDependents, keyRegistry)
        let entries = orderedEntries()
        var values: [String: ViewModelValue] = Dictionary(minimumCapacity: entries.count)
        var order: [String] = []
        order.reserveCapacity(entries.count)
        for (key, value) in entries {
            let copied: ViewModelValue
            switch value {
            case .payload(let nested as ViewModel):
                copied = .payload(nested.copy(memo: &memo))
            case .payload(let nested as [ViewModel]):
                copied = .payload(nested.map { $0.copy(memo: &memo) })
            default:
                copied = value
            }
            values[key] = copied
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
            result.commandSlots = commands.mapValues { CommandSlot(command: $0.command, needsExecute: $0.needsExecute) }
            result.commandDependents = dependents
            result.keyRegistry = registry
        }
        return result
    }
}
