import Foundation
import Testing
import AGViewModel

@Suite("ViewModel deep merge and path setter")
struct ViewModelDeepMergeTests {
    @Test func objectsMergeRecursivelyOtherValuesReplace() {
        let vm = ViewModel(["user": ["name": "Ann", "age": 30], "tags": ["a"], "n": 1])
        vm.deepMerge(["user": ["age": 31, "city": "Oslo"], "tags": ["b"], "new": true])
        #expect(vm["user"] == ["name": "Ann", "age": 31, "city": "Oslo"])
        #expect(vm["user"]?.objectValue?.keys == ["name", "age", "city"])
        #expect(vm["tags"] == ["b"])
        #expect(vm["n"] == 1)
        #expect(vm["new"] == true)
        #expect(vm.keys == ["user", "tags", "n", "new"])
    }

    @Test func nestedViewModelsMergeInPlace() {
        let author = ViewModel(["name": "Ann"])
        let vm = ViewModel().set("author", payload: author)
        vm.deepMerge(["author": ["born": 1990]])
        #expect(author["name"] == "Ann")
        #expect(author["born"] == 1990)
        #expect(vm.string(at: "author.name") == "Ann")

        let other = ViewModel(["title": "T"]).set("author", payload: ViewModel(["name": "Bo"]))
        vm.deepMerge(other)
        #expect(author["name"] == "Bo")  // merged into the existing nested ViewModel
        #expect(vm["title"] == "T")
        vm.deepMerge(vm)  // merging into itself changes nothing
        #expect(vm["title"] == "T")
    }

    @Test func anObjectReplacesAViewModelStoredUnderItsOwnKey() {
        let vm = ViewModel(["title": "T"])
        vm.set("me", payload: vm)
        vm.deepMerge(["me": ["title": "U"]])
        #expect(vm["me"] == ["title": "U"])
        #expect(vm["title"] == "T")
        #expect(vm.keys == ["title", "me"])
    }

    @Test func aNestedViewModelMergesIntoAStoredObject() {
        let vm = ViewModel(["user": ["name": "Ann", "age": 30]])
        let image = NSObject()
        let other = ViewModel().set("user", payload: ViewModel(["age": 31]).set("avatar", payload: image))
        vm.deepMerge(other)
        #expect(vm.string(at: "user.name") == "Ann")
        #expect(vm.int(at: "user.age") == 31)
        #expect(vm.payload(forKey: "user", as: ViewModel.self)?.payload(forKey: "avatar", as: NSObject.self) === image)
    }

    @Test func mergingLaterDoesNotChangeTheSource() {
        let target = ViewModel(), source = ViewModel()
        let nested = ViewModel(["name": "B"])
        source.set("user", payload: nested)
        target.deepMerge(source)
        target.deepMerge(["user": ["name": "A-changed"]])
        #expect(target.string(at: "user.name") == "A-changed")
        #expect(nested["name"] == "B")
        #expect(source.payload(forKey: "user", as: ViewModel.self) === nested)
    }

    @Test func mergedListsKeepTheirShapeAndOtherEmptyArraysTheirType() {
        struct Image { var name: String }
        let a = ViewModel(["n": 1])
        let source = ViewModel().set("list", payload: [a, a]).set("images", payload: [Image]())
        let target = ViewModel().deepMerge(source)
        let list = target.payload(forKey: "list", as: [ViewModel].self)
        #expect(list?.count == 2 && list?[0] === list?[1] && list?[0] !== a)
        // An empty array casts to any array type: its own type must stay.
        guard case .payload(let images)? = target[value: "images"] else {
            Issue.record("no images payload")
            return
        }
        #expect(type(of: images) == [Image].self)
        // A snapshot cannot copy the images: it leaves them out, rather
        // than bringing back an empty list of ViewModels.
        let snapshot = source.snapshot
        #expect(snapshot.omittedKeys == ["images"])
        #expect(!snapshot.makeViewModel().contains("images"))
        #expect(snapshot.makeViewModel().payload(forKey: "list", as: [ViewModel].self)?.count == 2)
    }

