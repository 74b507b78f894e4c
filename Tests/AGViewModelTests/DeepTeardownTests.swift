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
