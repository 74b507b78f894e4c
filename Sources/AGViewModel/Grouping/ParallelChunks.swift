import Dispatch
import Foundation

/// Runs `body` over `0..<count` split into contiguous chunks, in parallel
/// when there is enough work to pay for it (`count >= minimumParallelCount`)
/// and more than one core; otherwise on the calling thread. `body` must only
/// write to the chunk it was given.
internal func forEachChunk(of count: Int, minimumParallelCount: Int = 4096, _ body: @Sendable (Range<Int>) -> Void) {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    guard count >= minimumParallelCount, cores > 1 else {
        body(0..<count)
        return
    }
    // A few chunks per core even out uneven progress on a busy machine.
    let chunks = min(cores * 2, count)
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        body(count * chunk / chunks ..< count * (chunk + 1) / chunks)
    }
}
