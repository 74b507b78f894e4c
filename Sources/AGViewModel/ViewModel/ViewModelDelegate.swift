/// Receives the actions a view reports through its ViewModel; usually the
/// screen's controller.
///
/// ```swift
/// extension FeedController: ViewModelDelegate {
///     func viewModel(_ viewModel: ViewModel, didReceive action: ViewModelAction, info: ViewModel?) {
///         if action == .likeTapped { like(viewModel) }
///     }
/// }
/// ```
@MainActor
public protocol ViewModelDelegate: AnyObject {
    /// `viewModel`'s view reported `action`, with optional details in `info`.
    func viewModel(_ viewModel: ViewModel, didReceive action: ViewModelAction, info: ViewModel?)
}
