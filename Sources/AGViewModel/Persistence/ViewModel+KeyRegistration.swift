/// Registering the keys a ViewModel writes to JSON exports ("serializable"
/// keys) and to archives ("archived" keys). See ``KeySelection`` for the
/// rule: an unregistered ViewModel writes every key; once keys are
/// registered, only those are written.
///
/// ```swift
/// status.addSerializableKeys(["id", "text"])      // the API round trip needs these
/// status.addArchivedKeys(["id", "text", "likes"]) // the offline cache keeps more
/// ```
///
/// Registrations are copied by ``copy()`` and belong to the ViewModel's
/// isolation domain like its values. Archives keep them (both lists), so a
/// ViewModel read back writes what it wrote before; JSON exports do not.
extension ViewModel {
    /// The keys registered for JSON export, in registration order.
    public var serializableKeys: [String] { keyRegistry.serializable }

    /// The keys registered for archives, in registration order.
    public var archivedKeys: [String] { keyRegistry.archived }

    /// Registers `keys` for JSON export (already registered ones are kept
    /// in place). Returns the ViewModel, for chaining.
    @discardableResult
    public func addSerializableKeys(_ keys: some Sequence<String>) -> ViewModel {
        keyRegistry.add(keys, for: .serialization)
        return self
    }

    /// Unregisters `keys` for JSON export. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeSerializableKeys(_ keys: some Sequence<String>) -> ViewModel {
        keyRegistry.remove(keys, for: .serialization)
        return self
    }

    /// Unregisters every key for JSON export, so every key is exported
    /// again. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeAllSerializableKeys() -> ViewModel {
        keyRegistry.removeAll(for: .serialization)
        return self
    }

    /// Registers `keys` for archives (already registered ones are kept in
    /// place). Returns the ViewModel, for chaining.
    @discardableResult
    public func addArchivedKeys(_ keys: some Sequence<String>) -> ViewModel {
        keyRegistry.add(keys, for: .archiving)
        return self
    }

    /// Unregisters `keys` for archives. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeArchivedKeys(_ keys: some Sequence<String>) -> ViewModel {
        keyRegistry.remove(keys, for: .archiving)
        return self
    }

    /// Unregisters every key for archives, so every key is archived again.
    /// Returns the ViewModel, for chaining.
    @discardableResult
    public func removeAllArchivedKeys() -> ViewModel {
        keyRegistry.removeAll(for: .archiving)
        return self
    }

    /// The keys in order, their values and the registrations, read together.
    internal func archivingSnapshot() -> (keys: [String], values: StoredValues, registry: KeyRegistry) {
        (keyOrder, values, keyRegistry)
    }

    /// The keys in order, their values and the keys registered for
    /// `purpose`, read together.
    internal func persistenceSnapshot(
        for purpose: KeyPurpose
    ) -> (keys: [String], values: StoredValues, registered: [String]) {
        (keyOrder, values, keyRegistry[purpose])
    }
}

extension ViewModel {
    /// Registers the keys named for JSON export: `addSerializableKeys("id", "title")`.
    @discardableResult
    public func addSerializableKeys(_ keys: String...) -> ViewModel {
        addSerializableKeys(keys)
    }

    /// Unregisters the keys named for JSON export.
    @discardableResult
    public func removeSerializableKeys(_ keys: String...) -> ViewModel {
        removeSerializableKeys(keys)
    }

    /// Registers the keys named for archives: `addArchivedKeys("id", "title")`.
    @discardableResult
    public func addArchivedKeys(_ keys: String...) -> ViewModel {
        addArchivedKeys(keys)
    }

    /// Unregisters the keys named for archives.
    @discardableResult
    public func removeArchivedKeys(_ keys: String...) -> ViewModel {
        removeArchivedKeys(keys)
    }
}
