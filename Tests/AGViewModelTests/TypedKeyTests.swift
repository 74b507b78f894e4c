import Foundation
import Observation
import Testing
import AGViewModel

private protocol Named: AnyObject { var name: String { get } }
private final class Owner: Named { let name = "owner" }

extension ViewModel.Key where Value == Owner {
    fileprivate static var typedOwner: Self { "owner" }
}

extension ViewModel.Key where Value == any Named {
    fileprivate static var namedOwner: Self { "owner" }
}

/// `ViewModel.Key` wherever a string key works.
@Suite("Typed keys end to end")
struct TypedKeyTests {
    @Test func keysAreValuesDeclaredAsConstrainedStatics() {
        let title: ViewModel.Key<String> = .bookTitle
        #expect(title == ViewModel.Key<String>("title"))
        #expect(title.name == "title" && "\(title)" == "title")
        #expect(Set([ViewModel.Key<String>.bookTitle, .bookCurrency]).count == 2)
    }

    @Test func subscriptsStringKeysAndTypedKeysAgree() {
        let vm = ViewModel(["title": "Dune", "pages": 412])
        #expect(vm[.bookTitle] == "Dune")
        #expect(vm["title"] == "Dune")
        #expect(vm[value: "title"]?.json == "Dune")
        #expect(vm[.bookPages, default: 0] == 412)
        #expect(vm[.bookPrice, default: 1.5] == 1.5)
        #expect(vm.contains(.bookTitle) && !vm.contains(.bookPrice))
        #expect(vm.removeValue(for: .bookPages) == 412)
        #expect(!vm.contains("pages"))
    }

    /// A snapshot read on another task takes the same typed keys, and
    /// reads them as the ViewModel does.
    /// A string literal where either subscript fits reads JSON: a value
    /// of another kind is not read as `nil` to match the comparison.
    @Test func stringLiteralsReadJSONWhereBothSubscriptsFit() {
        let items = [ViewModel(["list": [1], "link": "https://example.com"]), ViewModel(["list": ["a": 1], "link": 5])]
        #expect(items.map { $0["list"] } != [[1], nil])
        #expect(items.map { $0["link"] } != ["https://example.com", nil])
        #expect(items.map { $0["list"] } == [[1], ["a": 1]])
        let snapshots = items.map(\.snapshot)
        #expect(snapshots.map { $0["list"] } != [[1], nil])
        #expect(snapshots.map { $0["link"] } == ["https://example.com", 5])
        // Where only a typed read fits, the literal is a typed key.
        let list: [Int]? = items[0]["list"]
        #expect(list == [1])
    }

    @Test func snapshotsReadTypedKeysAsTheirViewModelDoes() async {
        let vm = ViewModel(["title": "Dune", "pages": "412", "price": 9])
        vm[value: "cover"] = .payload(Owner())
        let cover = ViewModel.Key<String>("cover")
        let snapshot = vm.snapshot
        let read = await Task.detached {
            (snapshot[.bookTitle], snapshot[.bookPages], snapshot[.bookPrice], snapshot[.bookCurrency, default: "EUR"])
        }.value
        #expect(read.0 == vm[.bookTitle] && read.0 == "Dune")
        #expect(read.1 == vm[.bookPages])
        #expect(read.2 == vm[.bookPrice])
        #expect(read.3 == "EUR")
        #expect(snapshot[cover] == nil && snapshot.omittedKeys == ["cover"], "payloads are not in snapshots")
    }

    @Test func listsOfViewModelsStayPayloadsEvenWhenEmpty() {
        let replies = ViewModel.Key<[ViewModel]>("replies")
        let vm = ViewModel().set(replies, to: [])
        #expect(vm.payload(forKey: "replies", as: [ViewModel].self)?.isEmpty == true)
        #expect(vm[replies]?.isEmpty == true)
        let reply = ViewModel(["text": "hi"])
        vm.set(replies, to: [reply])
        #expect(vm.payload(forKey: "replies", as: [ViewModel].self)?.first === reply)
        #expect(vm.exportJSON() == ["replies": [["text": "hi"]]])
    }

