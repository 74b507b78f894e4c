#if canImport(UIKit) && !os(watchOS)  // watchOS has UIKit, but no table, collection or controller classes
import UIKit

/// A view that tables and collection views register and dequeue by a reuse
/// identifier: the counterpart of the original's `AGBaseReusable`.
///
/// Cells, header/footer views and supplementary views adopt it for free: the
/// identifier is the class name (with the types it is nested in), and nibs
/// are looked up by class name in the class's own bundle, so views shipped
/// in a framework find their nibs. Nibs
/// a Swift package ships are resources in its `Bundle.module`: pass that as
/// the `bundle` of `registerNib`.
///
/// The conformance belongs to the UIKit base classes, so a subclass cannot
/// replace these defaults: a static `reuseIdentifier` or `resourceBundle`
/// declared in a subclass is not what the helpers below use. For another
/// identifier or bundle, register and dequeue with UIKit's own methods.
@MainActor
public protocol ReusableView: AnyObject {
    /// The reuse identifier: the class name, qualified by the types it is
    /// nested in.
    static var reuseIdentifier: String { get }
    /// The bundle holding the view's nib; `nil`, the class's own bundle.
    static var resourceBundle: Bundle? { get }
}

extension ReusableView {
    /// The class name, qualified by the types it is nested in (not by the
    /// module): `BookCell`, or `SettingsScreen.DetailCell` for a nested
    /// class, so two nested classes of one name do not share an identifier.
    /// A storyboard prototype cell of a nested class takes that qualified
    /// name as its identifier.
    public static var reuseIdentifier: String { TypeName.qualified(self) }
    /// `nil`: the nib is looked up in the class's own bundle.
    public static var resourceBundle: Bundle? { nil }

    /// The nib named after the class, in ``resourceBundle``.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public static var nib: UINib { nib(in: nil) }

    /// The nib named after the class, in `bundle`, else in ``resourceBundle``.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public static func nib(in bundle: Bundle?) -> UINib {
        UINib(nibName: String(describing: self), bundle: bundle ?? resourceBundle ?? Bundle(for: self))
    }
}

extension UITableViewCell: ReusableView {}
extension UITableViewHeaderFooterView: ReusableView {}
extension UICollectionReusableView: ReusableView {}

