/// Where each item of a manager sits, by item identity, and where each of
/// its sections sits, by section identity: what `Manager.indexPath(of:)`
/// answers from. Appends extend it, so a "load more" that asks for each
/// new row's index path costs the new rows only, however many sections
/// the manager holds.
internal struct IndexPathTable {
    /// Where an item sits: a compact index path.
    struct Slot {
        var section: Int
        var item: Int
    }

    /// The first place of each item, in section then item order.
    private var slots: [ObjectIdentifier: Slot] = [:]
    /// The positions of each section object (a manager may hold one twice).
    private var sectionPositions: [ObjectIdentifier: [Int]] = [:]
    private var sectionCount = 0

    /// The table of `sections`.
    init(sections: [Section]) {
        slots.reserveCapacity(sections.reduce(0) { $0 + $1.untrackedItems.count })
        appendSections(sections)
    }

    /// The first place of the item `id`, or `nil`.
    func slot(of id: ObjectIdentifier) -> Slot? {
        slots[id]
    }

    /// Adds `sections`, appended after those already in the table. An item
    /// already in the table keeps its first place.
    mutating func appendSections(_ sections: [Section]) {
        for section in sections {
            let position = sectionCount
            sectionCount += 1
            sectionPositions[ObjectIdentifier(section), default: []].append(position)
            for (index, item) in section.untrackedItems.enumerated() {
                let key = ObjectIdentifier(item)
                if slots[key] == nil { slots[key] = Slot(section: position, item: index) }
            }
        }
    }

    /// Adds `items`, appended to `section` from index `start`, at every
    /// position of the section.
    mutating func section(_ section: Section, didAppend items: some Collection<ViewModel>, at start: Int) {
        guard let positions = sectionPositions[ObjectIdentifier(section)] else { return }
        for position in positions {
            for (offset, item) in items.enumerated() {
                let slot = Slot(section: position, item: start + offset)
                let key = ObjectIdentifier(item)
                if let existing = slots[key], (existing.section, existing.item) < (slot.section, slot.item) { continue }
                slots[key] = slot
            }
        }
    }
}
