extension ViewModel {
    // Built on the public store API only (`self[value:]`, `self[key]`), so
    // every changed key goes through the single write path and is reported.

    /// Deep-merges the members of `object` into the stored values, by the
    /// policy of ``JSONValue/merge(_:)``: a JSON object stored under a key
    /// merges recursively with an object in `object`; a nested ViewModel
    /// stored as a payload takes an object's members the same way; any
    /// other value replaces what is stored. Key observers hear of it once
    /// it is complete (nested ViewModels' observers once their part is).
    /// Returns the ViewModel, for chaining.
    ///
    /// A ViewModel stored under one of its own keys is not merged into:
    /// that would spread the object's members over the outer keys. The
    /// object replaces the self-reference, as it replaces other payloads.
    ///
    /// ```swift
    /// let vm = ViewModel(["user": ["name": "Ann", "age": 30]])
    /// vm.deepMerge(["user": ["age": 31]])   // user: {"name":"Ann","age":31}
    /// ```
    @discardableResult
    public func deepMerge(_ object: JSONObject) -> ViewModel {
        asOneUpdate {
            for (key, value) in object { deepMerge(value, forKey: key) }
        }
        return self
    }

    /// Deep-merges the values of `other` into this ViewModel: JSON values
    /// as in ``deepMerge(_:)-(JSONObject)``; nested ViewModels recursively
    /// into a stored ViewModel or JSON object (which becomes a ViewModel
    /// holding both), else stored as a copy (see ``copy()``), as are arrays
    /// of ViewModels, sections and managers (a section or manager this
    /// ViewModel already holds under the key stays as it is), so changing
    /// the result never changes `other`; other payloads replace what is
    /// stored. Returns the ViewModel.
    ///
    /// The copies keep `other`'s shape, as ``copy()`` does: what `other`
    /// holds in several places (under two keys, in a list and in a
    /// section) is stored as one copy wherever this ViewModel takes it
    /// whole.
    ///
    /// `other` is merged as it was when the call began: when this ViewModel,
    /// or one the merge writes into, is nested in `other` (merging a parent
    /// into its child), the merge reads a copy of `other` taken first, so
    /// the result does not depend on the order of its keys. Each pair of
    /// ViewModels is merged once, and a copy the merge stored counts as
    /// merged with the ViewModel it copies; so nested ViewModels that refer
    /// back to their parents (a cycle, as ``copy()`` allows) end, and a
    /// value another part of `other` merged into a stored copy stays. A
    /// ViewModel stored under one of its own keys is not merged into, as
    /// with a JSON object.
    @discardableResult
    public func deepMerge(_ other: ViewModel) -> ViewModel {
        guard other !== self else { return self }
        // Reading `other` while writing into a ViewModel nested in it would
        // read some of its values after the merge changed them.
        var source = other
        var state = MergeState()
        // Only nested content and JSON objects write into stored ViewModels.
        let values = other.storage.values
        let holdsNestedContent = values.contains(where: \.value.isNestedContent)
        if holdsNestedContent || values.contains(where: \.value.isJSONObject) {
            let nestedInOther = holdsNestedContent ? other.reachableViewModels() : [ObjectIdentifier(other)]
            var planned: Set<MergePair> = []
            if writesInto(nestedInOther, mergingFrom: other, planned: &planned) {
                var snapshot = CopyMemo()
                source = other.copy(memo: &snapshot)
                state.snapshot = snapshot
            }
        }
        deepMerge(source, state: &state)
        return self
    }

    /// What one call of ``deepMerge(_:)-(ViewModel)`` has done so far.
    private struct MergeState {
        /// The pairs merged, or being merged further up.
        var merged: Set<MergePair> = []
        /// One copy of each ViewModel, section and manager of the source
        /// the merge stored: one the source holds twice is stored as one
        /// copy, as ``copy()`` keeps it, and a cycle is copied once. As the
        /// source does not change while the merge reads it, the merge runs
        /// out of new pairs.
        var copies = CopyMemo()
        /// When the source is a copy of `other` taken first: the copy of
        /// each of `other`'s objects.
        var snapshot: CopyMemo?