    /// A list typed `[Any]` that holds only ViewModels is a list of
    /// ViewModels everywhere: reads, writes, export and copies.
    @Test func listsTypedAnyOfViewModelsAreListsToo() {
        let inner = ViewModel(["x": 1])
        let vm = ViewModel()
        vm[value: "l"] = .payload([inner] as [Any])
        #expect(vm.value(at: "l[0].x") == 1)
        vm.setValue(5, at: "l[0].x")
        #expect(inner["x"] == 5)
        #expect(vm.exportJSON() == ["l": [["x": 5]]])
        #expect(vm.copy().payload(forKey: "l", as: [ViewModel].self)?.first.map { $0 !== inner } == true)
        // An empty array of another type is no list, for reads too.
        vm[value: "e"] = .payload([Int]())
        #expect(vm.value(at: "e") == nil)
    }

    @Test func mergedArraysOfViewModelsAreCopies() {
        let reply = ViewModel(["text": "hi"])
        let source = ViewModel().set("replies", payload: [reply])
        let target = ViewModel().deepMerge(source)
        target.setValue("edited", at: "replies[0].text")
        #expect(target.string(at: "replies[0].text") == "edited")
        #expect(reply["text"] == "hi")
        #expect(source.payload(forKey: "replies", as: [ViewModel].self)?.first === reply)
    }

    @Test func viewModelsThatReferToTheirParentsMergeOncePerPair() {
        let parent = ViewModel(["n": 1]), child = ViewModel(["m": 1])
        parent[value: "child"] = .payload(child)
        child[value: "parent"] = .payload(parent)
        let newParent = ViewModel(["n": 2]), newChild = ViewModel(["m": 2, "extra": true])
        newParent[value: "child"] = .payload(newChild)
        newChild[value: "parent"] = .payload(newParent)

        parent.deepMerge(newParent)
        #expect(parent["n"] == 2)
        #expect(child["m"] == 2)
        #expect(child["extra"] == true)
        // The nested ViewModels stay the same objects, still a cycle.
        #expect(parent.payload(forKey: "child", as: ViewModel.self) === child)
        #expect(child.payload(forKey: "parent", as: ViewModel.self) === parent)
    }

    @Test func aViewModelReplacesAViewModelStoredUnderItsOwnKey() {
        let vm = ViewModel(["title": "T"])
        vm.set("me", payload: vm)
        vm.deepMerge(ViewModel().set("me", payload: ViewModel(["title": "U"])))
        #expect(vm.string(at: "me.title") == "U")
        #expect(vm.payload(forKey: "me", as: ViewModel.self) !== vm)
        #expect(vm["title"] == "T")
        #expect(vm.keys == ["title", "me"])
    }

    /// Merging a ViewModel into one nested in it, or the other way round,
    /// merges it as it was before the merge began, whatever its key order:
    /// as merging a copy of it does.
    @Test(arguments: [false, true])
    func aViewModelMergesAsItWasWhenItHoldsTheTarget(childFirst: Bool) {
        func parentAndChild() -> (parent: ViewModel, child: ViewModel) {
            let child = ViewModel(["x": 2]), parent = ViewModel()
            if childFirst {
                parent.set("child", payload: child)
                parent["x"] = 1
            } else {
                parent["x"] = 1
                parent.set("child", payload: child)
            }
            return (parent, child)
        }
        let live = parentAndChild(), copied = parentAndChild()
        live.child.deepMerge(live.parent)
        copied.child.deepMerge(copied.parent.copy())
        #expect(live.child["x"] == 1)
        #expect(live.child.int(at: "child.x") == 2)
        #expect(live.child.exportJSON() == copied.child.exportJSON())
        #expect(live.parent.payload(forKey: "child", as: ViewModel.self) === live.child)
    }

