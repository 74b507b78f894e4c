/// What happened in a view, reported through its ViewModel to the delegate.
///
/// A typed, extensible constant in the style of `Notification.Name`:
///
/// ```swift
/// extension ViewModelAction {
///     static let likeTapped = ViewModelAction("likeTapped")
/// }
/// viewModel.send(.likeTapped)
/// ```
public struct ViewModelAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The action's name; unique within an app.
    public let rawValue: String

    /// An action named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An action named `name`.
    public init(_ name: String) {
        self.rawValue = name
    }

    /// The action's name.
    public var description: String { rawValue }
}
