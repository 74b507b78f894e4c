import AGViewModel
import Foundation
import Testing
@testable import AGVMCommandLine

/// `agvm keys` output is compiled, not just compared: for every bundled
/// fixture and for the awkward-keys corpus in `Fixtures/keys/` (collisions
/// after cleaning, keywords, leading digits, keys differing only in case,
/// Unicode names, maps keyed by ids, deep nesting), the generated Swift,
/// packager functions included, typechecks against the built library.
@Suite("agvm keys: generated Swift compiles")
struct GeneratedKeysCompileTests {
    /// Every sample the keys are generated from.
    static func samples() throws -> [String] {
        let fixtures = packageRoot.appendingPathComponent("Fixtures")
        var paths: [String] = []
        for directory in [fixtures, fixtures.appendingPathComponent("keys")] {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            paths += names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0).path }
        }
        return paths
    }

    /// A new, empty directory under the temporary directory; the caller
    /// removes it.
    static func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UInt64.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The compiled library's module directory, next to the `agvm` executable.
    static func modulesDirectory() -> String? {
        guard let tool = EndToEndTests.executable() else { return nil }
        let modules = tool.deletingLastPathComponent().appendingPathComponent("Modules").path
        return FileManager.default.fileExists(atPath: modules + "/AGViewModel.swiftmodule") ? modules : nil
    }

    @Test func theAwkwardCorpusIsThere() throws {
        let names = try Self.samples().map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names.contains("awkward.json") && names.contains("catalogue.json"))
        #expect(names.count >= 9)
    }

    @Test func generatedKeysTypecheck() throws {
        let modules = try #require(Self.modulesDirectory(), "build the package first (swift build)")
        let directory = try Self.makeTemporaryDirectory("agvm-keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, sample) in try Self.samples().enumerated() {
            let module = URL(fileURLWithPath: sample).deletingPathExtension().lastPathComponent
            let output = directory.appendingPathComponent("\(index)-\(module).swift").path
            let io = CapturedIO()
            #expect(io.run("keys", sample, "--module", module, "--packager", "-o", output) == 0, "\(sample): \(io.error)")
            files.append(output)
        }
        let (status, message) = try Self.runTool(["swiftc", "-wmo", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules] + files)
        #expect(status == 0, "\(message.prefix(4000))")
        try Self.expectUsableOffTheMainActor(files, use: Self.packagingOffTheMainActor, in: directory, modules: modules)
    }

    /// `agvm keys --spec` output typechecks for every bundled spec (one
    /// compile each: specs share key names), used as an app reads a
    /// ViewModel its spec packaged.
    @Test func specKeysTypecheck() throws {
        let modules = try #require(Self.modulesDirectory(), "build the package first (swift build)")
        let directory = try Self.makeTemporaryDirectory("agvm-spec-keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        let use = directory.appendingPathComponent("use.swift")
        try Data("""
            import AGViewModel
            import Foundation

            nonisolated func show(_ item: ViewModel) -> String {
                "\\(item[.id] ?? "") \\(item[.title, default: "untitled"])"
            }
            """.utf8).write(to: use)
        for fixture in GoldenFileTests.fixtures {
            let output = directory.appendingPathComponent("\(fixture.name).swift").path
            let io = CapturedIO()
            let spec = AGVMCommandLineTests.fixture("specs/\(fixture.name).spec.json")
            #expect(io.run("keys", spec, "--spec", "--module", fixture.module, "-o", output) == 0, "\(io.error)")
            let source = try String(contentsOfFile: output, encoding: .utf8)
            let usesIDAndTitle = source.contains("static var id:") && source.contains("static var title:")
            let (status, message) = try Self.runTool(
                ["swiftc", "-wmo", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules, output] + (usesIDAndTitle ? [use.path] : []))
            #expect(status == 0, "\(fixture.name): \(message.prefix(4000))")
        }
    }

    /// Keys generated without packagers are usable off the main actor too.
    @Test func keysWithoutPackagersAreUsableOffTheMainActor() throws {
        let modules = try #require(Self.modulesDirectory(), "build the package first (swift build)")
        let directory = try Self.makeTemporaryDirectory("agvm-keys-isolation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("feed.swift").path
        let io = CapturedIO()
        #expect(io.run("keys", AGVMCommandLineTests.fixture("feed.json"), "--module", "Feed", "-o", output) == 0, "\(io.error)")
        try Self.expectUsableOffTheMainActor([output], use: Self.readingOffTheMainActor, in: directory, modules: modules)
    }

    /// Packages with the generated code where an app does: in a `@concurrent`
    /// function, off the main actor (needs the `feed.json` keys, `--packager`).
    static let packagingOffTheMainActor = """
        import AGViewModel

        @concurrent nonisolated func packageOffTheMainActor(_ status: JSONObject, response: JSONObject) async -> String {
            let viewModel = Feed.Statuses.package(status)
            let user = Feed.Statuses.User.package(status["user"]?.objectValue ?? [:])
            let metadata = Feed.package(response)
            let key: ViewModel.Key<String> = .statusesText
            return "\\(viewModel[key] ?? "") \\(user[.statusesUserScreenName] ?? "") \\(metadata[.searchMetadata]?.count ?? 0)"
        }

        /// The generated types are packagers too, for the section and manager conveniences.
        @concurrent nonisolated func sectionOffTheMainActor(_ statuses: JSONArray) async throws -> sending Section {
            let section = Section()
            _ = try section.appendItems(packaging: statuses, using: Feed.Statuses())
            return section
        }

        """

    /// Reads with the generated keys off the main actor (needs the
    /// `feed.json` keys).
    static let readingOffTheMainActor = """
        import AGViewModel

        @concurrent nonisolated func readOffTheMainActor() async -> Int {
            let viewModel = ViewModel(["count": 4, "text": "hello"])
            let key: ViewModel.Key<Int> = .searchMetadataCount
            return (viewModel[key] ?? 0) + (viewModel[.statusesText]?.count ?? 0)
        }

        """

    /// Typechecks `files` with `use` in a module whose default isolation is
    /// MainActor, as in Xcode 26 app targets: generated keys and packagers
    /// must not become main-actor isolated there.
    static func expectUsableOffTheMainActor(_ files: [String], use: String, in directory: URL, modules: String) throws {
        let user = directory.appendingPathComponent("off-main-actor.swift").path
        try Data(use.utf8).write(to: URL(fileURLWithPath: user))
        let (status, message) = try runTool(["swiftc", "-wmo", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-default-isolation", "MainActor",
                                             "-I", modules] + files + [user])
        #expect(status == 0, "\(message.prefix(4000))")
    }

    /// Runs `arguments` through `/usr/bin/env`; the exit status and output.
    static func runTool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A module name that is a type the generated code or its user names
    /// (`ViewModel`, `String`, `Error`) or a keyword (`Any`) is renamed, so
    /// the packager type neither fails to compile nor hides that type.
    @Test func moduleNamesThatAreTypeNamesAreRenamed() throws {
        let modules = try #require(Self.modulesDirectory(), "build the package first (swift build)")
        let directory = try Self.makeTemporaryDirectory("agvm-modules")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, module) in ["ViewModel", "Any", "String", "JSONObject", "Key", "Self", "Error", "Section"].enumerated() {
            let sample = directory.appendingPathComponent("sample\(index).json").path
            try Data(#"{"k\#(index)": {"x\#(index)": 1}}"#.utf8).write(to: URL(fileURLWithPath: sample))
            let output = directory.appendingPathComponent("keys\(index).swift").path
            let io = CapturedIO()
            #expect(io.run("keys", sample, "--module", module, "--packager", "-o", output) == 0, "\(io.error)")
            #expect(io.error.hasPrefix("\(sample): note: module name '\(module)' is written as '"), "\(io.error)")
            files.append(output)
        }
        let user = directory.appendingPathComponent("user.swift").path
        try Data("""
            import AGViewModel
            struct Failure: Error {}
            func use() throws {
                let viewModel = ViewModel(["k0": ["x0": 1]])
                let title: String? = viewModel[.k0X0].map(String.init)
                let object: JSONObject = [:]
                _ = (title, object, ViewModel2.package(object), Any_.package(object), String2.package(object))
                _ = (Error2.package(object), Section2.package(object), Section(items: []))
                throw Failure()
            }

            """.utf8).write(to: URL(fileURLWithPath: user))
        let (status, message) = try Self.runTool(["swiftc", "-wmo", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules] + files + [user])
        #expect(status == 0, "\(message.prefix(4000))")
    }

    /// The Objective-C output of every sample parses as Objective-C: keys
    /// with line breaks, a trailing backslash or control characters stay
    /// inside their literals and comments.
    @Test func generatedObjectiveCParses() throws {
        guard (try? Self.runTool(["clang", "--version"]))?.status == 0 else { return }
        let directory = try Self.makeTemporaryDirectory("agvm-objc")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Foundation"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Just enough Foundation for string constants.
        try Data("""
            @interface NSObject
            @end
            @interface NSString : NSObject
            @end
            @interface NSConstantString : NSString
            @end

            """.utf8).write(to: directory.appendingPathComponent("Foundation/Foundation.h"))
        for (index, sample) in try Self.samples().enumerated() {
            let output = directory.appendingPathComponent("keys\(index).m").path
            let io = CapturedIO()
            #expect(io.run("keys", sample, "--module", "M\(index)", "--language", "objc", "-o", output) == 0, "\(io.error)")
            let (status, message) = try Self.runTool(["clang", "-fsyntax-only", "-x", "objective-c", "-Werror", "-Wno-unused-const-variable",
                                                      "-isystem", directory.path, output])
            #expect(status == 0, "\(sample): \(message.prefix(2000))")
        }
    }

    @Test func idKeyedMapsAreDescribedOnce() throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/keys/catalogue.json"))
        let generator = KeyConstantGenerator(sample: try JSONParser().parse(data), moduleName: "Catalogue", sourceName: "c.json")
        let swift = generator.generate(.swift)
        #expect(swift.contains("/// `events` (map keyed by id, 50 members) Example: {50 members}"))
        #expect(swift.contains("public static var events: Self { \"events\" }"))
        #expect(swift.contains("/// In `events`: `name` Example: \"Event 0\"\n    public static var eventsName: Self { \"name\" }"))
        #expect(swift.contains("/// In `events`: `logo` (optional) Example: \"/img/x\""))
        // Numeric, token, UUID and many-same-shape names are all maps; a record is not.
        for key in ["areaNames", "users", "uuids", "plugins"] {
            #expect(swift.contains("/// `\(key)` (map keyed by id"), "\(key)")
        }
        #expect(!swift.contains("/// `settings` (map"))
        #expect(swift.contains("public static var settingsFontSize: Self { \"font_size\" }"))
        #expect(!swift.contains("138586341\")"))
        // Maps in an array, objects in arrays of arrays.
        #expect(swift.contains("public static var pagesTitle: Self { \"title\" }"))
        #expect(swift.contains("public static var gridCell: Self { \"cell\" }"))
        #expect(generator.notes.map(\.description) == [])
    }

    @Test func aRootMapGivesTheKeysOfItsValues() throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/keys/root-map.json"))
        let generator = KeyConstantGenerator(sample: try JSONParser().parse(data), moduleName: "Scores", sourceName: "s.json")
        #expect(generator.generate(.swift).contains("extension ViewModel.Key where Value == Double {\n    /// `score` Example: 1.5\n    public static var score: Self { \"score\" }"))
        #expect(generator.notes.map(\.description) == ["(root): a map keyed by ids (29 members); keys of its values generated"])
    }

    @Test(arguments: [
        ("138586341", true), ("-7", true), ("3f2504e0-4f89-11d3-9a0c-0305e82c3301", true),
        ("d41d8cd98f00b204e9800998ecf8427e", true), ("-Mx3fK9a2bQ7zL0001pR", true),
        ("name", false), ("1080p", false), ("profile_image_url_https", false), ("isbn_13", false), ("", false),
    ])
    func identifierLikeNames(name: String, expected: Bool) {
        #expect(JSONShape.isIdentifierLike(name) == expected)
    }

    @Test func cleanedNamesNeverCollide() {
        let sample: JSONValue = ["123": ["a": 1], "_123": 2, "名前": ["b": 1], "Name": 1, "name": 2]
        let swift = KeyConstantGenerator(sample: sample, moduleName: "M", sourceName: "m.json").generate(.swift)
        #expect(swift.contains("public static var name: Self { \"Name\" }"))
        #expect(swift.contains("public static var name2: Self { \"name\" }"))
        #expect(swift.contains("public static var 名前: Self { \"名前\" }"))
        #expect(swift.contains("public static var _123: Self { \"123\" }") && swift.contains("public static var _123_2: Self { \"_123\" }"))
    }
}
