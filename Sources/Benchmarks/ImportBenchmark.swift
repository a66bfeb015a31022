import ArgumentParser
import CatalogAuthoring
import Foundation
import SystemSupport

/// `apiexplorer-bench import`: imports a generated HAR capture (5,000 requests by default) and a
/// generated OpenAPI document (1,000 operations by default), each through the importer and the
/// catalog loader's check of the result (in memory: what `import` does before writing). Target:
/// ≤ 1 s each.
struct ImportBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports a generated 5,000-request HAR and 1,000-operation OpenAPI document (read, build, check); target ≤ 1 s each.")

    @Option(help: "Requests in the HAR capture.")
    var requests = 5_000

    @Option(help: "Operations in the OpenAPI document.")
    var operations = 1_000

    @Flag(help: "Give every HAR request a path of its own (no two share an endpoint): the worst case.")
    var uniquePaths = false

    @Option(help: "Timed imports of each (after one warm-up).")
    var runs = 5

    @Flag(help: "Also import a multi-file OpenAPI document from disk and write the catalog to disk (--folder), as `apiexplorer import openapi` does.")
    var onDisk = false

    @Option(help: "Operations of the multi-file document (--on-disk).")
    var diskOperations = 659

    @Option(help: "Files of the multi-file document (--on-disk).")
    var diskFiles = 2_907

    @Option(help: "Where --on-disk puts the document and the catalogs it writes (default: a folder under the current one: a disk, not tmpfs).")
    var folder: String?

    @Flag(help: "With --on-disk, write each file flushed on its own, as imports did before issue 36, to compare.")
    var perFileFlush = false

    @Option(help: "Only write the multi-file document (--disk-operations, --disk-files) into this folder and stop: to import it with `apiexplorer import openapi` under strace or time.")
    var writeDocument: String?

    func validate() throws {
        guard requests > 0, operations > 0, runs > 0 else { throw ValidationError("--requests, --operations and --runs must be positive.") }
    }

    func run() throws {
        if let writeDocument {
            let files = Self.splitOpenAPI(operations: diskOperations, files: diskFiles)
            for (path, text) in files {
                let url = URL(fileURLWithPath: writeDocument).appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            print("\(files.count) files under \(writeDocument): apiexplorer import openapi \(writeDocument)/openapi.yaml --out DIR")
            return
        }
        warnIfDebugBuild()
        let har = Data(Self.har(requests: requests, uniquePaths: uniquePaths).utf8)
        let openAPI = Data(Self.openAPI(operations: operations).utf8)
        try measure("har", size: har.count, detail: "\(requests) requests") {
            let result = try HARImporter.catalog(har: har, documentName: "bench.har")
            return (result, try result.load().endpointCount)
        }
        try measure("openapi", size: openAPI.count, detail: "\(operations) operations") {
            let result = CatalogImport(drafts: [try OpenAPIImporter.draft(from: openAPI, documentName: "bench.json")])
            return (result, try result.load().endpointCount)
        }
        if onDisk { try measureOnDisk() }
    }

    /// The whole of `import openapi` on a document split over `diskFiles` files: read from disk,
    /// imported, checked and written to disk (a new folder each run).
    private func measureOnDisk() throws {
        let base = URL(fileURLWithPath: folder ?? FileManager.default.currentDirectoryPath).appendingPathComponent("apiexplorer-bench-import-\(getpid())")
        try? FileManager.default.removeItem(at: base)
        defer { try? FileManager.default.removeItem(at: base) }
        let document = base.appendingPathComponent("document")
        let files = Self.splitOpenAPI(operations: diskOperations, files: diskFiles)
        for (path, text) in files {
            let url = document.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let root = try Data(contentsOf: document.appendingPathComponent("openapi.yaml"))
        let clock = ContinuousClock()
        var timings = Measurements()
        var written = 0
        for run in 0...runs {
            let out = base.appendingPathComponent("catalog\(run)")
            let start = clock.now
            let result = try OpenAPIImporter.catalog(from: root, documentName: "openapi.yaml", files: DocumentFiles(folder: document.path))
            if perFileFlush {
                let checked = try result.checked()
                for file in checked.files {
                    let url = out.appendingPathComponent(file.path)
                    try AtomicFile.createDirectory(url.deletingLastPathComponent(), permissions: 0o755)
                    try AtomicFile.write(file.data, to: url)
                }
                written = checked.files.count
            } else {
                written = try result.write(into: out, force: false).files.count
            }
            // The first run warms up.
            if run > 0 { timings.add((clock.now - start).nanoseconds) }
        }
        print("openapi on disk: \(diskOperations) operations in \(files.count) files → \(written) files written under \(base.path)\(perFileFlush ? " (each flushed on its own)" : "")")
        print("  read + import + check + write: median \(formatNanoseconds(timings.median)), min \(formatNanoseconds(timings.minimum)), max \(formatNanoseconds(timings.maximum)) over \(runs) runs (target ≤ 2 s)")
    }

    /// A document of `operations` operations split over `files` files, as large published ones are:
    /// a root naming one file per path, each operation's parameters, request and response schemas
    /// and error response in files of their own, and shared schemas they name.
    static func splitOpenAPI(operations: Int, files: Int) -> [(String, String)] {
        let methods = ["get", "post", "put"]
        let pathCount = (operations + methods.count - 1) / methods.count
        let shared = max(1, files - 1 - pathCount - 3 * operations)
        var result: [(String, String)] = []
        var rootPaths: [String] = []
        var made = 0
        for index in 0..<pathCount {
            var items: [String] = []
            for method in methods where made < operations {
                let operation = made
                made += 1
                let body = method == "get" ? "" : "\n  requestBody: { required: true, content: { application/json: { schema: { $ref: '../schemas/item\(operation).yaml' } } } }"
                items.append("""
                    \(method):
                      operationId: \(method)Resource\(operation)
                      tags: [group\(index % 20)]
                      parameters: [{ $ref: '../parameters/p\(operation).yaml' }]\(body)
                      responses:
                        "200": { description: ok, content: { application/json: { schema: { $ref: '../schemas/item\(operation).yaml' } } } }
                        "404": { $ref: '../responses/r\(operation).yaml' }
                    """)
                result.append(("parameters/p\(operation).yaml", "{ name: id, in: path, required: true, schema: { type: integer, example: \(operation) } }\n"))
                result.append(("schemas/item\(operation).yaml", """
                    type: object
                    required: [id, name]
                    properties:
                      id: { type: integer }
                      name: { type: string, example: item \(operation) }
                      owner: { $ref: 'shared/s\(operation % shared).yaml' }
                      tags: { type: array, items: { type: string } }

                    """))
                result.append(("responses/r\(operation).yaml", "{ description: missing, content: { application/json: { example: { message: no item \(operation) } } } }\n"))
            }
            result.append(("paths/resource\(index).yaml", items.joined(separator: "\n") + "\n"))
            rootPaths.append("  /resources\(index)/{id}: { $ref: 'paths/resource\(index).yaml' }")
        }
        for index in 0..<shared {
            result.append(("schemas/shared/s\(index).yaml", "{ type: object, properties: { name: { type: string, example: owner \(index) }, since: { type: string, format: date } } }\n"))
        }
        result.append(("openapi.yaml", """
            openapi: 3.0.3
            info: { title: Split Bench, version: "1" }
            servers: [{ url: https://api.example.com/v1, description: production }]
            components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }
            security: [{ bearer: [] }]
            paths:
            \(rootPaths.joined(separator: "\n"))

            """))
        return result
    }

    /// Runs `body` once to warm up, then `runs` times, printing the median, min and max.
    private func measure(_ name: String, size: Int, detail: String, _ body: () throws -> (CatalogImport, Int)) throws {
        let (warmUp, endpoints) = try body()
        let clock = ContinuousClock()
        var timings = Measurements()
        for _ in 0..<runs {
            let start = clock.now
            _ = try body()
            timings.add((clock.now - start).nanoseconds)
        }
        let files = warmUp.files.count
        print("\(name): \(detail), \(String(format: "%.1f", Double(size) / 1_048_576)) MiB → \(warmUp.drafts.count) services, \(endpoints) endpoints, \(files) files")
        print("  import + check: median \(formatNanoseconds(timings.median)), min \(formatNanoseconds(timings.minimum)), max \(formatNanoseconds(timings.maximum)) over \(runs) runs (target ≤ 1 s)")
    }

    /// A capture of `requests` requests to 5 hosts: ids in paths, JSON bodies, browser headers, cookies.
    static func har(requests: Int, uniquePaths: Bool) -> String {
        let resources = ["users", "orders", "products", "carts", "reviews", "invoices", "tickets", "projects"]
        var entries: [String] = []
        entries.reserveCapacity(requests)
        for index in 0..<requests {
            let host = "api\(index % 5).example.com"
            let resource = resources[index % resources.count]
            let id = index % 3 == 0 ? "\(1000 + index)" : index % 3 == 1 ? String(format: "%08x-0000-4000-8000-%012x", index, index) : "\(index % 7)"
            let method = ["GET", "GET", "POST", "PUT", "DELETE"][index % 5]
            var path = index % 4 == 0 ? "/v1/\(resource)" : "/v1/\(resource)/\(id)/\(resource == "users" ? "settings" : "items")"
            if uniquePaths { path += "/view-\(index)" }
            let status = index % 11 == 0 ? 404 : method == "POST" ? 201 : 200
            let body = #"{\"id\": \#(index), \"name\": \"item \#(index)\", \"tags\": [\"a\", \"b\"], \"token\": \"t-\#(index)\"}"#
            let post = method == "POST" || method == "PUT" ? #", "postData": {"mimeType": "application/json", "text": "\#(body)"}"# : ""
            entries.append(#"""
                {"startedDateTime": "2024-06-01T10:00:00.000Z", "time": 12.5,
                 "request": {"method": "\#(method)", "url": "https://\#(host)\#(path)?page=\#(index % 9)&api_key=k\#(index)", "httpVersion": "HTTP/2",
                   "headers": [{"name": ":authority", "value": "\#(host)"}, {"name": "accept", "value": "application/json"},
                     {"name": "sec-fetch-mode", "value": "cors"}, {"name": "cookie", "value": "session=s\#(index)"},
                     {"name": "authorization", "value": "Bearer secret-\#(index)"}, {"name": "content-type", "value": "application/json"}],
                   "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0\#(post)},
                 "response": {"status": \#(status), "statusText": "", "httpVersion": "HTTP/2",
                   "headers": [{"name": "content-type", "value": "application/json"}, {"name": "set-cookie", "value": "session=x\#(index)"}],
                   "cookies": [], "content": {"size": 80, "mimeType": "application/json", "text": "\#(body)"}, "redirectURL": "", "headersSize": -1, "bodySize": 80},
                 "cache": {}, "timings": {"send": 0.1, "wait": 10, "receive": 2.4}}
                """#)
        }
        return #"{"log": {"version": "1.2", "creator": {"name": "apiexplorer-bench", "version": "1"}, "entries": [\#(entries.joined(separator: ",\n"))]}}"#
    }

    /// A document of `operations` operations over paths with parameters, schemas, examples and security.
    static func openAPI(operations: Int) -> String {
        var paths: [String] = []
        let methods = ["get", "post", "put", "delete"]
        let pathCount = (operations + methods.count - 1) / methods.count
        var made = 0
        for index in 0..<pathCount {
            var items: [String] = []
            for method in methods where made < operations {
                made += 1
                let body = method == "post" || method == "put"
                    ? ##", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}"## : ""
                items.append(##"""
                    "\##(method)": {"operationId": "\##(method)Resource\##(index)", "summary": "\##(method) resource \##(index)",
                      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "example": \##(index)}},
                                     {"name": "DateCreated<", "in": "query", "example": "2024-01-01", "schema": {"type": "string"}},
                                     {"name": "DateCreated>", "in": "query", "example": "2023-01-01", "schema": {"type": "string"}}]\##(body),
                      "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                                    "404": {"description": "missing", "content": {"application/json": {"example": {"message": "not found"}}}}}}
                    """##)
            }
            paths.append(#""/resources\#(index)/{id}": {\#(items.joined(separator: ","))}"#)
        }
        return #"""
            {"openapi": "3.0.3", "info": {"title": "Bench - API", "version": "1"},
             "servers": [{"url": "https://api.example.com/v1", "description": "production"}],
             "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
               "schemas": {"Item": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                 "tags": {"type": "array", "items": {"type": "string"}}, "created": {"type": "string", "format": "date-time"}}}}},
             "security": [{"bearer": []}],
             "paths": {\#(paths.joined(separator: ",\n"))}}
            """#
    }
}
