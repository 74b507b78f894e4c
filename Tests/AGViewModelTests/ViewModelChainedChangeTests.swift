import Foundation
import Observation
import Testing
@testable import AGViewModel

/// Changes through `vm[key]` (`vm["list"]?.append(x)`) and `setValue(_:at:)`:
/// a read and a set, heard as any write is.
@Suite("ViewModel chained changes")
struct ViewModelChainedChangeTests {
    @Test func observersHearAChainedChangeWithTheOldValue() {
        let vm = ViewModel(["list": [1, 2]])
        let seen = Recorder<String>()
        let observation = vm.observe("list", options: [.old, .new]) { _, _, change in seen.append(describe(change)) }
        vm["list"]?.append(3)
        vm.setValue("x", at: "list[0]")
        #expect(seen.items == ["list: [1,2] -> [1,2,3]", "list: [1,2,3] -> [\"x\",2,3]"])
        withExtendedLifetime(observation) {}
    }

    @Test func aChainedChangeMarksCommandsAndTellsObservation() throws {
        let vm = ViewModel(["list": [1, 2]])
        vm.setCommand(forKey: "count", dependsOn: ["list"]) { (vm: ViewModel) -> Int? in
            vm["list"]?.arrayValue?.count
        }
        #expect(try vm.executeCommandIfNeeded(forKey: "count")?.json == 2)
        vm["list"]?.append(3)
        #expect(vm.needsExecuteCommand(forKey: "count"))
        #expect(try vm.executeCommandIfNeeded(forKey: "count")?.json == 3)

        let tracked = ViewModel(["list": [1]])
        let fired = Recorder<Bool>()
        withObservationTracking { _ = tracked["list"] } onChange: { fired.append(true) }
        tracked["list"]?.append(2)
        #expect(fired.count == 1)
        tracked["list"]?.append(3)
        withObservationTracking { _ = tracked["list"] } onChange: { fired.append(true) }
        tracked["list"]?.append(4)
        #expect(fired.count == 2)
        #expect(tracked["list"] == [1, 2, 3, 4])
    }

    /// With `?.`, the argument runs after the access began: reading the
    /// key being changed there gives the stored value, and the change
    /// lands (nothing observes these ViewModels, the quietest case).
    @Test func theArgumentOfAChainedChangeReadsTheStoredValue() {
        let vm = ViewModel()
        vm["n"] = 5
        vm["n"]? = .int(Int64((vm["n"]?.intValue ?? -100) + 1))
        #expect(vm["n"] == 6)
        vm["list"] = [10, 20]
        vm["list"]?.append(.int(Int64(vm["list"]?.arrayValue?.count ?? -1)))
        #expect(vm["list"] == [10, 20, 2])
        vm["user"] = ["name": "Ann"]
        vm["user"]?["displayName"] = vm["user"]?["name"]
        #expect(vm["user"] == ["name": "Ann", "displayName": "Ann"])
        vm["user"]?.setValue(vm["user"]?.objectValue?["name"] ?? "missing", at: "alias")
        #expect(vm.string(at: "user.alias") == "Ann")
    }

    @Test func aChainedChangeLeavesPayloadsAndAbsentKeys() {
        final class Image {}
        let image = Image()
        let vm = ViewModel()
        vm[value: "image"] = .payload(image)
        vm["image"]?.append(1)
        vm["absent"]?.append(1)
        #expect((vm[value: "image"]?.payload as? Image) === image)
        #expect(vm.keys == ["image"])

        // Through an `inout` optional, a key is added and removed.
        func set(_ value: inout JSONValue?, to newValue: JSONValue?) { value = newValue }
        set(&vm["added"], to: 1)
        #expect(vm["added"] == 1)
        set(&vm["added"], to: nil)
        #expect(vm.keys == ["image"])
    }
}