    /// Every empty array casts to every array type in Swift; a typed read
    /// of an empty list payload must not.
    @Test func anEmptyListPayloadReadsOnlyAsItsOwnType() {
        struct Image { var name: String }
        let replies = ViewModel.Key<[ViewModel]>("replies")
        let vm = ViewModel().set("thumbs", payload: [Image]()).set(replies, to: [])
        #expect(vm[ViewModel.Key<[ViewModel]>("thumbs")] == nil)
        #expect(vm[ViewModel.Key<[String]>("replies")] == nil)
        #expect(vm[replies]?.isEmpty == true)
        vm.set("names", payload: ["a"] as [Any])
        #expect(vm[ViewModel.Key<[String]>("names")] == ["a"])
    }

    @Test func weakSlotsTakeTypedKeys() {
        let vm = ViewModel()
        var owner: Owner? = Owner()
        vm.setWeakObject(owner, for: .typedOwner)
        #expect(vm.weakObject(for: .typedOwner) === owner)
        owner = nil
        #expect(vm.weakObject(for: .typedOwner) == nil)
    }

    @Test func weakSlotKeysTypedByAClassBoundProtocol() {
        let vm = ViewModel()
        var owner: Owner? = Owner()
        vm.setWeakObject(owner, for: .namedOwner)
        #expect(vm.weakObject(for: .namedOwner)?.name == "owner")
        #expect(vm.weakObject(for: .typedOwner) === owner)        // the same slot, read as the class
        vm.setWeakObject(nil, for: .namedOwner)
        #expect(vm.weakObject(for: .namedOwner) == nil)
        vm.setWeakObject(owner, for: .namedOwner)
        owner = nil
        #expect(vm.weakObject(for: .namedOwner) == nil)
        #expect(vm.weakObjectKeys.isEmpty)
        // Another class in the slot does not read as the protocol.
        let other = NSObject()
        vm.setWeakObject(other, forKey: "owner")
        #expect(vm.weakObject(for: .namedOwner) == nil)
    }

    /// Removals, counts and look-ups take typed keys like the rest.
    @Test func removalsAndCountsTakeTypedKeys() {
        let vm = ViewModel(["title": "A", "price": 2, "currency": "EUR"])
        let owner = Owner()
        vm.setWeakObject(owner, for: .typedOwner).removeWeakObject(for: .typedOwner)
        #expect(vm.weakObject(for: .typedOwner) == nil && vm.weakObjectKeys.isEmpty)

        let observer = Owner()
        vm.addObserver(observer, for: .bookTitle) { _, _, _, _ in }
        vm.addObserver(Owner(), for: .bookPrice) { _, _, _, _ in }
        #expect(vm.observerCount(for: .bookTitle) == 1)
        vm.removeObservers(for: .bookTitle)
        #expect(vm.observerCount(for: .bookTitle) == 0 && vm.observerCount(forKey: "title") == 0)

        vm.setCommand(for: .bookPriceText, dependsOn: .bookPrice) { vm in "\(vm[.bookPrice] ?? 0)" }
        #expect(vm.command(for: .bookPriceText)?.dependencies == ["price"])
        #expect(vm.needsExecuteCommand(for: .bookPriceText))
        _ = try? vm.executeCommandIfNeeded(for: .bookPriceText)
        #expect(!vm.needsExecuteCommand(for: .bookPriceText))
        #expect(vm.command(for: .bookTitle) == nil && !vm.needsExecuteCommand(for: .bookTitle))

        vm.addSerializableKeys(.bookTitle, .bookPrice, .bookCurrency).removeSerializableKeys(.bookTitle, .bookCurrency)
        vm.addArchivedKeys(.bookTitle, .bookPrice).removeArchivedKeys(.bookPrice)
        #expect(vm.serializableKeys == ["price"] && vm.archivedKeys == ["title"])
        let section = Section(items: [vm])
        section.addArchivedKeys(.bookTitle, .bookPrice, for: .items).removeArchivedKeys(.bookTitle, for: .items)
        section.addSerializableKeys(.bookTitle, for: .header).removeSerializableKeys(.bookTitle, for: .header)
        #expect(section.archivedKeys(for: .items) == ["price"] && section.serializableKeys(for: .header).isEmpty)
        let manager = Manager(sections: [section])
        manager.addArchivedKeys(.bookTitle, for: .footer).removeArchivedKeys(.bookTitle, for: .footer)
        manager.addSerializableKeys(.bookTitle, .bookPrice, for: .items).removeSerializableKeys(.bookPrice, for: .items)
        #expect(manager.archivedKeys(for: .footer).isEmpty && manager.serializableKeys(for: .items) == ["title"])
    }

