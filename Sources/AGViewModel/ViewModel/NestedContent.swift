/// The nested structure the toolkit understands inside a ViewModel: the one
/// place that says which payloads are walked (a ViewModel, an array of
/// them, a section, a manager) and what a section or manager holds. Copy,
/// JSON export and archives all walk through it, so a new kind of nested
/// payload is added here once.
internal enum NestedContent {
    case viewModel(ViewModel)
    case viewModels([ViewModel])
    case section(Section)
    case manager(Manager)

    /// The nested content of `payload`, or `nil` for a payload that is not
    /// walked (an image, a formatter, a URL).
    @inline(__always)
    init?(_ payload: Any) {
        switch payload {
        case let viewModel as ViewModel: self = .viewModel(viewModel)
        case let section as Section: self = .section(section)
        case let manager as Manager: self = .manager(manager)
        default:
            // Not a plain cast: an empty array of any element type casts
            // to `[ViewModel]`, and `[Image]()` must stay what it is.
            guard let list = Self.viewModelList(payload) else { return nil }
            self = .viewModels(list)
        }
    }

    /// The ViewModels of `payload` when it is an array of them: a
    /// `[ViewModel]`, or an array of another element type (`[Any]`) holding
    /// only ViewModels. An empty array of another type is not one, though
    /// every empty array casts to `[ViewModel]`.
    static func viewModelList(_ payload: Any) -> [ViewModel]? {
        guard let list = payload as? [ViewModel] else { return nil }
        return list.isEmpty && type(of: payload) != [ViewModel].self ? nil : list
    }

    /// The content as a stored payload.
    var payload: Any {
        switch self {
        case .viewModel(let viewModel): viewModel
        case .viewModels(let list): list
        case .section(let section): section
        case .manager(let manager): manager
        }
    }

    /// The object's identity, for cycle detection; `nil` for a list, which
    /// is a value (its members are checked one by one).
    var identity: ObjectIdentifier? {
        switch self {
        case .viewModel(let viewModel): ObjectIdentifier(viewModel)
        case .viewModels: nil
        case .section(let section): ObjectIdentifier(section)
        case .manager(let manager): ObjectIdentifier(manager)
        }
    }
}

/// A section-level ViewModel slot, in the order exports and archives write
/// them.
internal enum SectionSlot: String, CaseIterable {
    case header, footer, common, itemMerge

    /// The part whose registered keys apply to this slot.
    var part: SectionPart {
        switch self {
        case .header: .header
        case .footer: .footer
        case .common, .itemMerge: .common
        }
    }
}

extension Section {
    /// The section-level ViewModels, present or not, in ``SectionSlot`` order.
    internal var slotViewModels: [(slot: SectionSlot, viewModel: ViewModel?)] {
        [(.header, header), (.footer, footer), (.common, common), (.itemMerge, itemMerge)]
    }
}

// MARK: Deep copies

extension NestedContent {
    /// A copy of `payload` when it is a non-empty array of sections or of
    /// managers, member by member through `memo`; `nil` otherwise. Typed
    /// storage keeps such arrays as payloads, which exports, archives and
    /// snapshots leave out, but a copy must not share them.
    static func copyOfGroupingList(_ payload: Any, memo: inout CopyMemo) -> Any? {
        if let sections = payload as? [Section], !sections.isEmpty { return sections.map { $0.copy(memo: &memo) } }
        if let managers = payload as? [Manager], !managers.isEmpty { return managers.map { $0.copy(memo: &memo) } }
        return nil
    }
}

/// The copies made so far in one copy run, by original: an object reachable
/// twice (or containing itself) is copied once, keeping the shape.
internal struct CopyMemo {
    /// Each copy with its original, held too: an original freed while the
    /// memo lives (a deep merge replacing it) would leave its identifier
    /// to a new object, which would then pass for it.
    private var copies: [ObjectIdentifier: (original: AnyObject, copy: AnyObject)] = [:]

    func copy<Object: AnyObject>(of original: Object) -> Object? {
        guard let entry = copies[ObjectIdentifier(original)], entry.original === original else { return nil }
        return entry.copy as? Object
    }

    mutating func record<Object: AnyObject>(_ copy: Object, of original: Object) {
        copies[ObjectIdentifier(original)] = (original, copy)
    }
}

extension NestedContent {
    /// An independent copy, through `memo`.
    func deepCopy(memo: inout CopyMemo) -> NestedContent {
        switch self {
        case .viewModel(let viewModel): .viewModel(viewModel.copy(memo: &memo))
        case .viewModels(let list): .viewModels(list.map { $0.copy(memo: &memo) })
        case .section(let section): .section(section.copy(memo: &memo))
        case .manager(let manager): .manager(manager.copy(memo: &memo))
        }
    }
}

extension Section {
    /// An independent section with the same contents: its items, header,
    /// footer, common and item-merge ViewModels copied as
    /// ``ViewModel/copy()`` copies them, its registered keys kept. Changing
    /// one section, or a ViewModel in it, never changes the other. An item
    /// held twice is copied once, and is held twice by the copy too.
    public func copy() -> Section {
        var memo = CopyMemo()
        return copy(memo: &memo)
    }

    internal func copy(memo: inout CopyMemo) -> Section {
        if let done = memo.copy(of: self) { return done }
        let result = Section()
        memo.record(result, of: self)
        result.header = header?.copy(memo: &memo)
        result.footer = footer?.copy(memo: &memo)
        result.common = common?.copy(memo: &memo)
        result.itemMerge = itemMerge?.copy(memo: &memo)
        result.items = items.map { $0.copy(memo: &memo) }
        result.partKeyRegistry = partKeyRegistry
        return result
    }
}

extension Manager {
    /// An independent manager with the same contents: its sections copied
    /// as ``Section/copy()`` copies them, its common ViewModel copied, its
    /// registered keys kept. Changing one manager, or anything in it, never
    /// changes the other. A section or item held twice is copied once.
    public func copy() -> Manager {
        var memo = CopyMemo()
        return copy(memo: &memo)
    }

    internal func copy(memo: inout CopyMemo) -> Manager {
        if let done = memo.copy(of: self) { return done }
        let result = Manager()
        memo.record(result, of: self)
        result.common = common?.copy(memo: &memo)
        result.append(contentsOf: sections.map { $0.copy(memo: &memo) })
        result.partKeyRegistry = partKeyRegistry
        return result
    }
}
