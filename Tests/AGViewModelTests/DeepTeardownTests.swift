import Testing
import AGViewModel

@Suite("Deep ViewModel trees")
struct DeepTeardownTests {
    @Test func aMillionNestedLevelsAreReleasedWithoutOverflowingTheStack() {
        weak var weakRoot: ViewModel?
        weak var weakLeaf: ViewModel?
        do {
            let leaf = ViewModel(["depth": 1_000_000])
            weakLeaf = leaf
            var current = leaf
            for depth in stride(from: 999_999, through: 1, by: -1) {
                let parent = ViewModel(["depth": .int(Int64(depth))])
                parent[value: "child"] = .payload(current)
                current = parent
            }
            weakRoot = current
            #expect(current.int(at: "depth") == 1)
        }
        #expect(weakRoot == nil)
        #expect(weakLeaf == nil, "the whole tree is released")
    }

    /// A chain through managers and sections (a ViewModel holding a
    /// manager, its section holding the next ViewModel as an item or a
    /// header) is released as iteratively as one of ViewModels.
    @Test func aDeepChainThroughSectionsAndManagersIsReleasedWithoutOverflowingTheStack() {
        let released = onSmallStackThread(stackSize: 256 * 1024) { () -> Bool in
            weak var weakRoot: ViewModel?
            weak var weakLeaf: ViewModel?
            weak var weakSection: Section?
            do {
                let leaf = ViewModel(["depth": 30_000])
                weakLeaf = leaf
                var current = leaf
                for depth in stride(from: 29_999, through: 1, by: -1) {
                    let parent = ViewModel(["depth": .int(Int64(depth))])
                    switch depth % 3 {
                    case 0: parent.set("page", payload: Manager(sections: [Section(items: [current])]))
                    case 1: parent.set("section", payload: Section(header: current))
                    default: parent.set("list", payload: [current])
                    }
                    current = parent
                }
                weakRoot = current
                weakSection = current.payload(forKey: "section", as: Section.self)
            }
            return weakRoot == nil && weakLeaf == nil && weakSection == nil
        }
        #expect(released == true, "the whole chain is released")
    }

    /// Reading a ViewModel as JSON walks its nested ViewModels with its own
    /// stack: 100,000 levels read on a 256 KB thread, and `decode` reports
    /// the decoder's depth limit instead of overflowing.
    @Test func aDeepChainReadsAsJSONOnASmallStack() {
        let result = onSmallStackThread(stackSize: 256 * 1024) { () -> (Int, Bool, Bool) in
            let root = ViewModel(["depth": 0])
            var current = root
            for level in 1...100_000 {
                let child = ViewModel(["depth": .int(Int64(level))])
                child[value: "list"] = .payload([ViewModel(["leaf": true])])
                current[value: "child"] = .payload(child)
                current = child
            }
            guard var value = root.value(at: "") else { return (-1, false, false) }
            var depth = 0
            while let child = value["child"] {
                value = child
                depth += 1
            }
            let leafFound = value["list"]?[0]?["leaf"] == true
            let decodeFailed = (try? root.decode(JSONValue.self)) == nil
            return (depth, leafFound, decodeFailed)
        }
        #expect(result?.0 == 100_000)
        #expect(result?.1 == true, "the leaf list is read")
        #expect(result?.2 == true, "decode throws")
    }

    @Test func aViewModelThatHoldsItselfReadsAsNullThere() {
        let vm = ViewModel(["name": "a"])
        let child = ViewModel(["back": 1])
        vm[value: "me"] = .payload(vm)
        vm[value: "list"] = .payload([child, vm])
        child[value: "parent"] = .payload(vm)
        #expect(vm.value(at: "") == ["name": "a", "me": nil, "list": [["back": 1, "parent": nil], nil]])
        // Each ViewModel is cut off only inside itself: a sibling reads in full.
        let twice = ViewModel()
        twice[value: "a"] = .payload(child)
        twice[value: "b"] = .payload(child)
        #expect(twice.value(at: "a") == twice.value(at: "b"))
        let fromChild: JSONValue = ["back": 1, "parent": ["name": "a", "me": nil, "list": [nil, nil]]]
        #expect(twice.value(at: "") == ["a": fromChild, "b": fromChild])
    }

    @Test func sharedChildrenSurviveTheirParent() {
        let shared = ViewModel(["name": "shared"])
        shared[value: "inner"] = .payload(ViewModel(["name": "inner"]))
        do {
            let parent = ViewModel()
            parent[value: "a"] = .payload(shared)
            parent[value: "list"] = .payload([shared, ViewModel(["name": "own"])])
        }
        #expect(shared["name"] == "shared")
        #expect(shared.payload(forKey: "inner", as: ViewModel.self)?["name"] == "inner",
                "a child someone else holds keeps its own children")
    }
}
