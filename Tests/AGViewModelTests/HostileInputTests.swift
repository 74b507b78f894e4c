import Foundation
import Testing
@testable import AGViewModel

/// What real APIs send on a bad day, fed through the whole pipeline (parse,
/// write, package, archive): each input either works or fails with a
/// positioned error, and never crashes.
@Suite("Hostile input: sizes and shapes")
struct HostileInputTests {
    // MARK: Huge strings

    @Test func aTwentyMegabyteStringParsesAndWritesBack() throws {
        let size = 20 << 20
        // Mostly ASCII with a two-byte character and an escape every 4 KiB, so
        // the fast paths and the slow ones both run.
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: size + 2)
        bytes[0] = UInt8(ascii: "\"")
        bytes[size + 1] = UInt8(ascii: "\"")
        for i in stride(from: 4096, to: size - 4, by: 4096) {
            bytes[i] = 0xC3; bytes[i + 1] = 0xA9             // é
            bytes[i + 2] = UInt8(ascii: "\\"); bytes[i + 3] = UInt8(ascii: "n")
        }
        let value = try JSONValue(parsing: bytes)
        guard case .string(let string) = value else { Issue.record("not a string: \(value.kind)"); return }
        let escapes = (size - 8) / 4096
        #expect(string.utf8.count == size - escapes)  // each "\n" escape became one byte
        #expect(string.utf8.prefix(3).elementsEqual("aaa".utf8))

