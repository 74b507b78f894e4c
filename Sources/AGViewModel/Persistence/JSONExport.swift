import Foundation

// JSON export of ViewModels, sections and managers.
//
// Shapes (absent parts are left out; members appear in this order):
// - ViewModel: an object of its exported keys, in the ViewModel's key order.
// - Section: {"header": {…}, "footer": {…}, "common": {…}, "itemMerge": {…}, "items": [{…}, …]}
//   ("items" is always present).
// - Manager: {"common": {…}, "sections": [section, …]} ("sections" is always present).
// Nested ViewModels, arrays of ViewModels, sections and managers stored as
// payloads export in these shapes; a ViewModel (section, manager) that
// contains itself is left out where it recurs, and so are payloads nested
// more than `JSONExporter.maximumNesting` levels deep.
//
// Export runs in the domain that owns the ViewModels, so it reads a
// consistent state; a background export works on a snapshot's copy.

extension ViewModel {
    /// This ViewModel as a JSON object: its exported keys (see
    /// ``KeySelection``) in key order, nested ViewModels, sections and
    /// managers as nested JSON. The same contents always give the same JSON.
    ///
    /// A payload that contains the ViewModel holding it is left out where
    /// it recurs, and so is what is nested more than 256 levels of
    /// ViewModels, sections and managers deep, so that no chain, however
    /// deep, exhausts the stack of an optimized build (a 512 KB stack holds
    /// about 1,000 levels). A debug build takes about 3 KB per level: there,
    /// exporting more than about 150 levels needs more than 512 KB (Apple's
    /// default for secondary threads; the main thread has more).
    /// ``JSONExportOptions/skippedPayload`` hears of the payloads left out
    /// (apart from those past the nesting limit).
    ///
    /// Swift Observation tracking that exports hears of any change to this
    /// ViewModel's keys (not of changes inside nested ViewModels).
    public func exportJSON(options: JSONExportOptions = .registered) -> JSONValue {
        trackReadOfEveryKey()
        var exporter = JSONExporter(options: options)
        return .object(exporter.object(of: self, partKeys: []))
    }

    /// ``exportJSON(options:)`` as JSON text.
    public func exportJSONData(
        options: JSONExportOptions = .registered, writer: JSONWriter.Options = JSONWriter.Options()
    ) throws(JSONWriteError) -> Data {
        try exportJSON(options: options).jsonData(options: writer)
    }
}

extension Section {
    /// This section as a JSON object, `{"header": …, "footer": …, "common":
    /// …, "itemMerge": …, "items": […]}`, leaving out absent parts. Keys are
    /// selected per part (see ``KeySelection``). Payloads are left out as
    /// ``ViewModel/exportJSON(options:)`` leaves them out (cycles, and more
    /// than 256 levels).
    public func exportJSON(options: JSONExportOptions = .registered) -> JSONValue {
        var exporter = JSONExporter(options: options)
        return .object(exporter.object(of: self, inherited: nil))
    }

    /// ``exportJSON(options:)`` as JSON text.
    public func exportJSONData(
        options: JSONExportOptions = .registered, writer: JSONWriter.Options = JSONWriter.Options()
    ) throws(JSONWriteError) -> Data {
        try exportJSON(options: options).jsonData(options: writer)
    }
}

extension Manager {
    /// This manager as a JSON object, `{"common": …, "sections": […]}`,
    /// leaving out an absent common ViewModel; each section as
    /// ``Section/exportJSON(options:)`` writes it, with the manager's part
    /// registrations added to the section's. Payloads are left out as
    /// ``ViewModel/exportJSON(options:)`` leaves them out.
    public func exportJSON(options: JSONExportOptions = .registered) -> JSONValue {
        var exporter = JSONExporter(options: options)
        return .object(exporter.object(of: self))
    }

    /// ``exportJSON(options:)`` as JSON text.
    public func exportJSONData(
        options: JSONExportOptions = .registered, writer: JSONWriter.Options = JSONWriter.Options()
    ) throws(JSONWriteError) -> Data {
        try exportJSON(options: options).jsonData(options: writer)
    }
}

/// One export run: the options, the objects on the current path (to
/// leave out cycles) and, when skipped payloads are reported, that path.
internal struct JSONExporter {
    /// The most ViewModels, sections and managers an export nests: well
    /// below where the walk, a few calls per level, runs out of a 512 KB
    /// stack (about 1,000 levels in release builds on Linux).
    static let maximumNesting = 256

    let options: JSONExportOptions
    private var visiting: Set<ObjectIdentifier> = []
    /// Where the walk is in the exported JSON; kept only when skipped
    /// payloads are reported.
    private var path: [JSONPath.Component] = []
    private let reportsSkips: Bool

    init(options: JSONExportOptions) {
        self.options = options
        reportsSkips = options.skippedPayload != nil
    }

    /// Enters `component` of the exported JSON for `body`.
    private mutating func at<Result>(_ component: JSONPath.Component, _ body: (inout JSONExporter) -> Result) -> Result {
        guard reportsSkips else { return body(&self) }
        path.append(component)
        defer { path.removeLast() }
        return body(&self)
    }

    /// Reports a payload left out at `component` of the current path.
    private func skip(_ component: JSONPath.Component, _ reason: SkippedPayload.Reason) {
        options.skippedPayload?(SkippedPayload(path: JSONPath(path + [component]), reason: reason))
    }

