import Foundation
import AGViewModel

// Typed keys used by the ViewModel tests; book-themed names so they do not
// clash with keys other test files declare.
extension ViewModelKeys {
    static let bookTitle = VMKey<String>("title")
    static let bookPages = VMKey<Int>("pages")
    static let bookID = VMKey<Int64>("id")
    static let bookPrice = VMKey<Double>("price")
    static let bookCurrency = VMKey<String>("currency")
    static let bookPriceText = VMKey<String>("priceText")
    static let bookAvailable = VMKey<Bool>("available")
    static let bookCover = VMKey<URL>("cover")
    static let bookTags = VMKey<[JSONValue]>("tags")
    static let bookTagNames = VMKey<[String]>("tags")
    static let bookMeta = VMKey<JSONObject>("meta")
    static let bookNote = VMKey<JSONValue>("note")
    static let bookAuthor = VMKey<ViewModel>("author")
    static let bookReviews = VMKey<[ViewModel]>("reviews")
    static let bookShelf = VMKey<Shelf>("shelf")
}

/// A custom payload type, as users define them.
struct Shelf: ViewModelPayload, Equatable {
    var row: Int
    var label: String
}

/// A payload class, shared by reference.
final class PriceFormatter: ViewModelPayload {
    let prefix: String
    init(prefix: String) { self.prefix = prefix }
}
