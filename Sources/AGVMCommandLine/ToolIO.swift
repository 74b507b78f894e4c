import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tool's connection to the outside world: standard input, output and
/// error, and file reading. ``standard`` is the real process; tests pass
/// their own to run the tool in-process and inspect what it printed.
///
/// Not `Sendable`: the tool runs on one thread, and an IO's closures may
/// share plain mutable state (such as whether standard error failed)
/// that the compiler then keeps on that thread.
package struct ToolIO {
    /// Reads all of standard input.
    package var readStandardInput: () throws -> Data
    /// Reads the whole file at a path.
    package var readFile: (String) throws -> Data
    /// Writes bytes to standard output; throws ``ToolOutputError`` when
    /// they cannot be written (a full disk, a closed pipe).
    package var writeOutput: (Data) throws -> Void
    /// Writes text to standard error. A failure cannot be reported
    /// anywhere; ``errorStreamFailed`` tells whether one happened.
    package var writeError: (String) -> Void
    /// Whether a write to standard error has failed (the tool then exits 1).
    package var errorStreamFailed: () -> Bool = { false }
    /// The environment variables the tool looks at (`NO_COLOR`, `COLUMNS`).
    package var environment: [String: String] = [:]
    /// Whether standard output is a terminal: colour and the terminal's
    /// width are only used then, so piped output is always the same.
    package var isOutputTerminal = false
    /// Whether standard error is a terminal: progress lines are only shown then.
    package var isErrorTerminal = false
    /// The terminal's width in columns, when standard output is one.
    package var terminalColumns: () -> Int? = { nil }

    /// An IO from its four parts.
    package init(readStandardInput: @escaping () throws -> Data,
                readFile: @escaping (String) throws -> Data,
                writeOutput: @escaping (Data) throws -> Void,
                writeError: @escaping (String) -> Void) {
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// The process's standard streams, file system, environment and
    /// terminal; each call makes a new IO, with its own record of whether
    /// writing to standard error failed.
    package static var standard: ToolIO {
        let standardErrorFailed = FailureFlag()
        var io = ToolIO(
            readStandardInput: { try readAll(fileDescriptor: 0) },
            readFile: { path in try readFile(atPath: path) },
            writeOutput: { data in try writeAll(data, to: 1) },
            writeError: { text in
                do { try writeAll(Data(text.utf8), to: 2) } catch { standardErrorFailed.set() }
            })
        io.errorStreamFailed = { standardErrorFailed.isSet }
        io.environment = ProcessInfo.processInfo.environment
        io.isOutputTerminal = isatty(1) == 1
        io.isErrorTerminal = isatty(2) == 1
        io.terminalColumns = { columns(ofTerminal: 1) }
        return io
    }

    /// Writes `text` to standard output.
    package func print(_ text: String) throws { try writeOutput(Data(text.utf8)) }

    /// Writes all of `data` to `fd`, retrying short writes and interruptions.
    /// A reader that went away (`EPIPE`; `SIGPIPE` is ignored by the tool)
    /// is ``ToolOutputError/closed``; any other failure is
    /// ``ToolOutputError/failed(reason:)``.
    package static func writeAll(_ data: Data, to fd: Int32) throws(ToolOutputError) {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        guard let code = failure else { return }
        if code == EPIPE { throw .closed }
        throw .failed(reason: String(cString: strerror(code)))
    }

    /// Reads the file at `path` with POSIX calls, so failures carry the
    /// system's reason ("No such file or directory", "Is a directory").
    package static func readFile(atPath path: String) throws -> Data {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ToolFileError(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try readAll(fileDescriptor: fd)
    }

    /// The width of the terminal on `fd` (`TIOCGWINSZ`), or `nil`.
    static func columns(ofTerminal fd: Int32) -> Int? {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(fd, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The most bytes the tool reads from one input (1 GiB): an endless
    /// stream (`/dev/zero`) is an error, not an exhausted memory.
    package static let maximumInputSize = 1 << 30

    /// Reads everything from `fd` until end of file, at most `limit` bytes.
    static func readAll(fileDescriptor fd: Int32, limit: Int = maximumInputSize) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolFileError(reason: String(cString: strerror(errno)))
            }
            if n == 0 { return data }
            guard n <= limit - data.count else {
                let size = limit >= 1 << 30 ? "\(limit >> 30) GiB" : "\(limit >> 10) KiB"
                throw ToolFileError(reason: "larger than \(size), the most agvm reads from one input")
            }
            data.append(contentsOf: chunk[0..<n])
        }
    }
}

/// A file could not be read; `reason` is the system's explanation.
package struct ToolFileError: Error, Sendable, CustomStringConvertible {
    /// Why, for example "No such file or directory".
    package var reason: String
    /// The reason.
    package var description: String { reason }
}

/// Output could not be written.
package enum ToolOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reader went away (`agvm … | head`): the tool stops quietly.
    case closed
    /// The write failed; `reason` is the system's explanation, such as
    /// "No space left on device".
    case failed(reason: String)

    /// The reason, for messages.
    package var description: String {
        switch self {
        case .closed: return "Broken pipe"
        case .failed(let reason): return reason
        }
    }
}

/// Whether a write to standard error has failed: shared by one IO's
/// closures, on the tool's one thread.
private final class FailureFlag {
    private(set) var isSet = false

    func set() { isSet = true }
}
