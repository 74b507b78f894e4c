/// Receives a double's shortest round-trip text from the standard library
/// straight into the writer's buffer, with no `String` in between: the
/// writer's path for the doubles below 1e-308 that ``JSONShortestDouble``
/// has no power of ten for.
///
/// `Double.write(to:)` formats into a stack buffer and hands its ASCII
/// bytes to `_writeASCII`, the output stream's hook for ASCII text: the same
/// text as `description` (`5.0`, `1e-05`, `1.7976931348623157e+308`) without
/// making a string per number.
internal struct JSONDoubleText: TextOutputStream {
    /// The longest text of a double is 24 bytes (`-2.2250738585072014e-308`).
    static let capacity = 32

    let destination: UnsafeMutablePointer<UInt8>
    var count = 0

    init(destination: UnsafeMutablePointer<UInt8>) { self.destination = destination }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(buffer)
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= Self.capacity, "double text longer than expected")
        guard let source = bytes.baseAddress else { return }
        (destination + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}
