import Foundation

// Typed-key forms of the string-key APIs that are not on the subscript:
// weak slots, identity rules and export/archive key registration (adding
// and removing). Each takes `ViewModel.Key`s, so `.title` works wherever
// `"title"` does.

extension ViewModel {
    /// Stores `object` under the typed `key` without retaining it; `nil`
    /// removes the slot. Returns the ViewModel, for chaining.
    ///
    /// `Object` is a class or a class-bound protocol, so a delegate's key
    /// can be typed by its protocol:
    ///
    /// ```swift
    /// protocol CellDelegate: AnyObject { func cellDidTapLike(_ cell: ViewModel) }
    /// extension ViewModel.Key where Value == any CellDelegate {
    ///     static var delegate: Self { "delegate" }
    /// }
    /// viewModel.setWeakObject(controller, for: .delegate)
    /// viewModel.weakObject(for: .delegate)?.cellDidTapLike(viewModel)
    /// ```
    ///
    /// - Precondition: `object` is an instance of a class: a weak slot
    ///   cannot hold a value.
    @discardableResult
    public func setWeakObject<Object>(_ object: Object?, for key: Key<Object>) -> ViewModel {
        guard let object else { return setWeakObject(nil, forKey: key.name) }
        precondition(
            type(of: object as Any) is AnyClass,
            "setWeakObject(_:for:): a weak slot holds an object, not a \(type(of: object as Any)) value (key \"\(key.name)\")")
        return setWeakObject(object as AnyObject, forKey: key.name)
    }

    /// The object in the weak slot of the typed `key`, while it is alive
    /// and an `Object`.
    public func weakObject<Object>(for key: Key<Object>) -> Object? {
        weakObject(forKey: key.name) as? Object
    }

    /// Empties the weak slot of the typed `key`. Returns the ViewModel, for
    /// chaining.
    @discardableResult
    public func removeWeakObject<Object>(for key: Key<Object>) -> ViewModel {
        removeWeakObject(forKey: key.name)
    }

    /// Registers typed keys for JSON export. Returns the ViewModel, for chaining.
    @discardableResult
    public func addSerializableKeys<each Value>(_ keys: repeat Key<each Value>) -> ViewModel {
        addSerializableKeys(Self.names(repeat each keys))
    }

    /// Registers typed keys for archives. Returns the ViewModel, for chaining.
    @discardableResult
    public func addArchivedKeys<each Value>(_ keys: repeat Key<each Value>) -> ViewModel {
        addArchivedKeys(Self.names(repeat each keys))
    }

    /// Unregisters typed keys for JSON export. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeSerializableKeys<each Value>(_ keys: repeat Key<each Value>) -> ViewModel {
        removeSerializableKeys(Self.names(repeat each keys))
    }

    /// Unregisters typed keys for archives. Returns the ViewModel, for chaining.
    @discardableResult
    public func removeArchivedKeys<each Value>(_ keys: repeat Key<each Value>) -> ViewModel {
        removeArchivedKeys(Self.names(repeat each keys))
    }

    /// The names of `keys`, in order.
    internal static func names<each Value>(_ keys: repeat Key<each Value>) -> [String] {
        var names: [String] = []
        for key in repeat each keys { names.append(key.name) }
        return names
    }
}

extension Section {
    /// Registers typed keys for JSON export of `part`'s ViewModels.
    @discardableResult
    public func addSerializableKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Section {
        addSerializableKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Registers typed keys for archives of `part`'s ViewModels.
    @discardableResult
    public func addArchivedKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Section {
        addArchivedKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Unregisters typed keys for JSON export of `part`'s ViewModels.
    @discardableResult
    public func removeSerializableKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Section {
        removeSerializableKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Unregisters typed keys for archives of `part`'s ViewModels.
    @discardableResult
    public func removeArchivedKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Section {
        removeArchivedKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// The items whose value under `key` equals `value`.
    public func items<Value: ViewModelStorable & Equatable>(where key: ViewModel.Key<Value>, equals value: Value) -> [ViewModel] {
        items.filter { $0[key] == value }
    }

    /// The position of the first item whose value under `key` equals
    /// `value`, or `nil`.
    public func firstIndex<Value: ViewModelStorable & Equatable>(where key: ViewModel.Key<Value>, equals value: Value) -> Int? {
        items.firstIndex { $0[key] == value }
    }
}

extension Manager {
    /// Registers typed keys for JSON export of `part`'s ViewModels in every section.
    @discardableResult
    public func addSerializableKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Manager {
        addSerializableKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Registers typed keys for archives of `part`'s ViewModels in every section.
    @discardableResult
    public func addArchivedKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Manager {
        addArchivedKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Unregisters typed keys for JSON export of `part`'s ViewModels in every section.
    @discardableResult
    public func removeSerializableKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Manager {
        removeSerializableKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// Unregisters typed keys for archives of `part`'s ViewModels in every section.
    @discardableResult
    public func removeArchivedKeys<each Value>(_ keys: repeat ViewModel.Key<each Value>, for part: SectionPart) -> Manager {
        removeArchivedKeys(ViewModel.names(repeat each keys), for: part)
    }

    /// The index path of the first item whose value under `key` equals
    /// `value`, or `nil`.
    public func indexPath<Value: ViewModelStorable & Equatable>(where key: ViewModel.Key<Value>, equals value: Value) -> IndexPath? {
        for (s, section) in sections.enumerated() {
            if let i = section.firstIndex(where: key, equals: value) { return IndexPath(item: i, section: s) }
        }
        return nil
    }
}

extension IdentityRule {
    /// Identity is the JSON value stored under the typed `key`.
    public static func key<Value>(_ key: ViewModel.Key<Value>) -> IdentityRule {
        .key(key.name)
    }
}
