/// Turns one element of API data into a ViewModel: the single packaging
/// protocol that closure packagers (``ClosurePackager``), spec packagers
/// (``SpecPackager``) and the section and manager conveniences go through.
///
/// One view, many APIs: each API that feeds a view gets its own packager,
/// and the view only knows the ViewModel keys.
///
/// ```swift
/// import AGViewModel
/// import Foundation
///
/// final class StatusPackager: ViewModelPackager {
///     private(set) var packaged = 0              // a packager may keep state
///     private let formatter = DateFormatter()
///
///     func package(_ status: JSONObject) throws -> sending ViewModel {
///         packaged += 1
///         let viewModel = ViewModel()
///         viewModel["id"] = .string(try status.read(String.self, at: "id_str"))
///         viewModel["text"] = .string(status.string(at: "text", default: ""))
///         return viewModel
///     }
/// }
/// ```
///
/// A packager need not be `Sendable`: it may be an ordinary class with a
/// page counter, a formatter or a context. Create it where the packaging
/// runs (a `@concurrent` function, a background task): the ViewModels it
/// returns are `sending`, so they can be handed to a `@MainActor`
/// controller afterwards.
///
/// `package(_:)` throws when the element cannot make a usable ViewModel (a
/// required value is missing). Packaging a list then follows one policy
/// (see ``PackagingPolicy``): skip the element and report it in
/// ``PackagingResult/skipped``, or, opted in, stop and throw the first
/// problem as a ``PackagingError``.
///
/// ## Defaults and merge precedence
/// Packaging a list can take `defaults`, a ViewModel of values every item
/// should have (a cell style, a section's ``Section/itemMerge``). **The
/// element's own values win**: a default only fills a key the packager did
/// not set, and is appended after the packaged keys. Each element becomes a
/// ViewModel once; defaults are added to it in place. Only the JSON values
/// of `defaults` are copied: a payload (a nested ViewModel, an image) would
/// be one object shared by every item, so it is left out.
public nonisolated protocol ViewModelPackager<Element> {
    /// What one element of the input is; a JSON object for API data.
    associatedtype Element = JSONObject

    /// The ViewModel for `element`, or an error saying why there is none.
    /// Throw a ``PackagingError`` (for example
    /// ``PackagingError/Reason/missingRequiredValue(key:source:cause:)``) or
    /// let a read error through (a ``JSONAccessError`` names the path);
    /// any other error is kept as ``PackagingError/Reason/packagerFailed(_:)``.
    func package(_ element: Element) throws -> sending ViewModel
}

/// A packager made from a closure that fills a new, empty ViewModel.
///
/// ```swift
/// let users = ClosurePackager { (viewModel, user: JSONObject) in
///     viewModel["name"] = user["name"]
///     viewModel["avatar"] = user["profile_image_url_https"]
/// }
/// let viewModel = try users.package(userObject)
/// ```
///
/// The element type is whatever the closure takes: a `JSONObject` for API
/// data, or any `Sendable` value (`ClosurePackager { (viewModel, book: Book) in … }`).
///
/// The closure is `@Sendable`, so the ViewModel it fills stays the caller's
/// alone and can be returned as `sending`, and the packager itself is
/// `Sendable`: one kept in a `static let` is used from any task. A packager
/// that keeps state (a page counter, a date formatter) is an ordinary class
/// conforming to ``ViewModelPackager`` instead; it need not be `Sendable`.
public nonisolated struct ClosurePackager<Element: Sendable>: ViewModelPackager, Sendable {
    private let fill: @Sendable (ViewModel, Element) throws -> Void

    /// A packager that runs `fill` on a new, empty ViewModel for each element.
    public init(_ fill: @escaping @Sendable (_ viewModel: ViewModel, _ element: Element) throws -> Void) {
        self.fill = fill
    }

    /// A new ViewModel filled by the closure.
    public func package(_ element: Element) throws -> sending ViewModel {
        let viewModel = ViewModel()
        try fill(viewModel, element)
        return viewModel
    }
}

/// The packager that copies every member of an object, in order: what the
/// section and manager conveniences use when no packager is given.
public nonisolated struct MemberCopyingPackager: ViewModelPackager, Sendable {
    /// A packager copying every member.
    public init() {}

    /// A ViewModel with every member of `object`.
    public func package(_ object: JSONObject) -> sending ViewModel {
        ViewModel(object)
    }
}
