extension Section: CustomDebugStringConvertible {
    /// The section-level ViewModels and the items, each as
    /// ``ViewModel/debugDescription`` shows it (reads not reported to
    /// Swift Observation):
    ///
    /// ```
    /// Section (2 items) {
    ///   header: ViewModel (1 key) {
    ///     title: "Books"
    ///   }
    ///   items[0]: ViewModel (1 key) {
    ///     id: 1
    ///   }
    ///   items[1]: ViewModel (1 key) {
    ///     id: 2
    ///   }
    /// }
    /// ```
    public var debugDescription: String {
        var out = ""
        var visiting: Set<ObjectIdentifier> = []
        describe(into: &out, indent: "", visiting: &visiting)
        return out
    }

    internal func describe(into out: inout String, indent: String, visiting: inout Set<ObjectIdentifier>) {
        let items = untrackedItems
        out += "Section (\(counted(items.count, "item"))) {"
        let parts = untrackedSlotViewModels.compactMap { slot in slot.viewModel.map { (slot.slot.rawValue, $0) } }
        if parts.isEmpty && items.isEmpty { out += "}"; return }
        out += "\n"
        let inner = indent + "  "
        func line(_ label: String, _ viewModel: ViewModel) {
            out += inner + label + ": "
            viewModel.describe(into: &out, indent: inner, visiting: &visiting)
            out += "\n"
        }
        for (name, viewModel) in parts { line(name, viewModel) }
        for (index, item) in items.enumerated() { line("items[\(index)]", item) }
        out += indent + "}"
    }
}

extension Manager: CustomDebugStringConvertible {
    /// The common ViewModel and the sections, each as
    /// ``Section/debugDescription`` shows it (reads not reported to
    /// Swift Observation):
    ///
    /// ```
    /// Manager (1 section, 2 items) {
    ///   common: ViewModel (1 key) {
    ///     theme: "dark"
    ///   }
    ///   sections[0]: Section (2 items) {
    ///     …
    ///   }
    /// }
    /// ```
    public var debugDescription: String {
        var out = ""
        var visiting: Set<ObjectIdentifier> = []
        let sections = untrackedSections
        let itemCount = sections.reduce(0) { $0 + $1.untrackedItems.count }
        out += "Manager (\(counted(sections.count, "section")), \(counted(itemCount, "item"))) {"
        let common = untrackedCommon
        if common == nil && sections.isEmpty { return out + "}" }
        out += "\n"
        if let common {
            out += "  common: "
            common.describe(into: &out, indent: "  ", visiting: &visiting)
            out += "\n"
        }
        for (index, section) in sections.enumerated() {
            out += "  sections[\(index)]: "
            section.describe(into: &out, indent: "  ", visiting: &visiting)
            out += "\n"
        }
        return out + "}"
    }
}

/// `count` and a noun: "1 item", "2 items".
private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
