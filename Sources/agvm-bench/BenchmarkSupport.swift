import Foundation

/// One line of the benchmark report: our figure against a peer's.
struct BenchmarkResult: Sendable {
    /// What is measured ("parse", "write", "key read", ...).
    var benchmark: String
    /// The input's file name, or a short description of generated input.
    var input: String
    /// "MB/s", "Mops/s", "Mchanges/s", "ms", ...
    var unit: String
    /// Our figure.
    var ours: Double
    /// The peer's name ("JSONSerialization", ...).
    var peer: String
    /// The peer's figure, in the same unit.
    var peerValue: Double
    /// `true` when smaller figures are better (times), so speedup = peer / ours.
    var lowerIsBetter = false

    /// Ours over peer for throughputs, peer over ours for times: higher is better.
    var speedup: Double { lowerIsBetter ? peerValue / ours : ours / peerValue }
}

/// A benchmark that cannot run, or whose sides disagree on the result.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What every benchmark group gets: the corpora and the repetition count.
struct BenchmarkContext: Sendable {
    /// Input files (twitter.json and citm_catalog.json by default).
    var inputs: [URL]
    /// Timed runs per side; the median is reported.
    var runs: Int
}

/// A named group of benchmarks, registered in `BenchmarkRunner.groups`.
struct BenchmarkGroup: Sendable {
    var name: String
    var run: @Sendable (BenchmarkContext) throws -> [BenchmarkResult]
}

/// Median wall-clock seconds of `ours` and `peer`, run interleaved
/// (ours, peer, ours, peer, ...) so machine noise hits both sides alike.
/// Each closure is warmed up once first.
func measureInterleaved(runs: Int, ours: () throws -> Void, peer: () throws -> Void) rethrows -> (ours: Double, peer: Double) {
    try ours(); try peer()
    var a: [Double] = [], b: [Double] = []
    for _ in 0..<max(1, runs) {
        a.append(try seconds(ours))
        b.append(try seconds(peer))
    }
    return (median(a), median(b))
}

/// Wall-clock seconds `body` takes.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The median of `values` (not empty).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
