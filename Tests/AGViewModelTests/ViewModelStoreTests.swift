import Foundation
import Observation
import Testing
import AGViewModel

@Suite("ViewModel store")
struct ViewModelStoreTests {
    let book: JSONObject = [
        "title": "Swift", "pages": 320, "id": 505874924095815681, "price": 9.5,
        "available": true, "cover": "https://example.com/c.png",
        "tags": ["a", "b"], "meta": ["isbn": "123"], "note": nil,
    ]

    @Test func typedKeysReadEveryJSONType() {
        let vm = ViewModel(book)
        let title: String? = vm[.bookTitle]
        #expect(title == "Swift")
        #expect(vm[.bookPages] == 320)
        #expect(vm[.bookID] == 505874924095815681)
        #expect(vm[.bookPrice] == 9.5)
        #expect(vm[.bookAvailable] == true)
        #expect(vm[.bookCover] == URL(string: "https://example.com/c.png"))
        #expect(vm[.bookTags] == ["a", "b"])
        #expect(vm[.bookTagNames] == ["a", "b"])
        #expect(vm[.bookMeta] == ["isbn": "123"])
        #expect(vm[.bookNote] == .null)
        #expect(vm[.bookAuthor] == nil)
    }

    /// The debug description counts lists of ViewModels and names other
    /// payloads by type, empty arrays of other types included.
    @Test func debugDescriptionNamesPayloadsByType() {
        final class Image {}
        let vm = ViewModel(["id": 1])
        vm.set("images", payload: [Image]())
        vm.set("numbers", payload: [Int]())
        vm.set("rows", payload: [ViewModel(), ViewModel()])
        vm.set("none", payload: [ViewModel]())
        let text = vm.debugDescription
        #expect(text.contains("images: <payload Array<Image>>"), "\(text)")
        #expect(text.contains("numbers: <payload Array<Int>>"), "\(text)")
        #expect(text.contains("rows: [2 ViewModels]") && text.contains("none: [0 ViewModels]"), "\(text)")
    }

    @Test func typedReadsAreLenient() {
        let vm = ViewModel(["title": 42, "pages": "17", "price": "oops", "available": "yes", "tags": [1, "x"]])
        #expect(vm[.bookTitle] == "42")          // a number reads as its text
        #expect(vm[.bookPages] == 17)            // a numeric string reads as a number
        #expect(vm[.bookPrice] == nil)           // wrong type: nil, no crash
        #expect(vm[.bookAvailable] == true)
        #expect(vm[.bookTagNames] == ["1", "x"])
        vm["tags"] = [1, ["nested": true]]
        #expect(vm[.bookTagNames] == nil)        // an element that cannot be read: no partial array
        #expect(vm[.bookPages, default: 0] == 17)
        #expect(vm[.bookPrice, default: 1.5] == 1.5)
    }

    @Test func typedWritesStoreTheNaturalJSONForm() {
        let vm = ViewModel()
        vm[.bookTitle] = "Swift"
        vm[.bookPages] = 12
        vm[.bookPrice] = 2.5
        vm[.bookAvailable] = false
        vm[.bookCover] = URL(string: "https://example.com/x")
        vm[.bookTagNames] = ["a"]
        #expect(vm["title"] == .string("Swift"))
        #expect(vm["pages"] == .int(12))
        #expect(vm["price"] == .double(2.5))
        #expect(vm["available"] == .bool(false))
        #expect(vm["cover"] == .string("https://example.com/x"))
        #expect(vm["tags"] == .array(["a"]))
        vm[.bookTitle] = nil
        #expect(!vm.contains(.bookTitle))
        #expect(vm.keys == ["pages", "price", "available", "cover", "tags"])
    }

    @Test func nestedViewModelsAndPayloads() throws {
        let author = ViewModel(["name": "Ann"])
        let vm = ViewModel()
        vm[.bookAuthor] = author
        vm[.bookShelf] = Shelf(row: 2, label: "B")
        vm[.bookReviews] = [ViewModel(["stars": 5]), ViewModel(["stars": 3])]
        #expect(vm[.bookAuthor] === author)
        #expect(vm["author"] == nil)               // a payload is not JSON
        #expect(vm[.bookShelf] == Shelf(row: 2, label: "B"))
        #expect(vm[.bookReviews]?.count == 2)
        #expect(vm[.bookTitle] == nil)
        let formatter = PriceFormatter(prefix: "$")
        vm.set("formatter", payload: formatter)
        #expect(vm.payload(forKey: "formatter", as: PriceFormatter.self) === formatter)
        #expect(vm.payload(forKey: "formatter", as: Shelf.self) == nil)
        // A typed key of the wrong type reads a payload as nil.
        #expect(vm[ViewModel.Key<Shelf>("author")] == nil)
    }

