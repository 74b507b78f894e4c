import Foundation
import Testing

/// Runs the built `agvm` executable as a separate process.
@Suite("agvm end to end")
struct EndToEndTests {
    /// The `agvm` executable next to the test bundle (SwiftPM puts both in
    /// the same build directory), or in the package's `.build/debug`.
    static func executable() -> URL? {
        var directories: [URL] = []
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        #endif
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        if let argument = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in directories {
            let candidate = directory.appendingPathComponent("agvm")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `agvm` with `arguments`, `input` on standard input, and the
    /// test's environment without the variables that change output
    /// (`COLUMNS`, `NO_COLOR`), plus `environment`.
    static func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> Outcome {
        let tool = try #require(Self.executable(), "the agvm executable must be built next to the tests (swift build)")
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .filter { $0.key != "COLUMNS" && $0.key != "NO_COLOR" }
            .merging(environment) { $1 }
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       output: String(decoding: outputData, as: UTF8.self),
                       error: String(decoding: errorData, as: UTF8.self))
    }

    @Test func formatsAFixtureAndValidatesFromStandardInput() throws {
        let formatted = try Self.run(["format", "--pretty", fixture("products.json")])
        #expect(formatted.status == 0)
        #expect(formatted.error.isEmpty)
        #expect(formatted.output.hasPrefix("{\n  \""))

        let valid = try Self.run(["validate", "-"], input: Data(formatted.output.utf8))
        #expect(valid.status == 0)
        #expect(valid.output == "<stdin>: ok\n")
    }

    @Test func reportsInvalidInputAndUsageErrorsWithExitCodes() throws {
        let invalid = try Self.run(["validate", "-"], input: Data("{\"a\": NaN}".utf8))
        #expect(invalid.status == 1)
        #expect(invalid.error == "<stdin>:1:7: error: NaN is not valid JSON\n")

        let usage = try Self.run(["format", "--x"])
        #expect(usage.status == 2)
        #expect(usage.error == "agvm: unknown option '--x' for 'format'; see 'agvm format --help'\n")
    }
}
