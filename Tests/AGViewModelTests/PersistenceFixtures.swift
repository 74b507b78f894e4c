import Foundation
@testable import AGViewModel

/// Shared helpers for the export, import, archive and coding tests.
enum PersistenceFixtures {
    /// A manager with every part: a common ViewModel, two sections with
    /// header, footer, common, item merge and items, nested ViewModels and a
    /// list of them inside an item.
    static func manager() -> Manager {
        let author = ViewModel(["name": "Ada", "handle": "@ada"])
        let first = ViewModel(["id": 1, "text": "hello", "tags": ["a", "b"], "score": 2.5])
        first[value: "author"] = .payload(author)
        first[value: "replies"] = .payload([ViewModel(["text": "hi"]), ViewModel(["text": "yo", "n": nil])])
        let second = ViewModel(["id": 2, "text": "héllo 🐦", "big": .bigInteger("18446744073709551616")])
        let articles = Section(
            items: [first, second],
            header: ViewModel(["title": "Articles", "count": 2]),
            footer: ViewModel(["note": "end"]),
            common: ViewModel(["style": "compact"]),
            itemMerge: ViewModel(["kind": "article"]))
        let videos = Section(items: [ViewModel(["id": 3, "text": "clip", "flag": true])],
                             header: ViewModel(["title": "Videos"]))
        let empty = Section()
        return Manager(sections: [articles, videos, empty], common: ViewModel(["screen": "home"]))
    }

    /// Whether two ViewModels hold the same keys (in order) and values. A
    /// nested ViewModel (or list of them) matches another ViewModel with the
    /// same content, or the JSON object (array of objects) it exports as.
    static func same(_ a: ViewModel?, _ b: ViewModel?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?):
            guard a.keys == b.keys else { return false }
            return a.keys.allSatisfy { same(a[value: $0], b[value: $0]) }
        default: return false
        }
    }

    static func same(_ a: ViewModelValue?, _ b: ViewModelValue?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return json(a) == json(b)
    }

    /// A stored value as JSON with nested ViewModels spelled out.
    static func json(_ value: ViewModelValue) -> JSONValue? {
        switch value {
        case .json(let json): return json
        case .payload(let viewModel as ViewModel): return viewModel.exportJSON(options: .everything)
        case .payload(let list as [ViewModel]): return .array(list.map { $0.exportJSON(options: .everything) })
        case .payload(let section as Section): return section.exportJSON(options: .everything)
        case .payload(let manager as Manager): return manager.exportJSON(options: .everything)
        case .payload: return nil
        }
    }

    static func same(_ a: Section, _ b: Section) -> Bool {
        same(a.header, b.header) && same(a.footer, b.footer) && same(a.common, b.common)
            && same(a.itemMerge, b.itemMerge) && a.count == b.count
            && zip(a.items, b.items).allSatisfy { same($0, $1) }
    }

    /// Equal managers: same common ViewModel, same number of sections, and
    /// pairwise the same sections (parts and items), keys in order.
    static func same(_ a: Manager, _ b: Manager) -> Bool {
        same(a.common, b.common) && a.count == b.count && zip(a.sections, b.sections).allSatisfy { same($0, $1) }
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("agvm-persist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
