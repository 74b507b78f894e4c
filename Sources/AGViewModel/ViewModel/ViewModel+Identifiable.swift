/// A ViewModel is identified by the object, as SwiftUI identifies any class:
/// `List(section) { book in … }` and `ForEach(section)` take a section's
/// items directly.
///
/// Applying a change set (``ChangeSet/apply(to:new:)``) keeps the objects of
/// unchanged and moved rows, so a list showing the updated manager keeps
/// their rows and animates only what changed. To identify rows by a value
/// instead, pass `id:` to `ForEach`.
extension ViewModel: Identifiable {}
