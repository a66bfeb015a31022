import Foundation
import JSONSupport
import ProtoJSON
import SystemSupport
import Testing
import TestSupport

/// The reference implementation: Python's `protobuf` package (`json_format`, `SerializeToString`)
/// run by `Resources/reference.py` over the same descriptor set, compiled from `Resources/protos`
/// with `python -m grpc_tools.protoc` once per test process. scripts/install-dependencies installs
/// both packages; without them the conformance tests fail and say so.
struct Reference: Sendable {
    let directory: TemporaryDirectory
    let python: String
    let protoset: Data
    let pool: DescriptorPool

    /// What a conversion is asked to do.
    enum Operation: Sendable {
        /// JSON text in.
        case parse(String)
        /// Binary in.
        case print([UInt8])
    }

    struct Case: Sendable, CustomStringConvertible {
        let type: String
        let operation: Operation
        var emitDefaults = false

        var description: String {
            switch operation {
            case .parse(let text): "\(type) from JSON \(text)\(emitDefaults ? " (emitting defaults)" : "")"
            case .print(let bytes): "\(type) from binary \(HexText.string(bytes))\(emitDefaults ? " (emitting defaults)" : "")"
            }
        }
    }

    /// A conversion's outcome: the message written back in binary (deterministically: map entries
    /// in key order) and as JSON, or why it was refused.
    enum Outcome: Sendable {
        case converted(bytes: [UInt8], json: String)
        case refused(String)

        var isRefused: Bool { if case .refused = self { true } else { false } }
    }

    static let shared: Result<Reference, ReferenceUnavailable> = Result { () throws(ReferenceUnavailable) in try Reference() }

    /// The reference, or a failed expectation saying why there is none.
    static func require() throws -> Reference {
        switch shared {
        case .success(let reference): return reference
        case .failure(let error):
            Issue.record("\(error)")
            throw error
        }
    }

