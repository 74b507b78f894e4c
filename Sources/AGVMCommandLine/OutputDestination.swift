import AGViewModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `-o PATH` writes, decided by what is at PATH now:
///
/// - nothing, or a regular file: the file is replaced atomically (a
///   complete new file or the old one, never a mix);
/// - a symbolic link: followed (through chains of links) and its target
///   handled by these rules, so the link itself stays;
/// - a FIFO or a character device (`/dev/null`, a terminal): opened and
///   written in place, never replaced by a regular file;
/// - `-`, `/dev/stdout`: standard output; `/dev/stderr`, `/dev/fd/N` and
///   `/proc/self/fd/N` (or a link to them): that open descriptor, written in
///   place (following the link would replace the file the shell opened, or
///   fail for a pipe);
/// - a directory, a block device or a socket: an error, nothing written;
///   so is a path ending in `/` that is not a directory.
package enum OutputDestination: Equatable, Sendable {
    /// The process's standard output.
    case standardOutput
    /// A regular file (existing or not) at this path, replaced atomically.
    case replaceFile(String)
    /// A FIFO or character device at this path, opened and streamed to.
    case stream(String)
    /// A descriptor this process already has open (`/dev/fd/N`), written
    /// in place.
    case descriptor(Int32)

    /// The most symbolic links followed before giving up (as `SYMLOOP_MAX`).
    static let maximumLinks = 40

    /// The destination for `path` (`nil` or `-` for standard output).
    package static func resolve(_ path: String?, fileSystem: some OutputFileSystem = POSIXOutputFileSystem()) throws(OutputPathError) -> OutputDestination {
        guard var current = path, current != "-" else { return .standardOutput }
        for _ in 0 ... maximumLinks {
            if let descriptor = openDescriptor(named: current) {
                return descriptor == STDOUT_FILENO ? .standardOutput : .descriptor(descriptor)
            }
            let kind = fileSystem.kind(ofPath: current)
            // A trailing `/` names a directory: never a file of that name.
            if current.hasSuffix("/") && kind != .directory && kind != .symbolicLink {
                throw OutputPathError(path: path!, reason: "is not a directory (a path ending in '/' names one)")
            }
            switch kind {
            case nil, .regularFile?:
                return .replaceFile(current)
            case .fifo?, .characterDevice?:
                return .stream(current)
            case .directory?:
                throw OutputPathError(path: path!, reason: "is a directory")
            case .blockDevice?:
                throw OutputPathError(path: path!, reason: "is a block device; write to a file, a FIFO or a character device")
            case .socket?:
                throw OutputPathError(path: path!, reason: "is a socket; write to a file, a FIFO or a character device")
            case .symbolicLink?:
                guard let target = fileSystem.destination(ofLink: current) else {
                    throw OutputPathError(path: path!, reason: "cannot read the symbolic link")
                }
                if target.hasPrefix("/") {
                    current = target
                } else {
                    let directory = (current as NSString).deletingLastPathComponent
                    current = directory.isEmpty ? target : directory + "/" + target
                }
            }
        }
        throw OutputPathError(path: path!, reason: "too many levels of symbolic links")
    }

    /// Whether writing here would write to a terminal: binary output
    /// (an archive) is refused then, as `gzip` refuses to.
    package func isTerminal(io: ToolIO) -> Bool {
        switch self {
        case .standardOutput:
            return io.isOutputTerminal
        case .descriptor(let fd):
            return isatty(fd) == 1
        case .replaceFile:
            return false
        case .stream(let path):
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return false }
            // Non-blocking and without becoming the controlling terminal:
            // the open only asks, and a device that will not open is
            // left for the write to report.
            let fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return isatty(fd) == 1
        }
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back, and lets them
    /// act when it returns: a Ctrl-C during an atomic write would otherwise
    /// end the tool with its temporary file left beside the destination.
    static func holdingInterruptions<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        var held = sigset_t(), previous = sigset_t()
        sigemptyset(&held)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, signal) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Whether `fd` is open on a regular file.
    static func isRegularFile(descriptor fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The descriptor `path` names as one of this process's own
    /// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`), or `nil`.
    static func openDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return STDIN_FILENO
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// The input among `inputs` that writing to `path` would replace: the
    /// same file (device and inode, whatever the spelling or links), or
    /// `nil`. Standard input (`-`) is the file redirected to it, if any.
    package static func replacedInput(
        writingTo path: String?, inputs: [String], fileSystem: some OutputFileSystem = POSIXOutputFileSystem()
    ) -> String? {
        let written: String
        switch try? resolve(path, fileSystem: fileSystem) {
        case .replaceFile(let target)?: written = target
        // Named descriptors are written in place: refused too when they are
        // open on an input (`-o /dev/stdout >> in.json`).
        // (A terminal or /dev/null is one device on every descriptor: only a
        // regular file can be the input it would damage.)
        case .standardOutput? where path != nil && path != "-" && isRegularFile(descriptor: STDOUT_FILENO):
            written = "/dev/fd/1"
        case .descriptor(let fd)? where isRegularFile(descriptor: fd): written = "/dev/fd/\(fd)"
        default: return nil
        }
        guard let output = fileSystem.identity(ofPath: written) else { return nil }
        return inputs.first { fileSystem.identity(ofPath: $0 == "-" ? "/dev/stdin" : $0) == output }
    }

    /// Why an atomic write failed, in the system's words. A directory that
    /// cannot be written is named as the cause: the file itself may be
    /// writable, but the write needs a new file beside it.
    static func reason(for error: AtomicFileError) -> String {
        let reason = String(cString: strerror(error.code))
        guard error.step == .createTemporary, error.code == EACCES else { return reason }
        return "cannot create a temporary file in its directory: " + reason
    }

    /// Writes `data` here.
    package func write(_ data: Data, io: ToolIO) throws {
        switch self {
        case .standardOutput:
            try io.writeOutput(data)
        case .replaceFile(let path):
            do {
                try Self.holdingInterruptions { () throws(AtomicFileError) in
                    try AtomicFile.write(data, toPath: path)
                }
            } catch {
                throw ToolFileWriteError(path: path, reason: Self.reason(for: error))
            }
        case .stream(let path):
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ToolFileWriteError(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            try Self.writeInPlace(data, to: fd, named: path)
        case .descriptor(let fd):
            try Self.writeInPlace(data, to: fd, named: "/dev/fd/\(fd)")
        }
    }

    /// Writes `data` to the open `fd`. A reader that went away (a FIFO's,
    /// a pipe's) is like a closed pipe, not an error.
    private static func writeInPlace(_ data: Data, to fd: Int32, named path: String) throws {
        do {
            try ToolIO.writeAll(data, to: fd)
        } catch .closed {
            return
        } catch .failed(let reason) {
            throw ToolFileWriteError(path: path, reason: reason)
        }
    }
}

/// What is at a path, without following a final symbolic link.
package enum OutputFileKind: Sendable, Equatable {
    case regularFile, directory, symbolicLink, fifo, characterDevice, blockDevice, socket
}

/// The file-system questions ``OutputDestination`` asks, behind a seam so
/// tests can describe files they cannot create (block devices, sockets).
package protocol OutputFileSystem {
    /// What is at `path` (`lstat`), or `nil` when nothing is.
    func kind(ofPath path: String) -> OutputFileKind?
    /// The contents of the symbolic link at `path` (`readlink`).
    func destination(ofLink path: String) -> String?
    /// The file at `path`, links followed (`stat`), or `nil` when none is.
    func identity(ofPath path: String) -> FileIdentity?
}

/// A file's identity on this machine: its device and inode.
package struct FileIdentity: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// The real file system.
package struct POSIXOutputFileSystem: OutputFileSystem {
    package init() {}

    package func kind(ofPath path: String) -> OutputFileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .regularFile
        }
    }

    package func identity(ofPath path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    package func destination(ofLink path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0 ..< count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `-o PATH` names something the tool will not write to.
package struct OutputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path as given.
    package var path: String
    /// Why, for example "is a directory".
    package var reason: String

    /// `cannot write PATH: REASON`.
    package var description: String { "cannot write \(path): \(reason)" }
}

/// Writing an output file failed.
package struct ToolFileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file written (after following links).
    package var path: String
    /// The system's reason, for example "No space left on device".
    package var reason: String

    /// `cannot write PATH: REASON`.
    package var description: String { "cannot write \(path): \(reason)" }
}
