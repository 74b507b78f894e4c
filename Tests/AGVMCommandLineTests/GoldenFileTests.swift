import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

/// The golden files in `Fixtures/golden/` are what the tool prints for each
/// bundled fixture and its spec. Each test regenerates one and compares it
/// byte for byte.
///
/// After a deliberate change of output, re-bless them and review the diff:
///
///     AGVM_BLESS=1 swift test --filter GoldenFileTests
///     git diff Fixtures/golden
@Suite("agvm: golden files")
struct GoldenFileTests {
    /// A fixture, its spec, and the module name its keys are generated with.
    struct Fixture: CustomStringConvertible, Sendable {
        var name: String
        var module: String
        var description: String { name }
    }

    static let fixtures = [
        Fixture(name: "books", module: "Books"),
        Fixture(name: "feed", module: "Feed"),
        Fixture(name: "products", module: "Products"),
        Fixture(name: "profile", module: "Profile"),
        Fixture(name: "search", module: "Search"),
    ]

    /// The outputs kept for every fixture: golden file suffix and arguments.
    static func outputs(for fixture: Fixture) -> [(suffix: String, arguments: [String])] {
        let input = AGVMCommandLineTests.fixture("\(fixture.name).json")
        let spec = AGVMCommandLineTests.fixture("specs/\(fixture.name).spec.json")
        return [
            ("tree.txt", ["convert", input, "--packager", spec]),
            ("json", ["convert", input, "--packager", spec, "--to", "json"]),
            ("keys.swift", ["keys", input, "--module", fixture.module]),
            ("spec-keys.swift", ["keys", spec, "--spec", "--module", fixture.module]),
            ("generic.tree.txt", ["convert", input]),
        ]
    }

    static var blessing: Bool { ProcessInfo.processInfo.environment["AGVM_BLESS"] == "1" }

    @Test(arguments: fixtures)
    func outputsMatchTheGoldenFiles(fixture: Fixture) throws {
        for (suffix, arguments) in Self.outputs(for: fixture) {
            // A plain run: no terminal, no COLUMNS, no NO_COLOR.
            let io = CapturedIO()
            let status = CommandLineTool.run(arguments: arguments, io: io.io)
            #expect(status == 0, "\(arguments.joined(separator: " ")): \(io.error)")
            let golden = packageRoot.appendingPathComponent("Fixtures/golden/\(fixture.name).\(suffix)")
            if Self.blessing {
                try AtomicFile.write(Data(io.output.utf8), to: golden)
                continue
            }
            let expected = try #require(try? String(contentsOf: golden, encoding: .utf8),
                                        "missing \(golden.lastPathComponent); run AGVM_BLESS=1 swift test --filter GoldenFileTests")
            #expect(io.output == expected,
                    "\(golden.lastPathComponent) differs from the tool's output; if the change is intended, re-bless with AGVM_BLESS=1 swift test --filter GoldenFileTests")
        }
    }

    @Test(arguments: fixtures)
    func goldenTreesFitEightyColumns(fixture: Fixture) throws {
        for suffix in ["tree.txt", "generic.tree.txt"] {
            let url = packageRoot.appendingPathComponent("Fixtures/golden/\(fixture.name).\(suffix)")
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                #expect(DisplayWidth.of(line) <= 80, "\(url.lastPathComponent): \(line)")
                #expect(!line.contains("\u{1B}"), "no colour in piped output")
            }
        }
    }

    @Test(arguments: fixtures)
    func goldenExportsAreTheSpecPackagingOfTheFixture(fixture: Fixture) throws {
        // Independent of the tool: package with the library and compare with
        // the golden export's items, so a wrong golden cannot be blessed silently.
        let data = try Data(contentsOf: URL(fileURLWithPath: AGVMCommandLineTests.fixture("\(fixture.name).json")))
        let packager = try SpecPackager(contentsOf: URL(fileURLWithPath: AGVMCommandLineTests.fixture("specs/\(fixture.name).spec.json")))
        let results = try packager.packageSections(document: JSONValue(parsing: data))
        let golden = try JSONValue(parsing: Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/golden/\(fixture.name).json")))
        let sections = try #require(golden["sections"]?.arrayValue)
        #expect(sections.count == results.count)
        for (section, result) in zip(sections, results) {
            let items = try #require(section["items"]?.arrayValue)
            #expect(items.count == result.items.count)
            for (exported, item) in zip(items, result.items) {
                #expect(exported.objectValue?.keys.map { $0 } == item.keys)
                for key in item.keys { #expect(exported[key] == item[key], "\(fixture.name): \(key)") }
            }
            #expect(section["header"].map { $0.objectValue?.count } == result.header.map { $0.count })
        }
    }
}
