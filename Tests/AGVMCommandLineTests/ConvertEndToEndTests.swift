import AGViewModel
import Foundation
import Testing

/// `agvm convert` and `agvm inspect` run as a separate process on the
/// bundled fixtures and bad inputs: output, messages and exit statuses.
@Suite("agvm convert and inspect, end to end")
struct ConvertEndToEndTests {
    static func golden(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/golden/\(name)"), encoding: .utf8)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("agvm-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func convertsAFixtureWithItsSpecToTheGoldenTreeAndJSON() throws {
        let tree = try EndToEndTests.run(["convert", fixture("books.json"), "--packager", fixture("specs/books.spec.json")])
        #expect(tree.status == 0)
        #expect(tree.error.isEmpty)
        #expect(tree.output == (try Self.golden("books.tree.txt")))

        let json = try EndToEndTests.run(["convert", fixture("feed.json"), "-p", fixture("specs/feed.spec.json"), "--to", "json"])
        #expect(json.status == 0)
        #expect(json.error.isEmpty)
        #expect(json.output == (try Self.golden("feed.json")))
    }

    @Test func pipedTreesIgnoreTheTerminalButHonourColumnsAndWidth() throws {
        let arguments = ["convert", fixture("search.json")]
        let narrow = try EndToEndTests.run(arguments, environment: ["COLUMNS": "50"])
        #expect(narrow.status == 0)
        #expect(narrow.output.split(separator: "\n").allSatisfy { $0.count <= 50 })
        #expect(narrow.output.contains("…"))
        let unlimited = try EndToEndTests.run(arguments + ["--width", "0"], environment: ["COLUMNS": "50"])
        #expect(unlimited.output.contains("\"swift concurrency tutorial\",\"swift async await\",\"swift actors\"]"))
        #expect(!unlimited.output.contains("\u{1B}["), "no colour in a pipe")
    }

    @Test func skippedElementsAreWarningsUnlessStrict() throws {
        let arguments = ["convert", fixture("products.json"), "--packager", fixture("specs/products.spec.json")]
        let lenient = try EndToEndTests.run(arguments)
        #expect(lenient.status == 0)
        #expect(lenient.error == "\(fixture("products.json")): warning: item 2: required key \"imageURL\" (path images[0].src) has no value: images[0]: missing (the array is empty)\n")
        #expect(lenient.output == (try Self.golden("products.tree.txt")))
        #expect(lenient.output.hasPrefix("products.json · 1 section · 3 items · 1 skipped\n"))

        let strict = try EndToEndTests.run(arguments + ["--strict"])
        #expect(strict.status == 1)
        #expect(strict.output.isEmpty)
        #expect(strict.error.hasSuffix("agvm: error: 1 element was skipped (--strict); nothing written\n"))
    }

    @Test func badInputsExitOneWithAPositionedMessage() throws {
        let malformed = try EndToEndTests.run(["convert", fixture("invalid/malformed.json")])
        #expect(malformed.status == 1)
        #expect(malformed.output.isEmpty)
        #expect(malformed.error == "\(fixture("invalid/malformed.json")):3:41: error: trailing comma is not allowed before '}'\n")

        let scalar = try EndToEndTests.run(["convert", fixture("invalid/scalar.json")])
        #expect(scalar.status == 1)
        #expect(scalar.error == "\(fixture("invalid/scalar.json")): error: expected an array or an object at the top level, found int\n")

        let missing = try EndToEndTests.run(["convert", "/nonexistent/api.json"])
        #expect(missing.status == 1)
        #expect(missing.error == "/nonexistent/api.json: error: cannot read: No such file or directory\n")
    }

    @Test func badSpecsExitOneAndNameTheEntry() throws {
        let books = fixture("books.json")
        let badType = try EndToEndTests.run(["convert", books, "--packager", fixture("invalid/bad-type.spec.json")])
        #expect(badType.status == 1)
        #expect(badType.output.isEmpty)
        #expect(badType.error == "\(fixture("invalid/bad-type.spec.json")): error: fields[1] (key \"pages\"): unknown type \"integer\" (did you mean \"int\"?); expected one of string, int, double, bool, url, array, object\n")

        let badSyntax = try EndToEndTests.run(["convert", books, "--packager", fixture("invalid/bad-syntax.spec.json")])
        #expect(badSyntax.status == 1)
        #expect(badSyntax.error.hasPrefix("\(fixture("invalid/bad-syntax.spec.json")):4:18: error: expected ',' or '}'"))

        let wrongItems = try EndToEndTests.run(["convert", books, "--packager", fixture("invalid/wrong-items.spec.json")])
        #expect(wrongItems.status == 1)
        #expect(wrongItems.error == "\(books): error: packaging with \(fixture("invalid/wrong-items.spec.json")): facets: expected an array, found object {2 members}\n")
    }

    @Test func damagedArchivesExitOneWithTheArchiveError() throws {
        let corrupt = try EndToEndTests.run(["inspect", fixture("invalid/corrupt.agvm")])
        #expect(corrupt.status == 1)
        #expect(corrupt.output.isEmpty)
        #expect(corrupt.error == "\(fixture("invalid/corrupt.agvm")): error: archive is damaged: content checksum is 0xEAAE5E5D, expected 0x57F73A5B\n")

        let truncated = try EndToEndTests.run(["inspect", fixture("invalid/truncated.agvm")])
        #expect(truncated.status == 1)
        #expect(truncated.error == "\(fixture("invalid/truncated.agvm")): error: archive is truncated: expected 822 bytes, found 411\n")

        let foreign = try EndToEndTests.run(["inspect", fixture("books.json")])
        #expect(foreign.status == 1)
        #expect(foreign.error == "\(fixture("books.json")): error: not an AGViewModel archive (the file starts with 7b 0a 20 20 22 70 61 67)\n"
            + "\(fixture("books.json")): note: this is JSON, not an archive; read it with 'agvm convert \(fixture("books.json"))'\n")
    }

