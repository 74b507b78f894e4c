import Foundation

/// The key paths Swift Observation knows keys by, shared by all
/// ViewModels.
///
/// `\ViewModel.[observed: key]` is one value for every instance, but the
/// runtime builds each one from the subscript's mangled generic signature:
/// about 18,000 instructions and an allocation, several microseconds, which
/// every first read of a key of a new ViewModel would otherwise pay. Built
/// once per key here, the first read costs a lookup.
///
/// Shared across isolation domains (a ViewModel may live in any), so the
/// dictionary is guarded by a lock, held only for the lookup or insert,
/// never while a key path is built or user code runs.
internal final class ObservedKeyPaths: @unchecked Sendable {
    /// The cache every ViewModel uses.
    static let shared = ObservedKeyPaths(capacity: 4096)

    /// Past this many keys (a store keyed by ids, say) key paths are still
    /// built and kept by each ViewModel's entry, but not cached here, so
    /// the cache stays small.
    let capacity: Int
    private let lock = NSLock()
    private var paths: [String: ViewModel.ObservedKeyPath] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The key path of `key`. With `caching` false (a key read while
    /// absent: code probing for keys may try many that never exist) a key
    /// path not cached yet is built but not kept here.
    func keyPath(forKey key: String, caching: Bool = true) -> ViewModel.ObservedKeyPath {
        lock.lock()
        let cached = paths[key]
        lock.unlock()
        if let cached { return cached }
        let built: ViewModel.ObservedKeyPath = \ViewModel.[observed: key]
        guard caching else { return built }
        lock.lock()
        defer { lock.unlock() }
        if let raced = paths[key] { return raced }
        if paths.count < capacity { paths[key] = built }
        return built
    }

    /// The number of cached key paths.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return paths.count
    }
}
