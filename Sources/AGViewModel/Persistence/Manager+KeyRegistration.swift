/// Registering, per part, the keys the ViewModels of a manager write to JSON
/// exports ("serializable") and to archives ("archived").
///
/// ```swift
/// manager.addSerializableKeys(["title"], for: .header)
/// manager.addSerializableKeys(["id", "text"], for: .items)
/// manager.serializableKeys(for: .items)          // ["id", "text"]
/// ```
///
/// A ViewModel in a part writes the keys registered on it or on its part
/// (and, inside a manager, on the manager's part); one with no registered
/// key at all writes every key (see ``KeySelection``).
///
/// A manager's part applies to that part of every section it holds;
/// ``SectionPart/common`` also covers the manager's own common ViewModel.
/// Archives keep a manager's registrations, as they keep a ViewModel's.
extension Manager {
    /// The keys registered for JSON export on `part`, in registration order.
    public func serializableKeys(for part: SectionPart) -> [String] {
        partKeyRegistry[part].serializable
    }

    /// The keys registered for archives on `part`, in registration order.
    public func archivedKeys(for part: SectionPart) -> [String] {
        partKeyRegistry[part].archived
    }

    /// Registers `keys` for JSON export on `part`. Returns the manager, for chaining.
    @discardableResult
    public func addSerializableKeys(_ keys: some Sequence<String>, for part: SectionPart) -> Manager {
        partKeyRegistry[part].add(keys, for: .serialization)
        return self
    }

    /// Unregisters `keys` for JSON export on `part`. Returns the manager, for chaining.
    @discardableResult
    public func removeSerializableKeys(_ keys: some Sequence<String>, for part: SectionPart) -> Manager {
        partKeyRegistry[part].remove(keys, for: .serialization)
        return self
    }

    /// Unregisters every key for JSON export on `part`, or on every part
    /// when `part` is `nil`. Returns the manager, for chaining.
    @discardableResult
    public func removeAllSerializableKeys(for part: SectionPart? = nil) -> Manager {
        do {
            for each in part.map({ [$0] }) ?? SectionPart.allCases { partKeyRegistry[each].removeAll(for: .serialization) }
        }
        return self
    }

    /// Registers `keys` for archives on `part`. Returns the manager, for chaining.
    @discardableResult
    public func addArchivedKeys(_ keys: some Sequence<String>, for part: SectionPart) -> Manager {
        partKeyRegistry[part].add(keys, for: .archiving)
        return self
    }

    /// Unregisters `keys` for archives on `part`. Returns the manager, for chaining.
    @discardableResult
    public func removeArchivedKeys(_ keys: some Sequence<String>, for part: SectionPart) -> Manager {
        partKeyRegistry[part].remove(keys, for: .archiving)
        return self
    }

    /// Unregisters every key for archives on `part`, or on every part when
    /// `part` is `nil`. Returns the manager, for chaining.
    @discardableResult
    public func removeAllArchivedKeys(for part: SectionPart? = nil) -> Manager {
        do {
            for each in part.map({ [$0] }) ?? SectionPart.allCases { partKeyRegistry[each].removeAll(for: .archiving) }
        }
        return self
    }
}

extension Manager {
    /// Registers the keys named for JSON export: `addSerializableKeys("id", "title", for: .items)`.
    @discardableResult
    public func addSerializableKeys(_ keys: String..., for part: SectionPart) -> Manager {
        addSerializableKeys(keys, for: part)
    }

    /// Unregisters the keys named for JSON export.
    @discardableResult
    public func removeSerializableKeys(_ keys: String..., for part: SectionPart) -> Manager {
        removeSerializableKeys(keys, for: part)
    }

    /// Registers the keys named for archives: `addArchivedKeys("id", "title", for: .items)`.
    @discardableResult
    public func addArchivedKeys(_ keys: String..., for part: SectionPart) -> Manager {
        addArchivedKeys(keys, for: part)
    }

    /// Unregisters the keys named for archives.
    @discardableResult
    public func removeArchivedKeys(_ keys: String..., for part: SectionPart) -> Manager {
        removeArchivedKeys(keys, for: part)
    }
}
