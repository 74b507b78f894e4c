import Foundation
import Testing
@testable import AGViewModel

private extension Notification.Name {
    static let cartDidChange = Notification.Name("AGViewModelTests.cartDidChange")
    static let other = Notification.Name("AGViewModelTests.other")
}

/// Records what it is forwarded: (observing ViewModel, posted ViewModel's "id").
/// A main-actor class conforms as it is, like a view controller would.
@MainActor
private final class Handler: ViewModelNotificationHandler {
    let received = Recorder<String>()

    func viewModel(_ viewModel: ViewModel, didReceive notification: Notification) {
        let name = notification.name.rawValue.split(separator: ".").last!
        received.append("\(render(viewModel[value: "name"])) got \(name) from \(render(notification.viewModel?[value: "id"]))")
    }
}

@Suite("Named notifications")
@MainActor
struct ViewModelNotificationTests {
    /// A plain Foundation observer, which may run on any thread, gets the
    /// notification but not the ViewModel: `userInfo` holds it wrapped, and
    /// `Notification.viewModel` opens it on the main actor (a handler's, in
    /// the next test).
    @Test func postCarriesTheViewModel() {
        let center = NotificationCenter()
        let vm = ViewModel(["id": 7])
        let received = Recorder<Bool>()
        let token = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { note in
            let carried = note.userInfo?[ViewModel.notificationUserInfoKey]
            received.append(carried != nil && !(carried is ViewModel) && note.userInfo?["extra"] as? Int == 1)
        }
        vm.postNotification(named: .cartDidChange, userInfo: ["extra": 1], center: center)
        #expect(received.items == [true])
        #expect(Notification(name: .other).viewModel == nil)
        center.removeObserver(token)
    }

    /// A ViewModel that other code puts under the key itself (one of
    /// another actor, say) is not handed to the main actor.
    @Test func onlyAPostedViewModelIsOpened() {
        let foreign = Notification(name: .cartDidChange, object: nil,
                                   userInfo: [ViewModel.notificationUserInfoKey: ViewModel(["id": 1])])
        #expect(foreign.viewModel == nil)
    }

