import AGViewModel
import Foundation

/// The usual Swift way to hold arbitrary JSON with `Codable`: the peer for
/// `JSONDecoder`/`JSONEncoder` measurements.
enum AnyJSON: Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([AnyJSON].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

/// `json`: parse and write throughput of the JSON core against Foundation.
enum JSONBenchmarks {
    static let group = BenchmarkGroup(name: "json") { context in
        var results: [BenchmarkResult] = []
        for url in context.inputs {
            let data = try Data(contentsOf: url)
            let name = url.lastPathComponent
            let bytes = [UInt8](data)
            let parser = JSONParser()
            let writer = JSONWriter()
            let ourValue = try parser.parse(data)
            let foundationObject = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let anyJSON = try JSONDecoder().decode(AnyJSON.self, from: data)
            let outputBytes = Double(try writer.write(ourValue).count)
            let inputBytes = Double(bytes.count)

            let parseOurs = { blackHole(try bytes.withUnsafeBytes { try parser.parse($0) }) }
            let parseFoundation = { blackHole(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) }
            let writeFoundation = { try JSONSerialization.data(withJSONObject: foundationObject, options: [.fragmentsAllowed]) }
            // A writer's rate is in its own output bytes, which differ
            // between writers (JSONSerialization writes `/` as `\/`).
            let serializationOutputBytes = Double(try writeFoundation().count)
            let encoderOutputBytes = Double(try JSONEncoder().encode(anyJSON).count)

            func compare(_ benchmark: String, peer: String, bytes: Double, peerBytes: Double? = nil,
                         ours: () throws -> Void, peerBody: () throws -> Void) throws {
                let oursReps = try repetitions(ours)
                let peerReps = try repetitions(peerBody)
                let t = try measureInterleaved(
                    runs: context.runs,
                    ours: { for _ in 0..<oursReps { try ours() } },
                    peer: { for _ in 0..<peerReps { try peerBody() } })
                results.append(BenchmarkResult(
                    benchmark: benchmark, input: name, unit: "MB/s",
                    ours: bytes * Double(oursReps) / t.ours / 1e6,
                    peer: peer,
                    peerValue: (peerBytes ?? bytes) * Double(peerReps) / t.peer / 1e6))
            }

            try compare("parse", peer: "JSONSerialization", bytes: inputBytes, ours: parseOurs, peerBody: parseFoundation)
            // The other parse rows parse the same document again and again
            // on one thread, so our parser finds its keys and object shapes
            // kept from the parse before. Here each parse starts as a
            // thread's first: both sides drop the thread's parse caches.
            try compare("parse, first on the thread", peer: "JSONSerialization", bytes: inputBytes,
                        ours: { JSONParser.discardThreadCaches(); try parseOurs() },
                        peerBody: { JSONParser.discardThreadCaches(); try parseFoundation() })
            try compare("parse", peer: "JSONDecoder (AnyJSON)", bytes: inputBytes, ours: parseOurs,
                        peerBody: { blackHole(try JSONDecoder().decode(AnyJSON.self, from: data)) })
            try compare("write", peer: "JSONSerialization.data", bytes: outputBytes, peerBytes: serializationOutputBytes,
                        ours: { blackHole(try writer.write(ourValue)) },
                        peerBody: { blackHole(try writeFoundation()) })
            try compare("write", peer: "JSONEncoder (AnyJSON)", bytes: outputBytes, peerBytes: encoderOutputBytes,
                        ours: { blackHole(try writer.write(ourValue)) },
                        peerBody: { blackHole(try JSONEncoder().encode(anyJSON)) })
            results += try JSONAppTaskBenchmark.results(data: data, name: name, runs: context.runs)
        }
        return results
    }

    /// How many calls make one timed sample last about 20 ms, so fast
    /// operations are not lost in timer and scheduling noise.
    static func repetitions(_ body: () throws -> Void) throws -> Int {
        let once = try seconds(body)
        return max(1, min(1000, Int(0.02 / max(once, 1e-7))))
    }
}
