// A stand-in for the slice of UIKit the library uses, so CI type-checks the
// code behind `#if canImport(UIKit)` on Linux. Signatures follow Apple's SDK
// (iOS 17); add what new UIKit-only code calls. It proves the library's
// calls are well-typed against these signatures, not that the SDK has them.
@_exported import Foundation

@MainActor open class UIResponder { public init() {} }
@MainActor open class UIView: UIResponder {
    public static let layoutFittingCompressedSize = CGSize(width: 0, height: 0)
    open func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize { targetSize }
}
@MainActor open class UIViewController: UIResponder {
    public init(nibName: String?, bundle: Bundle?) { super.init() }
}
@MainActor open class UINib { public init(nibName: String, bundle: Bundle?) {} }
@MainActor open class UIStoryboard {
    open func instantiateViewController(withIdentifier identifier: String) -> UIViewController { UIViewController(nibName: nil, bundle: nil) }
}
@MainActor open class UIScrollView: UIView {}
@MainActor open class UITableViewCell: UIView {}
@MainActor open class UITableViewHeaderFooterView: UIView {}
@MainActor open class UICollectionReusableView: UIView {}
@MainActor open class UICollectionViewCell: UICollectionReusableView {}
@MainActor open class UITableView: UIScrollView {
    public enum RowAnimation: Int, Sendable { case fade, right, left, top, bottom, none, middle, automatic = 100 }
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) {}
    open func moveSection(_ section: Int, toSection newSection: Int) {}
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {}
    open func register(_ nib: UINib?, forCellReuseIdentifier identifier: String) {}
    open func register(_ aClass: AnyClass?, forHeaderFooterViewReuseIdentifier identifier: String) {}
    open func register(_ nib: UINib?, forHeaderFooterViewReuseIdentifier identifier: String) {}
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell { UITableViewCell() }
    open func dequeueReusableHeaderFooterView(withIdentifier identifier: String) -> UITableViewHeaderFooterView? { nil }
}
@MainActor open class UICollectionView: UIScrollView {
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    open func deleteSections(_ sections: IndexSet) {}
    open func insertSections(_ sections: IndexSet) {}
    open func moveSection(_ section: Int, toSection newSection: Int) {}
    open func deleteItems(at indexPaths: [IndexPath]) {}
    open func insertItems(at indexPaths: [IndexPath]) {}
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
    open func reloadItems(at indexPaths: [IndexPath]) {}
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {}
    open func register(_ nib: UINib?, forCellWithReuseIdentifier identifier: String) {}
    open func register(_ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String) {}
    open func register(_ nib: UINib?, forSupplementaryViewOfKind kind: String, withReuseIdentifier identifier: String) {}
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell { UICollectionViewCell() }
    open func dequeueReusableSupplementaryView(ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionReusableView { UICollectionReusableView() }
}
extension IndexPath {
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public var section: Int { get { self[0] } set { self[0] = newValue } }
    public var item: Int { get { self[1] } set { self[1] = newValue } }
    public var row: Int { get { self[1] } set { self[1] = newValue } }
}