    /// `payload(forKey:as:)` is `as?`, to which every empty array is every
    /// array type; a typed key tells an empty list of other payloads from
    /// an empty list of ViewModels.
    @Test func anEmptyListOfOtherPayloadsIsNoListOfViewModelsToATypedKey() {
        let vm = ViewModel().set("shelves", payload: [Shelf]()).set("reviews", payload: [ViewModel]())
        #expect(vm.payload(forKey: "shelves", as: [ViewModel].self)?.isEmpty == true)
        #expect(vm[ViewModel.Key<[ViewModel]>("shelves")] == nil)
        #expect(vm[ViewModel.Key<[ViewModel]>("reviews")]?.isEmpty == true)
        #expect(vm[ViewModel.Key<[Shelf]>("shelves")] == [])
    }

    /// User types: a payload that is also `JSONReadable` reads back as the
    /// payload stored (JSON is not read as one); a JSON-backed type reads
    /// JSON by its own rule, and a payload of its own type too.
    @Test func userTypesReadAsTheyAreStored() {
        let vm = ViewModel(["rating": 4, "status": "closed"])
        #expect(vm[ViewModel.Key<Rating>("rating")] == nil)
        vm[ViewModel.Key<Rating>("rating")] = Rating(stars: 5)
        #expect(vm[ViewModel.Key<Rating>("rating")] == Rating(stars: 5))
        #expect(vm[ViewModel.Key<ShelfStatus>("status")] == .closed)
        vm[ViewModel.Key<ShelfStatus>("status")] = .open
        #expect(vm["status"] == "open")
        vm.set("status", payload: ShelfStatus.closed)
        #expect(vm[ViewModel.Key<ShelfStatus>("status")] == .closed)
    }

    @Test func safeGettersByKeyAndPath() throws {
        let vm = ViewModel(["title": "Swift", "user": ["age": "41", "name": nil], "count": 3])
        vm[.bookAuthor] = ViewModel(["name": "Ann", "links": ["https://a.example"]])
        vm[.bookReviews] = [ViewModel(["stars": 5])]
        vm.set("image", payload: Shelf(row: 1, label: "x"))
        #expect(vm.string(at: "title") == "Swift")
        #expect(vm.int(at: "user.age", default: 0) == 41)
        #expect(vm.int(at: "user.height", default: 7) == 7)
        #expect(try vm.read(Int.self, at: "count") == 3)
        #expect(vm.string(at: "author.name") == "Ann")
        #expect(vm.url(at: "author.links[0]") == URL(string: "https://a.example"))
        #expect(vm.int(at: "reviews[0].stars") == 5)
        #expect(vm.object(at: "author") == ["name": "Ann", "links": ["https://a.example"]])
        #expect(vm.string(at: "image") == nil)

        #expect(throws: JSONAccessError(path: "missing", reason: .missing)) { try vm.read(Int.self, at: "missing") }
        #expect(throws: JSONAccessError(path: "user.name", reason: .null)) { try vm.read(String.self, at: "user.name") }
        #expect(throws: JSONAccessError(path: "reviews[3]", reason: .missing)) { try vm.read(Int.self, at: "reviews[3].stars") }
        do {
            _ = try vm.read(Int.self, at: "title")
            Issue.record("expected a type mismatch")
        } catch {
            #expect(error.description == "title: expected an integer, found string \"Swift\"")
        }
    }

