import Foundation

extension ViewModel {
    /// Where this item sits in a table or collection (section and item), or
    /// `nil`. Kept apart from the keyed store: it is not JSON and sends no
    /// key change. Safe to read and write from any thread.
    public var indexPath: IndexPath? {
        get { lock.withLock { indexPathSlot } }
        set { lock.withLock { indexPathSlot = newValue } }
    }

    /// Sets ``indexPath``. Returns the ViewModel, for chaining.
    @discardableResult
    public func setIndexPath(_ indexPath: IndexPath?) -> ViewModel {
        self.indexPath = indexPath
        return self
    }
}
