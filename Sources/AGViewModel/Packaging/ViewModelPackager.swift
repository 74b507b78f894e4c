/// Turns one JSON object from an API into a ViewModel.
///
/// One view, many APIs: each API that feeds a view gets its own packager,
/// and the view only knows the ViewModel keys. Write a packager in code
/// (conform a type, or use ``ClosurePackager``) or describe it in a JSON
/// spec (``SpecPackager``).
///
/// ```swift
/// struct StatusPackager: ViewModelPackager {
///     func package(_ status: JSONObject, context: (any Sendable)?) throws -> ViewModel {
///         let viewModel = ViewModel()
///         viewModel["id"] = .string(try status.read(String.self, at: "id_str"))
///         viewModel["text"] = .string(status.string(at: "text", default: ""))
///         viewModel["screenName"] = status.value(at: "user.screen_name")
///         return viewModel
///     }
/// }
/// ```
///
/// Packagers are `Sendable` so they can run on a background task; `package`
/// throws when the object cannot make a usable ViewModel (a required value
/// is missing), and array packaging then skips that element and reports why.
public protocol ViewModelPackager: Sendable {
    /// The ViewModel for `object`. `context` is whatever the caller passes
    /// through (a locale, the signed-in user); packagers may ignore it.
    func package(_ object: JSONObject, context: (any Sendable)?) throws -> ViewModel
}

extension ViewModelPackager {
    /// The ViewModel for `object`, without a context.
    public func package(_ object: JSONObject) throws -> ViewModel {
        try package(object, context: nil)
    }

    /// One ViewModel per element of `elements`, in order. An element that is
    /// not an object, or that the packager throws for, is skipped and
    /// reported; the others are still packaged.
    public func package(_ elements: [JSONValue], context: (any Sendable)? = nil) -> PackagingResult {
        var result = PackagingResult()
        result.items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                result.skipped.append(SkippedElement(location: .item(index), reason: .notAnObject(found: element.kind)))
                continue
            }
            do {
                result.items.append(try package(object, context: context))
            } catch let error as PackagingError {
                result.skipped.append(SkippedElement(location: .item(index), reason: error.reason))
            } catch {
                result.skipped.append(SkippedElement(location: .item(index), reason: .packagerFailed(String(describing: error))))
            }
        }
        return result
    }
}

/// A packager made from a closure that fills a new ViewModel.
///
/// ```swift
/// let packager = ClosurePackager { viewModel, user, _ in
///     viewModel["name"] = user["name"]
///     viewModel["avatar"] = user["profile_image_url_https"]
/// }
/// let viewModel = try packager.package(userObject)
/// ```
public struct ClosurePackager: ViewModelPackager {
    private let fill: @Sendable (ViewModel, JSONObject, (any Sendable)?) throws -> Void

    /// A packager that runs `fill` on an empty ViewModel for each object.
    public init(_ fill: @escaping @Sendable (_ viewModel: ViewModel, _ object: JSONObject, _ context: (any Sendable)?) throws -> Void) {
        self.fill = fill
    }

    /// A new ViewModel filled by the closure.
    public func package(_ object: JSONObject, context: (any Sendable)?) throws -> ViewModel {
        let viewModel = ViewModel()
        try fill(viewModel, object, context)
        return viewModel
    }
}
