extension ViewModel {
    /// The JSON contents as an object, in key order: nested ViewModels (and
    /// arrays of them) become nested objects, other payloads are left out.
    /// A ViewModel that contains itself is cut off (as `null`) at the
    /// repetition.
    ///
    /// The walk keeps its own stack, so a chain of nested ViewModels of any
    /// depth is read on any thread (the result, JSON, is released without
    /// recursion too).
    internal func jsonSnapshot() -> JSONObject {
        var visiting: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var stack = [SnapshotFrame(self)]
        while true {
            if let child = stack[stack.count - 1].nextChild(visiting: visiting) {
                if let viewModel = child.viewModel { visiting.insert(ObjectIdentifier(viewModel)) }
                stack.append(child)
                continue
            }
            let finished = stack.removeLast()
            if let viewModel = finished.viewModel { visiting.remove(ObjectIdentifier(viewModel)) }
            guard !stack.isEmpty else { return finished.object }
            stack[stack.count - 1].take(finished.result)
        }
    }

    /// One ViewModel, or one array of ViewModels, being read by
    /// ``jsonSnapshot()``: its JSON so far and where it is.
    private struct SnapshotFrame {
        /// `nil` for an array of ViewModels.
        let viewModel: ViewModel?
        let entries: [(key: String, value: ViewModelValue)]
        let list: [ViewModel]
        var next = 0
        var object: JSONObject
        var array: JSONArray

        init(_ viewModel: ViewModel) {
            self.viewModel = viewModel
            entries = viewModel.orderedEntries()
            list = []
            object = JSONObject(minimumCapacity: entries.count)
            array = JSONArray()
        }

        init(list: [ViewModel]) {
            viewModel = nil
            entries = []
            self.list = list
            object = JSONObject()
            array = JSONArray(minimumCapacity: list.count)
        }

        var result: JSONValue { viewModel == nil ? .array(array) : .object(object) }

        /// Adds the next values that need no walk of their own, and returns
        /// the frame of the next nested ViewModel or list; `nil` when the
        /// frame is complete. A child's value comes back through ``take(_:)``.
        mutating func nextChild(visiting: Set<ObjectIdentifier>) -> SnapshotFrame? {
            if viewModel == nil {
                while next < list.count {
                    let element = list[next]
                    guard visiting.contains(ObjectIdentifier(element)) else { return SnapshotFrame(element) }
                    array.append(.null)
                    next += 1
                }
                return nil
            }
            while next < entries.count {
                let (key, value) = entries[next]
                switch value {
                case .json(let json):
                    object[key] = json
                case .payload(let payload):
                    if let nested = payload as? ViewModel {
                        guard visiting.contains(ObjectIdentifier(nested)) else { return SnapshotFrame(nested) }
                        object[key] = .null
                    } else if let nested = NestedContent.viewModelList(payload) {
                        return SnapshotFrame(list: nested)
                    }
                }
                next += 1
            }
            return nil
        }

        /// Stores the value of the child returned by ``nextChild(visiting:)``.
        mutating func take(_ value: JSONValue) {
            if viewModel == nil {
                array.append(value)
            } else {
                object[entries[next].key] = value
            }
            next += 1
        }
    }
}
