import AGViewModel
import Foundation

/// Entry point of the `agvm` tool.
public enum CommandLineTool {
    /// The tool's version, printed by `agvm --version`.
    public static let version = "0.1.0"

    /// Runs the tool with the process arguments and exits with its status.
    public static func main() -> Never {
        exit(0)
    }
}
