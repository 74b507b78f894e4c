import Testing
import AGViewModel

extension ViewModelAction {
    static let likeTapped = ViewModelAction("likeTapped")
    static let shareTapped = ViewModelAction(rawValue: "shareTapped")
}

@MainActor
final class RecordingDelegate: ViewModelDelegate {
    var received: [(ViewModel, ViewModelAction, ViewModel?)] = []
    func viewModel(_ viewModel: ViewModel, didReceive action: ViewModelAction, info: ViewModel?) {
        received.append((viewModel, action, info))
    }
}

@Suite("ViewModel delegate actions") @MainActor
struct ViewModelActionTests {
    @Test func actionsReachTheDelegateWithInfo() {
        let vm = ViewModel(["id": 1])
        let delegate = RecordingDelegate()
        vm.delegate = delegate
        #expect(vm.send(.likeTapped))
        let info = ViewModel(["count": 2])
        vm.send(.shareTapped, info: info)
        #expect(delegate.received.count == 2)
        #expect(delegate.received[0].0 === vm)
        #expect(delegate.received[0].1 == .likeTapped)
        #expect(delegate.received[0].2 == nil)
        #expect(delegate.received[1].1 == .shareTapped)
        #expect(delegate.received[1].2 === info)
        #expect(ViewModelAction.likeTapped.rawValue == "likeTapped")
        #expect(ViewModelAction("likeTapped") == .likeTapped)
    }

    @Test func withoutDelegateActionsAreDropped() {
        let vm = ViewModel()
        #expect(!vm.send(.likeTapped))
        weak var watcher: RecordingDelegate?
        do {
            let delegate = RecordingDelegate()
            watcher = delegate
            vm.setDelegate(delegate)
            #expect(vm.delegate === delegate)
        }
        #expect(watcher == nil)                 // held weakly
        #expect(vm.delegate == nil)
        #expect(!vm.send(.likeTapped))
    }
}