    @Test func aNestedViewModelMergedIntoItsParentIsReadAsItWas() {
        func parentAndChild() -> (parent: ViewModel, child: ViewModel) {
            let child = ViewModel().set("child", payload: ViewModel(["x": 3]))
            child["x"] = 2
            let parent = ViewModel(["x": 1]).set("child", payload: child)
            return (parent, child)
        }
        let live = parentAndChild(), copied = parentAndChild()
        live.parent.deepMerge(live.child)
        copied.parent.deepMerge(copied.child.copy())
        // The nested merge sets `child.x` to 3 before `x` is read: `x` is
        // still 2 in what is merged.
        #expect(live.parent["x"] == 2)
        #expect(live.parent.exportJSON() == copied.parent.exportJSON())
    }

    /// A JSON object in `other` merges into a ViewModel stored in the
    /// target; when that ViewModel is `other` itself or nested in it, the
    /// merge still reads `other` as it was.
    @Test func aJSONObjectMergingIntoTheOtherViewModelReadsItAsItWas() {
        let child = ViewModel(["c": ["z": 1], "z": 2])
        let parent = ViewModel().set("c", payload: child)
        parent.deepMerge(child)
        #expect(parent["z"] == 2)
        #expect(child["z"] == 1, "merged into through parent.c")

        let shared = ViewModel(["x": 0])
        let target = ViewModel().set("k", payload: shared)
        target.deepMerge(ViewModel(["k": ["x": 1]]).set("a", payload: shared))
        #expect(target.int(at: "a.x") == 0)
        #expect(shared["x"] == 1)
    }

    /// A ViewModel shared in the target is written twice; a ViewModel
    /// shared in `other` is read as it was, not as the merge left a copy.
    @Test func sharedViewModelsAreReadAsTheyWere() {
        let shared = ViewModel()
        let target = ViewModel().set("c", payload: shared).set("d", payload: shared).set("e", payload: ViewModel())
        let x = ViewModel(["x": 1])
        let other = ViewModel()
            .set("c", payload: ViewModel().set("a", payload: x))
            .set("d", payload: ViewModel(["a": ["y": 2]]))
            .set("e", payload: x)
        target.deepMerge(other)
        #expect(target.value(at: "c.a") == ["x": 1, "y": 2])
        #expect(target.value(at: "e") == ["x": 1])
        #expect(x.exportJSON() == ["x": 1])
    }

    /// A ViewModel both hold is no change, also when `other` is read from a
    /// copy taken first: whatever another key merged into it stays, in
    /// either order of `other`'s keys.
    @Test(arguments: [false, true])
    func aViewModelBothHoldIsNoChangeInEitherKeyOrder(replacementFirst: Bool) {
        // `other` writes into `shared` through "x" and also holds it under "c".
        let shared = ViewModel(["v": 1])
        let target = ViewModel().set("x", payload: shared).set("c", payload: shared)
        let other = ViewModel()
        if replacementFirst { other.set("x", payload: ViewModel(["v": 2])) }
        other.set("c", payload: shared)
        if !replacementFirst { other.set("x", payload: ViewModel(["v": 2])) }
        target.deepMerge(other)
        #expect(shared["v"] == 2)
        #expect(target.payload(forKey: "c", as: ViewModel.self) === shared)

        // Merging a parent into its child: the child and the parent hold `g`.
        let g = ViewModel(["v": 1])
        let child = ViewModel().set("x", payload: g).set("g", payload: g)
        let parent = ViewModel()
        if replacementFirst { parent.set("x", payload: ViewModel(["v": 2])) }
        parent.set("c", payload: child).set("g", payload: g)
        if !replacementFirst { parent.set("x", payload: ViewModel(["v": 2])) }
        child.deepMerge(parent)
        #expect(g["v"] == 2)
        #expect(child.payload(forKey: "g", as: ViewModel.self) === g)
    }

