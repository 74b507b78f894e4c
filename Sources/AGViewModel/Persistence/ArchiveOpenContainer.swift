extension ArchiveDecodingState {
    /// A JSON array or object the decoder is reading: the values read so
    /// far and how many are still to come.
    struct OpenContainer {
        let isObject: Bool
        private(set) var remaining: Int
        private var elements: JSONArray
        // An object's members go straight into its storage; the hash index
        // (for large objects) is built once at the end.
        private var members: JSONObject.Members
        private var pendingKey = ""
        // Large objects check duplicates with a set, small ones linearly.
        private let indexed: Bool
        private var seen: Set<String> = []

        /// An array of `count` elements or an object of `count` members,
        /// with room reserved for `reserving`.
        init(isObject: Bool, count: Int, reserving: Int) {
            self.isObject = isObject
            remaining = count
            elements = isObject ? JSONArray() : JSONArray(minimumCapacity: reserving)
            members = isObject ? JSONObject.Members(minimumCapacity: reserving) : []
            indexed = isObject && count >= JSONObject.indexThreshold
            if indexed { seen.reserveCapacity(reserving) }
        }

        /// Sets the key of the object's next member; `false` when the object
        /// already has it.
        mutating func insertKey(_ key: String) -> Bool {
            if indexed {
                guard seen.insert(key).inserted else { return false }
            } else {
                for position in 0 ..< members.count where members[position].key == key { return false }
            }
            pendingKey = key
            return true
        }

        /// Adds the next element, or the value of the member whose key was
        /// set last.
        mutating func append(_ value: JSONValue) {
            if isObject {
                members.append(JSONObject.Member(key: pendingKey, value: value))
            } else {
                elements.append(value)
            }
            remaining -= 1
        }

        /// The container, once complete.
        consuming func finish() -> JSONValue {
            guard isObject else { return .array(elements) }
            var object = JSONObject(members: members, index: nil)
            if indexed { object.rebuildIndex() }
            return .object(object)
        }
    }
}