    @Test func aValueInAWeakSlotTraps() async {
        await #expect(processExitsWith: .failure) {
            ViewModel().setWeakObject("text", for: ViewModel.Key<String>("title"))
        }
    }

    @Test func commandsDependOnTypedKeys() throws {
        let vm = ViewModel(["price": 2, "currency": "EUR"])
        vm.setCommand(for: .bookPriceText, dependsOn: .bookPrice, .bookCurrency) { vm in
            "\(vm[.bookPrice] ?? 0) \(vm[.bookCurrency] ?? "")"
        }
        #expect(try vm.executeCommandIfNeeded(for: .bookPriceText) == "2.0 EUR")
        vm[.bookCurrency] = "USD"
        #expect(vm.needsExecuteCommand(forKey: "priceText"))
        let command = Command(dependsOn: .bookPrice, .bookCurrency) { _ in 1 }
        #expect(command.dependencies == ["price", "currency"])
    }

    @Test func mergeAndKeyRegistrationTakeTypedKeys() {
        let vm = ViewModel(["title": "A"])
        vm.merge(ViewModel(["price": 3, "pages": 9]), keys: .bookPrice)
        #expect(vm.keys == ["title", "price"])
        vm.addSerializableKeys(.bookTitle, .bookPrice)
        #expect(vm.serializableKeys == ["title", "price"])
        vm.addArchivedKeys(.bookTitle)
        #expect(vm.archivedKeys == ["title"])
    }

    @Test func sectionsManagersAndIdentityRulesTakeTypedKeys() {
        let section = Section(items: [ViewModel(["title": "A", "id": 1]), ViewModel(["title": "B", "id": 2])])
        let manager = Manager(sections: [Section(), section])
        #expect(section.firstIndex(where: .bookTitle, equals: "B") == 1)
        #expect(section.items(where: .bookID, equals: 1).count == 1)
        #expect(manager.indexPath(where: .bookTitle, equals: "B") == IndexPath(item: 1, section: 1))
        #expect(manager.indexPath(where: .bookTitle, equals: "Z") == nil)
        section.addSerializableKeys(.bookTitle, for: .items)
        #expect(section.serializableKeys(for: .items) == ["title"])

        let reordered = Manager(sections: [Section(), Section(items: [section[1], ViewModel(["title": "A", "id": 1])])])
        let changes = ChangeSet(from: manager, to: reordered, identity: .key(.bookTitle))
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty && !changes.movedItems.isEmpty, "matched by title: a move")
    }
}

extension TypedKeyTests {
    @Test func snapshotsReadAStoredValueBeforeTheFallback() {
        let snapshot = ViewModel(["title": "Dune"]).snapshot
        #expect(snapshot[.bookTitle, default: "none"] == "Dune")
        #expect(snapshot[.bookCurrency, default: "EUR"] == "EUR")
    }

    @Test func sectionsFindTheItemsWithAValue() {
        let a = ViewModel(["title": "A"]), b = ViewModel(["title": "B"]), c = ViewModel(["title": "A"])
        let section = Section(items: [a, b, c])
        #expect(section.items(where: .bookTitle, equals: "A").map(ObjectIdentifier.init) == [a, c].map(ObjectIdentifier.init))
        #expect(section.items(where: .bookTitle, equals: "Z").isEmpty)
    }
}

extension TypedKeyTests {
    /// A typed array key reads `nil` from a stored value that is not an
    /// array, rather than wrapping it in one.
    @Test func anArrayKeyReadsNothingFromAValueThatIsNotAnArray() {
        let vm = ViewModel(["tags": "swift", "ids": 7])
        #expect(vm[.bookTagNames] == nil)
        #expect(vm[ViewModel.Key<[Int]>("ids")] == nil)
        #expect(vm[.bookTagNames, default: ["none"]] == ["none"])
    }

    /// An `Int` written through a typed key is stored and exported as an
    /// integer.
    @Test func integersWrittenThroughTypedKeysExportAsIntegers() throws {
        let vm = ViewModel()
        vm[.bookPages] = 412
        let exported = vm.exportJSON()
        guard case .int(412) = exported["pages"] else {
            Issue.record("expected the integer 412, got \(exported)")
            return
        }
    }
}

