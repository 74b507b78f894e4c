import Foundation
import Testing
@testable import AGViewModel

/// Replays, without the fuzzer, every input kept under
/// `Fixtures/regressions/<target>/` (inputs that once crashed a fuzz target
/// or broke its invariants) and the fuzzers' hand-written seeds, running the
/// same checks as the fuzz targets in `Fuzz/`.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The regular files in `folder` (relative to the package root), sorted; none if it does not exist.
    static func inputs(in folder: String) -> [URL] {
        let url = root.appendingPathComponent(folder)
        let files = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isRegularFileKey])) ?? []
        return files.filter { file in
            !file.lastPathComponent.hasPrefix(".") && (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
        }.sorted { $0.path < $1.path }
    }

    /// Runs `check` on every file of `folders` (those ending in `suffix`
    /// when given) and returns how many there were.
    static func replay(_ folders: [String], suffix: String? = nil, check: (Data) -> [String]) throws -> Int {
        var count = 0
        for folder in folders {
            for file in inputs(in: folder) where suffix.map({ file.lastPathComponent.hasSuffix($0) }) ?? true {
                let data = try Data(contentsOf: file)
                let problems = check(data)
                #expect(problems.isEmpty, "\(folder)/\(file.lastPathComponent): \(problems)")
                count += 1
            }
        }
        return count
    }

    @Test func jsonParserInputs() throws {
        let count = try Self.replay(["Fixtures/regressions/json-parser", "Fuzz/seeds/json-parser", "Fixtures"]) { data in
            data.withUnsafeBytes { FuzzInvariants.checkParser($0) }
        }
        #expect(count >= 10)
        // The other JSON the package ships: golden outputs and invalid inputs.
        let more = try Self.replay(["Fixtures/golden", "Fixtures/invalid"], suffix: ".json") { data in
            data.withUnsafeBytes { FuzzInvariants.checkParser($0) }
        }
        #expect(more >= 5)
    }

    /// The parser's key check compares with an independent reader, so it
    /// tells a key renamed anywhere in the document.
    @Test func theKeyCheckTellsARenamedKey() throws {
        let text = #"{"a":[{"bc":1},{"b\u0063":2}],"d":{"e":{}}}"#
        let value = try JSONValue(parsing: text)
        let renamed = try [#"{"a":[{"bc":1},{"bd":2}],"d":{"e":{}}}"#, #"{"a":[{"bc":1},{"bc":2}],"d":{"f":{}}}"#,
                           #"{"a":[{"bc":1},{"bc":2}],"d":{"e":{"":0}}}"#, #"{"A":[{"bc":1},{"bc":2}],"d":{"e":{}}}"#]
            .map { try JSONValue(parsing: $0) }
        Array(text.utf8).withUnsafeBytes { bytes in
            #expect(FuzzInvariants.checkKeys(value, in: bytes).isEmpty)
            for other in renamed {
                #expect(!FuzzInvariants.checkKeys(other, in: bytes).isEmpty, "\(other)")
            }
        }
    }

    @Test func specInputs() throws {
        let count = try Self.replay(["Fixtures/regressions/spec", "Fuzz/seeds/spec", "Fixtures/specs"]) { data in
            FuzzInvariants.checkSpec(data)
        }
        #expect(count >= 5)
        let invalid = try Self.replay(["Fixtures/invalid"], suffix: ".spec.json") { data in FuzzInvariants.checkSpec(data) }
        #expect(invalid >= 1)
    }

    @Test func archiveInputs() throws {
        let count = try Self.replay(["Fixtures/regressions/archive"]) { data in
            data.withUnsafeBytes { FuzzInvariants.checkArchiveInput($0) }
        }
        // Damaged archives, as whole files (mode byte 0).
        let damaged = try Self.replay(["Fixtures/invalid"], suffix: ".agvm") { data in
            (Data([0]) + data).withUnsafeBytes { FuzzInvariants.checkArchiveInput($0) }
        }
        #expect(count + damaged >= 2)
        // Archives of every fixture, in both input modes of the fuzz target.
        for file in Self.inputs(in: "Fixtures") where file.pathExtension == "json" {
            let json = try JSONValue(parsing: Data(contentsOf: file))
            var records: [ArchiveRecord] = [.value(json)]
            if let object = json.objectValue {
                records.append(.viewModel(ViewModel(object)))
                let items = object.compactMap { $0.value.objectValue.map { ViewModel($0) } }
                records.append(.viewModels(items))
                let section = Section(items: items, header: ViewModel(["title": "t"]), common: ViewModel(["c": 1]))
                records.append(.section(section))
                records.append(.manager(Manager(sections: [section, Section()], common: ViewModel(["m": true]))))
                // With registrations: a version 2 archive.
                let registered = Manager(sections: [section.copy(), Section()], common: ViewModel(["m": true]))
                registered.addArchivedKeys(["m"], for: .common)
                registered[0].addSerializableKeys(["title"], for: .header)
                registered[0].items.first?.addArchivedKeys(object.keys.prefix(1)).addSerializableKeys(["unstored"])
                records.append(.manager(registered))
            }
            for record in records {
                let archive = try ArchiveEncoder().encode(record).data
                let payloadMode: UInt8 = try ArchiveDecoder().header(of: archive).version == 1 ? 1 : 3
                for input in [Data([0]) + archive, Data([payloadMode]) + archive.dropFirst(ArchiveFormat.headerSize)] {
                    let problems = input.withUnsafeBytes { FuzzInvariants.checkArchiveInput($0) }
                    #expect(problems.isEmpty, "\(file.lastPathComponent) \(record.kindName): \(problems)")
                }
            }
        }
    }

    /// The checks themselves catch what they are for.
    @Test func invariantChecksReportProblems() {
        // A positioned error outside the input is reported.
        let bad = JSONParseError(line: 1, column: 1, offset: 99, message: "x")
        let problems = [UInt8]("{}".utf8).withUnsafeBytes { FuzzInvariants.checkParseError(bad, in: $0) }
        #expect(!problems.isEmpty)
        // A damaged archive is rejected with a checksum error, which is allowed in raw mode…
        var archive = (try? ArchiveEncoder().encode(.value(["a": 1])).data) ?? Data()
        archive[archive.count - 1] ^= 0xFF
        #expect((Data([0]) + archive).withUnsafeBytes { FuzzInvariants.checkArchiveInput($0) }.isEmpty)
        // …and records that differ are told apart, including the sign of zero.
        #expect(FuzzInvariants.difference(.value(.double(0)), .value(.double(-0.0))) != nil)
        #expect(FuzzInvariants.difference(.viewModel(ViewModel(["a": 1])), .viewModel(ViewModel(["a": 2]))) != nil)
        #expect(FuzzInvariants.difference(.viewModels([ViewModel(["a": 1])]), .viewModels([ViewModel(["a": 1])])) == nil)
        #expect(FuzzInvariants.difference(.section(Section(header: ViewModel())), .section(Section())) != nil)
        #expect(FuzzInvariants.difference(.manager(Manager(sections: [Section()])), .manager(Manager())) != nil)
    }
}