    /// Whether `object` is on the current path, reporting it as a cycle at
    /// `component` when it is.
    private func recurs(_ object: AnyObject, at component: JSONPath.Component) -> Bool {
        recurs(ObjectIdentifier(object), at: component)
    }

    private func recurs(_ identity: ObjectIdentifier, at component: JSONPath.Component) -> Bool {
        guard visiting.contains(identity) else { return false }
        skip(component, .cycle)
        return true
    }

    mutating func object(of viewModel: ViewModel, partKeys: [String]) -> JSONObject {
        visiting.insert(ObjectIdentifier(viewModel))
        defer { visiting.remove(ObjectIdentifier(viewModel)) }
        let (keys, values, registered) = viewModel.persistenceSnapshot(for: .serialization)
        let selected = selectKeys(keys, registered: registered, partKeys: partKeys, selection: options.keys)
        var outKeys: [String] = []
        var outValues: [JSONValue] = []
        outKeys.reserveCapacity(selected.count)
        outValues.reserveCapacity(selected.count)
        for key in selected {
            guard let stored = values[key] else { continue }
            let value: JSONValue
            switch stored {
            case .json(let json): value = json
            case .payload(let payload):
                guard let json = export(payload, key: key) else { continue }
                value = json
            }
            outKeys.append(key)
            outValues.append(value)
        }
        guard !options.keyExchange.isEmpty else {
            // ViewModel keys are unique: no duplicate check needed.
            return JSONObject(uniqueKeys: outKeys, values: outValues)
        }
        var object = JSONObject(minimumCapacity: outKeys.count)
        for (key, value) in zip(outKeys, outValues) {
            object[options.keyExchange[key] ?? key] = value
        }
        return object
    }

    mutating func object(of section: Section, inherited: PartKeys?) -> JSONObject {
        visiting.insert(ObjectIdentifier(section))
        defer { visiting.remove(ObjectIdentifier(section)) }
        let parts = section.partKeyRegistry.keys(for: .serialization, merging: inherited)
        var object = JSONObject()
        // Past the nesting limit, the parts and items are left out as
        // nested payloads are.
        let entersParts = visiting.count < Self.maximumNesting
        for (slot, viewModel) in section.slotViewModels where entersParts {
            guard let viewModel, !recurs(viewModel, at: .key(slot.rawValue)) else { continue }
            let exported = at(.key(slot.rawValue)) { $0.object(of: viewModel, partKeys: parts[slot.part]) }
            object.appendNew(key: slot.rawValue, value: .object(exported))
        }
        let items = section.items
        let exported = at(.key("items")) { exporter in
            var exported = JSONArray()
            exported.reserveCapacity(items.count)
            for (i, item) in items.enumerated() where entersParts && !exporter.recurs(item, at: .index(i)) {
                exported.append(exporter.at(.index(i)) { .object($0.object(of: item, partKeys: parts.items)) })
            }
            return exported
        }
        object.appendNew(key: "items", value: .array(exported))
        return object
    }

    mutating func object(of manager: Manager) -> JSONObject {
        visiting.insert(ObjectIdentifier(manager))
        defer { visiting.remove(ObjectIdentifier(manager)) }
        let parts = manager.partKeyRegistry.keys(for: .serialization)
        var object = JSONObject()
        let entersParts = visiting.count < Self.maximumNesting
        if entersParts, let common = manager.common, !recurs(common, at: .key("common")) {
            let exported = at(.key("common")) { $0.object(of: common, partKeys: parts.common) }
            object.appendNew(key: "common", value: .object(exported))
        }
        let sections = at(.key("sections")) { exporter in
            var sections = JSONArray()
            for (i, section) in manager.sections.enumerated() where entersParts && !exporter.recurs(section, at: .index(i)) {
                sections.append(exporter.at(.index(i)) { .object($0.object(of: section, inherited: parts)) })
            }
            return sections
        }
        object.appendNew(key: "sections", value: .array(sections))
        return object
    }

    /// A payload as JSON, or `nil` to leave it out.
    private mutating func export(_ payload: Any, key: String) -> JSONValue? {
        guard let nested = NestedContent(payload) else {
            switch options.payload?(key, payload) ?? .standard {
            case .json(let value): return value
            case .omit: return nil
            case .standard:
                if let url = payload as? URL { return .string(url.absoluteString) }
                skip(.key(key), .unsupportedType(String(describing: type(of: payload))))
                return nil
            }
        }
        if let identity = nested.identity, recurs(identity, at: .key(key)) { return nil }
        // Every object on the path is in `visiting` (a recurring one stops above).
        guard visiting.count < Self.maximumNesting else { return nil }
        return at(.key(key)) { exporter in
            switch nested {
            case .viewModel(let viewModel):
                return .object(exporter.object(of: viewModel, partKeys: []))
            case .viewModels(let list):
                var array = JSONArray()
                array.reserveCapacity(list.count)
                for (i, viewModel) in list.enumerated() where !exporter.recurs(viewModel, at: .index(i)) {
                    array.append(exporter.at(.index(i)) { .object($0.object(of: viewModel, partKeys: [])) })
                }
                return .array(array)
            case .section(let section):
                return .object(exporter.object(of: section, inherited: nil))
            case .manager(let manager):
                return .object(exporter.object(of: manager))
            }
        }
    }
}
