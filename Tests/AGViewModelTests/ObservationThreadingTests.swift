import Dispatch
import Foundation
import Observation
import Testing
@testable import AGViewModel

/// Mutation and observation from several threads at once. Run under
/// `swift test --sanitize=thread` to check for data races; each test is
/// bounded to a few thousand operations.
@Suite("Observation threading")
struct ObservationThreadingTests {
    @Test func everyChangeFromEveryThreadIsDeliveredOnce() {
        let vm = ViewModel()
        let threads = 4, sets = 500
        let perKey = (0..<threads).map { _ in Recorder<Int64>() }
        let all = Recorder<String>()
        let tokens = (0..<threads).map { t in
            vm.observe("key\(t)") { _, _, change in
                if case .json(.int(let n))? = change.newValue { perKey[t].append(n) }
            }
        }
        let everything = vm.observe((0..<threads).map { "key\($0)" }) { _, key, _ in all.append(key) }
        DispatchQueue.concurrentPerform(iterations: threads + 1) { t in
            if t == threads {
                // Churn: other observers come and go meanwhile.
                for i in 0..<sets {
                    let observer = TestObserver()
                    vm.addObserver(observer, forKeys: ["churn\(i % 7)", "key0"]) { _, _, _, _ in }
                    if i % 2 == 0 { vm.removeObserver(observer) }
                }
                return
            }
            for i in 1...sets { vm["key\(t)"] = .int(Int64(i)) }
        }
        for t in 0..<threads {
            #expect(perKey[t].items == (1...Int64(sets)).map { $0 }, "one thread's changes arrive in order")
        }
        #expect(all.count == threads * sets)
        withExtendedLifetime((tokens, everything)) {}
    }

    @Test func racingWritersToOneKeyEachDeliverTheirChange() {
        let vm = ViewModel()
        let delivered = Recorder<Bool>()
        let observation = vm.observe("shared") { _, _, change in
            delivered.append(!ViewModelValue.isSame(change.oldValue, change.newValue))
        }
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for i in 0..<300 { vm["shared"] = .int(Int64(t * 1000 + i)) }   // all distinct
        }
        #expect(delivered.count == 1200)
        #expect(delivered.items.allSatisfy { $0 }, "old and new always differ")
        withExtendedLifetime(observation) {}
    }

    @Test func cancellingWhileOtherThreadsDeliverIsSafe() {
        let vm = ViewModel()
        let ownCalls = Recorder<Int>()
        let stillRegistered = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for i in 0..<200 {
                let own = ViewModelValue.json(.int(Int64(t * 1000 + i)))
                let token = vm.observe("k") { _, _, change in
                    if ViewModelValue.isSame(change.newValue, own) { ownCalls.append(t) }
                }
                vm[value: "k"] = own
                // Another thread's removeObservers(forKey:) may have removed
                // this token before the write; if it is still registered
                // after the write, the write was delivered to it (delivery is
                // synchronous on this thread).
                if !token.isCancelled { stillRegistered.append(t) }
                token.cancel()
                if i % 3 == 0 { vm.removeObservers(forKey: "k") }
            }
        }
        #expect(vm.observerCount(forKey: "k") == 0)
        #expect(ownCalls.count >= stillRegistered.count, "a token registered throughout its own write saw it")
        #expect(ownCalls.count <= 800)
    }

    @Test func batchesAndTrackingRaceWithWriters() {
        let vm = ViewModel(["a": 0, "b": 0])
        let changes = Recorder<String>()
        let tracked = Recorder<Bool>()
        let observation = vm.observe(["a", "b"]) { _, key, _ in changes.append(key) }
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for i in 0..<200 {
                switch t {
                case 0:
                    vm.performBatchUpdates {
                        vm["a"] = .int(Int64(i + 1))
                        vm["b"] = .int(Int64(i + 1))
                    }
                case 1:
                    withObservationTracking { _ = vm["a"] } onChange: { tracked.append(true) }
                case 2:
                    vm["c"] = .int(Int64(i))
                    _ = vm.changes(for: "a")
                default:
                    _ = vm["b"]
                    vm.performBatchUpdates { vm["d"] = .int(Int64(i)) }
                }
            }
        }
        #expect(changes.count <= 400)
        #expect(changes.count >= 2, "the last batch always delivers")
        #expect(vm["a"] == 200)
        withExtendedLifetime(observation) {}
    }

    @Test func viewModelsDeallocatedWhileTokensCancelOnOtherThreads() {
        for _ in 0..<50 {
            let holder = Holder(ViewModel())
            let (token, stream) = {
                let vm = holder.viewModel!
                defer { vm["k"] = 1 }
                return (vm.observe("k") { _, _, _ in }, vm.changes(for: "k"))
            }()
            DispatchQueue.concurrentPerform(iterations: 2) { t in
                if t == 0 { holder.release() } else { token.cancel() }
            }
            #expect(holder.viewModel == nil)
            #expect(token.isCancelled)
            _ = stream
        }
    }
}

/// Hands a ViewModel's last reference to whichever thread releases it.
private final class Holder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ViewModel?
    init(_ viewModel: ViewModel) { stored = viewModel }
    var viewModel: ViewModel? { lock.withLock { stored } }
    func release() {
        let last = lock.withLock { () -> ViewModel? in
            defer { stored = nil }
            return stored
        }
        _ = last
    }
}