/// What the API review found missing: typed reads every reader takes, and
/// the spellings a user reaches for first.
@Suite("Typed keys: parity")
struct TypedKeyParityTests {
    @Test func arraysOfReadableElementsReadFromJSONWithTheirKeys() throws {
        let status: JSONObject = ["tags": ["a", "b"], "ids": [1, 2], "mixed": [1, "x", [1]]]
        #expect(try status.read(ViewModel.Key<[String]>("tags")) == ["a", "b"])
        #expect(try status.read(ViewModel.Key<[Int]>("ids")) == [1, 2])
        #expect(try status.read(ViewModel.Key<[JSONValue]>("mixed")).count == 3)
        // An element that does not read: an error naming what was expected.
        #expect(throws: JSONAccessError.self) { try status.read(ViewModel.Key<[Int]>("mixed")) }
        #expect([Int].expectedDescription == "an array whose every element is an integer")
        #expect([JSONValue].expectedDescription == "an array")
        #expect([String].read(from: ["a", 1]) == ["a", "1"])  // lenient, as each element reads
    }

    @Test func jsonArraysAndUnsignedIntegersAreStorableUnderTypedKeys() {
        let vm = ViewModel()
        let list: JSONArray = [1, "two"]
        vm[ViewModel.Key<JSONArray>("list")] = list
        #expect(vm[ViewModel.Key<JSONArray>("list")] == list)
        #expect(vm["list"] == [1, "two"])
        vm[ViewModel.Key<UInt64>("big")] = .max
        #expect(vm[ViewModel.Key<UInt64>("big")] == .max)
        #expect(vm["big"] == .bigInteger("18446744073709551615"))
        vm[ViewModel.Key<UInt64>("small")] = 7
        #expect(vm["small"] == 7)
    }

    @Test func snapshotsReadNestedContentUnderTypedKeys() {
        let vm = ViewModel(["id": 1])
        vm[ViewModel.Key<ViewModel>("author")] = ViewModel(["name": "Ada"])
        vm[ViewModel.Key<[ViewModel]>("replies")] = [ViewModel(["text": "hi"])]
        vm[ViewModel.Key<Section>("section")] = Section(items: [ViewModel()])
        vm[ViewModel.Key<Manager>("manager")] = Manager(sections: [Section(), Section()])
        let snapshot = vm.snapshot
        #expect(snapshot[ViewModel.Key<ViewModel>("author")]?[ViewModel.Key<String>("name")] == "Ada")
        #expect(snapshot[ViewModel.Key<[ViewModel]>("replies")]?.count == 1)
        #expect(snapshot[ViewModel.Key<Section>("section")]?.items.count == 1)
        #expect(snapshot[ViewModel.Key<Manager>("manager")]?.sections.count == 2)
        #expect(snapshot[ViewModel.Key<ViewModel>("id")] == nil)
        #expect(snapshot["id"] == 1)  // a literal still reads JSON
        #expect(!snapshot.isEmpty && ViewModel().snapshot.isEmpty)
    }

    @Test func isEmptyIsTrackedLikeCount() {
        let vm = ViewModel()
        #expect(vm.isEmpty)
        let fired = Recorder<Bool>()
        withObservationTracking { _ = vm.isEmpty } onChange: { fired.append(true) }
        vm["a"] = 1
        #expect(!vm.isEmpty && fired.count == 1)
    }

    @Test func keysAreRegisteredByNameOneByOne() {
        let vm = ViewModel(["id": 1, "title": "A"])
        vm.addSerializableKeys("title").addArchivedKeys("id", "title").removeArchivedKeys("title")
        let name = "id"
        vm.addSerializableKeys(name).removeSerializableKeys("title")
        #expect(vm.serializableKeys == ["id"] && vm.archivedKeys == ["id"])
        let section = Section(items: [vm])
        section.addArchivedKeys("id", "title", for: .items).removeArchivedKeys("title", for: .items)
        section.addSerializableKeys("title", for: .header).removeSerializableKeys("title", for: .header)
        #expect(section.archivedKeys(for: .items) == ["id"] && section.serializableKeys(for: .header).isEmpty)
        let manager = Manager(sections: [section])
        manager.addSerializableKeys("id", "title", for: .items).removeSerializableKeys("id", for: .items)
        manager.addArchivedKeys("note", for: .footer).removeArchivedKeys("note", for: .footer)
        #expect(manager.serializableKeys(for: .items) == ["title"] && manager.archivedKeys(for: .footer).isEmpty)
    }
}
