import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file system described in memory, for kinds of files a test cannot create.
private struct DescribedFileSystem: OutputFileSystem {
    var kinds: [String: OutputFileKind]
    var links: [String: String] = [:]
    func kind(ofPath path: String) -> OutputFileKind? { kinds[path] }
    func destination(ofLink path: String) -> String? { links[path] }
    func identity(ofPath path: String) -> FileIdentity? { nil }
}

/// A character device to write to: run as root, a fresh node with the
/// numbers of `/dev/NAME` in `directory`, so a tool that wrongly replaced
/// the device would replace that node, not the machine's `/dev/null` or
/// `/dev/full`; otherwise `/dev/NAME` itself (which only root could replace).
private func characterDevice(_ name: String, in directory: String) -> String {
    let system = "/dev/" + name
    var info = stat()
    guard getuid() == 0, stat(system, &info) == 0 else { return system }
    let node = directory + "/" + name
    guard mknod(node, S_IFCHR | 0o666, info.st_rdev) == 0 else { return system }
    let probe = open(node, O_WRONLY)
    guard probe >= 0 else { return system }
    close(probe)
    return node
}

/// Whether `env --default-signal` exists here (GNU coreutils): the signal
/// tests use it to undo signals a test runner ignores, which children inherit.
private let envResetsSignals: Bool = {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["--default-signal=INT", "true"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

/// A fresh temporary directory, removed by the caller.
private func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("agvm-output-\(UInt64.random(in: 0 ... .max))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A fresh temporary directory holding copies of the books fixture and its
/// spec, with their contents, for tests that must leave both as they were.
private struct BooksCopy {
    let directory: String
    var input: String { directory + "/books.json" }
    var spec: String { directory + "/books.spec.json" }
    let original: Data
    let originalSpec: Data

    init() throws {
        directory = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture("books.json"), toPath: directory + "/books.json")
        try FileManager.default.copyItem(atPath: fixture("specs/books.spec.json"), toPath: directory + "/books.spec.json")
        original = try Data(contentsOf: URL(fileURLWithPath: directory + "/books.json"))
        originalSpec = try Data(contentsOf: URL(fileURLWithPath: directory + "/books.spec.json"))
    }
}

@Suite("-o destinations and output errors")
struct OutputDestinationTests {
    let books = fixture("books.json")

    @Test func standardOutputForNothingOrDash() throws {
        #expect(try OutputDestination.resolve(nil) == .standardOutput)
        #expect(try OutputDestination.resolve("-") == .standardOutput)
    }

    /// Root writes anywhere, so the reason is checked on its own: only a
    /// directory that refuses the temporary file is named as the cause.
    @Test func aDirectoryThatRefusesTheTemporaryFileIsNamed() {
        let refused = AtomicFileError(path: "ro/w.json", step: .createTemporary, code: EACCES)
        #expect(OutputDestination.reason(for: refused) == "cannot create a temporary file in its directory: Permission denied")
        let missing = AtomicFileError(path: "missing/w.json", step: .createTemporary, code: ENOENT)
        #expect(OutputDestination.reason(for: missing) == "No such file or directory")
        let full = AtomicFileError(path: "w.json", step: .write, code: ENOSPC)
        #expect(OutputDestination.reason(for: full) == "No space left on device")
    }

    @Test func regularFileIsReplacedAtomically() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.json"
        #expect(try OutputDestination.resolve(path) == .replaceFile(path))
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try OutputDestination.resolve(path) == .replaceFile(path))
        #expect(CapturedIO().run("convert", books, "--to", "json", "-o", path) == 0)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("{\n  \"common\""))
    }

    @Test func symbolicLinkIsFollowedAndKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: directory + "/target.json"))
        // A chain: first -> second -> target.json, relative links.
        try FileManager.default.createSymbolicLink(atPath: directory + "/second", withDestinationPath: "target.json")
        try FileManager.default.createSymbolicLink(atPath: directory + "/first", withDestinationPath: "second")
        #expect(try OutputDestination.resolve(directory + "/first") == .replaceFile(directory + "/target.json"))

        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", directory + "/first") == 0)
        #expect(io.error.isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/first") == "second")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/second") == "target.json")
        #expect(try String(contentsOfFile: directory + "/target.json", encoding: .utf8).hasPrefix("{\n"))
    }

    @Test func danglingLinkCreatesItsTarget() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/new.json")
        #expect(CapturedIO().run("convert", books, "--to", "json", "-o", directory + "/link") == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link") == directory + "/new.json")
        #expect(FileManager.default.fileExists(atPath: directory + "/new.json"))
    }

    @Test func linkLoopIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: directory + "/b", withDestinationPath: "a")
        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", directory + "/a") == 1)
        #expect(io.error == "agvm: error: cannot write \(directory)/a: too many levels of symbolic links\n")
    }

    @Test func directoryIsAnErrorAndLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", directory) == 1)
        #expect(io.error == "agvm: error: cannot write \(directory): is a directory\n")
        #expect(io.output.isEmpty)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func trailingSlashNamesADirectory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/out.txt"
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        for path in [directory + "/missing/", file + "/"] {
            let io = CapturedIO()
            #expect(io.run("convert", books, "--to", "json", "-o", path) == 1)
            #expect(io.error == "agvm: error: cannot write \(path): is not a directory (a path ending in '/' names one)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/missing"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "old")
        // An existing directory with the slash is the directory error.
        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", directory + "/") == 1)
        #expect(io.error.hasSuffix(": is a directory\n"))
    }

    /// `-o` naming a file the command reads would replace it with the
    /// output: refused before anything runs, by file identity, so another
    /// spelling or a link to the input is refused too.
    @Test func outputNamingAnInputIsRefused() throws {
        let copy = try BooksCopy()
        defer { try? FileManager.default.removeItem(atPath: copy.directory) }
        let directory = copy.directory, input = copy.input, spec = copy.spec
        let original = copy.original, originalSpec = copy.originalSpec
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "books.json")
        let attempts: [[String]] = [
            ["convert", input, "-o", input],
            ["convert", input, "--to", "json", "-o", directory + "/./books.json"],
            ["convert", input, "--to", "json", "-o", directory + "/link"],
            ["convert", input, "-p", spec, "--to", "json", "-o", spec],
            ["convert", input, "--to", "archive", "-o", input],
            ["keys", input, "--module", "Books", "-o", input],
            ["keys", input, "--module", "Books", "-o", directory + "/link"],
        ]
        for arguments in attempts {
            let io = CapturedIO()
            #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 2, "\(arguments)")
            let replaced = arguments.last == spec ? "the packaging spec" : "the input"
            #expect(io.error.contains("would replace \(replaced) "), "\(io.error)")
            #expect(io.output.isEmpty)
        }
        // Standard input redirected from the file is that file too.
        let tool = try #require(EndToEndTests.executable(), "build the package first (swift build)")
        let process = Process()
        process.executableURL = tool
        process.arguments = ["convert", "-", "--to", "json", "-o", input]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("would replace the input <stdin>;"), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: spec)) == originalSpec)
        // Another file beside it is fine.
        #expect(CapturedIO().run("keys", input, "--module", "Books", "-o", directory + "/Keys.swift") == 0)
    }

    /// `..` after a missing directory, or after the input itself, names
    /// nothing the system can write: the command fails and the input and
    /// spec are kept, however the path would read with `x/..` dropped.
    @Test func aDotDotAfterAMissingDirectoryIsNotTheInput() throws {
        let copy = try BooksCopy()
        defer { try? FileManager.default.removeItem(atPath: copy.directory) }
        let directory = copy.directory, input = copy.input, spec = copy.spec
        let attempts: [[String]] = [
            ["convert", input, "--to", "json", "-o", directory + "/missing/../books.json"],
            ["convert", input, "--to", "json", "-o", input + "/../books.json"],
            ["convert", input, "-p", spec, "--to", "json", "-o", directory + "/missing/../books.spec.json"],
            ["keys", input, "--module", "Books", "-o", directory + "/missing/../books.json"],
        ]
        for arguments in attempts {
            let io = CapturedIO()
            #expect(CommandLineTool.run(arguments: arguments, io: io.io) == 1, "\(arguments)")
            #expect(io.error.contains("cannot write "), "\(io.error)")
        }
        // The same paths relative to the working directory (a file URL
        // would drop `missing/..` from them): run in the copy's directory.
        let tool = try #require(EndToEndTests.executable(), "build the package first (swift build)")
        let relative: [[String]] = [
            ["convert", "books.json", "--to", "json", "-o", "missing/../books.json"],
            ["convert", "books.json", "-p", "books.spec.json", "--to", "json", "-o", "missing/../books.spec.json"],
            ["keys", "books.json", "--module", "Books", "-o", "missing/../books.json"],
            ["convert", "books.json", "--to", "archive", "-o", "./missing/../books.json"],
        ]
        for arguments in relative {
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "\(arguments)")
            #expect(message.contains("cannot write "), "\(message)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == copy.original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: spec)) == copy.originalSpec)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["books.json", "books.spec.json"])
    }

    /// An error page, an empty list or objects without keys as the sample:
    /// no keys, exit 1, and the key file from a good sample stays as it was.
    @Test func aSampleWithoutKeysKeepsTheKeyFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/Feed.swift"
        #expect(CapturedIO().run("keys", fixture("feed.json"), "--module", "Feed", "-o", output) == 0)
        let generated = try Data(contentsOf: URL(fileURLWithPath: output))
        let samples = [
            #""an error page""#: #""an error page", not an object or an array of objects"#,
            "[]": "[0 elements], not an object or an array of objects",
            "null": "null, not an object or an array of objects",
            #"[{"a": 1}, 2]"#: "[2 elements], not an object or an array of objects (element [1] is 2)",
            "{}": "{0 members}, with no keys",
            "[{}, {}]": "[2 elements], with no keys",
        ]
        for (sample, problem) in samples {
            let io = CapturedIO(files: ["sample.json": Data(sample.utf8)])
            #expect(io.run("keys", "sample.json", "--module", "Feed", "-o", output) == 1, "\(sample)")
            #expect(io.error == "sample.json: error: the sample is \(problem); no keys to generate\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == generated)
        }
    }

    @Test func fifoIsStreamedToAndKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try OutputDestination.resolve(fifo) == .stream(fifo))

        // A reader on another thread; opening the FIFO for writing waits for it.
        let reader = Thread.detachNewThreadWithResult {
            (try? ToolIO.readFile(atPath: fifo)) ?? Data()
        }
        #expect(CapturedIO().run("convert", books, "--to", "json", "-o", fifo) == 0)
        let received = reader.wait()
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("{\n  \"common\""))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func characterDeviceIsStreamedToAndKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let null = characterDevice("null", in: directory)
        #expect(try OutputDestination.resolve(null) == .stream(null))
        #expect(CapturedIO().run("convert", books, "--to", "json", "-o", null) == 0)
        var info = stat()
        #expect(lstat(null, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func theProcesssOwnDescriptorsAreWrittenInPlace() throws {
        #expect(try OutputDestination.resolve("/dev/stdout") == .standardOutput)
        #expect(try OutputDestination.resolve("/proc/self/fd/1") == .standardOutput)
        #expect(try OutputDestination.resolve("/dev/stderr") == .descriptor(2))
        #expect(try OutputDestination.resolve("/dev/fd/5") == .descriptor(5))
        // A link to one is the descriptor too, not the file it was opened on.
        let fileSystem = DescribedFileSystem(kinds: ["/tmp/out": .symbolicLink], links: ["/tmp/out": "/proc/self/fd/1"])
        #expect(try OutputDestination.resolve("/tmp/out", fileSystem: fileSystem) == .standardOutput)
        // Not a descriptor number: an ordinary path.
        #expect(try OutputDestination.resolve("/dev/fd/x", fileSystem: DescribedFileSystem(kinds: [:])) == .replaceFile("/dev/fd/x"))
    }

    /// `-o /dev/stdout` with standard output appended to a file adds to it,
    /// rather than following `/dev/stdout` to the file and replacing it.
    @Test func theExecutableAppendsToTheFileItsStandardOutputIs() throws {
        let tool = try #require(EndToEndTests.executable())
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/log.txt"
        try Data("HEADER\n".utf8).write(to: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" convert \"$1\" --to json -o /dev/stdout >> \"$2\"", tool.path, books, log]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("HEADER\n{"))
    }

    /// Written in place, a descriptor open on an input would corrupt it:
    /// refused like any other output that is an input.
    @Test func theExecutableRefusesADescriptorOpenOnAnInput() throws {
        let tool = try #require(EndToEndTests.executable())
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: books))
        try original.write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" convert \"$1\" --to json -o /dev/stdout >> \"$1\"", tool.path, input]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)

        // Not a file: /dev/null (as a terminal) is one device on every
        // descriptor, and writing to it in place cannot damage the input.
        let device = Process()
        device.executableURL = URL(fileURLWithPath: "/bin/sh")
        device.arguments = ["-c", "\"$0\" convert - --to json -o /dev/stdout < /dev/null > /dev/null", tool.path]
        let errors = Pipe()
        device.standardError = errors
        try device.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        device.waitUntilExit()
        #expect(device.terminationStatus == 1 && !message.contains("would replace"), "\(message)")
    }

    /// A file-size limit is an error like a full disk: reported, no
    /// temporary file left, the old file intact; not a signal that ends the
    /// tool silently.
    @Test(.enabled(if: envResetsSignals, "needs env --default-signal (GNU coreutils)"))
    func theExecutableReportsAFileSizeLimit() throws {
        let tool = try #require(EndToEndTests.executable())
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/out.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The test runner may ignore SIGXFSZ, which children inherit: the
        // tool gets the signal's default action, as from a shell.
        process.arguments = ["-c", "ulimit -f 1; exec env --default-signal=XFSZ \"$0\" convert \"$1\" --to json -o \"$2\"",
                             tool.path, books, out]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(message.contains(String(cString: strerror(EFBIG))), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.json"])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
    }

    /// An endless input is an error once past the limit, not a process
    /// that grows until it traps.
    @Test func endlessInputStopsAtTheLimit() throws {
        let fd = open("/dev/zero", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: ToolFileError.self) { try ToolIO.readAll(fileDescriptor: fd, limit: 1 << 20) }
        do {
            _ = try ToolIO.readAll(fileDescriptor: fd, limit: 1 << 20)
        } catch {
            #expect("\(error)" == "larger than 1024 KiB, the most agvm reads from one input")
        }
        // Up to the limit reads whole.
        let data = try ToolIO.readFile(atPath: books)
        let file = open(books, O_RDONLY)
        defer { close(file) }
        #expect(try ToolIO.readAll(fileDescriptor: file, limit: data.count) == data)
    }

    /// Ctrl-C while the output is being written waits for the atomic write
    /// to finish: no temporary file is left, and the output is the old file
    /// or the complete new one.
    @Test(.enabled(if: envResetsSignals, "needs env --default-signal (GNU coreutils)"))
    func theExecutableLeavesNoTemporaryFileWhenInterrupted() throws {
        let tool = try #require(EndToEndTests.executable())
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/big.json", out = directory + "/out.json"
        let items = (0 ..< 60_000).map { #"{"id": \#($0), "title": "Item \#($0), with a title long enough", "tags": ["a", "b"]}"# }
        try Data(("[" + items.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: input))
        var interruptedMidWrite = false
        for _ in 0 ..< 5 where !interruptedMidWrite {
            try Data("old".utf8).write(to: URL(fileURLWithPath: out))
            // `env` gives the tool SIGINT's default action (the test runner
            // may ignore it, and children inherit that), then runs it in
            // its place: the same process.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--default-signal=INT", tool.path, "convert", input, "--to", "json", "-o", out]
            try process.run()
            // Interrupt as soon as the temporary file appears: mid-write.
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                if names.contains(where: { $0.hasSuffix(".tmp") }) {
                    kill(process.processIdentifier, SIGINT)
                    interruptedMidWrite = true
                    break
                }
            }
            process.waitUntilExit()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["big.json", "out.json"])
            let written = try Data(contentsOf: URL(fileURLWithPath: out))
            #expect(written == Data("old".utf8) || (try? JSONValue(parsing: written)) != nil)
        }
        #expect(interruptedMidWrite, "never caught the write in progress")
    }

    @Test func blockDevicesAndSocketsAreErrors() throws {
        let fileSystem = DescribedFileSystem(
            kinds: ["/dev/sda": .blockDevice, "/run/s.sock": .socket, "/tmp/disk": .symbolicLink],
            links: ["/tmp/disk": "/dev/sda"])
        #expect(throws: OutputPathError(path: "/dev/sda", reason: "is a block device; write to a file, a FIFO or a character device")) {
            try OutputDestination.resolve("/dev/sda", fileSystem: fileSystem)
        }
        #expect(throws: OutputPathError(path: "/tmp/disk", reason: "is a block device; write to a file, a FIFO or a character device")) {
            try OutputDestination.resolve("/tmp/disk", fileSystem: fileSystem)
        }
        #expect(throws: OutputPathError(path: "/run/s.sock", reason: "is a socket; write to a file, a FIFO or a character device")) {
            try OutputDestination.resolve("/run/s.sock", fileSystem: fileSystem)
        }
    }

    @Test func fullDeviceIsAWriteError() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: ToolOutputError.failed(reason: String(cString: strerror(ENOSPC)))) {
            try ToolIO.writeAll(Data("x".utf8), to: fd)
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let full = characterDevice("full", in: directory)
        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", full) == 1)
        #expect(io.error == "agvm: error: cannot write \(full): \(String(cString: strerror(ENOSPC)))\n")
        var info = stat()
        #expect(lstat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func closedPipeIsReportedAsClosed() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(throws: ToolOutputError.closed) { try ToolIO.writeAll(Data("x".utf8), to: ends[1]) }
        // The tool, told to write to that descriptor, ends quietly.
        let io = CapturedIO()
        #expect(io.run("convert", books, "--to", "json", "-o", "/dev/fd/\(ends[1])") == 0)
        #expect(io.error.isEmpty)
    }

    @Test func standardOutputFailuresAreErrorsAndClosedPipesAreQuiet() {
        for (failure, status, message) in [
            (ToolOutputError.failed(reason: "No space left on device"), Int32(1),
             "agvm: error: cannot write to standard output: No space left on device\n"),
            (ToolOutputError.closed, Int32(0), ""),
        ] {
            let captured = CapturedIO()
            var io = captured.io
            io.writeOutput = { _ in throw failure }
            for arguments in [["convert", books], ["validate", books], ["format", books],
                              ["keys", books, "--module", "Books"], ["--help"], ["--version"]] {
                #expect(CommandLineTool.run(arguments: arguments, io: io) == status, "\(arguments)")
            }
            #expect(captured.error == String(repeating: message, count: 6))
        }
    }

    @Test func aClosedPipeDoesNotHideAnInvalidFile() {
        let captured = CapturedIO(files: ["bad.json": Data(#"{"a": 1,}"#.utf8)])
        var io = captured.io
        io.writeOutput = { _ in throw ToolOutputError.closed }
        // The invalid file after the valid one is still checked and reported.
        #expect(CommandLineTool.run(arguments: ["validate", books, "bad.json"], io: io) == 1)
        #expect(captured.error.hasPrefix("bad.json:1:9: error: "))
        #expect(CommandLineTool.run(arguments: ["validate", "bad.json", books], io: io) == 1)
        #expect(CommandLineTool.run(arguments: ["validate", books, books], io: io) == 0)
    }

    @Test func lostStandardErrorFailsTheRun() {
        let captured = CapturedIO()
        var io = captured.io
        io.errorStreamFailed = { true }
        #expect(CommandLineTool.run(arguments: ["validate", books], io: io) == 1)
    }

    @Test func theExecutableReportsAFullDiskAndEndsQuietlyOnAClosedPipe() throws {
        let tool = try #require(EndToEndTests.executable())
        for arguments in [["convert", books], ["validate", books], ["format", books]] {
            // Standard output on /dev/full.
            let full = Process()
            full.executableURL = tool
            full.arguments = arguments
            full.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            let errors = Pipe()
            full.standardError = errors
            try full.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            full.waitUntilExit()
            #expect(full.terminationStatus == 1)
            #expect(message == "agvm: error: cannot write to standard output: \(String(cString: strerror(ENOSPC)))\n")

            // Standard output a pipe nobody reads from.
            let closed = Process()
            closed.executableURL = tool
            closed.arguments = arguments
            let output = Pipe()
            try output.fileHandleForReading.close()
            closed.standardOutput = output
            let closedErrors = Pipe()
            closed.standardError = closedErrors
            try closed.run()
            let closedMessage = closedErrors.fileHandleForReading.readDataToEndOfFile()
            closed.waitUntilExit()
            #expect(closed.terminationReason == .exit)
            #expect(closed.terminationStatus == 0)
            #expect(closedMessage.isEmpty)
        }
    }
}

private extension Thread {
    /// Runs `body` on a new thread; `wait()` returns its result.
    static func detachNewThreadWithResult(_ body: @escaping @Sendable () -> Data) -> ThreadResult {
        let result = ThreadResult()
        Thread.detachNewThread {
            result.finish(body())
        }
        return result
    }
}

/// The result of a background thread.
private final class ThreadResult: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Data?

    func finish(_ data: Data) {
        condition.withLock {
            value = data
            condition.signal()
        }
    }

    func wait() -> Data {
        condition.withLock {
            while value == nil { condition.wait() }
            return value!
        }
    }
}

/// A file system of symbolic links only.
private struct LinkChain: OutputFileSystem {
    var links: [String: String]
    func kind(ofPath path: String) -> OutputFileKind? { links[path] != nil ? .symbolicLink : nil }
    func destination(ofLink path: String) -> String? { links[path] }
    func identity(ofPath path: String) -> FileIdentity? { nil }
}

extension OutputDestinationTests {
    /// Forty links are followed (the usual SYMLOOP_MAX); the forty-first is
    /// a loop for all we know.
    @Test func aChainOfFortyLinksIsFollowedAndFortyOneIsTooMany() throws {
        var links: [String: String] = [:]
        for i in 0..<40 { links["/l\(i)"] = "/l\(i + 1)" }
        #expect(try OutputDestination.resolve("/l0", fileSystem: LinkChain(links: links)) == .replaceFile("/l40"))
        links["/l40"] = "/l41"
        #expect(throws: OutputPathError.self) { try OutputDestination.resolve("/l0", fileSystem: LinkChain(links: links)) }
    }
}