        /// Whether `stored` is `incoming`, or what `incoming` was copied
        /// from when the source is a copy.
        func isSame<Object: AnyObject>(_ stored: Object, as incoming: Object) -> Bool {
            stored === incoming || snapshot?.copy(of: stored) === incoming
        }
    }

    /// A ViewModel and the one being merged into it, compared by identity.
    /// The pair holds both: a ViewModel the merge replaces can be freed,
    /// and a new one made at its address must not count as merged. (So
    /// what the merge replaced is freed when the call returns.)
    private struct MergePair: Hashable {
        let target: ViewModel
        let incoming: ViewModel

        static func == (left: MergePair, right: MergePair) -> Bool {
            left.target === right.target && left.incoming === right.incoming
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(target))
            hasher.combine(ObjectIdentifier(incoming))
        }
    }

    /// The ViewModels reachable from this one through nested ViewModels,
    /// lists, sections and managers, itself included.
    private func reachableViewModels() -> Set<ObjectIdentifier> {
        var seen: Set<ObjectIdentifier> = []
        var pending: [NestedContent] = [.viewModel(self)]
        while let content = pending.popLast() {
            if let identity = content.identity, !seen.insert(identity).inserted { continue }
            switch content {
            case .viewModel(let viewModel):
                // The store itself: a walk, not a read to track.
                for case .payload(let payload) in viewModel.storage.values.lazy.map(\.value) {
                    if let nested = NestedContent(payload) { pending.append(nested) }
                }
            case .viewModels(let list):
                pending.append(contentsOf: list.map(NestedContent.viewModel))
            case .section(let section):
                pending.append(contentsOf: section.slotViewModels.compactMap { $0.viewModel.map(NestedContent.viewModel) })
                pending.append(contentsOf: section.items.map(NestedContent.viewModel))
            case .manager(let manager):
                if let common = manager.common { pending.append(.viewModel(common)) }
                pending.append(contentsOf: manager.sections.map(NestedContent.section))
            }
        }
        return seen
    }

    /// Whether merging `other` would write into one of `viewModels`: this
    /// ViewModel, or one stored in it that a nested ViewModel or a JSON
    /// object of `other` merges into, recursively, as
    /// ``deepMerge(_:state:)`` walks them.
    private func writesInto(
        _ viewModels: Set<ObjectIdentifier>, mergingFrom other: ViewModel, planned: inout Set<MergePair>
    ) -> Bool {
        if viewModels.contains(ObjectIdentifier(self)) { return true }
        guard planned.insert(MergePair(target: self, incoming: other)).inserted
        else { return false }
        for (key, entry) in other.storage {
            guard case .payload(let stored as ViewModel)? = storage[key]?.value, stored !== self else { continue }
            switch entry.value {
            case .payload(let payload):
                guard let incoming = payload as? ViewModel, stored !== incoming else { continue }
                if stored.writesInto(viewModels, mergingFrom: incoming, planned: &planned) { return true }
            case .json(.object(let members)):
                if stored.writesInto(viewModels, mergingObject: members) { return true }
            case .json:
                continue
            }
        }
        return false
    }

    /// Whether deep-merging the JSON object `members` would write into one
    /// of `viewModels`, as ``deepMerge(_:)-(JSONObject)`` walks them.
    private func writesInto(_ viewModels: Set<ObjectIdentifier>, mergingObject members: JSONObject) -> Bool {
        if viewModels.contains(ObjectIdentifier(self)) { return true }
        for (key, value) in members {
            guard case .object(let inner) = value,
                  case .payload(let stored as ViewModel)? = storage[key]?.value, stored !== self
            else { continue }
            if stored.writesInto(viewModels, mergingObject: inner) { return true }
        }
        return false
    }

    /// ``deepMerge(_:)-(ViewModel)``, skipping pairs already merged or
    /// being merged further up.
    private func deepMerge(_ other: ViewModel, state: inout MergeState) {
        guard other !== self,
              state.merged.insert(MergePair(target: self, incoming: other)).inserted
        else { return }
        // Each ViewModel written into is one update for its own key
        // observers, nested ones included (as `deepMerge(_:)-(JSONObject)`).
        asOneUpdate { deepMergeMembers(of: other, state: &state) }
    }

    private func deepMergeMembers(of other: ViewModel, state: inout MergeState) {
        for key in other.keys {
            switch other[value: key] {
            case .json(let value)?:
                deepMerge(value, forKey: key)
            case .payload(let payload)?:
                guard let incoming = payload as? ViewModel else {
                    // Arrays of ViewModels, sections and managers are
                    // copied as nested ViewModels are; the very section or
                    // manager stored already stays, unchanged.
                    switch (NestedContent(payload), self[value: key]) {
                    case (.section(let section)?, .payload(let stored as Section)?) where state.isSame(stored, as: section):
                        continue
                    case (.manager(let manager)?, .payload(let stored as Manager)?) where state.isSame(stored, as: manager):
                        continue
                    case (let content?, _):
                        self[value: key] = .payload(content.deepCopy(memo: &state.copies).payload)
                    case (nil, _):
                        // Lists of sections or managers are copied as `copy()` copies them.
                        self[value: key] = .payload(NestedContent.copyOfGroupingList(payload, memo: &state.copies) ?? payload)
                    }
                    continue
                }
                switch self[value: key] {
                case .payload(let stored as ViewModel)? where stored !== self:
                    // Its copy, stored by this merge, is merged with it
                    // already: another part of `other` may have merged
                    // into the copy since, and that stays.
                    if !state.isSame(stored, as: incoming), state.copies.copy(of: incoming) !== stored {
                        stored.deepMerge(incoming, state: &state)
                        markCommandsDepending(on: key)
                    }
                case .json(.object(let members))?:
                    // An object merges with a ViewModel key by key, as a
                    // ViewModel does with an object; the result keeps the
                    // incoming payloads, so it is a ViewModel.
                    let nested = ViewModel(members)
                    nested.deepMerge(incoming, state: &state)
                    self[value: key] = .payload(nested)
                default:
                    // A copy: merging into this ViewModel later must not
                    // change `other`.
                    self[value: key] = .payload(incoming.copy(memo: &state.copies))
                }
            case nil:
                break
            }
        }
    }

    /// Sets `value` at `path`: the first step is a key of this ViewModel,
    /// the rest walks into the JSON stored there, creating missing
    /// containers as ``JSONValue/setValue(_:at:)-(JSONValue,JSONPath)``
    /// does, or into a nested ViewModel (`"author.name"`) or an element of
    /// an array of ViewModels (`"replies[0].text"`), as ``lookup(_:)``
    /// reads them.
    ///
    /// Changes nothing when the path does not start with a key, has a
    /// negative index or one no array can reach (``JSONArray/maximumCount``
    /// or more), or goes into a payload that is not JSON past what
    /// can be walked: into an image or a formatter, onto an element of an
    /// array of ViewModels as a whole, or past its end. (A one-key path
    /// replaces whatever is stored under the key, as `self[key] = value`.)
    ///
    /// Writing into a nested ViewModel, or one in a list, leaves the same
    /// ViewModel stored under the key: the key's observers are not told
    /// (the nested ViewModel's are), but this ViewModel's commands that
    /// depend on the key are marked, as by ``removeValue(at:)-(JSONPath)``
    /// and the deep merges.
    ///
    /// JSON is edited where it is stored, so an edit costs what it changes,
    /// not the size of the value under the key (setting a member of each
    /// element of a long array stays linear), unless key observers, an open
    /// batch or commands depending on keys need the old value: then the
    /// value is copied, as `self[key]` would copy it.
    public func setValue(_ value: JSONValue, at path: JSONPath) {
        guard case .key(let key)? = path.components.first else { return }
        for case .index(let index) in path.components where index < 0 || index >= JSONArray.maximumCount { return }
        let rest = JSONPath(Array(path.components.dropFirst()))
        if rest.components.isEmpty {
            self[key] = value
            return
        }
        // JSON is edited where it is stored when only Observation hears of
        // it: a copy per edit would make a loop over a large array quadratic.
        let isChange = { (json: JSONValue) in json.value(at: rest).map { !$0.hasSameRepresentation(as: value) } ?? true }
        let edit = { (json: inout JSONValue) in json.setValue(value, at: rest) }
        if editJSONInPlace(forKey: key, isChange: isChange, edit: edit) { return }
        switch self[value: key] {
        case .payload(let payload)?:
            // The same object, changed inside: the commands depending on
            // the key (or a path in it) are stale.
            if let nested = payload as? ViewModel, case .key? = rest.components.first {
                nested.setValue(value, at: rest)
                markCommandsDepending(on: key)
            } else if let list = NestedContent.viewModelList(payload), rest.components.count > 1,
                      case .index(let index) = rest.components[0], list.indices.contains(index) {
                list[index].setValue(value, at: JSONPath(Array(rest.components.dropFirst())))
                markCommandsDepending(on: key)
            }
        case .json(var json)?:
            json.setValue(value, at: rest)
            self[key] = json
        case nil:
            var json = JSONValue.null
            json.setValue(value, at: rest)
            self[key] = json
        }
    }

    /// Sets `value` at the path written in `path` (see ``JSONPath``).
    public func setValue(_ value: JSONValue, at path: String) {
        setValue(value, at: JSONPath(path))
    }

    /// Removes and returns the value at `path`, walked as ``setValue(_:at:)``
    /// walks it: a one-key path removes the key (JSON or payload), a longer
    /// one removes a member or element of the JSON stored there, or goes
    /// into a nested ViewModel or an element of an array of ViewModels.
    /// Returns `nil`, and changes nothing, when nothing is at `path`.
    @discardableResult
    public func removeValue(at path: JSONPath) -> ViewModelValue? {
        guard case .key(let key)? = path.components.first else { return nil }
        let rest = JSONPath(Array(path.components.dropFirst()))
        if rest.components.isEmpty { return removeValue(forKey: key) }
        var removed: JSONValue?
        let edit = { (json: inout JSONValue) in removed = json.removeValue(at: rest) }
        if editJSONInPlace(forKey: key, isChange: { $0.value(at: rest) != nil }, edit: edit) {
            return removed.map(ViewModelValue.json)
        }
        switch self[value: key] {
        case .payload(let payload)?:
            var removed: ViewModelValue?
            if let nested = payload as? ViewModel {
                removed = nested.removeValue(at: rest)
            } else if let list = NestedContent.viewModelList(payload), rest.components.count > 1,
                      case .index(let index) = rest.components[0], list.indices.contains(index) {
                removed = list[index].removeValue(at: JSONPath(Array(rest.components.dropFirst())))
            }
            // Changed inside, as in `setValue(_:at:)`.
            if removed != nil { markCommandsDepending(on: key) }
            return removed
        case .json(var json)?:
            guard let removed = json.removeValue(at: rest) else { return nil }
            self[key] = json
            return .json(removed)
        case nil:
            return nil
        }
    }

    /// Removes and returns the value at the path written in `path` (see
    /// ``JSONPath``).
    @discardableResult
    public func removeValue(at path: String) -> ViewModelValue? {
        removeValue(at: JSONPath(path))
    }

    private func deepMerge(_ value: JSONValue, forKey key: String) {
        switch (self[value: key], value) {
        case (.json(let stored)?, .object):
            self[key] = stored.merging(value)
        case (.payload(let payload)?, .object(let members)):
            if let nested = payload as? ViewModel, nested !== self {
                nested.deepMerge(members)
                markCommandsDepending(on: key)
            } else {
                self[key] = value
            }
        default:
            self[key] = value
        }
    }
}

extension ViewModelValue {
    /// Whether this is a nested ViewModel, an array of them, a section or a
    /// manager.
    fileprivate var isNestedContent: Bool {
        if case .payload(let payload) = self { NestedContent(payload) != nil } else { false }
    }

    /// Whether this is a JSON object.
    fileprivate var isJSONObject: Bool {
        if case .json(.object) = self { true } else { false }
    }
}