    /// An archive keeps key registrations; the tree shows them after the counts.
    @Test func inspectShowsRegisteredKeys() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let item = ViewModel(["id": 1, "title": "A", "secret": "x"]).addArchivedKeys(["id", "title"]).addSerializableKeys(["title"])
        let section = Section(items: [item], header: ViewModel(["title": "Books"]))
        section.addArchivedKeys(["title"], for: .header)
        let manager = Manager(sections: [section])
        manager.addSerializableKeys(["id"], for: .items)
        let archive = directory.appendingPathComponent("registered.agvm")
        try Archive.write(.manager(manager), to: archive)
        let tree = try EndToEndTests.run(["inspect", archive.path, "--width", "0"])
        #expect(tree.status == 0)
        let lines = tree.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(" · archive format 2 · ") == true)
        #expect(lines.dropFirst().first == "└─ manager · 1 section · 1 item · exported item keys id", "\(tree.output)")
        #expect(lines.contains("   └─ section 0 · Books · 1 item · archived header keys title"), "\(tree.output)")
        #expect(lines.contains("      └─ item 0 · 2 keys · archived keys id, title · exported keys title"), "\(tree.output)")
    }

    @Test func archivesRoundTripThroughInspect() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let archive = directory.appendingPathComponent("profile.agvm").path
        let arguments = ["convert", fixture("profile.json"), "--packager", fixture("specs/profile.spec.json")]
        let written = try EndToEndTests.run(arguments + ["--to", "archive", "-o", archive])
        #expect(written.status == 0)
        #expect(written.output.isEmpty)
        #expect(written.error.isEmpty)

        let size = try #require(try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int)
        let tree = try EndToEndTests.run(["inspect", archive])
        #expect(tree.status == 0)
        #expect(tree.output.hasPrefix("profile.agvm · archive format 1 · payload \(size - 28) bytes · CRC-32 0x"))

        // The tree of the archived manager is the tree convert printed.
        let converted = try EndToEndTests.run(arguments)
        let archivedTree = tree.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .map { $0.dropFirst(3) }.joined(separator: "\n")
        #expect(archivedTree == converted.output.replacingOccurrences(of: "profile.json · ", with: "manager · "))

        // The archive holds exactly what the JSON export shows.
        let inspected = try EndToEndTests.run(["inspect", archive, "--to", "json"])
        #expect(inspected.status == 0)
        let summary = try JSONValue(parsing: inspected.output)
        #expect(summary["archive"]?["payloadBytes"] == .int(Int64(size - 28)))
        let exported = try EndToEndTests.run(arguments + ["--to", "json"])
        #expect(summary["content"] == (try JSONValue(parsing: exported.output)))

        // Flip one payload byte: inspect reports the damage.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: archive))
        let damaged = try EndToEndTests.run(["inspect", archive])
        #expect(damaged.status == 1)
        #expect(damaged.error.hasPrefix("\(archive): error: archive is damaged: content checksum is 0x"))
    }

    @Test func anExistingOutputIsOnlyReplacedByACompleteNewOne() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.json")
        try Data("previous".utf8).write(to: output)

        let failed = try EndToEndTests.run(["convert", fixture("books.json"), fixture("invalid/malformed.json"),
                                            "--to", "json", "-o", output.path])
        #expect(failed.status == 1)
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous")

        let succeeded = try EndToEndTests.run(["convert", fixture("books.json"), "-p", fixture("specs/books.spec.json"),
                                               "--to", "json", "-o", output.path])
        #expect(succeeded.status == 0)
        #expect(succeeded.output.isEmpty)
        #expect(try String(contentsOf: output, encoding: .utf8) == (try Self.golden("books.json")))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["out.json"], "no temporary files left behind")
    }

    @Test func severalInputsConvertInOneRun() throws {
        let books = fixture("books.json"), feed = fixture("feed.json")
        let trees = try EndToEndTests.run(["convert", books, feed])
        #expect(trees.status == 0)
        #expect(trees.error.isEmpty, "no progress line in a pipe")
        #expect(trees.output == (try Self.golden("books.generic.tree.txt")) + "\n" + (try Self.golden("feed.generic.tree.txt")))

        let json = try EndToEndTests.run(["convert", books, "-", "--to", "json"],
                                         input: Data(#"[{"id": 1}, {"id": 2}]"#.utf8))
        #expect(json.status == 0)
        let runs = try #require(try JSONValue(parsing: json.output).arrayValue)
        #expect(runs.count == 2)
        #expect(runs[0]["input"] == .string(books))
        #expect(runs[1]["input"] == "-")
        #expect(runs[1]["manager"] == ["sections": [["items": [["id": 1], ["id": 2]]]]])
    }

    @Test(arguments: [
        (["convert", "a.json", "--to", "archive"],
         "agvm: '--to archive' needs '-o OUT' (archives are binary and not written to standard output); see 'agvm convert --help'\n"),
        (["convert", "a.json", "b.json", "--to", "archive", "-o", "x.agvm"],
         "agvm: '--to archive' takes one INPUT, got 2; run 'agvm convert' once per archive; see 'agvm convert --help'\n"),
        (["convert", "a.json", "--to", "xml"],
         "agvm: invalid value 'xml' for '--to': expected tree, json or archive; see 'agvm convert --help'\n"),
        (["convert"], "agvm: missing INPUT for 'convert'; see 'agvm convert --help'\n"),
        (["convert", "-", "-"], "agvm: standard input ('-') can be read only once; see 'agvm convert --help'\n"),
        (["convert", "-", "--packager", "-"], "agvm: standard input ('-') can be read only once; see 'agvm convert --help'\n"),
        (["validate", "a.json", "-", "-"], "agvm: standard input ('-') can be read only once; see 'agvm validate --help'\n"),
        (["validate", "-", "/dev/stdin"], "agvm: standard input ('-') can be read only once; see 'agvm validate --help'\n"),
        (["convert", "/dev/fd/0", "--packager", "-"], "agvm: standard input ('-') can be read only once; see 'agvm convert --help'\n"),
        (["inspect", "a.agvm", "b.agvm"],
         "agvm: unexpected argument 'b.agvm' for 'inspect' (it takes one ARCHIVE); see 'agvm inspect --help'\n"),
        (["inspect", "a.agvm", "--to", "archive"],
         "agvm: invalid value 'archive' for '--to': expected tree or json; see 'agvm inspect --help'\n"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let outcome = try EndToEndTests.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.output.isEmpty)
        #expect(outcome.error == message)
    }

    @Test func helpAndVersionCoverTheNewCommands() throws {
        let help = try EndToEndTests.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("  convert     Package API JSON into ViewModels"))
        #expect(help.output.contains("  inspect     Show what an archive holds"))
        for command in ["convert", "inspect"] {
            let viaHelp = try EndToEndTests.run(["help", command])
            let viaFlag = try EndToEndTests.run([command, "--help"])
            #expect(viaHelp.status == 0 && viaFlag.status == 0)
            #expect(viaHelp.output == viaFlag.output)
            #expect(viaHelp.output.hasPrefix("OVERVIEW: "))
            #expect(viaHelp.output.contains("USAGE: agvm \(command) "))
        }
        let version = try EndToEndTests.run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("agvm "))
    }
}