    /// A section or manager the target already holds stays shared: nothing
    /// changes, nothing is reported.
    @Test func theSameSectionOrManagerIsNoChange() {
        let section = Section(items: [ViewModel(["n": 1])])
        let manager = Manager(sections: [Section()])
        let target = ViewModel().set("s", payload: section).set("m", payload: manager)
        let changed = Recorder<String>()
        let token = target.observe(["s", "m"]) { _, key, _ in changed.append(key) }
        target.deepMerge(ViewModel().set("s", payload: section).set("m", payload: manager).set("n", payload: ViewModel()))
        #expect(changed.items.isEmpty)
        #expect(target.payload(forKey: "s", as: Section.self) === section)
        #expect(target.payload(forKey: "m", as: Manager.self) === manager)
        _ = token
    }

    /// Without sharing, merging a ViewModel gives the same JSON as merging
    /// the same data as a JSON object, and leaves the ViewModel as it was.
    @Test func mergingAViewModelAgreesWithMergingItsJSON() throws {
        let keys = ["a", "b", "c"]
        let scalars: [JSONValue] = [1, 1.0, "s", nil, false, [1, 2], []]
        func randomObject(_ generator: inout SplitMix64, depth: Int = 0) -> JSONObject {
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let key = keys.randomElement(using: &generator)!
                object[key] = depth < 2 && Bool.random(using: &generator)
                    ? .object(randomObject(&generator, depth: depth + 1))
                    : scalars.randomElement(using: &generator)!
            }
            return object
        }
        // Some nested objects become nested ViewModels.
        func viewModel(_ object: JSONObject, _ generator: inout SplitMix64) -> ViewModel {
            let vm = ViewModel()
            for (key, value) in object {
                if case .object(let members) = value, Bool.random(using: &generator) {
                    vm.set(key, payload: viewModel(members, &generator))
                } else {
                    vm[key] = value
                }
            }
            return vm
        }
        for seed in UInt64(1)...1_000 {
            var generator = SplitMix64(seed: seed)
            let base = randomObject(&generator), incoming = randomObject(&generator)
            let merged = viewModel(base, &generator), expected = viewModel(base, &generator)
            let source = viewModel(incoming, &generator)
            let sourceBefore = try source.exportJSON().jsonString()
            merged.deepMerge(source)
            expected.deepMerge(incoming)
            let (mergedText, expectedText) = try (merged.exportJSON().jsonString(), expected.exportJSON().jsonString())
            try #require(mergedText == expectedText, "seed \(seed)")
            merged.deepMerge(["a": ["a": 9], "b": ["b": 9], "c": ["c": 9]])
            let sourceAfter = try source.exportJSON().jsonString()
            try #require(sourceAfter == sourceBefore, "seed \(seed)")
        }
    }

    @Test func setValueByPathCreatesWhatIsMissing() {
        let vm = ViewModel(["user": ["name": "Ann"]])
        vm.setValue("Oslo", at: "user.address.city")
        let key = "stats.counts[2]"
        vm.setValue(7, at: key)
        #expect(vm.string(at: "user.address.city") == "Oslo")
        #expect(vm["stats"] == ["counts": [nil, nil, 7]])
        vm.setValue(1, at: "[0]")  // a path must start with a key
        #expect(vm.keys == ["user", "stats"])
        let nested = ViewModel()
        vm.set("child", payload: nested)
        vm.setValue("x", at: "child.a.b")
        #expect(nested["a"] == ["b": "x"])
    }

    @Test func setValueByPathWalksIntoArraysOfViewModels() {
        let first = ViewModel(["title": "A"]), second = ViewModel(["title": "B"])
        let vm = ViewModel().set("items", payload: [first, second])
        vm.setValue("A2", at: "items[0].title")
        vm.setValue(true, at: "items[1].seen")
        #expect(first["title"] == "A2")
        #expect(second["seen"] == true)
        #expect(vm.string(at: "items[0].title") == "A2")
        // The list stays a list of the same ViewModels.
        #expect(vm.payload(forKey: "items", as: [ViewModel].self)?.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
    }

    @Test func setValueByPathLeavesOtherPayloadsAlone() {
        struct Image: Equatable { var name: String }
        let item = ViewModel(["title": "A"])
        let vm = ViewModel().set("items", payload: [item]).set("image", payload: Image(name: "cover"))
        vm.setValue("x", at: "image.size")
        vm.setValue(["title": "Z"], at: "items[0]")  // a whole element
        vm.setValue("Z", at: "items[5].title")       // past the end
        vm.setValue("Z", at: "items.title")          // a key into a list
        #expect(vm.payload(forKey: "image", as: Image.self) == Image(name: "cover"))
        #expect(vm.payload(forKey: "items", as: [ViewModel].self)?.first === item)
        #expect(vm.payload(forKey: "items", as: [ViewModel].self)?.count == 1)
        #expect(item["title"] == "A")
    }
}

