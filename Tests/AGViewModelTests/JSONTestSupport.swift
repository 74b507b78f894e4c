import AGViewModel
import Foundation

/// The error parsing `text` gives, or `nil` when it parses.
func parseError(_ text: String, options: JSONParser.Options = .init()) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: text, options: options)
        return nil
    } catch {
        return error
    }
}

/// The error parsing `bytes` gives, or `nil` when they parse.
func parseError(bytes: [UInt8], options: JSONParser.Options = .init()) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: bytes, options: options)
        return nil
    } catch {
        return error
    }
}

/// The state shared with a thread started by ``onSmallStackThread(stackSize:_:)``.
private final class ThreadJob: @unchecked Sendable {
    let body: @Sendable () -> Any
    var result: Any?
    init(_ body: @escaping @Sendable () -> Any) { self.body = body }
}

/// Runs `body` on a new POSIX thread whose stack is exactly `stackSize`
/// bytes and waits for it. Returns `nil` when such a thread cannot be made.
func onSmallStackThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T? {
    let job = ThreadJob { body() }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
    #if os(Linux)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let context = Unmanaged.passRetained(job).toOpaque()
    let created = pthread_create(&thread, &attributes, { context in
        let job = Unmanaged<ThreadJob>.fromOpaque(context!).takeRetainedValue()
        job.result = job.body()
        return nil
    }, context)
    guard created == 0 else { return nil }
    #if os(Linux)
    pthread_join(thread, nil)
    #else
    pthread_join(thread!, nil)
    #endif
    return job.result as? T
}