    private init() throws(ReferenceUnavailable) {
        let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let python = search.map({ "\($0)/python3" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ReferenceUnavailable("python3 is not on PATH")
        }
        self.python = python
        guard let protos = Bundle.module.url(forResource: "Resources/protos", withExtension: nil) else {
            throw ReferenceUnavailable("the test protos are not among the test bundle's resources")
        }
        do {
            directory = try TemporaryDirectory(prefix: "protojson-reference")
        } catch {
            throw ReferenceUnavailable("no temporary folder: \(error)")
        }
        let probe = Self.run(python, ["-c", "import google.protobuf, grpc_tools"], in: directory.path)
        guard probe.status == 0 else {
            throw ReferenceUnavailable("Python's protobuf and grpcio-tools packages are missing (scripts/install-dependencies installs them): \(probe.errors)")
        }
        let files = (FileManager.default.enumerator(atPath: protos.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".proto") }.sorted()
        let output = directory.url.appendingPathComponent("all.protoset").path
        let compiled = Self.run(
            python, ["-m", "grpc_tools.protoc", "-I\(protos.path)", "--include_imports", "--descriptor_set_out=\(output)"] + files, in: protos.path)
        guard compiled.status == 0, let protoset = FileManager.default.contents(atPath: output) else {
            throw ReferenceUnavailable("grpc_tools.protoc could not compile the test protos: \(compiled.errors)")
        }
        self.protoset = protoset
        do {
            pool = try DescriptorPool(protoset: protoset)
        } catch {
            throw ReferenceUnavailable("the protoc-compiled test protos do not make a pool: \(error)")
        }
    }

    private static func run(_ program: String, _ arguments: [String], in directory: String) -> (status: Int32, stdout: Data, errors: String) {
        do {
            let result = try ChildProcess(program, arguments, environment: ProcessInfo.processInfo.environment, directory: directory).collect()
            return (result.status, result.stdout, result.errors)
        } catch {
            return (-1, Data(), "\(error)")
        }
    }

    /// What the reference made of a case and what it says of ours.
    struct Verdict: Sendable {
        let outcome: Outcome
        /// A map is set somewhere in the message: the order of its entries is unspecified.
        var hasMaps = false
        /// Our bytes read, by the reference, as a message equal to its own.
        var sameBytes: Bool?
        /// Our JSON reads, by the reference, as a message equal to its own.
        var sameJSON: Bool?
    }

    /// What the reference makes of each case (one Python process for them all).
    func outcomes(_ cases: [Case]) throws -> [Outcome] {
        try verdicts(cases, ours: nil).map(\.outcome)
    }

    /// What the reference makes of each case, and of our outcome for it.
    func verdicts(_ cases: [Case], ours: [Outcome]?) throws -> [Verdict] {
        let input: [JSONValue] = cases.enumerated().map { index, testCase in
            var object: JSONObject = ["type": .string(testCase.type), "emitDefaults": .bool(testCase.emitDefaults)]
            if case .converted(let bytes, let json)? = ours?[index] {
                object["ours"] = ["hex": .string(HexText.string(bytes)), "json": .string(json)]
            }
            switch testCase.operation {
            case .parse(let text):
                object["op"] = "parse"
                object["input"] = .string(text)
            case .print(let bytes):
                object["op"] = "print"
                object["input"] = .string(HexText.string(bytes))
            }
            return .object(object)
        }
        let casesFile = "cases-\(UUID().uuidString).json"
        try directory.write(casesFile, JSONValue.array(input).compactText)
        guard let script = Bundle.module.url(forResource: "Resources/reference", withExtension: "py") else {
            throw ReferenceUnavailable("reference.py is not among the test bundle's resources")
        }
        let result = Self.run(python, [script.path, directory.url.appendingPathComponent("all.protoset").path, casesFile], in: directory.path)
        guard result.status == 0, case .array(let answers) = try JSONValue.parse(result.stdout), answers.count == cases.count else {
            throw ReferenceUnavailable("reference.py failed (status \(result.status)): \(result.errors)")
        }
        return answers.map { answer in
            guard answer["ok"] == .bool(true) else { return Verdict(outcome: .refused(answer["error"]?.stringValue ?? "?")) }
            return Verdict(
                outcome: .converted(bytes: HexText.bytes(answer["hex"]?.stringValue ?? ""), json: answer["json"]?.stringValue ?? ""),
                hasMaps: answer["hasMaps"] == .bool(true), sameBytes: answer["sameBytes"]?.boolValue, sameJSON: answer["sameJSON"]?.boolValue)
        }
    }

    /// What ProtoJSON makes of a case, the same way.
    func ours(_ testCase: Case) -> Outcome {
        do {
            let type = try pool.messageType(named: testCase.type)
            let message: ProtoMessage
            switch testCase.operation {
            case .parse(let text): message = try pool.message(fromJSONText: text, as: type)
            case .print(let bytes): message = try pool.decode(bytes, as: type)
            }
            let json = try pool.json(message, options: ProtoJSONOptions(emitDefaults: testCase.emitDefaults))
            return .converted(bytes: pool.encode(message), json: json.compactText)
        } catch {
            return .refused("\(error)")
        }
    }

    /// Checks every case against the reference: both refuse, or both give the same bytes and the
    /// same JSON, and the reference reads our bytes and our JSON as the message it made itself.
    /// JSON is compared by structure (members in any order, numbers by value: the reference writes
    /// `1.0` where Go and C++ write `1`, and floats from 6 digits up where we write the fewest
    /// digits that read back); bytes exactly, except for the order of map entries, which protobuf
    /// leaves unspecified (the reference's differs with the insertion order). Each case the
    /// reference converted from JSON is then also read back from the reference's bytes.
    func check(_ cases: [Case], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var followUps: [Case] = []
        let ours = cases.map(self.ours)
        for (index, verdict) in try verdicts(cases, ours: ours).enumerated() {
            compare(cases[index], ours[index], verdict, sourceLocation: sourceLocation)
            if case .parse = cases[index].operation, case .converted(let bytes, _) = verdict.outcome {
                followUps.append(Case(type: cases[index].type, operation: .print(bytes), emitDefaults: cases[index].emitDefaults))
            }
        }
        let oursAgain = followUps.map(self.ours)
        for (index, verdict) in try verdicts(followUps, ours: oursAgain).enumerated() {
            compare(followUps[index], oursAgain[index], verdict, sourceLocation: sourceLocation)
        }
    }

    private func compare(_ testCase: Case, _ ours: Outcome, _ verdict: Verdict, sourceLocation: SourceLocation) {
        switch (ours, verdict.outcome) {
        case (.refused, .refused): break
        case (.refused(let why), .converted(_, let json)):
            Issue.record("\(testCase): we refused (\(why)); the reference converted it to \(json)", sourceLocation: sourceLocation)
        case (.converted(_, let json), .refused(let why)):
            Issue.record("\(testCase): we converted it to \(json); the reference refused (\(why))", sourceLocation: sourceLocation)
        case (.converted(let ourBytes, let ourJSON), .converted(let theirBytes, let theirJSON)):
            if verdict.sameBytes != true {
                Issue.record("\(testCase): the reference reads our bytes \(HexText.string(ourBytes)) as another message", sourceLocation: sourceLocation)
            }
            if verdict.sameJSON != true {
                Issue.record("\(testCase): the reference reads our JSON \(ourJSON) as another message", sourceLocation: sourceLocation)
            }
            if ourBytes != theirBytes, !verdict.hasMaps {
                Issue.record(
                    "\(testCase): bytes differ: ours \(HexText.string(ourBytes)), the reference's \(HexText.string(theirBytes))", sourceLocation: sourceLocation)
            }
            if !Self.equivalent(ourJSON, theirJSON) {
                Issue.record("\(testCase): JSON differs: ours \(ourJSON), the reference's \(theirJSON)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Whether two JSON texts say the same: members in any order, numbers by value.
    static func equivalent(_ a: String, _ b: String) -> Bool {
        guard let left = try? JSONValue.parse(a), let right = try? JSONValue.parse(b) else { return false }
        return equivalent(left, right)
    }

    static func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            // A float the reference writes with more digits than needed reads as the same float.
            return Double(x) == Double(y) || (Float(x).map { $0.isFinite && $0 == Float(y) } ?? false)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { member in y[member.key].map { equivalent(member.value, $0) } ?? false }
        default: return a == b
        }
    }
}

struct ReferenceUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "the reference implementation is unavailable: \(description)" }
}

/// Bytes as lower-case hex and back.
enum HexText {
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }
}
