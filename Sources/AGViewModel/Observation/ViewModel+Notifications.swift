import Foundation

/// Receives the named notifications a ViewModel observes on its behalf (see
/// ``ViewModel/observeNotifications(named:object:center:handler:)``).
///
/// The ViewModel holds its handler weakly. Named notifications are a main
/// actor affair, like the views they usually update: they are observed and
/// posted on the main actor, and a `@MainActor` view controller conforms as
/// it is. A notification of an observed name that other code posts on
/// another thread reaches the handler later, on the main actor, handed over
/// as Foundation's `queue: .main` observers get it (the poster must not
/// change what it carries afterwards); such posts keep no order with others.
@MainActor
public protocol ViewModelNotificationHandler: AnyObject {
    /// `viewModel` received `notification`. The ViewModel that was posted
    /// with it, if any, is `notification.viewModel`.
    func viewModel(_ viewModel: ViewModel, didReceive notification: Notification)
}

extension Notification {
    /// The ViewModel carried by a notification posted with
    /// ``ViewModel/postNotification(named:object:userInfo:center:)``.
    ///
    /// Read on the main actor, where the ViewModel was posted from: a
    /// notification reaches observers on other threads too, and the
    /// ViewModel must not go with it. A ``ViewModelNotificationHandler``
    /// (see ``ViewModel/observeNotifications(named:object:center:handler:)``)
    /// gets notifications on the main actor and reads it as is; `nil` for a
    /// notification that `postNotification` did not post.
    @MainActor
    public var viewModel: ViewModel? {
        // Only what `postNotification` put there, which the main actor
        // posted: a ViewModel of another domain, placed under the key by
        // other code, is not handed to the main actor.
        (userInfo?[ViewModel.notificationUserInfoKey] as? PostedViewModel)?.viewModel
    }
}

/// The ViewModel a notification carries, put there by the main actor's
/// `postNotification`; opened only by `Notification.viewModel`, on the main
/// actor.
internal final class PostedViewModel {
    let viewModel: ViewModel

    init(_ viewModel: ViewModel) { self.viewModel = viewModel }
}

extension ViewModel {
    /// The `userInfo` key under which a posted notification carries its
    /// ViewModel, wrapped so only the main actor opens it: read it with
    /// `Notification.viewModel`.
    public static let notificationUserInfoKey = "AGViewModel.viewModel"

    /// Posts a notification named `name` carrying this ViewModel in its
    /// `userInfo` (under ``notificationUserInfoKey``, next to `userInfo`).
    ///
    /// ```swift
    /// viewModel.postNotification(named: .cartDidChange)
    /// // elsewhere: notification.viewModel?["total"]
    /// ```
    ///
    /// - Parameters:
    ///   - name: The notification's name.
    ///   - object: The notification's object; `nil` by default.
    ///   - userInfo: More information to send along.
    ///   - center: The center to post to; `.default` by default.
    @MainActor
    public func postNotification(
        named name: Notification.Name,
        object: Any? = nil,
        userInfo: [AnyHashable: Any] = [:],
        center: NotificationCenter = .default
    ) {
        var info = userInfo
        info[Self.notificationUserInfoKey] = PostedViewModel(self)
        center.post(name: name, object: object, userInfo: info)
    }

    /// Observes notifications named `name` and forwards each to `handler`,
    /// with this ViewModel as context.
    ///
    /// Both sides are held weakly and the observation stops by itself when
    /// either is deallocated; ``stopObservingNotifications(named:center:handler:)``
    /// stops it explicitly. Observing the same name and center again with the
    /// same handler replaces the earlier observation.
    ///
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: Only notifications from this sender; `nil` for any sender.
    ///   - center: The center to observe; `.default` by default.
    ///   - handler: Receives each notification; held weakly.
    @MainActor
    public func observeNotifications(
        named name: Notification.Name,
        object: AnyObject? = nil,
        center: NotificationCenter = .default,
        handler: any ViewModelNotificationHandler
    ) {
        let forwarder = NotificationForwarder(name: name, center: center, handler: handler, viewModel: self)
        forwarder.start(object: object)
        var replaced: [NotificationForwarder] = []
        let observation = observationCenterAllocated()
        observation.notificationForwarders.removeAll { existing in
            guard existing.matches(name: name, center: forwarder.center, handler: handler) || existing.handler == nil
            else { return false }
            replaced.append(existing)
            return true
        }
        observation.notificationForwarders.append(forwarder)
        replaced.forEach { $0.stop() }
    }

