import Foundation
import Testing
import AGViewModel

@Suite("Building JSON values from Swift and Foundation")
struct JSONValueBuildingTests {
    @Test func swiftCollectionsBecomeJSON() {
        #expect(JSONValue(["a", "b"]) == ["a", "b"])
        #expect(JSONValue([1, 2, 3]) == [1, 2, 3])
        #expect(JSONValue([[1], [2, 3]]) == [[1], [2, 3]])
        #expect(JSONValue(["n": 1, "m": 2]) == ["m": 2, "n": 1])
        #expect(JSONValue(["n": 1, "m": 2]).objectValue?.keys == ["m", "n"])  // sorted
        #expect(JSONValue(["x": [1.5], "y": []]) == ["x": [1.5], "y": []])
        let optionals: [Int?] = [nil, 1]
        #expect(JSONValue(optionals) == [nil, 1])
        #expect(JSONValue("text") == "text")
        #expect(JSONValue(true) == true)
        #expect(JSONValue(Float(0.1)) == 0.1)
        #expect(JSONValue(Int8(-5)) == -5)
        // Mixed literals need no `try` and no cast.
        #expect(JSONValue(["title": "Swift", "tags": ["a", "b"], "n": 1]) == ["n": 1, "tags": ["a", "b"], "title": "Swift"])
        #expect(JSONValue([1, "two", nil]) == [1, "two", nil])
        let list: [JSONValue] = [1, 2]
        #expect(JSONValue(list) == [1, 2])
    }

    @Test func mapWithTheInitializerIsNotAmbiguous() {
        let strings: [JSONValue] = ["a", "b"].map(JSONValue.init)
        let numbers = [1, 2].map(JSONValue.init)
        let doubles = [0.5].map(JSONValue.init)
        #expect(strings == ["a", "b"])
        #expect(numbers == [1, 2])
        #expect(doubles == [0.5])
    }

    @Test func unsignedSixtyFourBitIntegersAreExact() throws {
        let max = JSONValue(UInt64.max)
        #expect(max == .bigInteger("18446744073709551615"))
        #expect(try max.jsonString() == "18446744073709551615")
        #expect(JSONValue(UInt64(5)) == .int(5))
        let parsed = try JSONValue(parsing: "[18446744073709551615, 9223372036854775808]")
        #expect(parsed == [JSONValue(UInt64.max), JSONValue(UInt64(1) << 63)])
    }

    @Test func foundationObjectsBecomeJSON() throws {
        let any: [String: Any] = ["n": 1, "s": "x", "f": 1.5, "b": true, "z": NSNull(), "a": [1, "two"]]
        let json = try JSONValue(any)
        #expect(json == ["a": [1, "two"], "b": true, "f": 1.5, "n": 1, "s": "x", "z": nil])
        let dictionary: NSDictionary = ["k": NSNumber(value: 7), "t": NSNumber(value: true), "arr": NSArray(array: [NSString(string: "s")])]
        #expect(try JSONValue(dictionary) == ["arr": ["s"], "k": 7, "t": true])
        #expect(try JSONValue(jsonObject: NSNumber(value: false)) == false)
        #expect(try JSONValue(jsonObject: NSNumber(value: 0)) == 0)
        #expect(try JSONValue(jsonObject: NSNumber(value: 1)) == 1)
        #expect(try JSONValue(jsonObject: NSNumber(value: UInt64.max)) == JSONValue(UInt64.max))
        // A float (from UserDefaults, Core Data) converts as a Swift Float does.
        #expect(try JSONValue(NSNumber(value: Float(0.1))) == 0.1)
        #expect(try JSONValue(jsonObject: NSNumber(value: Float(0.1))) == JSONValue(Float(0.1)))
        #expect(try JSONValue(NSNumber(value: 0.1)) == 0.1)
        let optional: String? = nil
        #expect(try JSONValue(["o": optional as Any]) == ["o": nil])
    }