    @Test func creation() {
        let empty = ViewModel()
        #expect(empty.count == 0)
        let configured = ViewModel {
            $0[.bookTitle] = "Configured"
            $0[.bookPages] = 3
        }
        #expect(configured[.bookTitle] == "Configured")
        #expect(configured.keys == ["title", "pages"])
        let fromJSON = ViewModel(["title": "A"]) { $0[.bookPages] = 1 }
        #expect(fromJSON.keys == ["title", "pages"])
        // Room reserved for fewer keys than are set, then more.
        for capacity in [0, 2, 16] {
            let reserved = ViewModel(minimumCapacity: capacity)
            #expect(reserved.count == 0)
            for i in 0..<9 { reserved["k\(i)"] = .int(Int64(i)) }
            reserved["k3"] = "replaced"
            #expect(reserved.keys == (0..<9).map { "k\($0)" })
            #expect(reserved["k3"] == "replaced" && reserved["k8"] == 8)
        }
    }

    /// A key added to a ViewModel is heard by whoever waits for it: an
    /// observer, and Observation tracking that read the key while it was
    /// absent (the ViewModel then has an observation center with nothing
    /// pending, the case a packager's fast insert must not take).
    @Test func newKeysAreReported() {
        let observed = ViewModel()
        var heard: [String] = []
        let registration = observed.observe("name") { _, key, _ in heard.append(key) }
        observed["name"] = "Ann"
        observed["other"] = 1
        #expect(heard == ["name"])
        #expect(observed.keys == ["name", "other"])
        withExtendedLifetime(registration) {}

        let tracked = ViewModel()
        let fired = Recorder<Bool>()
        withObservationTracking { _ = tracked["later"] } onChange: { fired.append(true) }
        tracked["sooner"] = 1
        #expect(fired.count == 0)
        tracked["later"] = 2
        #expect(fired.count == 1)
        #expect(tracked.keys == ["sooner", "later"])
    }

    @Test func mergeAllOrSomeKeys() {
        let vm = ViewModel(["title": "Old", "pages": 1])
        vm.merge(["title": "New", "price": 2.5, "extra": true], keys: ["title", "price", "absent"])
        #expect(vm[.bookTitle] == "New")
        #expect(vm[.bookPrice] == 2.5)
        #expect(!vm.contains("extra"))
        vm.merge(["extra": true])
        #expect(vm.keys == ["title", "pages", "price", "extra"])

        let other = ViewModel(["pages": 99, "currency": "EUR"])
        other[.bookShelf] = Shelf(row: 1, label: "A")
        vm.merge(other, keys: .bookPages)
        #expect(vm[.bookPages] == 99)
        #expect(!vm.contains("currency"))
        vm.merge(other)
        #expect(vm[.bookCurrency] == "EUR")
        #expect(vm[.bookShelf] == Shelf(row: 1, label: "A"))
        vm.merge(vm)                                   // merging into itself is harmless
        #expect(vm.count == 6)
    }

    @Test func removeOneAndAll() {
        let vm = ViewModel(["title": "T", "pages": 2, "price": 1.5])
        #expect(vm.removeValue(for: .bookPages) == 2)
        #expect(vm.removeValue(forKey: "nope") == nil)
        #expect(vm.keys == ["title", "price"])
        vm.setCommand(forKey: "x") { _ in 1 }
        vm.removeAll()
        #expect(vm.count == 0)
        #expect(vm.keys.isEmpty)
        #expect(vm.commandKeys == ["x"])               // commands are not values
    }

    @Test func copyIsIndependentAndDeep() {
        let author = ViewModel(["name": "Ann"])
        let formatter = PriceFormatter(prefix: "$")
        let original = ViewModel(["title": "T"])
        original[.bookAuthor] = author
        original[.bookReviews] = [author]
        original.set("formatter", payload: formatter)
        original.indexPath = IndexPath(indexes: [1, 3])
        original.setCommand(forKey: "upper") { vm in vm.string(at: "title")?.uppercased() }

        let copy = original.copy()
        #expect(copy !== original)
        #expect(copy.keys == original.keys)
        copy[.bookTitle] = "Changed"
        #expect(original[.bookTitle] == "T")

        // Nested ViewModels are deep-copied, keeping shared structure.
        let copiedAuthor = try! #require(copy[.bookAuthor])
        #expect(copiedAuthor !== author)
        #expect(copy[.bookReviews]?.first === copiedAuthor)
        copiedAuthor["name"] = "Bob"
        #expect(author["name"] == "Ann")
        // Other payloads are shared by reference.
        #expect(copy.payload(forKey: "formatter", as: PriceFormatter.self) === formatter)
        #expect(copy.indexPath == IndexPath(indexes: [1, 3]))
        #expect(try! copy.executeCommand(forKey: "upper")?.json == "CHANGED")
        #expect(original["upper"] == nil)
    }

