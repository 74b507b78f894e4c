import Foundation
import Observation
import Testing
@testable import AGViewModel

/// Changes through `vm[key]` (`vm["list"]?.append(x)`) and `setValue(_:at:)`:
/// in place when no one must hear of them, and heard as any write is when
/// someone must.
@Suite("ViewModel changes in place")
struct ViewModelInPlaceChangeTests {
    /// The storage object of the array under `key`, read without telling
    /// Observation (a tracked read would make the next change a reported one).
    private func arrayStorage(_ vm: ViewModel, _ key: String) -> ObjectIdentifier? {
        guard case .json(.array(let array))? = vm.untrackedValue(forKey: key),
              let buffer = array.storage.buffer else { return nil }
        return ObjectIdentifier(buffer)
    }

    private func listWithRoom(_ capacity: Int) -> JSONValue {
        var list = JSONArray()
        list.reserveCapacity(capacity)
        list.append(0)
        return .array(list)
    }

    @Test func appendingToAStoredArrayDoesNotCopyIt() {
        let vm = ViewModel()
        vm["list"] = listWithRoom(64)
        vm["path"] = ["items": listWithRoom(64)]
        let list = arrayStorage(vm, "list")
        #expect(list != nil)
        for i in 1...40 {
            vm["list"]?.append(.int(Int64(i)))
        }
        #expect(arrayStorage(vm, "list") == list, "the array was copied")
        #expect(vm["list"]?.arrayValue?.count == 41)
        #expect(vm["list"]?[40] == 40)

        // A path write reaches the array in place too.
        func itemsStorage() -> ObjectIdentifier? {
            guard case .json(let path)? = vm.untrackedValue(forKey: "path"),
                  let buffer = path["items"].arrayValue?.storage.buffer else { return nil }
            return ObjectIdentifier(buffer)
        }
        let items = itemsStorage()
        for i in 1...40 {
            vm.setValue(.int(Int64(i)), at: "path.items[\(i)]")
        }
        #expect(itemsStorage() == items, "the nested array was copied")
        #expect(vm.int(at: "path.items[40]") == 40)
    }

    @Test func observersHearAChangeInPlaceWithTheOldValue() {
        let vm = ViewModel(["list": [1, 2]])
        let seen = Recorder<String>()
        let observation = vm.observe("list", options: [.old, .new]) { _, _, change in seen.append(describe(change)) }
        vm["list"]?.append(3)
        vm.setValue("x", at: "list[0]")
        #expect(seen.items == ["list: [1,2] -> [1,2,3]", "list: [1,2,3] -> [\"x\",2,3]"])
        withExtendedLifetime(observation) {}
    }

    @Test func aChangeInPlaceMarksCommandsAndTellsObservation() throws {
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
        // Unread since: changed in place, then read and tracked again.
        tracked["list"]?.append(3)
        withObservationTracking { _ = tracked["list"] } onChange: { fired.append(true) }
        tracked["list"]?.append(4)
        #expect(fired.count == 2)
        #expect(tracked["list"] == [1, 2, 3, 4])
    }

    @Test func aChangeThroughTheSubscriptLeavesPayloadsAndAbsentKeys() {
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
