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
}
