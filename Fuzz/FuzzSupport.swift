import Foundation

// Shared by every fuzz target (compiled into the library's module with the
// target file and Tests/AGViewModelTests/Regressions/FuzzInvariants.swift).

/// Crashes with the broken invariants, so libFuzzer saves the input.
func requireNoProblems(_ problems: [String], target: String) {
    guard problems.isEmpty else {
        fatalError("\(target) invariant broken:\n  " + problems.joined(separator: "\n  "))
    }
}