        let written = try JSONWriter().write(value)
        #expect(Data(written) == Data(bytes))  // the writer escapes "\n" back the same way
    }

    @Test func aFourMegabyteStringArchivesAndRestores() throws {
        let string = String(repeating: "x\u{0}é😀\n", count: 1 << 19)  // 4.5 MiB of UTF-8
        let archive = try ArchiveEncoder().encode(.viewModel(ViewModel(["body": .string(string)]))).data
        #expect(archive.count < string.utf8.count + 64)
        guard case .viewModel(let restored) = try ArchiveDecoder().decode(archive) else {
            Issue.record("archive did not hold a ViewModel"); return
        }
        #expect(restored["body"] == .string(string))
    }

    @Test func anUnterminatedHugeStringIsAPositionedError() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "b"), count: 8 << 20)
        bytes[0] = UInt8(ascii: "\"")
        let error = try #require(parseError(bytes: bytes))
        #expect(error.offset == bytes.count)
        #expect(error.line == 1 && error.column == bytes.count + 1)
        #expect(error.message.contains("end of input"))
    }

    // MARK: Long arrays and wide objects

    @Test func aMillionElementArrayParsesAndPackages() throws {
        let count = 1_000_000
        var text = [UInt8]("[".utf8)
        text.reserveCapacity(count * 2 + 1)
        for i in 0 ..< count {
            text.append(UInt8(ascii: "0") + UInt8(i % 10))
            text.append(UInt8(ascii: i == count - 1 ? "]" : ","))
        }
        let value = try JSONValue(parsing: text)
        let array = try #require(value.arrayValue)
        #expect(array.count == count)
        #expect(array[123_457] == .int(7))

        // Packaging a huge list of non-objects skips every element, reported.
        let result = ClosurePackager { (_, _: JSONObject) in }.package(Array(array.prefix(100_000)))
        #expect(result.items.isEmpty)
        #expect(result.skipped.count == 100_000)
    }

    @Test func aFiftyThousandMemberObjectKeepsEveryKeyAndTheLastDuplicate() throws {
        let count = 50_000
        var text = "{"
        for i in 0 ..< count { text += "\"k\(i)\":\(i)," }
        text += "\"k0\":\"last\"}"
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(object.count == count)
        #expect(object["k0"] == "last")
        #expect(object.first?.key == "k0")  // at the first occurrence's position
        #expect(object["k49999"] == .int(49_999))
        let viewModel = ViewModel(object)
        #expect(viewModel.count == count)
    }

    // MARK: Nesting

    /// `[{"a":[{"a": ... 1 ... }]}]`, `depth` containers deep.
    static func mixedNesting(_ depth: Int) -> String {
        var open = "", close: [Character] = []
        for level in 0 ..< depth {
            open += level % 2 == 0 ? "[" : "{\"a\":"
            close.append(level % 2 == 0 ? "]" : "}")
        }
        return open + "1" + String(close.reversed())
    }

    @Test func nestingAtTheLimitWorksEverywhere() throws {
        let value = try JSONValue(parsing: Self.mixedNesting(512))
        // Written (compact and pretty), re-parsed, archived and restored.
        for options in [JSONWriter.Options.compact, .pretty] {
            let written = try JSONWriter(options: options).write(value)
            #expect(try JSONValue(parsing: written) == value)
        }
        let archive = try ArchiveEncoder().encode(.value(value)).data
        guard case .value(let restored) = try ArchiveDecoder().decode(archive) else {
            Issue.record("not a value record"); return
        }
        #expect(restored == value)
        // Packaged and read by path through all levels.
        let viewModel = ViewModel(["deep": value])
        #expect(viewModel["deep"] == value)
    }

    @Test(arguments: [513, 10_000, 1_000_000])
    func nestingBeyondTheLimitIsAPositionedError(depth: Int) throws {
        let text = Self.mixedNesting(depth)
        let error = try #require(parseError(text))
        // The 513th container opens after 256 "[" and 256 "{"a":".
        #expect(error.offset == 256 * 1 + 256 * 5)
        #expect(error.line == 1 && error.column == error.offset + 1)
        #expect(error.message.contains("maximum depth of 512"))
    }

    @Test func valuesDeeperThanTheArchiveLimitAreRefusedNotCrashing() throws {
        let deep = try JSONValue(parsing: Self.mixedNesting(600), options: .init(maximumDepth: 1000))
        #expect(throws: ArchiveError.self) { try ArchiveEncoder().encode(.value(deep)) }
    }

    // MARK: Numbers

    @Test(arguments: [
        ("9223372036854775807", JSONValue.int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .bigInteger("9223372036854775808")),
        ("-9223372036854775809", .bigInteger("-9223372036854775809")),
        ("184467440737095516150000000000", .bigInteger("184467440737095516150000000000")),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("-1.7976931348623157e308", .double(-.greatestFiniteMagnitude)),
        ("4.9e-324", .double(.leastNonzeroMagnitude)),
        ("2.2250738585072014e-308", .double(.leastNormalMagnitude)),
        ("1e-400", .double(0)),
        ("9223372036854775807.0", .double(9_223_372_036_854_775_807.0)),
        ("1e19", .double(1e19)),
    ])
    func numbersAtTheEdgesOfInt64AndDouble(text: String, expected: JSONValue) throws {
        let value = try JSONValue(parsing: text)
        #expect(value == expected)
        // Every one survives writing and archiving exactly.
        #expect(try JSONValue(parsing: JSONWriter().write(value)) == value)
        guard case .value(let restored) = try ArchiveDecoder().decode(ArchiveEncoder().encode(.value(value)).data) else {
            Issue.record("not a value"); return
        }
        #expect(restored == value)
    }

    @Test func aThousandDigitIntegerStaysExact() throws {
        let digits = "9" + String(repeating: "0", count: 999)
        #expect(try JSONValue(parsing: "[\(digits)]") == [.bigInteger(digits)])
    }

    @Test(arguments: [
        ("[1.8e308]", 1, "too large for a double"),
        ("[-1e400]", 1, "too large for a double"),
        ("[1e99999999999999999999999]", 1, "too large for a double"),
        ("[NaN]", 1, "not valid JSON"),
        ("[Infinity]", 1, "not valid JSON"),
        ("[-Infinity]", 1, ""),
        ("[-]", 2, "digit"),
        ("[1.]", 3, "digit"),
        ("[1e]", 3, "digit"),
        ("[01]", 1, "leading zeros"),
    ])
    func numbersBeyondTheRangesArePositionedErrors(text: String, offset: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.offset == offset)
        #expect(message.isEmpty || error.message.lowercased().contains(message.lowercased()), "\(error.message)")
    }

    // MARK: Memory

    /// Resident memory of this process, from /proc/self/statm, or `nil`
    /// where that does not exist.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The parsed value of a 32 MiB string holds about as much memory as the
    /// input, not a multiple of it. Measured as the resident-size growth while
    /// the value is alive; other tests run in parallel and can only add to
    /// it, so the bound is generous (4x + 64 MiB) but still catches a value
    /// stored as UTF-16 or characters, or a copy per byte. Skipped where
    /// /proc is missing.
    @Test func memoryForAHugeStringStaysProportionalToTheInput() throws {
        let size = 32 << 20
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size + 2)
        bytes[0] = UInt8(ascii: "\"")
        bytes[size + 1] = UInt8(ascii: "\"")
        guard let before = Self.residentBytes() else { return }
        let value = try JSONValue(parsing: bytes)
        guard let after = Self.residentBytes() else { return }
        withExtendedLifetime(value) {}
        guard case .string(let string) = value else { Issue.record("not a string"); return }
        #expect(string.utf8.count == size)
        let growth = after - before
        #expect(growth < 4 * size + (64 << 20), "resident memory grew \(growth >> 20) MiB for a \(size >> 20) MiB string")
    }
}
