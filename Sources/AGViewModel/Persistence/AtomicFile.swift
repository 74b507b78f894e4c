import Foundation
#if canImport(Glibc)
import Glibc
private let sysRead = Glibc.read, sysWrite = Glibc.write, sysFsync = Glibc.fsync
private let sysClose = Glibc.close, sysRename = Glibc.rename, sysUnlink = Glibc.unlink
#elseif canImport(Darwin)
import Darwin
private let sysRead = Darwin.read, sysWrite = Darwin.write, sysFsync = Darwin.fsync
private let sysClose = Darwin.close, sysRename = Darwin.rename, sysUnlink = Darwin.unlink
#endif

/// Crash-safe file replacement: a file is either the old one or the complete
/// new one, never a mix or a stub.
///
/// ```swift
/// try AtomicFile.write(data, to: outputURL)
/// ```
///
/// The bytes go to a uniquely named temporary file in the destination's
/// directory, which is flushed to disk (`fsync`) and then renamed over the
/// destination (POSIX `rename`, atomic within a file system); finally the
/// directory is flushed so the rename itself survives a power cut (where the
/// platform allows; failures of that last step are ignored, since the new
/// file is already in place). On any failure before the rename, the
/// temporary file is removed and the previous file is untouched.
///
/// An existing destination keeps its permission bits. A symbolic link at the
/// destination is replaced by the file, not followed. The path is the
/// system's to resolve, as given to ``write(_:toPath:)``: `dir/../file`
/// fails when `dir` is missing, and names `file` in the parent of the
/// link's target when `dir` is a symbolic link. (A file URL made from a
/// relative path has already lost `dir/..` on Linux.)
package enum AtomicFile {
    /// Replaces the file at `url` with `data`, atomically.
    package static func write(_ data: Data, to url: URL) throws(AtomicFileError) {
        try write(data, to: url, fileSystem: POSIXFileSystem())
    }

    /// Replaces the file at `path` with `data`, atomically. Unlike a file
    /// URL, which drops `x/..` from a relative path, the text is the
    /// system's to resolve, as every other call on the path does.
    package static func write(_ data: Data, toPath path: String) throws(AtomicFileError) {
        try write(data, toPath: path, fileSystem: POSIXFileSystem())
    }

    /// The contents of the file at `url`, with a POSIX error on failure.
    package static func read(from url: URL) throws(AtomicFileError) -> Data {
        guard url.isFileURL else { throw AtomicFileError(path: url.absoluteString, step: .checkURL, code: EINVAL) }
        let path = url.path
        guard !path.utf8.contains(0) else { throw AtomicFileError(path: path, step: .checkURL, code: EINVAL) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AtomicFileError(path: path, step: .open, code: errno) }
        defer { _ = sysClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AtomicFileError(path: path, step: .read, code: errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw AtomicFileError(path: path, step: .read, code: EISDIR) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: max(4096, min(Int(info.st_size) + 1, 1 << 24)))
        while true {
            let n = chunk.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(path: path, step: .read, code: errno)
            }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0 ..< n])
        }
    }

    /// The start of the temporary's name: the destination's name, cut to
    /// 200 bytes (whole characters) so that with the dot, the random suffix
    /// and ".tmp" it stays within the 255 bytes a file name may have.
    internal static func temporaryStem(of name: String) -> String {
        guard name.utf8.count > 200 else { return name }
        var length = 0
        let kept = name.prefix { character in
            length += character.utf8.count
            return length <= 200
        }
        return String(kept)
    }

    /// The directory part of `path` (`/` for a file at the root) and its
    /// last component, split at the last slash and nothing more.
    internal static func splitLastComponent(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = path[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(path[path.index(after: slash)...]))
    }

    /// The writer, over an injectable file system (tests fail steps on purpose).
    internal static func write(_ data: Data, to url: URL, fileSystem fs: some AtomicFileSystem) throws(AtomicFileError) {
        guard url.isFileURL else { throw AtomicFileError(path: url.absoluteString, step: .checkURL, code: EINVAL) }
        // `dest/` names a directory: never the file `dest`, which renaming
        // over the path without its slash would replace.
        guard !url.hasDirectoryPath else { throw AtomicFileError(path: url.path, step: .checkURL, code: EISDIR) }
        try write(data, toPath: url.path, fileSystem: fs)
    }

    /// The writer on a path, over an injectable file system.
    internal static func write(_ data: Data, toPath path: String, fileSystem fs: some AtomicFileSystem) throws(AtomicFileError) {
        guard !path.isEmpty else { throw AtomicFileError(path: path, step: .checkURL, code: ENOENT) }
        // The system reads a path up to its first NUL: `out\0.json` would
        // replace `out`.
        guard !path.utf8.contains(0) else { throw AtomicFileError(path: path, step: .checkURL, code: EINVAL) }
        guard !path.hasSuffix("/") else { throw AtomicFileError(path: path, step: .checkURL, code: EISDIR) }
        // The path as given, for the system to resolve: `missing/../file`
        // must fail as the system sees it, and `link/../file` name `file`
        // in the parent of the link's target, as every other call on the
        // path does. Dropping `x/..` from the text would write another file.
        let (directory, name) = splitLastComponent(path)
        guard name != ".", name != ".." else { throw AtomicFileError(path: path, step: .checkURL, code: EISDIR) }

        // A unique temporary beside the destination, so the rename never
        // crosses file systems.
        let stem = temporaryStem(of: name)
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0 ..< 16 {
            let suffix = String(UInt64.random(in: .min ... .max), radix: 36)
            temporary = directory + "/." + stem + "." + suffix + ".tmp"
            fd = fs.createExclusive(temporary, mode: 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw AtomicFileError(path: path, step: .createTemporary, code: errno) }

        func fail(_ step: AtomicFileError.Step, _ code: Int32, closing: Bool) -> AtomicFileError {
            if closing { _ = fs.close(fd) }
            _ = fs.unlink(temporary)
            return AtomicFileError(path: path, step: step, code: code)
        }

        // Keep an existing file's permissions, but not its set-user-ID,
        // set-group-ID or sticky bits: the new file has the writer's owner,
        // so keeping them would hand the writer's identity to whoever runs it.
        var existing = stat()
        if lstat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG {
            _ = fchmod(fd, existing.st_mode & 0o777)
        }

        let written: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[offset ..< min(buffer.count, offset + (1 << 30))])
                let n = fs.write(fd, chunk)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { return EIO }  // no progress: give up rather than spin
                offset += n
            }
            return nil
        }
        if let code = written { throw fail(.write, code, closing: true) }
        guard fs.fsync(fd) == 0 else { throw fail(.sync, errno, closing: true) }
        guard fs.close(fd) == 0 else { throw fail(.close, errno, closing: false) }
        guard fs.rename(temporary, path) == 0 else { throw fail(.rename, errno, closing: false) }
        fs.syncDirectory(directory)
    }
}

