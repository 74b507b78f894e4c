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

// A payload that is also read from JSON, and a JSON-backed enum with a typed key.
struct Rating: ViewModelPayload, JSONReadable, Equatable {
    var stars: Int
    static func read(from json: JSONValue) -> Rating? { json.intValue.map { Rating(stars: Int($0)) } }
    static var expectedDescription: String { "a rating" }
}
enum Status: String, JSONReadable, ViewModelStorable {
    case open, closed
    static func read(from json: JSONValue) -> Status? { json.stringValue.flatMap(Status.init(rawValue:)) }
    static var expectedDescription: String { "a status" }
    var viewModelValue: ViewModelValue { .json(.string(rawValue)) }
}
