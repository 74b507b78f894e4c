extension PackagingSpec {
    /// How a spec takes items from the value at its items path, beyond an
    /// array of objects:
    ///
    /// - `keyedBy` (a key): the value may be an object whose members are the
    ///   items, in document order, as in catalogues and lookup tables
    ///   (`{"138586341": {...}, "138586345": {...}}`); each member's name is
    ///   available to fields under this key (`{"key": "id", "path": "id", ...}`),
    ///   and replaces a member of the same name in the element.
    /// - `scalarKey` (a key): elements that are strings, numbers or booleans
    ///   are packaged as an object with that one member instead of being
    ///   skipped (`["swift", "ios"]` with `"scalarKey": "tag"`).
    public struct ItemSource: Sendable, Hashable {
        /// The key the member name of an object's members is stored under;
        /// `nil` when the items must be an array.
        public let memberNameKey: String?
        /// The key a scalar element is stored under; `nil` to skip scalars.
        public let scalarKey: String?

        /// Items from an array of objects only.
        public static let arrayOfObjects = ItemSource(memberNameKey: nil, scalarKey: nil)

        /// A source taking members of objects and/or scalars as described above.
        public init(memberNameKey: String?, scalarKey: String?) {
            self.memberNameKey = memberNameKey
            self.scalarKey = scalarKey
        }

        /// Reads `keyedBy` and `scalarKey` from a spec or section entry.
        init(parsing object: JSONObject, fail: (String) -> PackagingSpecError) throws(PackagingSpecError) {
            func key(_ member: String) throws(PackagingSpecError) -> String? {
                switch object[member] {
                case nil: return nil
                case .string(let text)? where !text.isEmpty: return text
                case .string?: throw fail("\"\(member)\" is empty; give the key to store under")
                case let other?: throw fail("\"\(member)\" must be a key string, found \(other.kind.rawValue)")
                }
            }
            let memberNameKey = try key("keyedBy"), scalarKey = try key("scalarKey")
            // The member name would replace the scalar stored under the same
            // key: every scalar member's value would be lost.
            if let memberNameKey, memberNameKey == scalarKey {
                throw fail("\"keyedBy\" and \"scalarKey\" both name the key \"\(memberNameKey)\"; "
                    + "a scalar member's value would be replaced by its name: give them different keys")
            }
            self.init(memberNameKey: memberNameKey, scalarKey: scalarKey)
        }

        /// The elements of `value` to package: an array's elements, or with
        /// ``memberNameKey`` an object's members (each an object with its
        /// name added), scalars wrapped under ``scalarKey``. `nil` when
        /// `value` cannot hold items.
        public func elements(of value: JSONValue) -> JSONArray? {
            switch value {
            case .array(let array):
                guard scalarKey != nil else { return array }
                return JSONArray(array.lazy.map(wrapped))
            case .object(let object):
                guard let nameKey = memberNameKey else { return nil }
                return JSONArray(object.lazy.map { member -> JSONValue in
                    var element: JSONObject
                    switch wrapped(member.value) {
                    case .object(let inner): element = inner
                    default: return member.value  // skipped and reported as not an object
                    }
                    var named = JSONObject(minimumCapacity: element.count + 1)
                    named[nameKey] = .string(member.key)
                    for (key, inner) in element where key != nameKey { named[key] = inner }
                    element = named
                    return .object(element)
                })
            default:
                return nil
            }
        }

        /// What the items value must be, for messages.
        var expectedItemsDescription: String {
            memberNameKey != nil ? "an array or an object" : [JSONValue].expectedDescription
        }

        /// `element`, or with ``scalarKey`` a scalar wrapped under it.
        internal func wrapped(_ element: JSONValue) -> JSONValue {
            guard let scalarKey else { return element }
            switch element {
            case .string, .int, .double, .bigInteger, .bool: return .object([scalarKey: element])
            default: return element
            }
        }
    }
}
