import Foundation
#if os(Linux)
@_spi(SwiftUI) import Observation  // the `didSet` form of tracking, as SwiftUI uses it
#else
import Observation
#endif
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

    /// Sets `value` at `rest` in the JSON under `items`: by a path edit,
    /// or, to compare, by a whole write of an edited copy.
    static func set(_ value: JSONValue, atItems rest: String, in vm: ViewModel, usePath: Bool) {
        if usePath {
            vm.setValue(value, at: "items" + rest)
        } else {
            var copy = vm.untrackedValue(forKey: "items")?.json ?? .null
            copy.setValue(value, at: JSONPath(rest))
            vm["items"] = copy
        }
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

    // MARK: Code that Observation runs during the edit

    /// A whole write while an `onChange` tracks the key again: the new
    /// scope hears the next change, not this one.
    @Test func trackingAgainInOnChangeHearsTheNextWholeWriteOnly() {
        let vm = ViewModel(["items": [["selected": false]]])
        let again = Recorder<Bool>()
        nonisolated(unsafe) let observed = vm
        withObservationTracking { _ = vm["items"] } onChange: {
            withObservationTracking { _ = observed["items"] } onChange: { again.append(true) }
        }
        var copy = vm["items"]!
        copy.setValue(true, at: "[0].selected")
        vm["items"] = copy
        #expect(again.count == 0)
    }

    /// The same for a path edit: the scope an `onChange` starts hears the
    /// next edit, not the one that ran it.
    @Test func trackingAgainInOnChangeHearsTheNextPathEditOnly() {
        let vm = ViewModel(["items": [["selected": false]]])
        let again = Recorder<Bool>()
        nonisolated(unsafe) let observed = vm
        withObservationTracking { _ = vm["items"] } onChange: {
            withObservationTracking { _ = observed["items"] } onChange: { again.append(true) }
        }
        vm.setValue(true, at: "items[0].selected")
        #expect(again.count == 0, "re-armed tracking fired for the same edit")
        vm.setValue(false, at: "items[0].selected")
        #expect(again.count == 1)
    }

    #if os(Linux)
    /// Tracking by `didSet` (as SwiftUI uses it) sees the edited value,
    /// also when a `willSet` scope reads the key again, as for a whole write.
    @Test func didSetTrackingSeesTheEditedValue() {
        for usePath in [false, true] {
            let vm = ViewModel(["items": [["selected": false]]])
            nonisolated(unsafe) let observed = vm
            let seen = Recorder<String>()
            withObservationTracking({ _ = vm["items"] }, didSet: { _ in
                seen.append(render(observed.untrackedValue(forKey: "items")))
            })
            withObservationTracking { _ = vm["items"] } onChange: { _ = observed["items"] }
            Self.set(true, atItems: "[0].selected", in: vm, usePath: usePath)
            #expect(seen.items == [#"[{"selected":true}]"#], "usePath=\(usePath)")
        }
    }

    /// The same when an `onChange` starts observing the key, so the edit
    /// is written as a copy: `didSet` still comes after the store.
    @Test func didSetTrackingSeesTheEditedValueWhenOnChangeStartsObserving() {
        nonisolated(unsafe) let vm = ViewModel(["items": [["selected": false]]])
        let seen = Recorder<String>()
        nonisolated(unsafe) var obs: KeyObservation?
        withObservationTracking({ _ = vm["items"] }, didSet: { _ in
            seen.append(render(vm.untrackedValue(forKey: "items")))
        })
        withObservationTracking { _ = vm["items"] } onChange: { obs = vm.observe("items") { _, _, _ in } }
        vm.setValue(true, at: "items[0].selected")
        #expect(seen.items == [#"[{"selected":true}]"#])
        withExtendedLifetime(obs) {}
    }
    #endif

    /// An `onChange` that writes the key: a whole write stores its own
    /// value over it, and so does a path edit (the edited value before).
    @Test func anOnChangeWritingTheKeyIsOverwrittenAsByAWholeWrite() {
        var results: [String] = []
        for usePath in [false, true] {
            let vm = ViewModel(["items": [1, 2, 3]])
            nonisolated(unsafe) let observed = vm
            withObservationTracking { _ = vm["items"] } onChange: { observed["items"] = ["a"] }
            Self.set(9, atItems: "[1]", in: vm, usePath: usePath)
            results.append(render(vm.untrackedValue(forKey: "items")))
        }
        #expect(results[0] == results[1])
    }

    /// The same when the `onChange` removes the key.
    @Test func anOnChangeRemovingTheKeyIsOverwrittenAsByAWholeWrite() {
        var results: [String] = []
        for usePath in [false, true] {
            let vm = ViewModel(["items": [1, 2, 3]])
            nonisolated(unsafe) let observed = vm
            withObservationTracking { _ = vm["items"] } onChange: { observed["items"] = nil }
            Self.set(9, atItems: "[1]", in: vm, usePath: usePath)
            results.append(render(vm.untrackedValue(forKey: "items")))
        }
        #expect(results[0] == results[1])
    }

    /// A key read before each edit (Observation must hear each one) is
    /// still edited in place.
    @Test func editsOfAKeyReadBeforeEachStayInPlace() {
        let vm = ViewModel(["items": items(100)])
        _ = vm["items"]
        let before = bufferIdentity(vm, "items")
        var copies = 0
        for i in 0 ..< 100 {
            let id = bufferIdentity(vm, "items")
            _ = vm.bool(at: "items[\(i)].selected", default: false)
            vm.setValue(true, at: "items[\(i)].selected")
            if bufferIdentity(vm, "items") != id { copies += 1 }
        }
        #expect(copies == 0)
        #expect(bufferIdentity(vm, "items") == before)
        var rcopies = 0
        for _ in 0 ..< 50 {
            let id = bufferIdentity(vm, "items")
            _ = vm.int(at: "items[0].id", default: 0)
            _ = vm.removeValue(at: "items[0]")
            if bufferIdentity(vm, "items") != id { rcopies += 1 }
        }
        #expect(rcopies == 0)
    }

    /// An `onChange` that tracks again and starts observing the key (so
    /// the edit is written as a copy): the new scope does not hear the edit
    /// that ran it; the observer does.
    @Test(arguments: [false, true]) func onChangeTrackingAgainAndObservingHearsTheEditOnce(usePath: Bool) {
        nonisolated(unsafe) let vm = ViewModel(["items": [["selected": false]]])
        let again = Recorder<Bool>()
        let delivered = Recorder<Bool>()
        nonisolated(unsafe) var obs: KeyObservation?
        withObservationTracking { _ = vm["items"] } onChange: {
            withObservationTracking { _ = vm["items"] } onChange: { again.append(true) }
            obs = vm.observe("items") { _, _, _ in delivered.append(true) }
        }
        Self.set(true, atItems: "[0].selected", in: vm, usePath: usePath)
        #expect(again.count == 0, "usePath=\(usePath): re-armed scope heard the edit that ran it")
        #expect(delivered.count == 1, "usePath=\(usePath)")
        #expect(vm.bool(at: "items[0].selected", default: false))
        withExtendedLifetime(obs) {}
    }

    /// The same when the `onChange` sets a command depending on the key.
    @Test(arguments: [false, true]) func onChangeTrackingAgainAndSettingACommandHearsTheEditOnce(usePath: Bool) throws {
        nonisolated(unsafe) let vm = ViewModel(["items": [["selected": false]]])
        let again = Recorder<Bool>()
        withObservationTracking { _ = vm["items"] } onChange: {
            withObservationTracking { _ = vm["items"] } onChange: { again.append(true) }
            vm.setCommand(forKey: "n", dependsOn: ["items"]) { vm -> JSONValue? in
                .int(Int64(vm["items"]?.arrayValue?.filter { $0["selected"] == true }.count ?? 0))
            }
        }
        Self.set(true, atItems: "[0].selected", in: vm, usePath: usePath)
        #expect(again.count == 0, "usePath=\(usePath)")
        #expect(try vm.executeCommandIfNeeded(forKey: "n")?.json == 1, "usePath=\(usePath)")
    }

    #if os(Linux)
    @Test(arguments: [false, true]) func didSetTrackingHearsAnEditWrittenAsACopyOnce(usePath: Bool) {
        nonisolated(unsafe) let vm = ViewModel(["items": [["selected": false]]])
        let seen = Recorder<String>()
        nonisolated(unsafe) var obs: KeyObservation?
        withObservationTracking({ _ = vm["items"] }, didSet: { _ in seen.append(render(vm.untrackedValue(forKey: "items"))) })
        withObservationTracking { _ = vm["items"] } onChange: {
            _ = vm["items"]
            obs = vm.observe("items") { _, _, _ in }
        }
        Self.set(true, atItems: "[0].selected", in: vm, usePath: usePath)
        #expect(seen.items == [#"[{"selected":true}]"#], "usePath=\(usePath)")
        withExtendedLifetime(obs) {}
    }
    #endif

    /// An `onChange` that writes the key in a batch, stores a payload or
    /// edits the key itself: the edit stores the edited value before, as a
    /// whole write stores its value.
    @Test(arguments: [false, true]) func anOnChangeBatchWritingTheKeyIsOverwritten(usePath: Bool) {
        nonisolated(unsafe) let vm = ViewModel(["items": [1, 2, 3]])
        withObservationTracking { _ = vm["items"] } onChange: {
            vm.performBatchUpdates { vm["items"] = ["a"] }
        }
        Self.set(9, atItems: "[1]", in: vm, usePath: usePath)
        #expect(render(vm.untrackedValue(forKey: "items")) == "[1,9,3]", "usePath=\(usePath)")
    }

    @Test(arguments: [false, true]) func anOnChangeStoringAPayloadIsOverwritten(usePath: Bool) {
        nonisolated(unsafe) let vm = ViewModel(["items": [1, 2, 3]])
        withObservationTracking { _ = vm["items"] } onChange: { vm[value: "items"] = .payload(NSObject()) }
        Self.set(9, atItems: "[1]", in: vm, usePath: usePath)
        #expect(render(vm.untrackedValue(forKey: "items")) == "[1,9,3]", "usePath=\(usePath)")
    }

    @Test(arguments: [false, true]) func anOnChangeEditingTheKeyIsOverwritten(usePath: Bool) {
        nonisolated(unsafe) let vm = ViewModel(["items": [1, 2, 3]])
        withObservationTracking { _ = vm["items"] } onChange: { vm.setValue(7, at: "items[0]") }
        Self.set(9, atItems: "[1]", in: vm, usePath: usePath)
        #expect(render(vm.untrackedValue(forKey: "items")) == "[1,9,3]", "usePath=\(usePath)")
    }

    /// `removeValue(at:)` returns what it removed from the value before.
    @Test func aRemovalReturnsWhatItRemovedWhenAnOnChangeWroteTheKey() {
        nonisolated(unsafe) let vm = ViewModel(["items": [1, 2, 3]])
        withObservationTracking { _ = vm["items"] } onChange: { vm["items"] = [5, 6, 7] }
        let removed = vm.removeValue(at: "items[0]")
        #expect(removed?.json == 1)
        #expect(render(vm.untrackedValue(forKey: "items")) == "[2,3]")
    }
}