    @Test func forwardsObservedNotificationsToTheHandlerUntilStopped() {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "cart"])
        let handler = Handler()
        listener.observeNotifications(named: .cartDidChange, center: center, handler: handler)
        listener.observeNotifications(named: .cartDidChange, center: center, handler: handler)   // re-observe: replaces
        #expect(listener.observedNotificationNames == [.cartDidChange])

        ViewModel(["id": 1]).postNotification(named: .cartDidChange, center: center)
        ViewModel(["id": 2]).postNotification(named: .other, center: center)
        #expect(handler.received.items == [#""cart" got cartDidChange from 1"#])

        listener.stopObservingNotifications(named: .cartDidChange)
        listener.stopObservingNotifications(named: .cartDidChange)    // twice: harmless
        ViewModel(["id": 3]).postNotification(named: .cartDidChange, center: center)
        #expect(handler.received.count == 1)
        #expect(listener.observedNotificationNames.isEmpty)
    }

    /// Other code may post an observed name on another thread: the handler
    /// hears it on the main actor, just after (it trapped).
    @Test func aPostFromAnotherThreadReachesTheHandlerOnTheMainActor() async throws {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "cart"])
        let handler = Handler()
        listener.observeNotifications(named: .cartDidChange, center: center, handler: handler)
        let posted = DispatchSemaphore(value: 0)
        let thread = Thread {
            center.post(name: .cartDidChange, object: nil, userInfo: nil)
            posted.signal()
        }
        thread.start()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { posted.wait(); done.resume() }
        }
        for _ in 0..<1000 where handler.received.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(handler.received.items == [#""cart" got cartDidChange from nil"#])
    }

    @Test func filtersBySender() {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "l"])
        let sender = ViewModel(["id": 1])
        let handler = Handler()
        listener.observeNotifications(named: .cartDidChange, object: sender, center: center, handler: handler)
        ViewModel(["id": 2]).postNotification(named: .cartDidChange, center: center)
        sender.postNotification(named: .cartDidChange, object: sender, center: center)
        #expect(handler.received.items == [#""l" got cartDidChange from 1"#])
    }

    @Test func stopsWhenTheHandlerIsDeallocated() {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "l"])
        var handler: Handler? = Handler()
        let received = handler!.received
        listener.observeNotifications(named: .cartDidChange, center: center, handler: handler!)
        weak let weakHandler = handler
        handler = nil
        #expect(weakHandler == nil, "the handler is held weakly")
        ViewModel(["id": 1]).postNotification(named: .cartDidChange, center: center)
        #expect(received.count == 0)
        #expect(listener.observedNotificationNames.isEmpty)
        #expect(listener.observationCenter?.notificationForwarders.isEmpty == true)
    }

    @Test func stopsWhenTheViewModelIsDeallocated() {
        let center = NotificationCenter()
        let handler = Handler()
        weak var weakListener: ViewModel?
        do {
            let listener = ViewModel(["name": "l"])
            weakListener = listener
            listener.observeNotifications(named: .cartDidChange, center: center, handler: handler)
            listener.observeNotifications(named: .other, center: center, handler: handler)
            ViewModel(["id": 1]).postNotification(named: .other, center: center)
        }
        #expect(weakListener == nil, "observing notifications must not keep the ViewModel alive")
        ViewModel(["id": 2]).postNotification(named: .cartDidChange, center: center)
        #expect(handler.received.count == 1)
    }

    @Test func stopAllStopsEveryName() {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "l"])
        let handler = Handler()
        listener.observeNotifications(named: .cartDidChange, center: center, handler: handler)
        listener.observeNotifications(named: .other, center: center, handler: handler)
        listener.stopObservingAllNotifications()
        ViewModel().postNotification(named: .cartDidChange, center: center)
        ViewModel().postNotification(named: .other, center: center)
        #expect(handler.received.count == 0)
        ViewModel().stopObservingAllNotifications()      // never observed: harmless
    }

    /// Another handler of the same name adds an observation: only the same
    /// handler again replaces one.
    @Test func eachHandlerOfANameIsForwardedTo() {
        let center = NotificationCenter()
        let listener = ViewModel(["name": "l"])
        let first = Handler(), second = Handler()
        listener.observeNotifications(named: .cartDidChange, center: center, handler: first)
        listener.observeNotifications(named: .cartDidChange, center: center, handler: second)
        ViewModel(["id": 1]).postNotification(named: .cartDidChange, center: center)
        #expect(first.received.items == [#""l" got cartDidChange from 1"#])
        #expect(second.received.items == [#""l" got cartDidChange from 1"#])
    }

    /// A reused cell stops its own observation of a name on the row it
    /// showed; the controller's observation of that name on the row stays.
    @Test func stoppingForOneHandlerLeavesTheOthers() {
        let center = NotificationCenter()
        let row = ViewModel(["name": "row"])
        let controller = Handler(), cell = Handler()
        row.observeNotifications(named: .cartDidChange, center: center, handler: controller)
        row.observeNotifications(named: .cartDidChange, center: center, handler: cell)
        row.stopObservingNotifications(named: .cartDidChange, center: center, handler: cell)
        ViewModel(["id": 1]).postNotification(named: .cartDidChange, center: center)
        #expect(controller.received.items == [#""row" got cartDidChange from 1"#])
        #expect(cell.received.items.isEmpty)
    }

    /// Stopping a name for one center leaves its observation on others.
    @Test func stoppingForOneCenterLeavesTheOthers() {
        let one = NotificationCenter(), two = NotificationCenter()
        let listener = ViewModel(["name": "l"])
        let handler = Handler()
        listener.observeNotifications(named: .cartDidChange, center: one, handler: handler)
        listener.observeNotifications(named: .cartDidChange, center: two, handler: handler)
        listener.stopObservingNotifications(named: .cartDidChange, center: one)
        ViewModel(["id": 1]).postNotification(named: .cartDidChange, center: one)
        ViewModel(["id": 2]).postNotification(named: .cartDidChange, center: two)
        #expect(handler.received.items == [#""l" got cartDidChange from 2"#])
        #expect(listener.observedNotificationNames == [.cartDidChange])
    }

    /// A name whose handler is gone is no longer listed, even before a
    /// notification of it arrives.
    @Test func aNameWhoseHandlerIsGoneIsNotListed() {
        let listener = ViewModel(["name": "l"])
        let kept = Handler()
        var gone: Handler? = Handler()
        listener.observeNotifications(named: .cartDidChange, center: NotificationCenter(), handler: gone!)
        listener.observeNotifications(named: .other, center: NotificationCenter(), handler: kept)
        gone = nil
        #expect(listener.observedNotificationNames == [.other])
    }
}
