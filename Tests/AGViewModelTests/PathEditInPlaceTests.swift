import Foundation
import Observation
import Testing
@testable import AGViewModel

/// Path edits of JSON stored in a ViewModel (`setValue(_:at:)`,
/// `removeValue(at:)`) change the value where it is stored when only Swift
/// Observation can hear of them, and report exactly as a whole write would.
@Suite("Path edits in place", .timeLimit(.minutes(1)))
struct PathEditInPlaceTests {
    private func items(_ count: Int) -> JSONValue {
        .array(JSONArray((0 ..< count).map { ["id": .int(Int64($0)), "selected": false] as JSONValue }))
    }

    /// The identity of the array's element buffer: the same after an edit
    /// in place, new after a copy.
    private func bufferIdentity(_ vm: ViewModel, _ key: String) -> ObjectIdentifier? {
        guard case .json(.array(let array))? = vm.untrackedValue(forKey: key), let buffer = array.storage.buffer else { return nil }
        return ObjectIdentifier(buffer)
    }

    @Test func editsChangeTheStoredArrayWithoutCopyingIt() {
        let vm = ViewModel(["items": items(100)])
        _ = vm["items"]                                   // read: the key has an Observation key path
        let before = bufferIdentity(vm, "items")
        for i in 0 ..< 100 where i.isMultiple(of: 2) { vm.setValue(true, at: "items[\(i)].selected") }
        #expect(bufferIdentity(vm, "items") == before)
        #expect(vm.bool(at: "items[98].selected", default: false) && !vm.bool(at: "items[99].selected", default: true))
        #expect(vm.removeValue(at: "items[0].id")?.json == 0)
        #expect(vm.removeValue(at: "items[0].id") == nil)
        #expect(vm["items"]?[0] == ["selected": true])
        #expect(bufferIdentity(vm, "items") == before)
        vm.setValue(1, at: "items[100].id")               // past the end: appended
        #expect(vm["items"]?.count == 101 && vm["items"]?[100] == ["id": 1])
        vm.setValue("x", at: "list.inner[1]")             // an absent key is created as before
        #expect(vm["list"] == ["inner": [nil, "x"]])
    }

    /// Observation hears of a path edit of a key it read, once, and not of
    /// an edit that changes nothing.
    @Test func observationHearsOfEditsOfKeysItRead() {
        let vm = ViewModel(["items": items(3), "other": 1])
        let fired = Recorder<Bool>()
        withObservationTracking { _ = vm["items"] } onChange: { fired.append(true) }
        vm.setValue(false, at: "items[0].selected")       // the same value: no change
        vm.setValue(1, at: "other")
        #expect(fired.count == 0)
        vm.setValue(true, at: "items[0].selected")
        #expect(fired.count == 1)
        let firedOnRemoval = Recorder<Bool>()
        withObservationTracking { _ = vm.bool(at: "items[1].selected", default: true) } onChange: { firedOnRemoval.append(true) }
        #expect(vm.removeValue(at: "items[2]") != nil)
        #expect(firedOnRemoval.count == 1 && vm["items"]?.count == 2)
    }

    /// Key observers, batches and commands hear of path edits as of any
    /// write, with the old and new values; and an `onChange` that starts
    /// observing the key before the edit is stored hears of it too.
    @Test func observersBatchesAndCommandsStillHearOfEdits() throws {
        let vm = ViewModel(["items": items(2)])
        var changes: [(old: JSONValue?, new: JSONValue?)] = []
        let observation = vm.observe("items") { _, _, change in changes.append((change.oldValue?.json, change.newValue?.json)) }
        vm.setValue(true, at: "items[1].selected")
        #expect(changes.count == 1 && changes[0].old?[1]?["selected"] == false && changes[0].new?[1]?["selected"] == true)
        observation.cancel()

        let counted = ViewModel(["items": items(2)])
        counted.setCommand(forKey: "count", dependsOn: ["items"]) { vm -> JSONValue? in
            .int(Int64(vm["items"]?.arrayValue?.filter { $0["selected"] == true }.count ?? 0))
        }
        #expect(try counted.executeCommandIfNeeded(forKey: "count")?.json == 0)
        counted.setValue(true, at: "items[0].selected")
        #expect(try counted.executeCommandIfNeeded(forKey: "count")?.json == 1)

        // `onChange` runs synchronously, before the edit, on this task.
        nonisolated(unsafe) let late = ViewModel(["items": items(2)])
        nonisolated(unsafe) var heard: [JSONValue?] = []
        nonisolated(unsafe) var lateObservation: KeyObservation?
        withObservationTracking { _ = late["items"] } onChange: {
            lateObservation = late.observe("items") { _, _, change in heard.append(change.newValue?.json?[0]?["selected"]) }
        }
        late.setValue(true, at: "items[0].selected")
        #expect(heard == [true] && late.bool(at: "items[0].selected", default: false))
        withExtendedLifetime(lateObservation) {}
    }
}
