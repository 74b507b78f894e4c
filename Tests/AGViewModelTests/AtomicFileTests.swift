import Foundation
import Testing
@testable import AGViewModel
#if canImport(Glibc)
import Glibc
#endif

/// The real system calls with one step made to fail on purpose.
final class FailingFileSystem: AtomicFileSystem {
    enum Failure {
        case none, writeAfter(bytes: Int, code: Int32), fsync, close, rename
        /// The first `write` fails with `code` (EINTR) or returns 0 (`code` 0); later ones are real.
        case firstWrite(code: Int32)
        /// The first temporary name is taken (EEXIST).
        case firstNameTaken
    }
    let failure: Failure
    let real = POSIXFileSystem()
    var written = 0
    var temporaryPaths: [String] = []

    init(_ failure: Failure) { self.failure = failure }

    func createExclusive(_ path: String, mode: mode_t) -> Int32 {
        temporaryPaths.append(path)
        if case .firstNameTaken = failure, temporaryPaths.count == 1 { errno = EEXIST; return -1 }
        return real.createExclusive(path, mode: mode)
    }
    var writeCalls = 0
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        writeCalls += 1
        if case .firstWrite(let code) = failure, writeCalls == 1 {
            if code == 0 { return 0 }
            errno = code; return -1
        }
        guard case .writeAfter(let limit, let code) = failure else { return real.write(fd, buffer) }
        if written >= limit { errno = code; return -1 }
        // A short write first, as a full disk gives, then the failure.
        let n = real.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(limit - written)))
        if n > 0 { written += n }
        return n
    }
    func fsync(_ fd: Int32) -> Int32 {
        if case .fsync = failure { errno = EIO; return -1 }
        return real.fsync(fd)
    }
    func close(_ fd: Int32) -> Int32 {
        if case .close = failure { _ = real.close(fd); errno = EIO; return -1 }
        return real.close(fd)
    }
    func rename(_ from: String, _ to: String) -> Int32 {
        if case .rename = failure { errno = EXDEV; return -1 }
        return real.rename(from, to)
    }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
    func syncDirectory(_ path: String) { real.syncDirectory(path) }
}