extension ViewModelDeepMergeTests {
    /// `merge(_:keys:)` copies the listed keys the object has; a listed key
    /// it lacks is left alone, not removed.
    @Test func mergingSelectedKeysLeavesKeysTheObjectLacks() {
        let vm = ViewModel(["title": "Old", "count": 1])
        vm.merge(["title": "New"], keys: ["title", "count"])
        #expect(vm.string(at: "title") == "New")
        #expect(vm.int(at: "count") == 1)
        #expect(vm.keys == ["title", "count"])
    }
}

extension ViewModelDeepMergeTests {
    @Test func mergingAViewModelIntoItselfKeepsItsLists() {
        let reply = ViewModel(["text": "hi"])
        let vm = ViewModel(["n": 1]).set("replies", payload: [reply])
        vm.deepMerge(vm)
        #expect(vm.payload(forKey: "replies", as: [ViewModel].self)?.first === reply)
        #expect(vm["n"] == 1)
    }
}

/// `removeValue(at:)`, the path remover beside `setValue(_:at:)`.
@Suite("ViewModel path remover")
struct ViewModelPathRemovalTests {
    @Test func removesWhatThePathNamesAndReturnsIt() {
        let vm = ViewModel(["user": ["name": "Ann", "age": 30], "tags": ["a", "b", "c"], "n": 1])
        vm[ViewModel.Key<ViewModel>("author")] = ViewModel(["name": "Ada", "bio": ["born": 1815]])
        vm[ViewModel.Key<[ViewModel]>("replies")] = [ViewModel(["text": "hi", "likes": 2])]
        #expect(vm.removeValue(at: "user.age")?.json == 30)
        #expect(vm["user"] == ["name": "Ann"])
        #expect(vm.removeValue(at: "tags[1]")?.json == "b")
        #expect(vm["tags"] == ["a", "c"])
        #expect(vm.removeValue(at: "author.bio.born")?.json == 1815)
        #expect(vm[ViewModel.Key<ViewModel>("author")]?["bio"] == [:])
        #expect(vm.removeValue(at: "replies[0].likes")?.json == 2)
        #expect(vm[ViewModel.Key<[ViewModel]>("replies")]?[0].keys == ["text"])
        #expect(vm.removeValue(at: "n")?.json == 1)
        #expect(vm.removeValue(at: JSONPath([.key("author")]))?.payload is ViewModel)
        #expect(vm.keys == ["user", "tags", "replies"])
    }

    /// Nothing at the path: `nil`, and no write an observer would hear.
    @Test func aPathToNothingChangesNothing() {
        let vm = ViewModel(["user": ["name": "Ann"], "tags": ["a"]])
        vm[ViewModel.Key<[ViewModel]>("replies")] = [ViewModel(["text": "hi"])]
        var changes: [String] = []
        let token = vm.observe(["user", "tags", "replies"]) { _, key, _ in changes.append(key) }
        for path in ["user.missing", "tags[5]", "tags[-1]", "missing.x", "[0]", "replies[3].text", "replies[0]", "user.name.first"] {
            #expect(vm.removeValue(at: path) == nil, "\(path)")
        }
        #expect(vm.removeValue(at: JSONPath([])) == nil)
        #expect(changes.isEmpty)
        #expect(vm["user"] == ["name": "Ann"] && vm["tags"] == ["a"])
        vm.removeValue(at: "user.name")
        #expect(changes == ["user"])
        withExtendedLifetime(token) {}
    }
}
