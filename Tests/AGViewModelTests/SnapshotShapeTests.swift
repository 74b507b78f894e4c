import Foundation
import Testing
@testable import AGViewModel

/// Snapshots keep the shape of what they copy, as `copy()` does, and say
/// what they leave out.
@Suite("Snapshots: shape and omissions")
struct SnapshotShapeTests {
    private final class Image {}

    private func nested(_ viewModel: ViewModel?, _ key: String) -> ViewModel? {
        viewModel?.payload(forKey: key, as: ViewModel.self)
    }

    @Test func aViewModelHeldTwiceIsMadeOnce() {
        let author = ViewModel(["name": "Ada"])
        let post = ViewModel().set("author", payload: author).set("editor", payload: author)
            .set("people", payload: [author, ViewModel(["name": "Bo"])])
        let made = post.snapshot.makeViewModel()
        let madeAuthor = nested(made, "author")
        #expect(madeAuthor !== author)
        #expect(madeAuthor === nested(made, "editor"))
        #expect(madeAuthor === made.payload(forKey: "people", as: [ViewModel].self)?.first)
        madeAuthor?["name"] = "Grace"
        #expect(nested(made, "editor")?["name"] == "Grace" && author["name"] == "Ada")
        // Two ViewModels made from one snapshot are independent of each other.
        #expect(nested(post.snapshot.makeViewModel(), "author") !== nested(post.snapshot.makeViewModel(), "author"))
    }

    @Test func sectionsAndManagersKeepSharedItemsShared() {
        let pinned = ViewModel(["id": 1])
        let first = Section(items: [pinned]), second = Section(items: [pinned, ViewModel(["id": 2])], header: pinned)
        let manager = Manager(sections: [first, second, first])
        let made = manager.snapshot.makeManager()
        #expect(made[0][0] === made[1][0] && made[1].header === made[0][0])
        #expect(made[0] === made[2] && made[0] !== first)
        let holder = ViewModel().set("a", payload: first).set("b", payload: first).set("table", payload: manager)
        let madeHolder = holder.snapshot.makeViewModel()
        let a = madeHolder.payload(forKey: "a", as: Section.self)
        #expect(a === madeHolder.payload(forKey: "b", as: Section.self))
        #expect(a === madeHolder.payload(forKey: "table", as: Manager.self)?[0])
    }

    /// Each level holds the next twice: unrolled, 2^60 ViewModels; taken
    /// once each, 61.
    @Test func aGraphWithSharingIsTakenOncePerViewModel() {
        var next = ViewModel(["depth": 60])
        for depth in (0..<60).reversed() {
            next = ViewModel(["depth": .int(Int64(depth))]).set("left", payload: next).set("right", payload: next)
        }
        let made = next.snapshot.makeViewModel()
        var node: ViewModel? = made, count = 0
        while let current = node, let left = nested(current, "left") {
            #expect(left === nested(current, "right"))
            node = left
            count += 1
        }
        #expect(count == 60 && node?["depth"] == 60)
    }

    @Test func everyPayloadLeftOutIsListedWithItsPath() {
        let child = ViewModel(["title": "Cover"]).set("image", payload: Image())
        let item = ViewModel(["id": 1]).set("avatar", payload: URL(string: "https://example.com/a.png")!)
        let top = ViewModel(["id": 1]).set("child", payload: child).set("list", payload: [ViewModel(), child])
            .set("section", payload: Section(items: [item], header: child)).set("logo", payload: Image())
        let snapshot = top.snapshot
        #expect(snapshot.omittedKeys == ["logo"])
        #expect(snapshot.omitted.map(\.description) == [
            "child.image: skipped payload of type Image",
            "section.items[0].avatar: skipped payload of type URL",
            "logo: skipped payload of type Image",
        ])
        // The child is taken once: its image is listed where it was first found.
        let section = Section(items: [item], footer: child)
        #expect(section.snapshot.omitted.map(\.description) == [
            "items[0].avatar: skipped payload of type URL", "footer.image: skipped payload of type Image",
        ])
        let manager = Manager(sections: [Section(), section], common: child)
        #expect(manager.snapshot.omitted.map(\.description) == [
            "sections[1].items[0].avatar: skipped payload of type URL",
            "sections[1].footer.image: skipped payload of type Image",
        ])
        #expect(snapshot[value: "child"].map { if case .viewModel(let nested) = $0 { nested.omitted.isEmpty } else { false } } == true)
    }

    /// A ViewModel that contains itself through a section or a manager:
    /// the key that comes back to it is left out and listed, not changed.
    @Test func aCycleThroughASectionOrManagerIsLeftOutAndListed() {
        let item = ViewModel(["id": 1])
        item.set("replies", payload: Section(items: [item]))
        let snapshot = item.snapshot
        #expect(snapshot.keys == ["id"] && snapshot.omittedKeys == ["replies"])
        #expect(snapshot.omitted.map(\.description) == ["replies: skipped ViewModel that contains itself"])

        let common = ViewModel(["id": 2])
        common.set("table", payload: Manager(sections: [Section(items: [ViewModel()])], common: common))
        #expect(common.snapshot.omittedKeys == ["table"])
        let header = ViewModel(["id": 3])
        header.set("table", payload: Manager(sections: [Section(header: header)]))
        #expect(header.snapshot.omittedKeys == ["table"])
        // Deeper down, the cycle is left out where it closes.
        let deep = ViewModel(["id": 4]), middle = ViewModel()
        middle.set("back", payload: deep)
        deep.set("section", payload: Section(items: [middle]))
        let deepSnapshot = deep.snapshot
        #expect(deepSnapshot.keys == ["id", "section"])
        #expect(deepSnapshot.omitted.map(\.description) == ["section.items[0].back: skipped ViewModel that contains itself"])
    }

    /// An edited section or manager snapshot is made on its own; the
    /// copies left as taken stay one.
    @Test func anEditedSnapshotIsMadeOnItsOwn() {
        let shared = Section(items: [ViewModel(["id": 1])])
        var snapshot = Manager(sections: [shared, shared, shared]).snapshot
        snapshot.sections[1].items.append(ViewModel(["id": 2]).snapshot)
        snapshot.sections[2].header = ViewModel(["title": "new"]).snapshot
        let made = snapshot.makeManager()
        #expect(made[0].count == 1 && made[0].header == nil)
        #expect(made[1].count == 2 && made[1].header == nil)
        #expect(made[2].count == 1 && made[2].header?["title"] == "new")
        #expect(made[0] !== made[1] && made[1] !== made[2])
        // The item all three hold is still one ViewModel.
        #expect(made[0][0] === made[1][0] && made[1][0] === made[2][0])

        var section = Section().snapshot
        let item = ViewModel(["id": 1]).snapshot
        section.items = [item, item]
        let madeSection = section.makeSection()
        #expect(madeSection[0] === madeSection[1])   // one snapshot placed twice: one ViewModel
    }

    @Test func theIndexPathIsKept() {
        let vm = ViewModel(["id": 1])
        vm.indexPath = IndexPath(item: 3, section: 1)
        #expect(vm.snapshot.makeViewModel().indexPath == IndexPath(item: 3, section: 1))
    }
}
