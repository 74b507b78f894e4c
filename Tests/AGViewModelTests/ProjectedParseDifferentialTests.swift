import Foundation
import Testing
@testable import AGViewModel

/// Random specs and documents: a projected parse (`SpecPackager.parseDocument`)
/// accepts and rejects exactly what a full parse does, with the same error,
/// and packaging either gives the same managers, sections, items, skips and
/// errors, with skip-and-report and strict policies. Most specs have no
/// `items` path, so the document's kind decides what its root builds.
@Suite("Projected parse: random specs against a full parse")
struct ProjectedParseDifferentialTests {
    // MARK: Spec generation

    /// Keys as they are in documents (raw), for paths.
    static let keys = ["a", "b", "c", "id", "x", "é", "k.1", "0"]

    static func escapedKey(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch == "." || ch == "[" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    static func randomPath(_ r: inout SplitMix64, allowLeadingIndex: Bool = true) -> String {
        let count = Int.random(in: 1...3, using: &r)
        var out = ""
        for i in 0..<count {
            let index = (i == 0 && allowLeadingIndex) ? Int.random(in: 0..<4, using: &r) == 0 : Int.random(in: 0..<4, using: &r) == 0
            if index {
                out += "[\(Int.random(in: 0...2, using: &r))]"
            } else {
                if !out.isEmpty { out += "." }
                out += escapedKey(keys.randomElement(using: &r)!)
            }
        }
        return out
    }

    static func jsonString(_ s: String) -> String {
        String(decoding: try! JSONWriter().write(.string(s)), as: UTF8.self)
    }

    static let types = ["string", "int", "double", "bool", "url", "array", "object"]
    static let defaults: [String: String] = [
        "string": "\"d\"", "int": "1", "double": "1.5", "bool": "true", "url": "\"https://d.example\"",
        "array": "[]", "object": "{}",
    ]
    static let templateFormats = ["", "|uppercase", "|lowercase", "|trim", "|fixed:2", "|grouped", "|percent:1", "|date:iso", "|time"]

    static func randomField(_ r: inout SplitMix64, key: String) -> String {
        var parts = ["\"key\": \(jsonString(key))"]
        let type: String
        if Int.random(in: 0..<4, using: &r) == 0 {
            var text = ""
            for _ in 0..<Int.random(in: 1...3, using: &r) {
                if Bool.random(using: &r) { text += ["@", "-", " ", "{{x}}"].randomElement(using: &r)! }
                text += "{" + randomPath(&r) + templateFormats.randomElement(using: &r)! + "}"
            }
            parts.append("\"template\": \(jsonString(text))")
            type = Bool.random(using: &r) ? "string" : "url"
            if Bool.random(using: &r) { parts.append("\"type\": \"\(type)\"") }
        } else {
            parts.append("\"path\": \(jsonString(randomPath(&r)))")
            type = types.randomElement(using: &r)!
            parts.append("\"type\": \"\(type)\"")
        }
        let required = Int.random(in: 0..<3, using: &r) == 0
        if required {
            parts.append("\"required\": true")
        } else if Int.random(in: 0..<4, using: &r) == 0 {
            parts.append("\"default\": \(defaults[type]!)")
        } else if Int.random(in: 0..<6, using: &r) == 0 {
            parts.append("\"required\": false")
        }
        if (type == "string" || type == "url") && Int.random(in: 0..<4, using: &r) == 0 {
            parts.append("\"format\": \"\(["lowercase", "uppercase", "trim"].randomElement(using: &r)!)\"")
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    static func randomFields(_ r: inout SplitMix64, prefix: String) -> String {
        let n = Int.random(in: 1...4, using: &r)
        return "[" + (0..<n).map { randomField(&r, key: "\(prefix)\($0)") }.joined(separator: ", ") + "]"
    }

    static func randomSpec(_ r: inout SplitMix64) -> String {
        var members: [String] = []
        let shape = Int.random(in: 0..<20, using: &r)
        if shape == 0 {
            // sectionsFrom
            members.append("\"sectionsFrom\": \(jsonString(randomPath(&r)))")
            if Int.random(in: 0..<5, using: &r) != 0 { members.append("\"fields\": \(randomFields(&r, prefix: "f"))") }
        } else if shape == 1 {
            var entries: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &r) {
                var e = ["\"items\": \(jsonString(randomPath(&r)))"]
                if Bool.random(using: &r) { e.append("\"fields\": \(randomFields(&r, prefix: "s"))") }
                if Int.random(in: 0..<3, using: &r) == 0 { e.append("\"header\": \(jsonString(randomPath(&r)))") }
                if Int.random(in: 0..<3, using: &r) == 0 { e.append("\"headerFields\": \(randomFields(&r, prefix: "h"))") }
                if Int.random(in: 0..<4, using: &r) == 0 { e.append("\"scalarKey\": \"sv\"") }
                if Int.random(in: 0..<6, using: &r) == 0 { e.append("\"keyedBy\": \"kb\"") }
                if Bool.random(using: &r) { e.append("\"title\": \"T\"") }
                entries.append("{" + e.joined(separator: ", ") + "}")
            }
            members.append("\"sections\": [" + entries.joined(separator: ", ") + "]")
            if Bool.random(using: &r) { members.append("\"fields\": \(randomFields(&r, prefix: "f"))") }
            if Int.random(in: 0..<3, using: &r) == 0 { members.append("\"headerFields\": \(randomFields(&r, prefix: "h"))") }
        } else {
            // The case under review: no items path.
            if Int.random(in: 0..<8, using: &r) != 0 { members.append("\"fields\": \(randomFields(&r, prefix: "f"))") }
            if Int.random(in: 0..<5, using: &r) == 0 { members.append("\"headerFields\": \(randomFields(&r, prefix: "h"))") }
            if Int.random(in: 0..<6, using: &r) == 0 { members.append("\"header\": \(jsonString(randomPath(&r)))") }
            if Int.random(in: 0..<5, using: &r) == 0 { members.append("\"scalarKey\": \"sv\"") }
            if Int.random(in: 0..<12, using: &r) == 0 { members.append("\"keyedBy\": \"kb\"") }
            if Int.random(in: 0..<8, using: &r) == 0 { members.append("\"name\": \"n\"") }
        }
        members.shuffle(using: &r)
        return "{" + members.joined(separator: ", ") + "}"
    }

    // MARK: Document generation

    /// Raw key texts (inside quotes) that decode to the pool keys, sometimes
    /// via escapes, plus keys the spec never reads.
    static let keyTexts = [
        "a", "b", "c", "id", "x", "é", "k.1", "0", "\\u0061", "b\\u0000", "\\u00e9", "e\\u0301", "i\\u0064", "zz", "", "kb", "sv", "\\\"",
    ]
    static let scalars = [
        "0", "1", "-0", "2.5", "1e2", "-7", "12345678901234567890", "1e300", "\"1\"", "\"2.50\"", "\"true\"", "true", "false", "null",
        "\"https://a.example/p?q=1\"", "\" Mixed Case \"", "\"\"", "\"2024-03-01T10:20:30Z\"", "\"\\u00e9t\\u00e9\"", "\"not a url \\u0001\"",
        "\"é😀\"", "0.1",
    ]

    static func ws(_ r: inout SplitMix64) -> String {
        Int.random(in: 0..<5, using: &r) == 0 ? [" ", "\n", "\t ", "\r\n  "].randomElement(using: &r)! : ""
    }

    static func randomValue(_ r: inout SplitMix64, depth: Int) -> String {
        let roll = Int.random(in: 0..<10, using: &r)
        if depth >= 4 || roll < 4 { return scalars.randomElement(using: &r)! }
        if roll < 7 { return forcedObject(&r, depth: depth, maxMembers: 5) }
        let n = Int.random(in: 0...4, using: &r)
        return "[" + (0..<n).map { _ in ws(&r) + randomValue(&r, depth: depth + 1) + ws(&r) }.joined(separator: ",") + "]"
    }

    static func randomDocument(_ r: inout SplitMix64) -> [UInt8] {
        let roll = Int.random(in: 0..<20, using: &r)
        var text: String
        if roll < 9 {
            // A top-level array of mixed elements, mostly objects.
            let n = Int.random(in: 0...5, using: &r)
            text = "[" + (0..<n).map { _ -> String in
                Int.random(in: 0..<3, using: &r) == 0 ? randomValue(&r, depth: 1) : forcedObject(&r, depth: 1)
            }.joined(separator: "," + ws(&r)) + "]"
        } else if roll < 17 {
            text = forcedObject(&r, depth: 0)
        } else {
            text = randomValue(&r, depth: 3)
        }
        text = ws(&r) + text + ws(&r)
        var bytes = Array(text.utf8)
        if Int.random(in: 0..<25, using: &r) == 0 {
            // Mutate for invalid input.
            let alphabet = Array(#"{}[]:,"\ 0-1.eEtfnu"#.utf8) + [0x80, 0xC3, 0xFF, 0x00]
            for _ in 0..<Int.random(in: 1...2, using: &r) where !bytes.isEmpty {
                let i = Int.random(in: 0..<bytes.count, using: &r)
                switch Int.random(in: 0..<3, using: &r) {
                case 0: bytes[i] = alphabet.randomElement(using: &r)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &r)!, at: i)
                }
            }
        }
        return bytes
    }

    static func forcedObject(_ r: inout SplitMix64, depth: Int, maxMembers: Int = 6) -> String {
        let n = Int.random(in: 0...maxMembers, using: &r)
        var parts: [String] = []
        for _ in 0..<n {
            let key = keyTexts.randomElement(using: &r)!
            parts.append(ws(&r) + "\"\(key)\"" + ws(&r) + ":" + ws(&r) + randomValue(&r, depth: depth + 1) + ws(&r))
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    // MARK: Comparison

    static func render(_ value: JSONValue) -> String {
        (try? JSONWriter().write(value)).map { String(decoding: $0, as: UTF8.self) } ?? "<unwritable>"
    }

    static func describe<T>(_ r: Result<T, PackagingError>, _ f: (T) -> String) -> String {
        switch r {
        case .success(let v): return f(v)
        case .failure(let e): return "error: \(e)"
        }
    }

    static func managerText(_ m: (manager: Manager, skipped: [SkippedElement])) -> String {
        render(m.manager.exportJSON()) + " skipped=\(m.skipped)"
    }

    static func resultText(_ r: PackagingResult) -> String {
        "header=" + (r.header.map { render($0.exportJSON()) } ?? "nil") + " items=" + r.items.map { render($0.exportJSON()) }.joined(separator: ",")
            + " skipped=\(r.skipped)"
    }

    /// Compares one way of packaging; `nil` when the outcomes match.
    static func compare<T>(
        _ name: String, _ a: Result<T, PackagingError>, _ b: Result<T, PackagingError>,
        equal: (T, T) -> Bool, text: (T) -> String
    ) -> String? {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            return equal(x, y) ? nil : "\(name): full \(text(x)) | projected \(text(y))"
        case (.failure(let x), .failure(let y)):
            return x == y ? nil : "\(name): full error \(x) | projected error \(y)"
        default:
            return "\(name): full \(describe(a, text)) | projected \(describe(b, text))"
        }
    }

    static func sameManager(_ x: (manager: Manager, skipped: [SkippedElement]), _ y: (manager: Manager, skipped: [SkippedElement])) -> Bool {
        let ex = x.manager.exportJSON(), ey = y.manager.exportJSON()
        return ex == ey && render(ex) == render(ey) && x.skipped == y.skipped
    }

    static func sameResult(_ x: PackagingResult, _ y: PackagingResult) -> Bool {
        guard x.items.count == y.items.count, x.skipped == y.skipped, (x.header == nil) == (y.header == nil) else { return false }
        if let hx = x.header, let hy = y.header {
            if hx.exportJSON() != hy.exportJSON() || render(hx.exportJSON()) != render(hy.exportJSON()) { return false }
        }
        for (a, b) in zip(x.items, y.items) {
            let ea = a.exportJSON(), eb = b.exportJSON()
            if ea != eb || render(ea) != render(eb) { return false }
        }
        return true
    }

    /// `nil` when the full and projected parses package the same.
    static func check(specText: String, document bytes: [UInt8]) -> String? {
        guard let spec = try? PackagingSpec(data: Data(specText.utf8), source: "rand.spec.json") else { return nil }
        let packager = SpecPackager(spec: spec)
        let data = Data(bytes)
        let full = Result { () throws(JSONParseError) in try JSONParser().parse(data) }
        let projected = Result { () throws(JSONParseError) in try packager.parseDocument(data) }
        let doc: JSONValue, proj: JSONValue
        switch (full, projected) {
        case (.success(let a), .success(let b)): doc = a; proj = b
        case (.failure(let a), .failure(let b)): return a == b ? nil : "parse errors differ: full \(a) | projected \(b)"
        case (.success, .failure(let e)): return "projected rejects: \(e)"
        case (.failure(let e), .success): return "projected accepts; full says \(e)"
        }
        var problems: [String] = []
        /// Packages both documents the same way and records a difference.
        func compareBoth<T>(
            _ name: String, equal: (T, T) -> Bool, text: (T) -> String,
            _ body: (JSONValue) throws(PackagingError) -> T
        ) {
            let a = Result { () throws(PackagingError) in try body(doc) }
            let b = Result { () throws(PackagingError) in try body(proj) }
            if let problem = compare(name, a, b, equal: equal, text: text) { problems.append(problem) }
        }
        compareBoth("packageManager", equal: sameManager, text: managerText) { document throws(PackagingError) in
            try packager.packageManager(document: document)
        }
        compareBoth("packageManager strict", equal: sameManager, text: managerText) { document throws(PackagingError) in
            try packager.packageManager(document: document, policy: .strict)
        }
        compareBoth("packageSections", equal: { $0.count == $1.count && zip($0, $1).allSatisfy(sameResult) },
                    text: { $0.map(resultText).joined(separator: " / ") }) { document throws(PackagingError) in
            try packager.packageSections(document: document)
        }
        if !spec.hasSections {
            compareBoth("package(document:)", equal: sameResult, text: resultText) { document throws(PackagingError) in
                try packager.package(document: document)
            }
            compareBoth("package(document:) strict", equal: sameResult, text: resultText) { document throws(PackagingError) in
                try packager.package(document: document, policy: .strict)
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n    ")
    }

    // MARK: Tests

    @Test func randomSpecsAndDocuments() {
        var random = SplitMix64(seed: 0xA6_0B5E)
        var failures: [String] = []
        var specsWhoseKindDecides = 0
        let specCount = 600
        for i in 0..<specCount {
            let specText = Self.randomSpec(&random)
            let documents = (0..<4).map { _ in Self.randomDocument(&random) }
            guard let spec = try? PackagingSpec(data: Data(specText.utf8)) else { continue }
            if SpecPackager(spec: spec).projection.nodes[0].kindDecides { specsWhoseKindDecides += 1 }
            for document in documents {
                if let problem = Self.check(specText: specText, document: document) {
                    failures.append("case \(i)\n  spec: \(specText)\n  document: \(String(decoding: document, as: UTF8.self))\n    \(problem)")
                }
            }
            if failures.count >= 10 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // The generator really reaches the roots whose kind decides.
        #expect(specsWhoseKindDecides > specCount / 5)
    }

    /// Hand-picked shapes around the root: index-first paths, templates
    /// reading `[0]`, header, scalarKey, sections.
    @Test(arguments: [
        #"{"fields": [{"key": "f", "path": "[0].a", "type": "string", "required": true}, {"key": "g", "path": "a", "type": "int"}]}"#,
        #"{"fields": [{"key": "f", "template": "{[0]}-{a}"}]}"#,
        #"{"fields": [{"key": "f", "path": "[1]", "type": "array", "required": true}]}"#,
        #"{"fields": [{"key": "f", "path": "a", "type": "object", "required": true}], "scalarKey": "a"}"#,
        #"{"fields": [{"key": "f", "path": "a", "type": "int", "required": true}], "header": "[0]"}"#,
        #"{"fields": [{"key": "f", "path": "a", "type": "int", "required": true}], "headerFields": [{"key": "h", "path": "[0]", "type": "object", "required": true}]}"#,
        #"{"sections": [{"items": "[0]", "fields": [{"key": "f", "path": "a", "type": "int"}]}, {"items": "a", "header": "[1]"}]}"#,
        #"{"sectionsFrom": "[0]", "fields": [{"key": "f", "path": "a", "type": "int"}]}"#,
    ])
    func handPicked(specText: String) {
        let docs = [
            #"[{"a": 1, "b": 2}, [1, 2, {"a": 3}], 5, null, {"a": {"x": [1, 2]}}, "s"]"#,
            #"{"a": [1, {"a": 2}], "b": {"c": 3}, "0": 4}"#,
            #"{"a": 1, "a": {"b": 2}, "\u0061": [3]}"#,
            #"[[{"a": 1}], [], {}]"#,
            "[]", "{}", "3", "null", "\"s\"",
        ]
        for doc in docs {
            if let problem = Self.check(specText: specText, document: Array(doc.utf8)) {
                Issue.record("spec \(specText) doc \(doc): \(problem)")
            }
        }
    }

    /// A header read at a node whose header fields all start with an index
    /// still reads an object there.
    @Test(arguments: [
        #"{"items": "i", "header": "h", "headerFields": [{"key": "k", "path": "[0]", "type": "int"}]}"#,
        #"{"header": "h", "headerFields": [{"key": "k", "path": "[0]", "type": "int"}], "fields": [{"key": "f", "path": "a", "type": "int"}]}"#,
        #"{"items": "i", "headerFields": [{"key": "k", "path": "[0]", "type": "int"}]}"#,
        #"{"sections": [{"items": "i", "headerFields": [{"key": "k", "path": "[0]", "type": "int"}]}]}"#,
        #"{"sections": [{"items": "[0].x", "headerFields": [{"key": "k", "path": "[2]", "type": "object"}]}]}"#,
    ])
    func headerReadAtAnIndexOnlyNode(specText: String) throws {
        let spec = try PackagingSpec(data: Data(specText.utf8))
        let packager = SpecPackager(spec: spec)
        #expect(packager.projection.nodes.allSatisfy { !$0.kindDecides })
        for doc in [#"{"h": [1, 2, 3], "i": []}"#, #"[1, 2, 3, 4, 5]"#] {
            let data = Data(doc.utf8)
            if let problem = Self.check(specText: specText, document: Array(data)) {
                Issue.record("spec \(specText) doc \(doc): \(problem)")
            }
        }
    }
}
