import Foundation

/// The conditions a view is laid out in: what its size depends on besides
/// its ViewModel's data.
///
/// A ViewModel's cached size is only valid for the context it was computed
/// in, so a rotation (a new width) or a new text size never returns a stale
/// height.
public struct LayoutContext: Hashable, Sendable {
    /// The width the view may use (a table's width, a column's width).
    public var availableWidth: CGFloat
    /// The height the view may use, or `nil` when unbounded (a vertically
    /// scrolling list).
    public var availableHeight: CGFloat?
    /// The user's preferred text size, when it matters
    /// (`UIContentSizeCategory.rawValue` on Apple platforms), or `nil`.
    public var contentSizeCategory: String?

    /// A context of the given width, with optional height and text size.
    public init(availableWidth: CGFloat, availableHeight: CGFloat? = nil, contentSizeCategory: String? = nil) {
        self.availableWidth = availableWidth
        self.availableHeight = availableHeight
        self.contentSizeCategory = contentSizeCategory
    }
}

/// A computed size and the context it is valid for.
internal struct SizeCache {
    var size: CGSize
    var context: LayoutContext
    /// The class of the view that measured it: a header view and a cell
    /// (or a list and a grid cell) showing one ViewModel differ in size.
    var viewType: ObjectIdentifier
}
