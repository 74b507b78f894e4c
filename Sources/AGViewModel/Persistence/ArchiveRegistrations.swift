/// The key registrations an archive keeps: the registrations table that
/// follows the root item in format version 2 (see ``ArchiveFormat``).
///
/// *Holders* are the ViewModels, sections and managers of the payload,
/// numbered from 0 in the order their bodies end (a nested ViewModel before
/// the one holding it, a section's items before the section). The table
/// names a holder by the gap from the one before it, so entries come in
/// holder order, and gives its non-empty key lists behind a flags byte.
internal enum ArchiveRegistrations {
    /// A ViewModel, section or manager read from the payload, in the order
    /// its body ended.
    enum Holder {
        case viewModel(ViewModel)
        case section(Section)
        case manager(Manager)
    }

    /// One holder's registrations: its key lists in flag-bit order, empty
    /// where nothing is registered.
    struct Entry {
        var holder: Int
        var lists: [[String]]
    }

    /// The key lists of a ViewModel's registry, in flag-bit order: bit 0
    /// export ("serializable") keys, bit 1 archived keys.
    static func lists(of registry: KeyRegistry) -> [[String]] {
        [registry.serializable, registry.archived]
    }

    /// The key lists of a section's or manager's part registries, in
    /// flag-bit order: for common, header, footer and items, in that order,
    /// export keys then archived keys (bits 0-7).
    static func lists(of registry: PartKeyRegistry) -> [[String]] {
        partOrder.flatMap { lists(of: registry[$0]) }
    }

    /// The registry whose lists, in flag-bit order, are `lists`.
    static func keyRegistry(_ lists: ArraySlice<[String]>) -> KeyRegistry {
        var registry = KeyRegistry()
        registry.add(lists[lists.startIndex], for: .serialization)
        registry.add(lists[lists.startIndex + 1], for: .archiving)
        return registry
    }

    /// The part registries whose lists, in flag-bit order, are `lists`.
    static func partKeyRegistry(_ lists: [[String]]) -> PartKeyRegistry {
        var registry = PartKeyRegistry()
        for (i, part) in partOrder.enumerated() {
            registry[part] = keyRegistry(lists[2 * i ..< 2 * i + 2])
        }
        return registry
    }

    /// The parts in the table's order; fixed by the format, not by
    /// `SectionPart`'s declaration.
    static let partOrder: [SectionPart] = [.common, .header, .footer, .items]
}

extension ArchiveEncodingState {
    /// Numbers the ViewModel whose body was just written and keeps its
    /// registrations if it has any.
    mutating func noteHolder(_ registry: KeyRegistry) {
        noteHolder(isEmpty: registry.isEmpty, ArchiveRegistrations.lists(of: registry))
    }

    /// Numbers the section or manager whose body was just written and keeps
    /// its registrations if it has any.
    mutating func noteHolder(_ registry: PartKeyRegistry) {
        noteHolder(isEmpty: registry.isEmpty, ArchiveRegistrations.lists(of: registry))
    }

    private mutating func noteHolder(isEmpty: Bool, _ lists: @autoclosure () -> [[String]]) {
        let number = holderCount
        holderCount += 1
        if !isEmpty { registrations.append(ArchiveRegistrations.Entry(holder: number, lists: lists())) }
    }

    /// The registrations table: a count, then per entry the gap from the
    /// previous holder, a flags byte with a bit per non-empty list, and
    /// those lists (a count, then keys as everywhere in the payload).
    mutating func writeRegistrations() {
        writeVarint(UInt64(registrations.count))
        var next = 0
        for entry in registrations {
            writeVarint(UInt64(entry.holder - next))
            next = entry.holder + 1
            var flags: UInt8 = 0
            for (bit, list) in entry.lists.enumerated() where !list.isEmpty { flags |= 1 << UInt8(bit) }
            bytes.append(flags)
            for list in entry.lists where !list.isEmpty {
                writeVarint(UInt64(list.count))
                for key in list { writeKey(key) }
            }
        }
    }
}

