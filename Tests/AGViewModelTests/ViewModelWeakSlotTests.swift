import Testing
import AGViewModel

@Suite("ViewModel weak slots")
struct ViewModelWeakSlotTests {
    final class Controller: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    @Test func slotDoesNotRetainAndEmptiesOnDeallocation() {
        let vm = ViewModel()
        weak var watcher: Controller?
        do {
            let controller = Controller(name: "feed")
            watcher = controller
            vm.setWeakObject(controller, forKey: "owner")
            #expect(vm.weakObject(forKey: "owner", as: Controller.self)?.name == "feed")
            #expect(vm.weakObjectKeys == ["owner"])
        }
        // The only strong reference is gone: the ViewModel did not keep it.
        #expect(watcher == nil)
        #expect(vm.weakObject(forKey: "owner") == nil)
        #expect(vm.weakObjectKeys.isEmpty)
    }

    @Test func setGetRemove() {
        let vm = ViewModel(["title": "T"])
        let a = Controller(name: "a")
        vm.setWeakObject(a, forKey: "owner")
        #expect(vm.weakObject(forKey: "owner") === a)
        #expect(vm.weakObject(forKey: "owner", as: ViewModel.self) == nil)   // wrong type
        #expect(vm.keys == ["title"])                                    // not in the keyed store
        vm.removeWeakObject(forKey: "owner")
        #expect(vm.weakObject(forKey: "owner") == nil)
        vm.setWeakObject(a, forKey: "x").setWeakObject(nil, forKey: "x")
        #expect(vm.weakObject(forKey: "x") == nil)
        withExtendedLifetime(a) {}
    }

    @Test @MainActor func mainActorObjectsAreAccepted() {
        // Main-actor classes (views, controllers) are Sendable.
        @MainActor final class Screen { var shown = 0 }
        let vm = ViewModel()
        let screen = Screen()
        vm.setWeakObject(screen, forKey: "screen")
        vm.weakObject(forKey: "screen", as: Screen.self)?.shown += 1
        #expect(screen.shown == 1)
    }
}

extension ViewModelWeakSlotTests {
    @Test func weakObjectKeysListTheLiveSlotsSorted() {
        let vm = ViewModel()
        let a = Controller(name: "a")
        for key in ["delta", "alpha", "charlie", "bravo"] { vm.setWeakObject(a, forKey: key) }
        do {
            let temporary = Controller(name: "t")
            vm.setWeakObject(temporary, forKey: "echo")
        }
        #expect(vm.weakObjectKeys == ["alpha", "bravo", "charlie", "delta"])
        withExtendedLifetime(a) {}
    }
}
