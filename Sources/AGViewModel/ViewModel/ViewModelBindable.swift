import Foundation

/// A view bound to a ViewModel: a cell, a header, any class. No UIKit needed.
///
/// The view shows the ViewModel's values in ``apply(_:)`` and may compute
/// its own size for a ViewModel. The ViewModel holds its binding view
/// weakly and calls it for refreshes (``ViewModel/refresh()``) and sizes
/// (``ViewModel/sizeOfBindingView(in:)``).
///
/// ```swift
/// final class BookCell: UITableViewCell, ViewModelBindable {
///     func apply(_ viewModel: ViewModel) { titleLabel.text = viewModel[.title] }
///     func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? {
///         apply(viewModel)
///         // Required width, free height: multi-line labels wrap at the width.
///         return contentView.systemLayoutSizeFitting(
///             CGSize(width: context.availableWidth, height: UIView.layoutFittingCompressedSize.height),
///             withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel)
///     }
/// }
/// ```
@MainActor
public protocol ViewModelBindable: AnyObject {
    /// Shows `viewModel`'s values.
    func apply(_ viewModel: ViewModel)

    /// The size the view needs to show `viewModel` in `context`, or `nil`
    /// when it does not compute its size (self-sizing views). The default
    /// implementation returns `nil`.
    func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize?

    /// Tells the view it no longer shows `viewModel`: it was bound to
    /// another ViewModel (a reused cell), dequeued without one, or
    /// `viewModel` was unbound or bound to another view. A view that
    /// observes the ViewModel it shows stops here, so a reused cell is not
    /// updated by the row it showed before. The default does nothing.
    func didUnbind(from viewModel: ViewModel)
}

extension ViewModelBindable {
    /// `nil`: the view does not compute its size.
    public func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? { nil }

    /// Does nothing.
    public func didUnbind(from viewModel: ViewModel) {}

    /// The ViewModel this view is the binding view of (see
    /// ``ViewModel/bind(_:)``), or `nil`.
    public var boundViewModel: ViewModel? { ViewBindings.viewModel(boundTo: self) }

    /// Unbinds this view from the ViewModel it shows, if any, and tells it
    /// (``didUnbind(from:)``). For views reused outside the table helpers'
    /// dequeue: a view from your own pool that is filled by hand must not
    /// be overwritten when the ViewModel it showed refreshes.
    public func unbindFromViewModel() { ViewBindings.detach(view: self) }
}
