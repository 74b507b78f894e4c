/// What packaging a list does with an element it cannot package.
///
/// ```swift
/// let result = packager.package(elements)                          // skip and report
/// let strict = try packager.package(elements, policy: .strict)     // throws PackagingError
/// ```
///
/// - ``skipAndReport`` (the default): leave the element out, record where,
///   which key and why in ``PackagingResult/skipped``, and package the rest.
///   The list APIs (``ViewModelPackager``'s `package`, `Section.appendItems`,
///   `Manager.appendSection(s)`) never throw with this policy, so they need
///   no `try`; ``SpecPackager``'s document methods still throw for problems
///   with the document as a whole (an `items` path that is missing).
/// - ``strict``: stop at the first problem and throw it as a typed
///   ``PackagingError``; a section or manager being packaged into is left
///   unchanged.
public nonisolated protocol PackagingPolicy: Sendable {
    /// `Never` when problems are reported, ``PackagingError`` when thrown.
    associatedtype Failure: Error

    /// Handles one problem: returns to skip it, or throws.
    func handle(_ problem: SkippedElement) throws(Failure)
}

/// Skips an element that cannot be packaged and reports it (see
/// ``PackagingPolicy/skipAndReport``).
public nonisolated struct SkipAndReportPolicy: PackagingPolicy {
    /// The policy.
    public init() {}

    /// Returns: the caller records the problem and goes on.
    public func handle(_ problem: SkippedElement) {}
}

/// Throws the first element that cannot be packaged (see
/// ``PackagingPolicy/strict``).
public nonisolated struct StrictPolicy: PackagingPolicy {
    /// The policy.
    public init() {}

    /// Throws `problem` as a ``PackagingError``.
    public func handle(_ problem: SkippedElement) throws(PackagingError) {
        throw PackagingError(location: problem.location, reason: problem.reason)
    }
}

extension PackagingPolicy where Self == SkipAndReportPolicy {
    /// Skip bad elements and report them in the result (the default).
    public static var skipAndReport: SkipAndReportPolicy { SkipAndReportPolicy() }
}

extension PackagingPolicy where Self == StrictPolicy {
    /// Throw the first problem as a ``PackagingError``.
    public static var strict: StrictPolicy { StrictPolicy() }
}
