/// Releases what a ViewModel held one object at a time, with a list of its
/// own instead of the stack: a ViewModel, section or manager nobody else
/// holds is emptied into the lists before it goes, so its own deinit finds
/// nothing nested to release. A shared one just loses this reference.
internal struct DeepTeardown {
    var viewModels: [ViewModel] = []
    var sections: [Section] = []
    var managers: [Manager] = []

    /// Moves the nested ViewModels, sections and managers of `storage` into
    /// the lists, and empties it.
    mutating func moveContents(of storage: inout [String: ViewModel.Entry]) {
        for entry in storage.values {
            guard case .payload(let payload) = entry.value else { continue }
            switch NestedContent(payload) {
            case .viewModel(let nested)?: viewModels.append(nested)
            case .viewModels(let list)?: viewModels.append(contentsOf: list)
            case .section(let section)?: sections.append(section)
            case .manager(let manager)?: managers.append(manager)
            case nil: break
            }
        }
        storage = [:]
    }

    /// Releases everything in the lists, emptying first what nobody else holds.
    mutating func run() {
        while true {
            if var next = viewModels.popLast() {
                if isKnownUniquelyReferenced(&next) { moveContents(of: &next.storage) }
            } else if var next = sections.popLast() {
                if isKnownUniquelyReferenced(&next) { next.moveContents(into: &self) }
            } else if var next = managers.popLast() {
                if isKnownUniquelyReferenced(&next) { next.moveContents(into: &self) }
            } else {
                return
            }
        }
    }
}
