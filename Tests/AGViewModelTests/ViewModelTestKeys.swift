import Foundation
import AGViewModel

// Typed keys used by the ViewModel tests; book-themed names so they do not
// clash with keys other test files declare.
extension ViewModel.Key where Value == String {
    static var bookTitle: Self { "title" }
    static var bookCurrency: Self { "currency" }
    static var bookPriceText: Self { "priceText" }
}
extension ViewModel.Key where Value == Int {
    static var bookPages: Self { "pages" }
}
extension ViewModel.Key where Value == Int64 {
    static var bookID: Self { "id" }
}
extension ViewModel.Key where Value == Double {
    static var bookPrice: Self { "price" }
}
extension ViewModel.Key where Value == Bool {
    static var bookAvailable: Self { "available" }
}
extension ViewModel.Key where Value == URL {
    static var bookCover: Self { "cover" }
}
extension ViewModel.Key where Value == [JSONValue] {
    static var bookTags: Self { "tags" }
}
extension ViewModel.Key where Value == [String] {
    static var bookTagNames: Self { "tags" }
}
extension ViewModel.Key where Value == JSONObject {
    static var bookMeta: Self { "meta" }
}
extension ViewModel.Key where Value == JSONValue {
    static var bookNote: Self { "note" }
}
extension ViewModel.Key where Value == ViewModel {
    static var bookAuthor: Self { "author" }
}
extension ViewModel.Key where Value == [ViewModel] {
    static var bookReviews: Self { "reviews" }
}
extension ViewModel.Key where Value == Shelf {
    static var bookShelf: Self { "shelf" }
}

/// A custom payload type, as users define them.
struct Shelf: ViewModelPayload, Equatable {
    var row: Int
    var label: String
}

/// A payload that can also be read from JSON (it reads back as a payload).
struct Rating: ViewModelPayload, JSONReadable, Equatable {
    var stars: Int
    static func read(from json: JSONValue) -> Rating? { json.intValue.map { Rating(stars: Int($0)) } }
    static var expectedDescription: String { "a rating" }
}

/// A type of the user's stored as JSON, read by its ``JSONReadable`` rule.
enum ShelfStatus: String, JSONReadable, ViewModelStorable {
    case open, closed
    static func read(from json: JSONValue) -> ShelfStatus? { json.stringValue.flatMap(ShelfStatus.init(rawValue:)) }
    static var expectedDescription: String { "a status" }
    var viewModelValue: ViewModelValue { .json(.string(rawValue)) }
}

/// A payload class, shared by reference.
final class PriceFormatter: ViewModelPayload {
    let prefix: String
    init(prefix: String) { self.prefix = prefix }
}
