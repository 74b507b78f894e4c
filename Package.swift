// swift-tools-version: 6.0
import PackageDescription

// AGViewModel ships with no package dependencies: Foundation, Dispatch,
// Observation and the test frameworks of the toolchain only.
let package = Package(
    name: "AGViewModel",
    // Observation (per-key tracking for SwiftUI) needs these on Apple
    // platforms; Linux has no minimum.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17)],
    products: [
        .library(name: "AGViewModel", targets: ["AGViewModel"]),
        .executable(name: "agvm", targets: ["agvm"]),
        .executable(name: "agvm-bench", targets: ["agvm-bench"]),
    ],
    targets: [
        // The library: value layer, ViewModel, grouping, observation,
        // commands, packaging and persistence.
        .target(name: "AGViewModel"),
        // The command-line tool's logic, kept in a library so tests can call it.
        .target(name: "AGVMCommandLine", dependencies: ["AGViewModel"]),
        .executableTarget(name: "agvm", dependencies: ["AGVMCommandLine"]),
        .executableTarget(name: "agvm-bench", dependencies: ["AGViewModel"]),
        .testTarget(name: "AGViewModelTests", dependencies: ["AGViewModel"]),
        .testTarget(name: "AGVMCommandLineTests", dependencies: ["AGVMCommandLine", "AGViewModel"]),
    ],
    swiftLanguageModes: [.v6]
)