extension ArchiveDecodingState {
    /// Keeps `holder`, whose body was just read, when the archive has a
    /// registrations table to apply to it.
    @inline(__always)
    mutating func noteHolder(_ holder: @autoclosure () -> ArchiveRegistrations.Holder) {
        if keepsHolders { holders.append(holder()) }
    }

    /// Reads the registrations table and registers its keys on the holders
    /// read before it.
    mutating func readRegistrations() throws(ArchiveError) {
        // An entry takes at least four bytes: gap, flags, a count, a key.
        let count = try readCount(minimumSize: 4, of: "registration count")
        // Items of one list usually register the same keys: an entry equal
        // to the previous one of its kind shares its registry's storage.
        var previousViewModel: (lists: [[String]], registry: KeyRegistry)?
        var previousParts: (lists: [[String]], registry: PartKeyRegistry)?
        var next = 0
        for _ in 0 ..< count {
            let start = position
            let gap = try readVarint()
            guard gap < UInt64(holders.count - next) else {
                let number = gap > UInt64(Int.max - next) ? "past \(Int.max)" : "\(next + Int(gap))"
                let holders = holders.isEmpty
                    ? "the payload has no ViewModel, section or manager"
                    : "the payload's ViewModels, sections and managers are numbered 0 to \(holders.count - 1)"
                throw malformed("registrations for holder \(number), but \(holders)", at: start)
            }
            let number = next + Int(gap)
            next = number + 1
            let holder = holders[number]
            let (listCount, kind): (Int, String)
            switch holder {
            case .viewModel: (listCount, kind) = (2, "ViewModel")
            case .section: (listCount, kind) = (8, "section")
            case .manager: (listCount, kind) = (8, "manager")
            }
            let flags = try readFlags(known: UInt8(truncatingIfNeeded: (1 << listCount) - 1), of: "\(kind) registration")
            guard flags != 0 else { throw malformed("a registration with no key list", at: position - 1) }
            var lists = [[String]](repeating: [], count: listCount)
            for bit in 0 ..< listCount where flags & (1 << UInt8(bit)) != 0 {
                lists[bit] = try readRegisteredKeys()
            }
            switch holder {
            case .viewModel(let viewModel):
                if previousViewModel?.lists != lists {
                    previousViewModel = (lists, ArchiveRegistrations.keyRegistry(lists[...]))
                }
                viewModel.keyRegistry = previousViewModel!.registry
            case .section, .manager:
                if previousParts?.lists != lists {
                    previousParts = (lists, ArchiveRegistrations.partKeyRegistry(lists))
                }
                if case .section(let section) = holder { section.partKeyRegistry = previousParts!.registry }
                if case .manager(let manager) = holder { manager.partKeyRegistry = previousParts!.registry }
            }
        }
    }

    /// `U+0065 U+0301` for "é" written decomposed.
    private static func scalarNames(_ key: String) -> String {
        key.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
    }

    /// A non-empty list of distinct keys (as Swift strings compare them).
    private mutating func readRegisteredKeys() throws(ArchiveError) -> [String] {
        let start = position
        let count = try readCount(minimumSize: 1, of: "registered key count")
        guard count > 0 else { throw malformed("an empty registered key list", at: start) }
        var keys: [String] = []
        keys.reserveCapacity(reservation(for: count))
        // Short lists, the norm, are checked by comparison, long ones by hashing.
        var seen: Set<String> = []
        for _ in 0 ..< count {
            let keyOffset = position
            let key = try readKey()
            let isRepeated = count <= 16 ? keys.contains(key) : !seen.insert(key).inserted
            guard !isRepeated else {
                // Two spellings of one key print alike: name their scalars.
                let earlier = keys.first { $0 == key } ?? key
                let spellings = Array(earlier.unicodeScalars) == Array(key.unicodeScalars)
                    ? "" : " (as \(Self.scalarNames(earlier)) and \(Self.scalarNames(key)), one key as Swift strings)"
                throw malformed("key \"\(key)\" registered twice\(spellings)", at: keyOffset)
            }
            keys.append(key)
        }
        return keys
    }
}
