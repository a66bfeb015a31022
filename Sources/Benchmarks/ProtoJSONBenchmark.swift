import ArgumentParser
import Foundation
import JSONSupport
import ProtoJSON
import SwiftProtobuf

/// `apiexplorer-bench protojson`: the message codec by descriptor (ProtoJSON) on a route-guide
/// `Feature` and on a ~1 MB message of repeated nested messages: binary read and written, and
/// binary to JSON text and back.
struct ProtoJSONBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protojson",
        abstract: "Converts protobuf messages by descriptor: a route-guide Feature and a ~1 MB batch, binary and JSON both ways.")

    @Option(help: "Size of the large message in bytes (approximately).")
    var bytes = 1_000_000

    @Option(help: "Timed runs of each conversion (after one warm-up).")
    var runs = 10

    @Option(help: "Conversions of the small Feature per timed run.")
    var iterations = 20_000

    func validate() throws {
        guard bytes > 0, runs > 0, iterations > 0 else { throw ValidationError("--bytes, --runs and --iterations must be positive.") }
    }

    func run() throws {
        warnIfDebugBuild()
        let pool = try DescriptorPool(files: Google_Protobuf_FileDescriptorSet(textFormatString: Self.descriptors).file)
        let feature = try pool.messageType(named: "routeguide.Feature")
        let featureJSON = #"{"name": "Berkshire Valley Management Area Trail, Jefferson, NJ, USA", "location": {"latitude": 409146138, "longitude": -746188906}}"#
        let featureBytes = try pool.encodeJSON(featureJSON, as: feature)
        print("protojson: a route-guide Feature (\(featureBytes.count) bytes), \(iterations) conversions a run")
        try measure("binary → message", count: iterations, size: featureBytes.count) { _ = try pool.decode(featureBytes, as: feature) }
        let featureMessage = try pool.decode(featureBytes, as: feature)
        try measure("message → binary", count: iterations, size: featureBytes.count) { _ = pool.encode(featureMessage) }
        try measure("binary → JSON text", count: iterations, size: featureBytes.count) { _ = try pool.decodeToJSON(featureBytes, as: feature).compactText }
        try measure("JSON text → binary", count: iterations, size: featureBytes.count) { _ = try pool.encodeJSON(featureJSON, as: feature) }

        let batch = try pool.messageType(named: "bench.Batch")
        let batchJSON = Self.batchJSON(bytes: bytes)
        let batchBytes = try pool.encodeJSON(batchJSON, as: batch)
        print("a batch of \(Self.count(bytes: bytes)) observations: \(batchBytes.count) bytes binary, \(batchJSON.utf8.count) bytes JSON")
        try measure("binary → message", count: 1, size: batchBytes.count) { _ = try pool.decode(batchBytes, as: batch) }
        let batchMessage = try pool.decode(batchBytes, as: batch)
        try measure("message → binary", count: 1, size: batchBytes.count) { _ = pool.encode(batchMessage) }
        try measure("binary → JSON text", count: 1, size: batchBytes.count) { _ = try pool.decodeToJSON(batchBytes, as: batch).compactText }
        try measure("JSON text → binary", count: 1, size: batchBytes.count) { _ = try pool.encodeJSON(batchJSON, as: batch) }
    }

    /// Times `count` runs of `body`, `runs` times: the median per conversion, and binary bytes a second.
    private func measure(_ label: String, count: Int, size: Int, _ body: () throws -> Void) throws {
        let clock = ContinuousClock()
        var samples = Measurements()
        for run in 0...runs {
            let start = clock.now
            for _ in 0..<count { try body() }
            if run > 0 { samples.add((clock.now - start).nanoseconds / Double(count)) }
        }
        let megabytesPerSecond = Double(size) / 1_000_000 / (samples.median / 1e9)
        print("  \(label.padding(toLength: 20, withPad: " ", startingAt: 0)) median \(formatNanoseconds(samples.median)), min \(formatNanoseconds(samples.minimum)) (\(String(format: "%.0f", megabytesPerSecond)) MB/s of binary)")
    }

    static func observation(_ index: Int) -> String {
        let values = (0..<8).map { "\(Double(index % 97) * 0.25 + Double($0))" }.joined(separator: ",")
        return #"{"id":"obs-\#(index)","at":"\#(1_700_000_000_000 + index)","values":[\#(values)],"labels":{"host":"node-\#(index % 16)","zone":"eu-\#(index % 3)"},"#
            + #""where":{"latitude":\#(400_000_000 + index),"longitude":\#(-740_000_000 - index)},"kind":"\#(["GAUGE", "COUNTER", "HISTOGRAM"][index % 3])","#
            + #""blob":"AAECAwQFBgcICQ==","feature":{"name":"feature \#(index)","location":{"latitude":\#(index),"longitude":\#(-index)}}}"#
    }

    /// An observation is ~170 bytes in binary.
    static func count(bytes: Int) -> Int { max(1, bytes / 170) }

    static func batchJSON(bytes: Int) -> String {
        #"{"observations":["# + (0..<count(bytes: bytes)).map(observation).joined(separator: ",") + "]}"
    }

    /// The route guide's messages and a batch of observations, as `protoc` would describe them.
    static let descriptors = """
        file {
          name: "routeguide.proto" package: "routeguide" syntax: "proto3"
          message_type {
            name: "Point"
            field { name: "latitude" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "latitude" }
            field { name: "longitude" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "longitude" }
          }
          message_type {
            name: "Feature"
            field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "name" }
            field { name: "location" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".routeguide.Point" json_name: "location" }
          }
        }
        file {
          name: "bench.proto" package: "bench" dependency: "routeguide.proto" syntax: "proto3"
          message_type {
            name: "Observation"
            field { name: "id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "id" }
            field { name: "at" number: 2 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "at" }
            field { name: "values" number: 3 label: LABEL_REPEATED type: TYPE_DOUBLE json_name: "values" }
            field { name: "labels" number: 4 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".bench.Observation.LabelsEntry" json_name: "labels" }
            field { name: "where" number: 5 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".routeguide.Point" json_name: "where" }
            field { name: "kind" number: 6 label: LABEL_OPTIONAL type: TYPE_ENUM type_name: ".bench.Kind" json_name: "kind" }
            field { name: "blob" number: 7 label: LABEL_OPTIONAL type: TYPE_BYTES json_name: "blob" }
            field { name: "feature" number: 8 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".routeguide.Feature" json_name: "feature" }
            nested_type {
              name: "LabelsEntry"
              field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "key" }
              field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "value" }
              options { map_entry: true }
            }
          }
          message_type {
            name: "Batch"
            field { name: "observations" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".bench.Observation" json_name: "observations" }
          }
          enum_type {
            name: "Kind"
            value { name: "KIND_UNSPECIFIED" number: 0 }
            value { name: "GAUGE" number: 1 }
            value { name: "COUNTER" number: 2 }
            value { name: "HISTOGRAM" number: 3 }
          }
        }
        """
}
