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
    /// array becomes one. A negative index is ignored.
    public mutating func insert(_ element: JSONValue, at index: Int) {
        guard index >= 0 else { return }
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
    /// container the path needs; a negative index anywhere in the path
    /// leaves the value unchanged.
    public mutating func setValue(_ newValue: JSONValue, at path: JSONPath) {
        // Checked first: containers made for the steps before a negative
        // index would change the value.
        for case .index(let index) in path.components where index < 0 { return }
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

    private static func set(_ target: inout JSONValue, _ newValue: JSONValue, _ rest: ArraySlice<JSONPath.Component>) {
        guard let first = rest.first else {
            target = newValue
            return
        }
        let tail = rest.dropFirst()
        switch first {
        case .key(let key):
            var object = target.objectValue ?? JSONObject()
            target = .null
            if tail.isEmpty {
                object[key] = newValue
            } else {
                set(&object[key, default: .null], newValue, tail)
            }
            target = .object(object)
        case .index(let index):
            guard index >= 0 else { return }
            var array = target.arrayValue ?? []
            target = .null
            defer { target = .array(array) }
            if index >= array.count {
                array.reserveCapacity(index + 1)
                while array.count <= index { array.append(.null) }
            }
            set(&array[index], newValue, tail)
        }
    }

    private static func remove(_ target: inout JSONValue, _ rest: ArraySlice<JSONPath.Component>) -> JSONValue? {
        guard let first = rest.first else {
            defer { target = .null }
            return target
        }
        let tail = rest.dropFirst()
        switch (first, target) {
        case (.key(let key), .object(var object)):
            guard object.index(forKey: key) != nil else { return nil }
            target = .null
            defer { target = .object(object) }
            if tail.isEmpty { return object.removeValue(forKey: key) }
            return remove(&object[key, default: .null], tail)
        case (.index(let index), .array(var array)):
            guard array.indices.contains(index) else { return nil }
            target = .null
            defer { target = .array(array) }
            if tail.isEmpty { return array.remove(at: index) }
            return remove(&array[index], tail)
        default:
            return nil
        }
    }
}
