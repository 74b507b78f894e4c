/// Changing values in place: array edits, setting and removing by path.
///
/// Every mutation works on the value's own storage when nothing else shares
/// it, so editing a large document costs what the edit costs, not a copy.
///
/// One rule for all of them: a mutation that needs a container makes it.
/// Appending to `null` starts an array; setting a key on a value that is not
/// an object turns it into one; setting by path creates the missing objects
/// (for keys) and arrays (for indices, padded with `null`) on the way. A
/// value of another kind in the way is replaced. Reading never changes
/// anything, and removing never creates anything.
extension JSONValue {
    /// Appends `element` to an array; a value that is not an array becomes
    /// `[element]`.
    public mutating func append(_ element: JSONValue) {
        withArray { $0.append(element) }
    }

    /// Appends `elements` to an array; a value that is not an array becomes
    /// an array of them.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == JSONValue {
        withArray { $0.append(contentsOf: elements) }
    }

    /// Inserts `element` at `index` of an array (as `Array.insert`); past
    /// the end the array is padded with `null` first. A value that is not an
    /// array becomes one. A negative index, or one no array can reach
    /// (``JSONArray/maximumCount`` or more), is ignored.
    public mutating func insert(_ element: JSONValue, at index: Int) {
        guard index >= 0 && index < JSONArray.maximumCount else { return }
        withArray { array in
            while array.count < index { array.append(.null) }
            array.insert(element, at: index)
        }
    }

    /// Removes and returns the element at `index` of an array; `nil` (and no
    /// change) when this is not an array or `index` is out of range.
    @discardableResult
    public mutating func remove(at index: Int) -> JSONValue? {
        guard case .array(var array) = self, array.indices.contains(index) else { return nil }
        self = .null  // drop our reference so `array` mutates in place
        defer { self = .array(array) }
        return array.remove(at: index)
    }

    /// Removes and returns the member `key` of an object; `nil` (and no
    /// change) when this is not an object or has no such member.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard case .object(var object) = self, object.index(forKey: key) != nil else { return nil }
        self = .null
        defer { self = .object(object) }
        return object.removeValue(forKey: key)
    }

    /// Sets `newValue` at `path`, creating the objects and arrays missing
    /// on the way: `json.setValue("Ann", at: "user.names[1]")` on `{}` gives
    /// `{"user":{"names":[null,"Ann"]}}`. The empty path replaces the whole
    /// value. A step that holds another kind of value is replaced by the
    /// container the path needs; a negative index anywhere in the path, or
    /// one no array can reach (``JSONArray/maximumCount`` or more), leaves
    /// the value unchanged.
    public mutating func setValue(_ newValue: JSONValue, at path: JSONPath) {
        // Checked first: containers made for the steps before a negative
        // index (or one no array can reach) would change the value.
        for case .index(let index) in path.components where index < 0 || index >= JSONArray.maximumCount { return }
        Self.set(&self, newValue, path.components[...])
    }

    /// Sets `newValue` at the path written in `path` (same syntax and
    /// meaning as a path literal; see ``JSONPath``).
    public mutating func setValue(_ newValue: JSONValue, at path: String) {
        setValue(newValue, at: JSONPath(stringLiteral: path))
    }

    /// Removes and returns the value at `path` (a member of an object or an
    /// element of an array); `nil`, with no change, when there is none. The
    /// empty path sets the value to `null`.
    @discardableResult
    public mutating func removeValue(at path: JSONPath) -> JSONValue? {
        Self.remove(&self, path.components[...])
    }

    /// Removes and returns the value at the path written in `path`.
    @discardableResult
    public mutating func removeValue(at path: String) -> JSONValue? {
        removeValue(at: JSONPath(stringLiteral: path))
    }

    /// Runs `body` on the elements of this array (a new empty one when this
    /// is not an array) without copying them.
    private mutating func withArray(_ body: (inout JSONArray) -> Void) {
        var array = arrayValue ?? []
        self = .null
        body(&array)
        self = .array(array)
    }

    // Paths are walked with a stack, not one call per step: a path is text
    // of any length, and setting one creates as many levels as it has steps.
    // Each container on the way is taken out of its parent (its slot holds
    // `null` meanwhile), so it is uniquely held and changes in place, then
    // put back on the way up.

    private static func set(_ target: inout JSONValue, _ newValue: JSONValue, _ path: ArraySlice<JSONPath.Component>) {
        var containers: [JSONValue] = []
        var positions: [Int] = []
        containers.reserveCapacity(path.count)
        positions.reserveCapacity(path.count)
        var current = target
        target = .null
        for step in path {
            switch step {
            case .key(let key):
                var object = current.objectValue ?? JSONObject()
                current = .null
                let position: Int
                if let existing = object.index(forKey: key) {
                    position = existing
                } else {
                    object.appendNew(key: key, value: .null)
                    position = object.count - 1
                }
                current = object.exchangeValue(at: position, with: .null)
                containers.append(.object(object))
                positions.append(position)
            case .index(let index):
                var array = current.arrayValue ?? []
                current = .null
                if index >= array.count {
                    // Growing by at least doubling, as appending does: setting
                    // one index past the end after another stays linear.
                    if index >= array.storage.capacity {
                        array.reserveCapacity(Swift.max(index + 1, array.count * 2))
                    }
                    while array.count <= index { array.append(.null) }
                }
                current = array.exchangeElement(at: index, with: .null)
                containers.append(.array(array))
                positions.append(index)
            }
        }
        current = newValue
        putBack(&current, into: &containers, at: &positions)
        target = current
    }

    private static func remove(_ target: inout JSONValue, _ path: ArraySlice<JSONPath.Component>) -> JSONValue? {
        guard !path.isEmpty else {
            defer { target = .null }
            return target
        }
        // Where each step leads, read first: a path that leads nowhere
        // changes nothing.
        var positions: [Int] = []
        positions.reserveCapacity(path.count)
        do {
            var cursor = target
            for step in path {
                if !positions.isEmpty { cursor = cursor.child(at: positions.last!) }
                guard let position = position(of: step, in: cursor) else { return nil }
                positions.append(position)
            }
        }
        var containers: [JSONValue] = []
        containers.reserveCapacity(path.count)
        var current = target
        target = .null
        for position in positions.dropLast() {
            let child = current.exchangeChild(at: position, with: .null)
            containers.append(current)
            current = child
        }
        let removed = current.removeChild(at: positions.removeLast())
        putBack(&current, into: &containers, at: &positions)
        target = current
        return removed
    }

    /// Puts `current` back into the last of `containers` at the last of
    /// `positions`, and so on up to the first, which ends in `current`.
    private static func putBack(_ current: inout JSONValue, into containers: inout [JSONValue], at positions: inout [Int]) {
        while var container = containers.popLast() {
            _ = container.exchangeChild(at: positions.removeLast(), with: current)
            current = container
        }
    }

    /// The position `step` names in `value`: a member's position in an
    /// object or an index in range of an array; `nil` otherwise.
    private static func position(of step: JSONPath.Component, in value: JSONValue) -> Int? {
        switch (step, value) {
        case (.key(let key), .object(let object)): return object.index(forKey: key)
        case (.index(let index), .array(let array)): return array.indices.contains(index) ? index : nil
        default: return nil
        }
    }

    /// The member or element at `position` of this object or array.
    private func child(at position: Int) -> JSONValue {
        switch self {
        case .object(let object): return object[position].value
        case .array(let array): return array[position]
        default: preconditionFailure("not a container")
        }
    }

    /// Replaces the member or element at `position` of this object or
    /// array with `value`, in place, and returns the one it held.
    // `if case` rather than `switch self`: a switch can hold its subject for
    // the whole case, a second reference that makes the container copy.
    private mutating func exchangeChild(at position: Int, with value: JSONValue) -> JSONValue {
        if case .object(var object) = self {
            self = .null
            defer { self = .object(object) }
            return object.exchangeValue(at: position, with: value)
        }
        guard case .array(var array) = self else { preconditionFailure("not a container") }
        self = .null
        defer { self = .array(array) }
        return array.exchangeElement(at: position, with: value)
    }

    /// Removes the member or element at `position` of this object or
    /// array, in place, and returns it.
    private mutating func removeChild(at position: Int) -> JSONValue {
        if case .object(var object) = self {
            self = .null
            defer { self = .object(object) }
            return object.removeValue(forKey: object[position].key)!
        }
        guard case .array(var array) = self else { preconditionFailure("not a container") }
        self = .null
        defer { self = .array(array) }
        return array.remove(at: position)
    }
}
