import Foundation

extension ViewModel {
    /// Where this item sits in a table or collection (section and item), or
    /// `nil`. Kept apart from the keyed store: it is not JSON and sends no
    /// key change.
    public var indexPath: IndexPath? {
        get { indexPathSlot }
        set { indexPathSlot = newValue }
    }

    /// Sets ``indexPath``. Returns the ViewModel, for chaining.
    @discardableResult
    public func setIndexPath(_ indexPath: IndexPath?) -> ViewModel {
        self.indexPath = indexPath
        return self
    }
}
