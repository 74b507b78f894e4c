import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tool's connection to the outside world: standard input, output and
/// error, and file reading. ``standard`` is the real process; tests pass
/// their own to run the tool in-process and inspect what it printed.
public struct ToolIO: Sendable {
    /// Reads all of standard input.
    public var readStandardInput: @Sendable () throws -> Data
    /// Reads the whole file at a path.
    public var readFile: @Sendable (String) throws -> Data
    /// Writes bytes to standard output.
    public var writeOutput: @Sendable (Data) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// The environment variables the tool looks at (`NO_COLOR`, `COLUMNS`).
    public var environment: [String: String] = [:]
    /// Whether standard output is a terminal: colour and the terminal's
    /// width are only used then, so piped output is always the same.
    public var isOutputTerminal = false
    /// Whether standard error is a terminal: progress lines are only shown then.
    public var isErrorTerminal = false
    /// The terminal's width in columns, when standard output is one.
    public var terminalColumns: @Sendable () -> Int? = { nil }

    /// An IO from its four parts.
    public init(readStandardInput: @escaping @Sendable () throws -> Data,
                readFile: @escaping @Sendable (String) throws -> Data,
                writeOutput: @escaping @Sendable (Data) -> Void,
                writeError: @escaping @Sendable (String) -> Void) {
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// The process's standard streams, file system, environment and terminal.
    public static let standard: ToolIO = {
        var io = ToolIO(
            readStandardInput: { try readAll(fileDescriptor: 0) },
            readFile: { path in try readFile(atPath: path) },
            writeOutput: { data in FileHandle.standardOutput.write(data) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
        io.environment = ProcessInfo.processInfo.environment
        io.isOutputTerminal = isatty(1) == 1
        io.isErrorTerminal = isatty(2) == 1
        io.terminalColumns = { columns(ofTerminal: 1) }
        return io
    }()

    /// Writes `text` to standard output.
    public func print(_ text: String) { writeOutput(Data(text.utf8)) }

    /// Reads the file at `path` with POSIX calls, so failures carry the
    /// system's reason ("No such file or directory", "Is a directory").
    public static func readFile(atPath path: String) throws -> Data {
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

    /// Reads everything from `fd` until end of file.
    static func readAll(fileDescriptor fd: Int32) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolFileError(reason: String(cString: strerror(errno)))
            }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
        }
    }
}

/// A file could not be read; `reason` is the system's explanation.
public struct ToolFileError: Error, Sendable, CustomStringConvertible {
    /// Why, for example "No such file or directory".
    public var reason: String
    /// The reason.
    public var description: String { reason }
}