    @Test func copyOfASelfContainingViewModelTerminates() {
        let vm = ViewModel(["title": "loop"])
        vm.set("me", payload: vm)
        let copy = vm.copy()
        #expect(copy.payload(forKey: "me", as: ViewModel.self) === copy)
        #expect(vm.debugDescription.contains("<cycle"))
        #expect(vm.object(at: "me") == ["title": "loop", "me": nil])
    }

    @Test func debugDescriptionIsReadable() {
        let vm = ViewModel(["title": "Swift", "price": 9.5, "long": .string(String(repeating: "x", count: 500))])
        vm[.bookAuthor] = ViewModel(["name": "Ann"])
        vm[.bookShelf] = Shelf(row: 1, label: "A")
        let text = vm.debugDescription
        #expect(text.hasPrefix("ViewModel (5 keys) {\n  title: \"Swift\"\n  price: 9.5\n"))
        #expect(text.contains("  author: ViewModel (1 key) {\n    name: \"Ann\"\n  }\n"))
        #expect(text.contains("  shelf: <payload Shelf>\n"))
        #expect(text.contains("…"))
        #expect(text.count < 400)
        #expect(ViewModel().debugDescription == "ViewModel (0 keys) {}")
    }

    @Test func indexPathSlot() {
        let vm = ViewModel()
        #expect(vm.indexPath == nil)
        vm.setIndexPath(IndexPath(indexes: [2, 4]))
        #expect(vm.indexPath?[0] == 2)
        #expect(vm.indexPath?[1] == 4)
        #expect(vm.count == 0)                          // not a stored key
    }

    @Test func fluentBuilding() {
        let owner = PriceFormatter(prefix: "owner")
        let vm = ViewModel(["price": 4])
            .set(.bookTitle, to: "Fluent")
            .set("pages", to: 12)
            .set("shelf", payload: Shelf(row: 0, label: "Z"))
            .merge(["currency": "EUR"])
            .setWeakObject(owner, forKey: "owner")
            .setCommand(for: .bookPriceText, dependsOn: .bookPrice, .bookCurrency) { vm in
                "\(vm[.bookPrice] ?? 0) \(vm[.bookCurrency] ?? "")"
            }
            .setIndexPath(IndexPath(indexes: [0, 0]))
        #expect(vm.keys == ["price", "title", "pages", "shelf", "currency"])
        #expect(vm.weakObject(forKey: "owner", as: PriceFormatter.self) === owner)
        #expect(try! vm.executeCommandIfNeeded(for: .bookPriceText) == "4.0 EUR")
        withExtendedLifetime(owner) {}
    }
}

extension ViewModelStoreTests {
    /// A copy is filled directly, so nothing has read or observed it yet:
    /// a key added to it still marks the commands depending on the key,
    /// and removing a key it lacks marks none.
    @Test func aCopysCommandsAreMarkedByANewInputNotByRemovingAnAbsentOne() throws {
        let vm = ViewModel()
        vm.setCommand(forKey: "total", dependsOn: ["price"]) { _ in 1 }
        _ = try vm.executeCommandIfNeeded(forKey: "total")
        let copy = vm.copy()
        #expect(!copy.needsExecuteCommand(forKey: "total"))
        copy.removeValue(forKey: "price")
        #expect(!copy.needsExecuteCommand(forKey: "total"))
        copy.set("price", to: 3)
        #expect(copy.needsExecuteCommand(forKey: "total"))
    }

    @Test func settingNilThroughTheChainableSettersRemovesTheKey() {
        let vm = ViewModel(["title": "T", "pages": 3])
        vm.set(.bookTitle, to: nil)
        vm.set("pages", to: nil as Int?)
        #expect(vm.keys.isEmpty)
    }

    @Test func mergingSelectedKeysOfAViewModelLeavesKeysItLacks() {
        let vm = ViewModel(["title": "Old", "pages": 1])
        vm.merge(ViewModel(["title": "New"]), keys: ["title", "pages"])
        #expect(vm["title"] == "New")
        #expect(vm["pages"] == 1)
    }

