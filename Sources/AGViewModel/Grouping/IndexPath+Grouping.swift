import Foundation

// UIKit gives `IndexPath` its table and collection accessors (`section`,
// `item`, `row`); AppKit only `section` and `item`; swift-corelibs-foundation
// none. Elsewhere we add what is missing, so code using index paths of a
// `Manager` reads the same everywhere.
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit

extension IndexPath {
    /// An index path for a row in a section (a table view cell), as UIKit has it.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The row within the section: the second index, as `item` (UIKit's accessor).
    public var row: Int {
        get { item }
        set { item = newValue }
    }
}
#else
extension IndexPath {
    /// An index path for an item in a section (a collection view cell).
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// An index path for a row in a section (a table view cell).
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The section: the first index. Traps unless the path has two indexes.
    public var section: Int {
        get { checkedPair(); return self[0] }
        set { checkedPair(); self[0] = newValue }
    }

    /// The item within the section: the second index. Traps unless the
    /// path has two indexes.
    public var item: Int {
        get { checkedPair(); return self[1] }
        set { checkedPair(); self[1] = newValue }
    }

    /// The row within the section: the second index, as `item`.
    public var row: Int {
        get { item }
        set { item = newValue }
    }

    private func checkedPair() {
        precondition(count == 2, "Invalid index path for use with a table or collection: \(self); it must have exactly two indexes")
    }
}
#endif
