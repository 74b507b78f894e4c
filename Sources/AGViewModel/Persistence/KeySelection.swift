/// Which keys a JSON export or an archive writes.
///
/// ```swift
/// item.addSerializableKeys(["id", "title"])
/// item.exportJSON()                               // {"id": …, "title": …}
/// item.exportJSON(options: .everything)           // every key
/// try Archive.write(.manager(manager), to: url, keys: .everything)
/// ```
///
/// ## The registration rule
/// Keys are registered per ViewModel (``ViewModel/addSerializableKeys(_:)``,
/// ``ViewModel/addArchivedKeys(_:)``) and, for the ViewModels a section or a
/// manager holds, per part (``SectionPart``). With ``registered``, a
/// ViewModel writes the keys registered on it *or* on the part that holds
/// it (the union). **A ViewModel with no registered key at all writes every
/// key**: registration narrows what is written, it is never needed to write
/// something. (The Objective-C original wrote nothing for an unregistered
/// ViewModel, which silently lost data; registering one key gives its
/// strict behaviour.) A nested ViewModel is written when its key is
/// selected, and then follows its own registrations.
///
/// Export and archive registrations are separate lists: registering a key
/// for export does not change what is archived.
public enum KeySelection: Sendable, Hashable {
    /// Registered keys, or every key of a ViewModel that has none
    /// registered (see the rule above). The default.
    case registered
    /// Every key of every ViewModel, whatever is registered (an archive
    /// still stores the registrations themselves).
    case everything
}

/// A part of a section, for registering keys per part.
///
/// On a ``Section`` a part means its own ViewModel(s); on a ``Manager`` it
/// means that part of every section it holds, and ``common`` also covers the
/// manager's own common ViewModel.
public enum SectionPart: String, Sendable, Hashable, CaseIterable {
    /// The common ViewModel (and, for a section, its item-merge ViewModel).
    case common
    /// The header ViewModel.
    case header
    /// The footer ViewModel.
    case footer
    /// Every item.
    case items
}

/// What keys are registered for.
internal enum KeyPurpose: Sendable {
    /// JSON export ("serializable" keys).
    case serialization
    /// Archives ("archived" keys).
    case archiving
}

/// The keys registered on one ViewModel or one part: for export and for
/// archives, each in registration order without duplicates.
internal struct KeyRegistry: Sendable, Hashable {
    private var serializableKeys = OrderedKeys()
    private var archivedKeys = OrderedKeys()

    var serializable: [String] { serializableKeys.list }
    var archived: [String] { archivedKeys.list }
    /// Whether no key is registered for either purpose.
    var isEmpty: Bool { serializableKeys.list.isEmpty && archivedKeys.list.isEmpty }

    subscript(purpose: KeyPurpose) -> [String] {
        purpose == .serialization ? serializable : archived
    }

    mutating func add(_ keys: some Sequence<String>, for purpose: KeyPurpose) {
        modify(purpose) { $0.add(keys) }
    }

    mutating func remove(_ keys: some Sequence<String>, for purpose: KeyPurpose) {
        modify(purpose) { $0.remove(keys) }
    }

    mutating func removeAll(for purpose: KeyPurpose) {
        modify(purpose) { $0 = OrderedKeys() }
    }

    private mutating func modify(_ purpose: KeyPurpose, _ body: (inout OrderedKeys) -> Void) {
        if purpose == .serialization { body(&serializableKeys) } else { body(&archivedKeys) }
    }
}

/// Keys in registration order without duplicates, with a set beside the
/// list so that registering a key one call at a time checks for it in O(1).
private struct OrderedKeys: Sendable, Hashable {
    private(set) var list: [String] = []
    private var present: Set<String> = []

    mutating func add(_ keys: some Sequence<String>) {
        for key in keys where present.insert(key).inserted { list.append(key) }
    }

    mutating func remove(_ keys: some Sequence<String>) {
        // Only the keys registered, so removing keys one call at a time
        // neither hashes the whole list nor walks it for a key not there.
        var unwanted: [String] = []
        for key in keys where present.remove(key) != nil { unwanted.append(key) }
        switch unwanted.count {
        case 0: return
        case 1: list.remove(at: list.firstIndex(of: unwanted[0])!)
        default:
            let set = Set(unwanted)
            list.removeAll { set.contains($0) }
        }
    }
}

/// Per-part registries of a section or a manager.
internal struct PartKeyRegistry: Sendable, Hashable {
    var common = KeyRegistry()
    var header = KeyRegistry()
    var footer = KeyRegistry()
    var items = KeyRegistry()

    /// Whether no key is registered on any part.
    var isEmpty: Bool { common.isEmpty && header.isEmpty && footer.isEmpty && items.isEmpty }

    subscript(part: SectionPart) -> KeyRegistry {
        get {
            switch part {
            case .common: common
            case .header: header
            case .footer: footer
            case .items: items
            }
        }
        // In place: a copy would copy the registry's lists on every change.
        _modify {
            switch part {
            case .common: yield &common
            case .header: yield &header
            case .footer: yield &footer
            case .items: yield &items
            }
        }
    }

    /// The keys of every part for `purpose`, combined with `inherited`'s
    /// (a manager's, for the sections it holds).
    func keys(for purpose: KeyPurpose, merging inherited: PartKeys? = nil) -> PartKeys {
        var result = PartKeys(
            common: common[purpose], header: header[purpose], footer: footer[purpose], items: items[purpose])
        if let inherited {
            result.common = Self.union(result.common, inherited.common)
            result.header = Self.union(result.header, inherited.header)
            result.footer = Self.union(result.footer, inherited.footer)
            result.items = Self.union(result.items, inherited.items)
        }
        return result
    }

    private static func union(_ a: [String], _ b: [String]) -> [String] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        let inA = Set(a)
        return a + b.filter { !inA.contains($0) }
    }
}

/// The registered keys of each part for one purpose, resolved for writing.
internal struct PartKeys: Sendable {
    var common: [String] = []
    var header: [String] = []
    var footer: [String] = []
    var items: [String] = []

    /// No part registrations: every ViewModel follows its own.
    static let none = PartKeys()

    /// The keys of one part.
    subscript(part: SectionPart) -> [String] {
        switch part {
        case .common: common
        case .header: header
        case .footer: footer
        case .items: items
        }
    }
}

/// The keys of a ViewModel to write, in its key order.
///
/// `registered` are the ViewModel's own registered keys, `partKeys` those of
/// the part holding it. Returns `keys` itself when everything is written.
@inline(__always)
internal func selectKeys(
    _ keys: [String], registered: [String], partKeys: [String], selection: KeySelection
) -> [String] {
    guard selection == .registered, !(registered.isEmpty && partKeys.isEmpty) else { return keys }
    let wanted = Set(registered).union(partKeys)
    return keys.filter { wanted.contains($0) }
}
