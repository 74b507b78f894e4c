extension ViewModel {
    /// A typed ViewModel key: the string key plus the type its value is read
    /// and written as.
    ///
    /// Declare keys as static members of a constrained extension, so the
    /// leading-dot idiom finds them:
    ///
    /// ```swift
    /// extension ViewModel.Key where Value == String { static var title: Self { "title" } }
    /// extension ViewModel.Key where Value == Double { static var price: Self { "price" } }
    ///
    /// viewModel[.title] = "Swift"     // String?
    /// viewModel[.price] = 9.5         // Double?
    /// ```
    ///
    /// Reads are lenient and never crash on API drift: they follow the rules
    /// of ``ViewModelStorable`` (for JSON types, those of ``JSONReadable``),
    /// so a number stored under a `Key<String>` reads as its text and a
    /// value of the wrong type reads as `nil`. String keys stay available
    /// for dynamic use (`viewModel["title"]`).
    public struct Key<Value>: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The string key under which the value is stored.
        public let name: String

        /// A key named `name`.
        @inlinable
        public init(_ name: String) {
            self.name = name
        }

        /// A key named by a string literal: `static var title: Self { "title" }`.
        @inlinable
        public init(stringLiteral name: String) {
            self.name = name
        }

        /// The key's name.
        public var description: String { name }
    }
}
