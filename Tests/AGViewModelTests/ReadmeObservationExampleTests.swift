import AGViewModel
import Observation
import Testing

// The README's observation examples, kept compiling and correct here.
@Suite("README observation example")
struct ReadmeObservationExampleTests {
    final class Cell: @unchecked Sendable {
        var shown: [String] = []
        func show(_ key: String, _ value: ViewModelValue?) { shown.append("\(key)=\(value?.json ?? nil)") }
    }

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test func observeBatchAndTrack() async {
        let book = ViewModel(["title": "Swift in Depth"])
        let log = Log()
        let observation = book.observe("title") { _, key, change in
            log.lines.append("\(key): \(change.oldValue?.json ?? nil) -> \(change.newValue?.json ?? nil)")
        }
        book["title"] = "Swift in Depth, 2nd ed."
        book["title"] = "Swift in Depth, 2nd ed."
        #expect(log.lines == [#"title: "Swift in Depth" -> "Swift in Depth, 2nd ed.""#])

        let cell = Cell()
        book.addObserver(cell, forKeys: ["likes", "title"]) { cell, _, key, change in
            cell.show(key, change.newValue)
        }
        book.performBatchUpdates {
            book["likes"] = 10
            book["likes"] = 11
        }
        #expect(cell.shown == ["likes=11"])

        final class Flag: @unchecked Sendable { var fired = false }
        let flag = Flag()
        withObservationTracking {
            _ = book[.readmeObservedTitle]
        } onChange: {
            flag.fired = true
        }
        book["likes"] = 12
        #expect(!flag.fired)
        book["title"] = "Changed"
        #expect(flag.fired)
        observation.cancel()
    }
}

extension ViewModel.Key where Value == String {
    fileprivate static var readmeObservedTitle: Self { "title" }
}
