/// The namespace of typed ViewModel keys. Declare your keys as static
/// members of it, in the style of sindresorhus/Defaults:
///
/// ```swift
/// extension ViewModelKeys {
///     static let title = VMKey<String>("title")
///     static let price = VMKey<Double>("price")
/// }
///
/// let title = viewModel[.title]      // String?
/// viewModel[.price] = 9.5
/// ```
///
/// The class only carries the key's name; ``VMKey`` adds the value type.
/// Keys are immutable, so they are safe to share between threads.
public class ViewModelKeys: @unchecked Sendable {
    /// The string key under which the value is stored.
    public let name: String

    // Only `VMKey` creates keys: the base class exists to host the static
    // members that implicit member syntax (`vm[.title]`) finds.
    internal init(name: String) {
        self.name = name
    }
}

/// A typed key of a ViewModel: the string key plus the type it is read and
/// written as.
///
/// Reads are lenient and never crash on API drift: they follow the rules of
/// ``ViewModelStorable`` (for JSON types, those of ``JSONReadable``), so a
/// number stored under a `VMKey<String>` reads as its text and a value of
/// the wrong type reads as `nil`.
public final class VMKey<Value: ViewModelStorable>: ViewModelKeys, @unchecked Sendable {
    /// A key named `name`.
    public init(_ name: String) {
        super.init(name: name)
    }
}

extension ViewModelKeys: CustomStringConvertible {
    /// The key's name.
    public var description: String { name }
}