    /// Stops observing notifications named `name` (from `center`, or from
    /// any center when `nil`) for `handler`, or for every handler when
    /// `nil`: a reused cell stops its own observation and leaves the
    /// controller's. Stopping what is not observed does nothing.
    @MainActor
    public func stopObservingNotifications(
        named name: Notification.Name, center: NotificationCenter? = nil,
        handler: (any ViewModelNotificationHandler)? = nil
    ) {
        stopForwarders {
            $0.name == name && (center == nil || $0.center === center) && (handler == nil || $0.handler === handler)
        }
    }

    /// Stops observing every named notification.
    @MainActor
    public func stopObservingAllNotifications() {
        stopForwarders { _ in true }
    }

    /// The names this ViewModel observes for a live handler.
    @MainActor
    public var observedNotificationNames: [Notification.Name] {
        observationCenter?.notificationForwarders.filter { $0.handler != nil }.map(\.name) ?? []
    }

    @MainActor
    internal func stopForwarders(where predicate: (NotificationForwarder) -> Bool) {
        var stopped: [NotificationForwarder] = []
        observationCenter?.notificationForwarders.removeAll { forwarder in
            guard predicate(forwarder) else { return false }
            stopped.append(forwarder)
            return true
        }
        stopped.forEach { $0.stop() }
    }
}

/// One named-notification observation of a ViewModel: the
/// `NotificationCenter` observer and the weakly held handler and ViewModel.
@MainActor
internal final class NotificationForwarder {
    let name: Notification.Name
    let center: NotificationCenter
    weak var handler: (any ViewModelNotificationHandler)?
    private weak var viewModel: ViewModel?
    // Written once in `start`; read by `stop`, which may run from the
    // observation center's deinit on whatever thread releases it.
    nonisolated(unsafe) private var token: (any NSObjectProtocol)?

    init(name: Notification.Name, center: NotificationCenter, handler: any ViewModelNotificationHandler,
         viewModel: ViewModel) {
        self.name = name
        self.center = center
        self.handler = handler
        self.viewModel = viewModel
    }

    func matches(name: Notification.Name, center: NotificationCenter, handler: any ViewModelNotificationHandler) -> Bool {
        self.name == name && self.center === center && self.handler === handler
    }

    func start(object: AnyObject?) {
        token = center.addObserver(forName: name, object: object, queue: nil) { [weak self] notification in
            // Handed over by its poster, which keeps no use of it that the
            // delivery could race with.
            nonisolated(unsafe) let notification = notification
            if MainQueue.isCurrent {
                // Posted on the main actor: delivered there and then.
                MainActor.assumeIsolated { self?.forward(notification) }
            } else {
                // Posted on another thread by other code (this library
                // posts on the main actor only): delivered on the main
                // actor next, never on the poster's thread.
                Task { @MainActor in self?.forward(notification) }
            }
        }
    }

    private func forward(_ notification: Notification) {
        guard let viewModel else { return }
        guard let handler else {
            // The handler is gone: stop by ourselves.
            viewModel.stopForwarders { $0 === self }
            return
        }
        handler.viewModel(viewModel, didReceive: notification)
    }

    /// Removes the `NotificationCenter` observer.
    nonisolated func stop() {
        if let token { center.removeObserver(token) }
    }
}

/// Whether code runs on the main queue, the main actor's executor. Not
/// `Thread.isMainThread` alone: once the main thread has handed the main
/// queue to `dispatchMain()` (Linux), main-actor code runs on other threads.
private enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }
}
