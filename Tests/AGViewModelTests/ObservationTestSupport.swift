import Foundation
@testable import AGViewModel

/// A thread-safe list of what observers saw, for tests.
final class Recorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    var items: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    var count: Int { items.count }
}

/// A plain observer object for weak-observer tests.
final class TestObserver: @unchecked Sendable {
    let name: String
    init(_ name: String = "observer") { self.name = name }
}

/// Compact text of a stored value: `1`, `"text"`, `nil`, JSON, `payload(...)`.
func render(_ value: ViewModelValue?) -> String {
    guard let value else { return "nil" }
    switch value {
    case .json(.int(let int)): return "\(int)"
    case .json(.string(let string)): return "\"\(string)\""
    case .json(let json): return (try? json.jsonString()) ?? "\(json)"
    case .payload(let payload): return "payload(\(payload))"
    }
}

/// "key: old -> new" (with a "prior " or "initial " prefix) for compact expectations.
func describe(_ change: KeyChange) -> String {
    let prefix = change.kind == .prior ? "prior " : change.kind == .initial ? "initial " : ""
    return "\(prefix)\(change.key): \(render(change.oldValue)) -> \(render(change.newValue))"
}

/// Compact text of a snapshot value, as `render(_:)` for stored values.
func render(_ value: ViewModel.Snapshot.Value?) -> String {
    guard let value else { return "nil" }
    switch value {
    case .json(let json): return render(ViewModelValue.json(json))
    case .viewModel(let snapshot): return "viewModel(\(snapshot.keys))"
    case .viewModels(let list): return "viewModels(\(list.count))"
    case .section(let section): return "section(\(section.items.count))"
    case .manager(let manager): return "manager(\(manager.sections.count))"
    }
}

/// "key: old -> new" for a change delivered by a change stream.
func describe(_ change: KeyChange.Snapshot) -> String {
    let prefix = change.kind == .prior ? "prior " : change.kind == .initial ? "initial " : ""
    return "\(prefix)\(change.key): \(render(change.oldValue)) -> \(render(change.newValue))"
}