extension UITableView {
    /// Registers `type` as a cell class under its reuse identifier.
    public func register<Cell: UITableViewCell>(cell type: Cell.Type) {
        register(type, forCellReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers the nib named after `type` as a cell under its reuse
    /// identifier; the nib is looked up in `bundle` (a package's
    /// `Bundle.module`), by default in the class's own bundle.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public func registerNib<Cell: UITableViewCell>(cell type: Cell.Type, bundle: Bundle? = nil) {
        register(type.nib(in: bundle), forCellReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers `type` as a header/footer view class.
    public func register<View: UITableViewHeaderFooterView>(headerFooter type: View.Type) {
        register(type, forHeaderFooterViewReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers the nib named after `type` as a header/footer view, looked
    /// up in `bundle` as for cells.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public func registerNib<View: UITableViewHeaderFooterView>(headerFooter type: View.Type, bundle: Bundle? = nil) {
        register(type.nib(in: bundle), forHeaderFooterViewReuseIdentifier: type.reuseIdentifier)
    }

    /// Dequeues a cell of `type` (registered before). A cell that is a
    /// ``ViewModelBindable`` is bound to `viewModel`, or, without one,
    /// unbound from the ViewModel it showed before it was reused.
    public func dequeue<Cell: UITableViewCell>(
        _ type: Cell.Type, for indexPath: IndexPath, bindingTo viewModel: ViewModel? = nil
    ) -> Cell {
        let reused = dequeueReusableCell(withIdentifier: type.reuseIdentifier, for: indexPath)
        guard let cell = reused as? Cell else {
            preconditionFailure("Cell registered as '\(type.reuseIdentifier)' is \(String(reflecting: Swift.type(of: reused))), not \(String(reflecting: type))")
        }
        if let bindable = cell as? any ViewModelBindable { ViewBindings.rebind(bindable, to: viewModel) }
        return cell
    }

    /// Dequeues a header/footer view of `type`, bound to `viewModel` or
    /// unbound (as cells are); `nil` when none is registered under its
    /// reuse identifier. A view of another class registered there stops
    /// the program, as for cells.
    public func dequeue<View: UITableViewHeaderFooterView>(
        headerFooter type: View.Type, bindingTo viewModel: ViewModel? = nil
    ) -> View? {
        guard let reused = dequeueReusableHeaderFooterView(withIdentifier: type.reuseIdentifier) else { return nil }
        guard let view = reused as? View else {
            preconditionFailure("Header/footer view registered as '\(type.reuseIdentifier)' is \(String(reflecting: Swift.type(of: reused))), not \(String(reflecting: type))")
        }
        if let bindable = view as? any ViewModelBindable { ViewBindings.rebind(bindable, to: viewModel) }
        return view
    }
}

extension UICollectionView {
    /// Registers `type` as a cell class under its reuse identifier.
    public func register<Cell: UICollectionViewCell>(cell type: Cell.Type) {
        register(type, forCellWithReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers the nib named after `type` as a cell.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public func registerNib<Cell: UICollectionViewCell>(cell type: Cell.Type, bundle: Bundle? = nil) {
        register(type.nib(in: bundle), forCellWithReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers `type` as a supplementary view of `kind`
    /// (`UICollectionView.elementKindSectionHeader` or `...Footer`).
    public func register<View: UICollectionReusableView>(supplementary type: View.Type, kind: String) {
        register(type, forSupplementaryViewOfKind: kind, withReuseIdentifier: type.reuseIdentifier)
    }

    /// Registers the nib named after `type` as a supplementary view of `kind`.
    @available(visionOS, deprecated: 1.0, message: "Interface Builder products are deprecated on visionOS; register the view class")
    public func registerNib<View: UICollectionReusableView>(supplementary type: View.Type, kind: String, bundle: Bundle? = nil) {
        register(type.nib(in: bundle), forSupplementaryViewOfKind: kind, withReuseIdentifier: type.reuseIdentifier)
    }

    /// Dequeues a cell of `type` (registered before), bound to `viewModel`
    /// or unbound (see the `UITableView` counterpart).
    public func dequeue<Cell: UICollectionViewCell>(
        _ type: Cell.Type, for indexPath: IndexPath, bindingTo viewModel: ViewModel? = nil
    ) -> Cell {
        let reused = dequeueReusableCell(withReuseIdentifier: type.reuseIdentifier, for: indexPath)
        guard let cell = reused as? Cell else {
            preconditionFailure("Cell registered as '\(type.reuseIdentifier)' is \(String(reflecting: Swift.type(of: reused))), not \(String(reflecting: type))")
        }
        if let bindable = cell as? any ViewModelBindable { ViewBindings.rebind(bindable, to: viewModel) }
        return cell
    }

    /// Dequeues a supplementary view of `type` and `kind` (registered before).
    public func dequeue<View: UICollectionReusableView>(
        supplementary type: View.Type, kind: String, for indexPath: IndexPath, bindingTo viewModel: ViewModel? = nil
    ) -> View {
        let reused = dequeueReusableSupplementaryView(
            ofKind: kind, withReuseIdentifier: type.reuseIdentifier, for: indexPath)
        guard let view = reused as? View else {
            preconditionFailure("View registered as '\(type.reuseIdentifier)' is \(String(reflecting: Swift.type(of: reused))), not \(String(reflecting: type))")
        }
        if let bindable = view as? any ViewModelBindable { ViewBindings.rebind(bindable, to: viewModel) }
        return view
    }
}
#endif
