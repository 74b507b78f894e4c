import Foundation
import Testing
import AGViewModel

/// A packager as app code writes one: an ordinary, non-`Sendable` class
/// with a page counter and a date formatter.
final class TimelinePackager: ViewModelPackager {
    private(set) var packagedCount = 0
    private let formatter: DateFormatter

    init() {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
    }

    func package(_ status: JSONObject) throws -> sending ViewModel {
        packagedCount += 1
        let viewModel = ViewModel()
        viewModel["id"] = .string(try status.read(String.self, at: "id_str"))
        let seconds = status.double(at: "created", default: 0)
        viewModel["date"] = .string(formatter.string(from: Date(timeIntervalSince1970: seconds)))
        viewModel["position"] = .int(Int64(packagedCount))
        return viewModel
    }
}

/// Packages a response off the main actor; the section is `sending`, so the
/// caller may hand it to any isolation domain.
@concurrent nonisolated func packageTimeline(_ data: Data) async throws -> sending (section: Section, skipped: [SkippedElement]) {
    let packager = TimelinePackager()
    let document = try JSONValue(parsing: data)
    let result = packager.package(document["statuses"]?.arrayValue ?? [])
    return (Section(packaged: result), result.skipped)
}

/// The same, for a whole manager, from a spec.
@concurrent nonisolated func packageManager(_ data: Data, spec: PackagingSpec) async throws -> sending Manager {
    try SpecPackager(spec: spec).packageManager(document: JSONValue(parsing: data)).manager
}

@MainActor final class TimelineController {
    private(set) var section: Section?
    private(set) var manager: Manager?
    private(set) var problems: [String] = []

    func show(_ section: Section, skipped: [SkippedElement]) {
        self.section = section
        problems = skipped.map(\.description)
    }

    func show(_ manager: Manager) {
        self.manager = manager
    }
}

@Suite("Packaging across isolation domains")
struct PackagingIsolationTests {
    static let response = Data("""
    {"statuses": [{"id_str": "1", "created": 0}, {"created": 86400}, {"id_str": "3", "created": 172800}]}
    """.utf8)

    @Test @MainActor func aStatefulPackagerRunsInAConcurrentFunctionAndTheMainActorGetsTheResult() async throws {
        let controller = TimelineController()
        let (section, skipped) = try await packageTimeline(Self.response)
        controller.show(section, skipped: skipped)
        #expect(controller.section?.map { $0["id"] } == ["1", "3"])
        #expect(controller.section?.map { $0["date"] } == ["1970-01-01", "1970-01-03"])
        // The counter saw every element, the bad one too.
        #expect(controller.section?.map { $0["position"] } == [1, 3])
        #expect(controller.problems == ["item 1: id_str: missing"])
    }

    @Test @MainActor func aSpecManagerIsHandedToTheMainActor() async throws {
        let spec = try PackagingSpec(json: ["sections": [["items": "statuses"]]])
        let controller = TimelineController()
        controller.show(try await packageManager(Self.response, spec: spec))
        #expect(controller.manager?.count == 1)
        #expect(controller.manager?[0].count == 3)
    }
}
