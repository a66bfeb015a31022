import ArgumentParser
import ContractCheck
import Foundation
import JSONSchema
import JSONSupport

/// `apiexplorer-bench contract`: checks a generated JSON response (1 MB by default, an array of
/// pets) against a response schema as an import keeps it (`$ref`s to components, required
/// members, enums, a pattern, nested arrays, nullable): parsing and checking, and checking alone.
struct ContractBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Checks a generated 1 MB JSON response against its OpenAPI response schema (parse + validate, validate alone).")

    @Option(help: "Size of the response body in bytes (approximately).")
    var bytes = 1_000_000

    @Option(help: "Timed checks (after one warm-up).")
    var runs = 10

    func validate() throws {
        guard bytes > 0, runs > 0 else { throw ValidationError("--bytes and --runs must be positive.") }
    }

    func run() throws {
        warnIfDebugBuild()
        let contract = try ResponseContract(data: Data(Self.schemas.utf8), path: "bench.schemas.json")
        let body = Self.body(bytes: bytes)
        let instance = try JSONValue.parse(body)
        guard case .success(let schema) = contract.schema(endpoint: "listPets", status: 200, contentType: "application/json") else {
            throw ValidationError("the benchmark's schema was not found")
        }
        let clock = ContinuousClock()
        var whole = Measurements(), validation = Measurements()
        var violations = 0
        for run in 0...runs {
            let start = clock.now
            let result = contract.check(endpoint: "listPets", status: 200, contentType: "application/json", body: body)
            let middle = clock.now
            violations = schema.validate(instance).count
            let end = clock.now
            guard result.conforms, violations == 0 else { throw ValidationError("the generated body should conform: \(result.violations.prefix(3))") }
            if run > 0 {
                whole.add((middle - start).nanoseconds)
                validation.add((end - middle).nanoseconds)
            }
        }
        let megabytes = Double(body.count) / 1_000_000
        print("contract: a \(body.count)-byte body (\(Self.count(bytes: bytes)) pets) against listPets 200 application/json")
        print("  parse + validate: median \(formatNanoseconds(whole.median)), min \(formatNanoseconds(whole.minimum)) over \(runs) runs (\(String(format: "%.0f", megabytes / (whole.median / 1e9))) MB/s)")
        print("  validate alone:   median \(formatNanoseconds(validation.median)), min \(formatNanoseconds(validation.minimum))")
    }

    static let schemas = #"""
        { "format": "apiexplorer-response-schemas/1", "dialect": "openapi-3.0", "source": "bench.yaml",
          "endpoints": { "listPets": { "200": { "application/json": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } } } } },
          "components": { "schemas": {
            "Pet": { "type": "object", "required": ["id", "name", "status"],
                     "properties": { "id": { "type": "integer", "format": "int64", "minimum": 1 },
                                     "name": { "type": "string", "minLength": 1, "maxLength": 100 },
                                     "status": { "type": "string", "enum": ["available", "pending", "sold"] },
                                     "tag": { "type": "string", "nullable": true, "pattern": "^[a-z]+[0-9]*$" },
                                     "price": { "type": "number", "minimum": 0, "multipleOf": 0.01 },
                                     "category": { "$ref": "#/components/schemas/Category" },
                                     "photoUrls": { "type": "array", "items": { "type": "string" }, "maxItems": 10 } },
                     "additionalProperties": false },
            "Category": { "type": "object", "required": ["id"], "properties": { "id": { "type": "integer" }, "name": { "type": "string" } } } } } }
        """#

    static func pet(_ index: Int) -> String {
        #"{"id":\#(index + 1),"name":"pet number \#(index)","status":"\#(["available", "pending", "sold"][index % 3])","tag":\#(index % 4 == 0 ? "null" : "\"tag\(index % 10)\"")"#
            + #","price":\#(index % 100).\#(index % 10)5,"category":{"id":\#(index % 7),"name":"category \#(index % 7)"},"photoUrls":["https://example.com/\#(index).png"]}"#
    }

    static func count(bytes: Int) -> Int { max(1, bytes / pet(1000).utf8.count) }

    static func body(bytes: Int) -> Data {
        Data(("[" + (0..<count(bytes: bytes)).map(pet).joined(separator: ",") + "]").utf8)
    }
}