    @Test func mergingAViewModelAddsItsNewKeysInItsOrder() {
        let vm = ViewModel(["title": "T"])
        vm.merge(ViewModel(["a": 1, "b": 2, "c": 3]))
        #expect(vm.keys == ["title", "a", "b", "c"])
    }

    @Test func copiesKeepTheWeakSlots() {
        let owner = PriceFormatter(prefix: "owner")
        let vm = ViewModel().setWeakObject(owner, forKey: "owner")
        let copy = vm.copy()
        #expect(copy.weakObject(forKey: "owner") === owner)
        withExtendedLifetime(owner) {}
    }

    @Test func debugDescriptionShowsAViewModelHeldTwiceBothTimes() {
        let shared = ViewModel(["name": "Ann"])
        let vm = ViewModel().set("author", payload: shared).set("editor", payload: shared)
        let text = vm.debugDescription
        #expect(!text.contains("<cycle"), "\(text)")
        #expect(text.contains("  editor: ViewModel (1 key) {\n    name: \"Ann\"\n  }\n"), "\(text)")
    }

    /// A JSON value is shown whole up to 100 characters; a longer one is
    /// cut to 100 characters, the last one "…".
    @Test func debugDescriptionCutsValuesLongerThanAHundredCharacters() {
        let fits = String(repeating: "a", count: 98)      // 100 characters with its quotes
        let tooLong = String(repeating: "b", count: 99)
        let text = ViewModel(["fits": .string(fits), "long": .string(tooLong)]).debugDescription
        #expect(text.contains("  fits: \"\(fits)\"\n"), "\(text)")
        #expect(text.contains("  long: \"\(String(repeating: "b", count: 98))…\n"), "\(text)")
    }

    /// Observation tracking that read a payload hears when it is replaced.
    @Test func payloadReadsAreTracked() {
        let vm = ViewModel().set("shelf", payload: Shelf(row: 1, label: "A"))
        let fired = Recorder<Bool>()
        withObservationTracking { _ = vm.payload(forKey: "shelf", as: Shelf.self) } onChange: { fired.append(true) }
        vm.set("shelf", payload: Shelf(row: 2, label: "B"))
        #expect(fired.count == 1)
    }

    /// Values equal as numbers but written differently, or JSON replaced by
    /// a payload, are changes observers hear.
    @Test func observersHearChangesOfFormAndKind() {
        let vm = ViewModel(["count": 10, "shelf": "none"])
        var heard: [String] = []
        let registration = vm.observe(["count", "shelf"]) { _, key, _ in heard.append(key) }
        vm["count"] = 10.0
        vm.set("shelf", payload: Shelf(row: 1, label: "A"))
        #expect(heard == ["count", "shelf"])
        withExtendedLifetime(registration) {}
    }

    @Test func sameMeansTheSameFormAndKind() {
        #expect(ViewModelValue.json(10).isSame(as: .json(10)))
        #expect(!ViewModelValue.json(10).isSame(as: .json(10.0)))
        #expect(!ViewModelValue.json("A").isSame(as: .payload("A")))
        #expect(ViewModelValue.payload(Shelf(row: 1, label: "A")).isSame(as: .payload(Shelf(row: 1, label: "A"))))
    }

    @Test("the same form means the same sign of zero, the same digits and the same member order")
    func sameFormTellsZerosDigitsAndOrderApart() {
        #expect(!ViewModelValue.json(0.0).isSame(as: .json(-0.0)))
        #expect(ViewModelValue.json(.double(.nan)).isSame(as: .json(.double(.nan))))
        #expect(!ViewModelValue.json(.bigInteger("18446744073709551615")).isSame(as: .json(.bigInteger("18446744073709551616"))))
        #expect(!ViewModelValue.json(["a": 1, "b": 1]).isSame(as: .json(["b": 1, "a": 1])))
        #expect(ViewModelValue.json(["a": [1, 2.5], "b": nil]).isSame(as: .json(["a": [1, 2.5], "b": nil])))
    }

    @Test func arraysOfPayloadsAreStoredAsOnePayload() {
        let shelves = ViewModel.Key<[Shelf]>("shelves")
        let vm = ViewModel().set(shelves, to: [Shelf(row: 1, label: "A"), Shelf(row: 2, label: "B")])
        #expect(vm[shelves] == [Shelf(row: 1, label: "A"), Shelf(row: 2, label: "B")])
        #expect(vm["shelves"] == nil)
    }
}
