import Foundation
import Testing
import AGViewModel

// The README's end-to-end example, kept compiling and correct here.
extension ViewModel.Key where Value == Double {
    static var readmePrice: Self { "price" }
}

extension ViewModel.Key where Value == String {
    static var readmeTitle: Self { "title" }
    static var readmeCurrency: Self { "currency" }
    static var readmePriceText: Self { "priceText" }
}

@Suite("README example")
struct ViewModelReadmeExampleTests {
    @Test func packageReadAndRunADependentCommand() throws {
        let json = try JSONValue(parsing: #"""
            {"title": "Swift in Depth", "price": 39.5, "currency": "EUR", "author": {"name": "Tjeerd"}}
            """#)
        let book = ViewModel(json.objectValue ?? [:])

        #expect(book[.readmeTitle] == "Swift in Depth")
        #expect(book.string(at: "author.name") == "Tjeerd")
        #expect(book.int(at: "pages", default: 0) == 0)

        book.setCommand(for: .readmePriceText, dependsOn: .readmePrice, .readmeCurrency) { vm in
            String(format: "%.2f %@", vm[.readmePrice] ?? 0, vm[.readmeCurrency] ?? "")
        }
        #expect(try book.executeCommandIfNeeded(for: .readmePriceText) == "39.50 EUR")
        book[.readmePrice] = 35
        #expect(try book.executeCommandIfNeeded(for: .readmePriceText) == "35.00 EUR")
    }
}