    @Test func booleansAndNumbersStayApartThroughJSONSerialization() throws {
        let data = Data(#"[true, false, 1, 0, 1.5, 10000000000000000000, "s", null, {"k": [true, 1]}]"#.utf8)
        let object = try JSONSerialization.jsonObject(with: data)
        let bridged = try JSONValue(object)
        #expect(bridged == (try JSONValue(parsing: data)))
        guard case .bool = bridged[0], case .int = bridged[2] else {
            Issue.record("expected a boolean then an integer, got \(bridged)")
            return
        }
    }

    @Test func nonJSONValuesAreReportedWithTheirPath() {
        let value: [String: Any] = ["items": [1, ["when": Date()] as [String: Any]]]
        #expect(throws: JSONConversionError.self) { try JSONValue(value) }
        do {
            _ = try JSONValue(value)
        } catch {
            #expect(error.path == "items[1].when")
            #expect(error.typeName == "Date")
            #expect(error.description == "items[1].when: Date is not a JSON value")
        }
        do {
            _ = try JSONValue(["x": Double.nan] as [String: Any])
            Issue.record("NaN accepted")
        } catch {
            #expect(error.description.contains("not a finite number"))
        }
        do {
            _ = try JSONValue(NSDictionary(dictionary: [1: "a"]))
            Issue.record("a number key accepted")
        } catch {
            #expect(error.description.contains("not a string"))
        }
    }

    @Test func aDecimalThatIsNotANumberIsRefused() throws {
        for value in [NSDecimalNumber.notANumber as Any, Decimal.nan as Any, ["n": Decimal.nan] as [String: Any]] {
            #expect(throws: JSONConversionError.self, "\(value)") { try JSONValue(value) }
        }
        #expect(try JSONValue(NSDecimalNumber(string: "12345678901234567890")) == .bigInteger("12345678901234567890"))
    }

    @Test func arraysAndObjectsOfTheValueTypesConvert() throws {
        let document = try JSONValue(parsing: #"{"tags": ["a", "b"], "user": {"id": 1}}"#)
        let tags = try #require(document["tags"]?.arrayValue)
        let user = try #require(document["user"]?.objectValue)
        #expect(try JSONValue(tags as Any) == ["a", "b"])
        #expect(try JSONValue(["tags": tags, "user": user, "n": 1] as [String: Any]) == document.merging(["n": 1]))
        #expect(tags.jsonValue == ["a", "b"])
    }

    @Test func backToFoundation() throws {
        let json: JSONValue = ["n": 1, "d": 1.5, "s": "x", "b": true, "z": nil, "a": [1, 2],
                               "big": JSONValue(UInt64.max)]
        let object = json.jsonObject
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        #expect(try JSONValue(parsing: data) == json)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["s"] as? String == "x")
        #expect(dictionary["big"] as? UInt64 == UInt64.max)
        #expect(dictionary["z"] is NSNull)
        #expect(try JSONValue(object) == json)
    }

    /// Integers beyond what `NSDecimalNumber` holds stay numbers while a
    /// double holds them, and `JSONSerialization` writes valid JSON for
    /// every one.
    @Test func hugeIntegersBackToFoundation() throws {
        for digits in [39, 165, 170, 200, 309, 310, 400] {
            let text = "1" + String(repeating: "0", count: digits - 1)
            let json = try JSONValue(parsing: "[\(text)]")
            let object = json.jsonObject
            let data = try JSONSerialization.data(withJSONObject: object)
            let back = try JSONValue(parsing: data)
            guard case .array(let elements) = back, let element = elements.first else {
                Issue.record("\(digits) digits: \(back)")
                continue
            }
            if digits <= 309 {
                #expect(element.doubleValue.map { abs($0 / Double(text)! - 1) < 1e-15 } == true, "\(digits) digits: \(element)")
            } else {
                #expect(element == .string(text), "\(digits) digits")
            }
        }
    }

    @Test func oneHundredTwentyEightBitIntegersAreExact() throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        #expect(JSONValue(Int128(5)) == 5)
        #expect(JSONValue(Int128.min) == .bigInteger("-170141183460469231731687303715884105728"))
        #expect(JSONValue(UInt128.max) == .bigInteger("340282366920938463463374607431768211455"))
        #expect(try JSONValue(["n": UInt128.max] as [String: Any]) == ["n": .bigInteger("340282366920938463463374607431768211455")])
    }

    /// A class of the user's own that conforms converts inside `Any` values
    /// as it does alone, while Foundation's classes keep their own rules.
    @Test func classesThatConformConvertInsideAny() throws {
        final class Badge: JSONRepresentable {
            var jsonValue: JSONValue { ["count": 3] }
        }
        #expect(JSONValue(Badge()) == ["count": 3])
        #expect(try JSONValue(["badge": Badge()] as [String: Any]) == ["badge": ["count": 3]])
        #expect(try JSONValue([Badge(), NSNumber(value: true), NSNumber(value: 1), NSString(string: "s")] as [Any])
            == [["count": 3], true, 1, "s"])
    }
}

extension JSONValueBuildingTests {
    /// A dictionary of values becomes an object with its keys in UTF-8
    /// byte order, whatever order the dictionary has.
    @Test func aDictionaryOfValuesBecomesAnObjectWithSortedKeys() {
        var members: [String: JSONValue] = [:]
        for i in 0..<30 { members["key\(i)"] = .int(Int64(i)) }
        members["B"] = "upper"
        let keys = JSONValue(members).objectValue?.keys
        #expect(keys == members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(keys?.first == "B")
    }