@Suite("AtomicFile")
final class AtomicFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("agvm-atomic-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func writesANewFileAndLeavesNoTemporary() throws {
        let url = directory.appendingPathComponent("out.json")
        try AtomicFile.write(Data("hello".utf8), to: url)
        #expect(try Data(contentsOf: url) == Data("hello".utf8))
        #expect(try contents() == ["out.json"])
        #expect(try AtomicFile.read(from: url) == Data("hello".utf8))
        try AtomicFile.write(Data(), to: url)
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func aLongFileNameWithinTheLimitIsWritten() throws {
        // 254 bytes: the file system allows it, so the temporary must fit too.
        let name = String(repeating: "é", count: 100) + String(repeating: "a", count: 49) + ".agvm"
        #expect(name.utf8.count == 254)
        let url = directory.appendingPathComponent(name)
        try AtomicFile.write(Data("long".utf8), to: url)
        #expect(try Data(contentsOf: url) == Data("long".utf8))
        #expect(try contents() == [name])
        #expect(AtomicFile.temporaryStem(of: name) == String(repeating: "é", count: 100))
    }

    @Test func replacesAnExistingFileKeepingItsPermissions() throws {
        let url = directory.appendingPathComponent("out.json")
        try Data("old".utf8).write(to: url)
        #expect(chmod(url.path, 0o640) == 0)
        try AtomicFile.write(Data("new contents".utf8), to: url)
        #expect(try Data(contentsOf: url) == Data("new contents".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try contents() == ["out.json"])
    }

    /// The replacement belongs to the writer, so a set-user-ID bit kept
    /// from the old file would run it as the writer.
    @Test func replacingDropsTheSetUserIDBit() throws {
        let url = directory.appendingPathComponent("tool")
        try Data("old".utf8).write(to: url)
        #expect(chmod(url.path, 0o4755) == 0)
        var before = stat()
        #expect(stat(url.path, &before) == 0 && before.st_mode & 0o7777 == 0o4755)
        try AtomicFile.write(Data("new".utf8), to: url)
        var after = stat()
        #expect(stat(url.path, &after) == 0)
        #expect(after.st_mode & 0o7777 == 0o755)
    }

    @Test(arguments: [
        (FailingFileSystem.Failure.writeAfter(bytes: 0, code: ENOSPC), AtomicFileError.Step.write, ENOSPC),
        (.writeAfter(bytes: 3000, code: ENOSPC), .write, ENOSPC),
        (.fsync, .sync, EIO),
        (.close, .close, EIO),
        (.rename, .rename, EXDEV),
    ])
    func aFailedStepLeavesThePreviousFileIntact(
        failure: FailingFileSystem.Failure, step: AtomicFileError.Step, code: Int32
    ) throws {
        let url = directory.appendingPathComponent("archive.agvm")
        let previous = Data(repeating: 0xAB, count: 5000)
        try previous.write(to: url)
        let fs = FailingFileSystem(failure)
        let next = Data(repeating: 0xCD, count: 8000)
        #expect(throws: AtomicFileError(path: url.path, step: step, code: code)) {
            try AtomicFile.write(next, to: url, fileSystem: fs)
        }
        #expect(try Data(contentsOf: url) == previous)
        #expect(fs.temporaryPaths.count == 1)
        #expect(fs.temporaryPaths.first?.hasPrefix(directory.path + "/.archive.agvm.") == true)
        #expect(try contents() == ["archive.agvm"])  // the temporary is gone
    }

    @Test func aDestinationWhoseParentIsAFileFailsCleanly() throws {
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("out.json")
        #expect(throws: AtomicFileError(path: url.path, step: .createTemporary, code: ENOTDIR)) {
            try AtomicFile.write(Data("y".utf8), to: url)
        }
        #expect(try Data(contentsOf: blocker) == Data("x".utf8))
        let missing = directory.appendingPathComponent("no/such/dir/out.json")
        #expect(throws: AtomicFileError(path: missing.path, step: .createTemporary, code: ENOENT)) {
            try AtomicFile.write(Data("y".utf8), to: missing)
        }
    }

    /// `..` in a destination is the system's to resolve, as in every
    /// other call on the path: after a missing directory or a file it
    /// fails, and after a link to a directory it names a file beside the
    /// link's target. Dropped from the text, each replaced `victim`.
    @Test func aDotDotInTheDestinationIsResolvedByTheSystem() throws {
        let victim = directory.appendingPathComponent("victim")
        try Data("old".utf8).write(to: victim)
        for (through, code) in [("missing", ENOENT), ("victim", ENOTDIR)] {
            let url = URL(fileURLWithPath: directory.path + "/\(through)/../victim")
            #expect(throws: AtomicFileError(path: url.path, step: .createTemporary, code: code)) {
                try AtomicFile.write(Data("new".utf8), to: url)
            }
        }
        let target = directory.appendingPathComponent("other/sub", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/link", withDestinationPath: target.path)
        try AtomicFile.write(Data("new".utf8), to: URL(fileURLWithPath: directory.path + "/link/../victim"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("other/victim")) == Data("new".utf8))
        #expect(try Data(contentsOf: victim) == Data("old".utf8))
        #expect(try contents() == ["link", "other", "victim"])
        let parent = URL(fileURLWithPath: directory.path + "/other/..", isDirectory: false)
        #expect(throws: AtomicFileError(path: parent.path, step: .checkURL, code: EISDIR)) {
            try AtomicFile.write(Data("new".utf8), to: parent)
        }
    }

    @Test func aPathIsSplitAtItsLastSlashOnly() {
        #expect(AtomicFile.splitLastComponent("/a/b/../c") == ("/a/b/..", "c"))
        #expect(AtomicFile.splitLastComponent("/c") == ("/", "c"))
        #expect(AtomicFile.splitLastComponent("c") == (".", "c"))
        #expect(AtomicFile.splitLastComponent("a//c") == ("a/", "c"))
    }

    /// The system reads a path up to its first NUL; such a path is refused,
    /// not cut short to name another file.
    @Test func aPathWithANulIsRefusedAndTheFileItsPrefixNamesIsKept() throws {
        let kept = directory.appendingPathComponent("out")
        try Data("keep".utf8).write(to: kept)
        let path = kept.path + "\u{0}.json"
        #expect(throws: AtomicFileError.self) { try AtomicFile.write(Data("new".utf8), toPath: path) }
        #expect(throws: AtomicFileError.self) { try AtomicFile.read(from: URL(fileURLWithPath: path)) }
        #expect(try Data(contentsOf: kept) == Data("keep".utf8))
        #expect(try contents() == ["out"])
    }

    @Test func aDirectoryAtTheDestinationIsNotReplaced() throws {
        let url = directory.appendingPathComponent("sub", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: url.appendingPathComponent("inner"))
        #expect(throws: AtomicFileError.self) { try AtomicFile.write(Data("y".utf8), to: url) }
        #expect(try contents() == ["sub"])
        #expect(try Data(contentsOf: url.appendingPathComponent("inner")) == Data("keep".utf8))
    }

    @Test func errorsDescribeTheStepAndCause() throws {
        let error = AtomicFileError(path: "/out/a.json", step: .createTemporary, code: EACCES)
        #expect(error.description == "cannot write /out/a.json: Permission denied (while creating a temporary file)")
        let web = URL(string: "https://example.com/a.json")!
        #expect(throws: AtomicFileError(path: web.absoluteString, step: .checkURL, code: EINVAL)) {
            try AtomicFile.write(Data(), to: web)
        }
        // A directory URL (`file.json/`) is refused, never the file replaced.
        let file = directory.appendingPathComponent("kept.json")
        try Data("kept".utf8).write(to: file)
        let slashed = URL(fileURLWithPath: file.path + "/")
        #expect(throws: AtomicFileError(path: slashed.path, step: .checkURL, code: EISDIR)) {
            try AtomicFile.write(Data("new".utf8), to: slashed)
        }
        #expect(try Data(contentsOf: file) == Data("kept".utf8))
        #expect(AtomicFileError(path: "/out/a.json", step: .checkURL, code: EISDIR).description
                == "cannot write /out/a.json: it names a directory")
        let missing = directory.appendingPathComponent("missing")
        #expect(throws: AtomicFileError(path: missing.path, step: .open, code: ENOENT)) {
            try AtomicFile.read(from: missing)
        }
        #expect(throws: AtomicFileError(path: directory.path, step: .read, code: EISDIR)) {
            try AtomicFile.read(from: directory)
        }
    }

    // MARK: Archives on disk

    @Test func archivesSaveAndLoad() throws {
        let url = directory.appendingPathComponent("timeline.agvm")
        let items = (0 ..< 3).map { ViewModel(["id": .int(Int64($0)), "text": .string("status \($0)")]) }
        let skipped = try Archive.write(.viewModels(items), to: url)
        #expect(skipped.isEmpty)
        guard case .viewModels(let back) = try Archive.read(from: url) else { Issue.record("kind"); return }
        #expect(back.map { $0["text"] } == ["status 0", "status 1", "status 2"])
    }

    @Test func aFailedArchiveWriteKeepsThePreviousArchiveReadable() throws {
        let url = directory.appendingPathComponent("timeline.agvm")
        try Archive.write(.value(["version": 1]), to: url)
        let padding = JSONValue.string(String(repeating: "x", count: 4000))
        let next = try ArchiveEncoder().encode(.value(["version": 2, "padding": padding]))
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.write(next.data, to: url, fileSystem: FailingFileSystem(.writeAfter(bytes: 100, code: ENOSPC)))
        }
        guard case .value(let value) = try Archive.read(from: url) else { Issue.record("kind"); return }
        #expect(value == ["version": 1])
    }

    @Test func readingAMissingOrDamagedArchiveThrowsArchiveErrors() throws {
        let missing = directory.appendingPathComponent("none.agvm")
        #expect(throws: ArchiveError.cannotRead(AtomicFileError(path: missing.path, step: .open, code: ENOENT))) {
            try Archive.read(from: missing)
        }
        let url = directory.appendingPathComponent("cut.agvm")
        try Archive.write(.value([1, 2, 3]), to: url)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count - 1).write(to: url)
        #expect(throws: ArchiveError.truncated(expected: data.count, found: data.count - 1)) {
            try Archive.read(from: url)
        }
    }
}

