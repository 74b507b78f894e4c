// App-target code, type-checked by .ci/run with `-default-isolation MainActor`
// (the Xcode 26 default for new app targets): what a user declares must
// compile there without escape hatches.
import AGViewModel
import Foundation

// Payload types, a struct and a class.
struct Avatar: ViewModelPayload { var pixels: [UInt8] }
final class ImageBox: ViewModelPayload {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

// Keys are used off the main actor too, so they are declared `nonisolated`.
nonisolated extension ViewModel.Key where Value == Avatar {
    static var avatar: Self { "avatar" }
}
nonisolated extension ViewModel.Key where Value == String {
    static var title: Self { "title" }
}
nonisolated extension ViewModel.Key where Value == ImageBox {
    static var box: Self { "box" }
}

// Packagers defined once and used from any task (`nonisolated`, as keys).
nonisolated enum Packagers {
    static let status = ClosurePackager { (viewModel, row: JSONObject) in viewModel["id"] = row["id"] }
    static let members = MemberCopyingPackager()
}

@concurrent nonisolated func loadSection(_ data: Data) async throws -> sending Section {
    let rows = try JSONValue(parsing: data).arrayValue ?? []
    return Section(packaged: Packagers.status.package(rows))
}

final class Cell {
    let viewModel = ViewModel()
    func show() -> String {
        viewModel[.avatar] = Avatar(pixels: [1])
        viewModel[.box] = ImageBox([2])
        viewModel[.title] = "Hello"
        return viewModel[.title] ?? ""
    }
}
