import Testing
@testable import AGVMCommandLine

@Suite("agvm")
struct CommandLineToolTests {
    @Test func versionIsSemantic() {
        #expect(CommandLineTool.version.split(separator: ".").count == 3)
    }
}