extension AtomicFileTests {
    /// A write interrupted by a signal (EINTR) is retried, not reported.
    @Test func anInterruptedWriteIsRetried() throws {
        let url = directory.appendingPathComponent("archive.agvm")
        try Data("old".utf8).write(to: url)
        let next = Data(repeating: 0xCD, count: 8000)
        try AtomicFile.write(next, to: url, fileSystem: FailingFileSystem(.firstWrite(code: EINTR)))
        #expect(try Data(contentsOf: url) == next)
        #expect(try contents() == ["archive.agvm"])
    }

    /// A write that makes no progress fails with EIO instead of spinning,
    /// and the previous file stays.
    @Test func aWriteWithoutProgressFailsAndKeepsThePreviousFile() throws {
        let url = directory.appendingPathComponent("archive.agvm")
        let previous = Data("old".utf8)
        try previous.write(to: url)
        #expect(throws: AtomicFileError(path: url.path, step: .write, code: EIO)) {
            try AtomicFile.write(Data(repeating: 0xCD, count: 8000), to: url, fileSystem: FailingFileSystem(.firstWrite(code: 0)))
        }
        #expect(try Data(contentsOf: url) == previous)
        #expect(try contents() == ["archive.agvm"])
    }

    /// A temporary name that is already taken is replaced by another one.
    @Test func aTakenTemporaryNameIsRetried() throws {
        let url = directory.appendingPathComponent("archive.agvm")
        let fs = FailingFileSystem(.firstNameTaken)
        try AtomicFile.write(Data("new".utf8), to: url, fileSystem: fs)
        #expect(try Data(contentsOf: url) == Data("new".utf8))
        #expect(fs.temporaryPaths.count == 2)
        #expect(try contents() == ["archive.agvm"])
    }

    /// Names over 200 bytes (but short enough themselves) get a cut stem, so
    /// the temporary's name still fits in 255 bytes.
    @Test func aFileNameBetween200And255BytesIsWritten() throws {
        let name = String(repeating: "b", count: 240) + ".agvm"
        #expect(AtomicFile.temporaryStem(of: name) == String(repeating: "b", count: 200))
        let url = directory.appendingPathComponent(name)
        try AtomicFile.write(Data("x".utf8), to: url)
        #expect(try Data(contentsOf: url) == Data("x".utf8))
        #expect(try contents() == [name])
    }

    /// Files larger than one read chunk (16 MB) are read whole.
    @Test func aFileLargerThanOneReadChunkIsReadWhole() throws {
        let url = directory.appendingPathComponent("big.bin")
        var data = Data(repeating: 0xAB, count: (1 << 24) + 4097)
        data[data.count - 1] = 0x01
        try AtomicFile.write(data, to: url)
        #expect(try AtomicFile.read(from: url) == data)
    }

    /// `Archive.write` and `Archive.read` use the encoder, keys and decoder
    /// they are given, return what was skipped, and report a failed write
    /// as `cannotWrite`.
    @Test func archiveWriteAndReadHonourTheirArgumentsAndReportFailures() throws {
        struct Avatar {}
        let url = directory.appendingPathComponent("item.agvm")
        let item = ViewModel(["id": 1, "text": "a", "cache": "b"]).addArchivedKeys(["id"])
        item[value: "avatar"] = .payload(Avatar())
        let skipped = try Archive.write(.viewModel(item), to: url, keys: .everything)
        #expect(skipped.map(\.description) == ["avatar: skipped payload of type Avatar"])
        guard case .viewModel(let back) = try Archive.read(from: url) else { Issue.record("kind"); return }
        #expect(back.keys == ["id", "text", "cache"])

        try Archive.write(.value([[[1]]]), to: url)
        #expect(throws: ArchiveError.malformed(offset: 33, reason: "nesting deeper than 2 levels")) {
            try Archive.read(from: url, decoder: ArchiveDecoder(maximumDepth: 2))
        }

        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let inside = blocker.appendingPathComponent("item.agvm")
        #expect(throws: ArchiveError.cannotWrite(AtomicFileError(path: inside.path, step: .createTemporary, code: ENOTDIR))) {
            try Archive.write(.viewModel(item), to: inside)
        }
    }
}
