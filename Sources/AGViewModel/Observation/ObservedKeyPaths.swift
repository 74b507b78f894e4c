import Foundation

/// The key paths Swift Observation knows keys by, one cache per thread.
///
/// `\ViewModel.[observed: key]` is one value for every instance, but the
/// runtime builds each one from the subscript's mangled generic signature:
/// about 18,000 instructions and an allocation, several microseconds, which
/// every first read of a key of a new ViewModel would otherwise pay. Built
/// once per key and thread here, the first read costs a lookup.
///
/// Each thread has its own cache, reached through thread-specific storage
/// (as the parser keeps its key table), so no lock is needed: a cache is
/// only ever touched by its thread. The key paths themselves are immutable
/// and `Sendable`, so one made on one thread serves a ViewModel anywhere;
/// two threads' key paths for a key are equal, as Observation requires.
internal final class ObservedKeyPaths {
    /// The calling thread's cache, made on its first use there.
    static var current: ObservedKeyPaths {
        let key = threadKey
        if let raw = pthread_getspecific(key) {
            return Unmanaged<ObservedKeyPaths>.fromOpaque(raw).takeUnretainedValue()
        }
        let cache = ObservedKeyPaths(capacity: 4096)
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// Past this many keys (a store keyed by ids, say) key paths are still
    /// built and kept by each ViewModel's entry, but not cached here, so
    /// the cache stays small.
    let capacity: Int
    private var paths: [String: ViewModel.ObservedKeyPath] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The key path of `key`. With `caching` false (a key read while
    /// absent: code probing for keys may try many that never exist) a key
    /// path not cached yet is built but not kept here.
    func keyPath(forKey key: String, caching: Bool = true) -> ViewModel.ObservedKeyPath {
        if let cached = paths[key] { return cached }
        let built: ViewModel.ObservedKeyPath = \ViewModel.[observed: key]
        if caching && paths.count < capacity { paths[key] = built }
        return built
    }

    /// The number of cached key paths.
    var count: Int { paths.count }

    /// The thread-specific slot; a thread's cache is released when the
    /// thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw = raw as UnsafeMutableRawPointer? else { return }
            Unmanaged<ObservedKeyPaths>.fromOpaque(raw).release()
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()
}
