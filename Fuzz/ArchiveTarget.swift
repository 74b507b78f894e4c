import Foundation

/// libFuzzer entry for the archive reader: any bytes (the first byte picks
/// a raw archive or a payload behind a valid header). Invariants in
/// ``FuzzInvariants/checkArchiveInput(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    requireNoProblems(FuzzInvariants.checkArchiveInput(UnsafeRawBufferPointer(start: data, count: size)), target: "archive")
    return 0
}

/// With `AGVM_FUZZ_MAKE_SEEDS=DIR` and `AGVM_FUZZ_FIXTURES=DIR` set, writes
/// seed inputs made from every fixture's JSON into the first directory and
/// exits, instead of fuzzing (libFuzzer calls this before anything else).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzArchiveInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    guard let output = environment["AGVM_FUZZ_MAKE_SEEDS"], let fixtures = environment["AGVM_FUZZ_FIXTURES"] else { return 0 }
    do {
        let count = try ArchiveSeeds.write(from: URL(fileURLWithPath: fixtures), to: URL(fileURLWithPath: output))
        print("wrote \(count) archive seeds to \(output)")
        exit(0)
    } catch {
        print("cannot make archive seeds: \(error)")
        exit(1)
    }
}

/// Archives made from fixture JSON: values, ViewModels with nested
/// ViewModels and lists, lists, sections and a manager; each saved in both
/// input modes.
enum ArchiveSeeds {
    static func write(from fixtures: URL, to output: URL) throws -> Int {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var records: [(String, ArchiveRecord)] = [
            ("null", .value(.null)), ("empty-list", .viewModels([])), ("empty-vm", .viewModel(ViewModel())),
            ("numbers", .value([1, -1, 0, .int(.max), .int(.min), 0.5, -0.0, .bigInteger("-123456789012345678901234567890")])),
            ("keys", .value(["": "", "a": ["a": ["a": "é😀"]], "b": [["a": 1], ["a": 2, "b": 3]]])),
        ]
        var sections: [Section] = []
        let files = try FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let json = try JSONValue(parsing: Data(contentsOf: file))
            records.append(("\(name)-value", .value(json)))
            if case .object(let object) = json {
                records.append(("\(name)-viewModel", .viewModel(viewModel(object))))
                for (key, member) in object {
                    if case .array(let array) = member, !array.isEmpty, array.allSatisfy({ $0.objectValue != nil }) {
                        let items = array.compactMap(\.objectValue).map(viewModel)
                        records.append(("\(name)-\(key)-list", .viewModels(items)))
                        sections.append(Section(items: items, header: ViewModel(["title": .string(key)]),
                                                footer: sections.count % 2 == 0 ? ViewModel(["file": .string(name)]) : nil))
                    }
                }
            }
        }
        records.append(("section-empty", .section(Section())))
        records.append(("manager-empty", .manager(Manager())))
        for (i, section) in sections.enumerated() { records.append(("section-\(i)", .section(section))) }
        records.append(("manager", .manager(Manager(sections: sections, common: ViewModel(["style": "plain"])))))
        records.append(("registrations", .manager(registered(Manager(sections: sections, common: ViewModel(["style": "plain"]))))))
        var written = 0
        for (name, record) in records {
            let archive = try ArchiveEncoder().encode(record).data
            try (Data([0]) + archive).write(to: output.appendingPathComponent("\(name).raw"))
            // Mode 1 wraps the payload as version 1, mode 3 as version 2.
            let version = try ArchiveDecoder().header(of: archive).version
            let mode: UInt8 = version == 1 ? 1 : 3
            try (Data([mode]) + archive.dropFirst(ArchiveFormat.headerSize)).write(to: output.appendingPathComponent("\(name).payload"))
            written += 2
        }
        return written
    }

    /// `manager` with keys registered on it, its sections and its
    /// ViewModels, so the seeds reach the registrations table.
    static func registered(_ manager: Manager) -> Manager {
        manager.addArchivedKeys(["id", "title"], for: .items)
        manager.addSerializableKeys(["style"], for: .common)
        for (i, section) in manager.sections.enumerated() {
            section.addSerializableKeys(["title"], for: .header)
            for item in section.items.prefix(2) {
                item.addArchivedKeys(item.keys.prefix(i + 1))
                item.addSerializableKeys(["registered-only"])
            }
        }
        return manager
    }

    /// A ViewModel with nested objects as nested ViewModels and arrays of
    /// objects as ViewModel lists, as a packager would build.
    static func viewModel(_ object: JSONObject) -> ViewModel {
        var keys: [String] = []
        var values: [String: ViewModelValue] = [:]
        for (key, value) in object {
            keys.append(key)
            switch value {
            case .object(let nested): values[key] = .payload(viewModel(nested))
            case .array(let array) where !array.isEmpty && array.allSatisfy({ $0.objectValue != nil }):
                values[key] = .payload(array.compactMap(\.objectValue).map(viewModel))
            default: values[key] = .json(value)
            }
        }
        return ViewModel(uncheckedKeys: keys, values: values)
    }
}
