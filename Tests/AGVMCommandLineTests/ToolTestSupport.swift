import AGViewModel
import Foundation
@testable import AGVMCommandLine

/// A ``ToolIO`` that records what the tool prints, with canned standard
/// input and files.
final class CapturedIO {
    private var outputBytes = Data()
    private var errorText = ""
    let standardInput: Data
    let files: [String: Data]

    init(standardInput: Data = Data(), files: [String: Data] = [:]) {
        self.standardInput = standardInput
        self.files = files
    }

    var output: String { String(decoding: outputBytes, as: UTF8.self) }
    var outputData: Data { outputBytes }
    var error: String { errorText }

    var io: ToolIO {
        ToolIO(
            readStandardInput: { self.standardInput },
            readFile: { path in
                if let data = self.files[path] { return data }
                return try ToolIO.readFile(atPath: path)
            },
            writeOutput: { data in self.outputBytes.append(data) },
            writeError: { text in self.errorText += text })
    }

    /// Runs the tool in-process.
    func run(_ arguments: String...) -> Int32 {
        CommandLineTool.run(arguments: arguments, io: io)
    }
}

/// The package's root directory (for fixtures).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The path of a bundled fixture.
func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(name).path
}
