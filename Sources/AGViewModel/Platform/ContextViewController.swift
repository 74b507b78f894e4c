#if canImport(UIKit) && !os(watchOS)  // watchOS has UIKit, but no table, collection or controller classes
import UIKit

/// A view controller that receives a context ViewModel from whoever shows it
/// (the original's "view controller created with a context ViewModel").
///
/// ```swift
/// final class BookViewController: UIViewController, ViewModelContextual {
///     var context: ViewModel?
/// }
/// let detail = BookViewController().withContext(book)                 // code
/// let fromNib = BookViewController(nibName: "BookViewController", bundle: nil).withContext(book)
/// let fromStoryboard = storyboard.instantiate(BookViewController.self, context: book)
/// ```
@MainActor
public protocol ViewModelContextual: UIViewController {
    /// The ViewModel the controller shows.
    var context: ViewModel? { get set }
}

extension ViewModelContextual {
    /// Sets ``context`` and returns the controller, for chaining.
    @discardableResult
    public func withContext(_ context: ViewModel?) -> Self {
        self.context = context
        return self
    }
}

extension UIStoryboard {
    /// Instantiates the controller with storyboard identifier `identifier`
    /// (the class name by default) and sets its context.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; create the controller in code and call withContext(_:)")
    public func instantiate<Controller: ViewModelContextual>(
        _ type: Controller.Type, identifier: String? = nil, context: ViewModel?
    ) -> Controller {
        let id = identifier ?? String(describing: type)
        guard let controller = instantiateViewController(withIdentifier: id) as? Controller else {
            preconditionFailure("Storyboard scene '\(id)' is not a \(type)")
        }
        controller.context = context
        return controller
    }
}
#endif