    /// A key that is not a string is reported at the path of its dictionary.
    @Test func aNonStringKeyIsReportedAtItsDictionarysPath() {
        let value: [String: Any] = ["outer": ["inner": NSDictionary(dictionary: [1: "a"])] as [String: Any]]
        let error = #expect(throws: JSONConversionError.self) { try JSONValue(value) }
        #expect(error?.path == "outer.inner")
        #expect(error?.description.hasPrefix("outer.inner: ") == true)
    }

    /// An integer between `Int64.max` and `UInt64.max` stays exact through
    /// property-list coders, which hold it as an unsigned integer.
    @Test func unsignedIntegersStayExactThroughPropertyLists() throws {
        for text in ["18446744073709551615", "9223372036854775808"] {
            let value: JSONValue = ["n": .bigInteger(text)]
            let data = try PropertyListEncoder().encode(value)
            let decoded = try PropertyListDecoder().decode(JSONValue.self, from: data)
            #expect(decoded == value, "\(text)")
            #expect(decoded["n"] == .bigInteger(text), "\(text)")
        }
    }

    /// A value that has no JSON form itself is reported as "value".
    @Test func aTopLevelNonJSONValueIsDescribedAsTheValue() {
        do {
            _ = try JSONValue(Date() as Any)
            Issue.record("a Date accepted")
        } catch {
            #expect(error.path == JSONPath([]))
            #expect(error.description == "value: Date is not a JSON value")
        }
    }
}

extension JSONValueBuildingTests {
    /// Integers go back to Foundation as integers, so they come back as
    /// integers and `JSONSerialization` writes them without a fraction.
    @Test func integersGoBackToFoundationAsIntegers() throws {
        let object = JSONValue.int(42).jsonObject
        #expect(object as? Int == 42)
        let back = try JSONValue(object)
        guard case .int(42) = back else {
            Issue.record("expected the integer 42, got \(back)")
            return
        }
    }

    /// An unsigned integer beyond `Int64` goes back to Foundation as a
    /// `UInt64`, so it stays exact through a property list.
    @Test func unsignedIntegersStayExactThroughPropertyListSerialization() throws {
        let json: JSONValue = ["n": JSONValue(UInt64.max)]
        let object = json.jsonObject
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["n"] is UInt64)
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let back = try JSONValue(PropertyListSerialization.propertyList(from: data, format: nil))
        #expect(back == json)
        #expect(back["n"]?.uint64Value == UInt64.max)
    }

    /// A NaN or an infinity inside a Swift array or dictionary is refused
    /// with the path of the element, as it is inside `[Any]`.
    @Test func nonFiniteNumbersInsideSwiftCollectionsAreRefusedWithTheirPath() {
        let inArray = #expect(throws: JSONConversionError.self) { try JSONValue(["x": [1.0, Double.nan]] as [String: Any]) }
        #expect(inArray?.path == "x[1]")
        let inDictionary = #expect(throws: JSONConversionError.self) { try JSONValue(["y": ["z": Double.nan]] as [String: Any]) }
        #expect(inDictionary?.path == "y.z")
    }

    /// Infinities have no JSON form, whatever their sign.
    @Test func infinitiesAreRefused() {
        for value in [Double.infinity, -Double.infinity] {
            let error = #expect(throws: JSONConversionError.self, "\(value)") { try JSONValue(["n": value] as [String: Any]) }
            #expect(error?.path == "n")
            #expect(error?.description.contains("not a finite number") == true)
            #expect(throws: JSONConversionError.self, "\(value)") { try JSONValue(NSNumber(value: value)) }
        }
    }

    /// A value after another member of its dictionary is reported at its
    /// own path, not under the member before it.
    @Test func aLaterMemberIsReportedAtItsOwnPath() {
        let error = #expect(throws: JSONConversionError.self) { try JSONValue(["a": 1, "b": ["c": 2], "d": Date()] as [String: Any]) }
        #expect(error?.path == "d")
        #expect(error?.description == "d: Date is not a JSON value")
    }

    /// A decimal number with a fraction becomes a double, not integer text.
    @Test func decimalFractionsBecomeDoubles() throws {
        for value in [NSDecimalNumber(string: "1.5") as Any, Decimal(string: "-2.25")! as Any] {
            let json = try JSONValue(value)
            guard case .double(let d) = json else {
                Issue.record("expected a double, got \(json)")
                continue
            }
            #expect(d == 1.5 || d == -2.25)
        }
    }
}