/// Why an archive file (or `agvm` output) could not be written or read.
/// The previous file, if any, is untouched.
public struct AtomicFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public enum Step: String, Sendable, Hashable {
        /// Checking that the URL names a local file.
        case checkURL = "checking the URL"
        /// Creating the temporary file beside the destination.
        case createTemporary = "creating a temporary file"
        /// Writing the bytes.
        case write = "writing"
        /// Flushing the bytes to disk.
        case sync = "flushing to disk"
        /// Closing the temporary file.
        case close = "closing"
        /// Renaming the temporary file over the destination.
        case rename = "replacing the file"
        /// Opening a file to read.
        case open = "opening"
        /// Reading a file.
        case read = "reading"
    }

    /// The destination (or source) path.
    public var path: String
    /// The step that failed.
    public var step: Step
    /// The POSIX error number.
    public var code: Int32

    /// Creates an error.
    public init(path: String, step: Step, code: Int32) {
        self.path = path
        self.step = step
        self.code = code
    }

    /// For example `cannot write /out/a.json: Permission denied (while creating a temporary file)`.
    public var description: String {
        let verb = step == .open || step == .read ? "read" : "write"
        if step == .checkURL {
            return code == EISDIR ? "cannot write \(path): it names a directory" : "\(path): not a file URL"
        }
        let message = String(cString: strerror(code))
        return "cannot \(verb) \(path): \(message) (while \(step.rawValue))"
    }
}

/// The system calls ``AtomicFile`` makes, as a seam so tests can fail any of
/// them on purpose. Methods follow POSIX: `-1` and `errno` on failure.
internal protocol AtomicFileSystem {
    /// `open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)`.
    func createExclusive(_ path: String, mode: mode_t) -> Int32
    /// `write(2)`.
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int
    /// `fsync(2)`.
    func fsync(_ fd: Int32) -> Int32
    /// `close(2)`.
    func close(_ fd: Int32) -> Int32
    /// `rename(2)`.
    func rename(_ from: String, _ to: String) -> Int32
    /// `unlink(2)`.
    func unlink(_ path: String) -> Int32
    /// Flushes a directory's entries to disk, best effort.
    func syncDirectory(_ path: String)
}

/// The real system calls.
internal struct POSIXFileSystem: AtomicFileSystem {
    func createExclusive(_ path: String, mode: mode_t) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    }
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        sysWrite(fd, buffer.baseAddress, buffer.count)
    }
    func fsync(_ fd: Int32) -> Int32 { sysFsync(fd) }
    func close(_ fd: Int32) -> Int32 { sysClose(fd) }
    func rename(_ from: String, _ to: String) -> Int32 { sysRename(from, to) }
    func unlink(_ path: String) -> Int32 { sysUnlink(path) }
    func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = sysFsync(fd)
        _ = sysClose(fd)
    }
}
