import Foundation

// agvm-bench: measures AGViewModel against Foundation peers, side by side in
// one run. See BenchmarkSupport.swift for the measurement rules.
BenchmarkRunner.main()
