import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import RequestExport
import Sessions
import TestSupport
import TestTraits
import Testing

/// Random catalogs (seeded, so a failure names the seed that makes it again) through every
/// exporter/importer pair, on what each format can carry: after the trip every endpoint sends
/// the same method, URL, headers and body (secrets resolved to the same values), and for OpenAPI
/// keeps its group and its examples.
@Suite(.offPool) struct RoundTripPropertyTests {
    /// Draws from a seeded generator (TestSupport's SplitMix64): the same catalog from the same seed.
    struct Random {
        var generator: SeededGenerator

        init(state: UInt64) { generator = SeededGenerator(state: state) }

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
        mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    }

    static let words = ["alpha", "beta", "gamma", "delta", "red", "blue", "item", "order", "user", "note", "page", "sort"]
    static let texts = ["plain", "two words", "a+b", "50%", "ünïcödé", "x=y&z", "semi;colon", "tab\there"]

    /// What a random catalog may use: `multipart` bodies, and endpoints whose auth header is their own (not their group's).
    struct Features {
        var multipart = true
        var ungroupedAuth = true
    }

    /// A random catalog: groups with and without credentials, endpoints with path placeholders,
    /// query items, headers, JSON / text / form / multipart bodies, a stub and examples.
    static func catalog(seed: UInt64, features: Features = Features()) -> (text: String, secrets: [String: String]) {
        var random = Random(state: seed)
        let service = "rt\(seed)"
        var secrets: [String: String] = [:]
        var lines = ["service: \(service)", "title: Round trip \(seed)", "environments:"]
        lines.append("  local: { baseURL: \"http://127.0.0.1:4010/\(service)\", fixtures: immediate }")
        lines.append("  production: { type: production, baseURL: \"https://\(service).example/api\", fixtures: never }")
        var groups: [String] = []
        lines.append("groups:")
        for index in 0..<random.int(1...3) {
            let id = "group\(index)"
            groups.append(id)
            switch random.int(0...3) {
            case 0:
                let name = "RT\(seed)_TOKEN\(index)"
                secrets[name] = "token-\(seed)-\(index)"
                lines.append("  \(id): { title: Group \(index), headers: { Authorization: \"Bearer {{secret.\(name)}}\" } }")
            case 1:
                let name = "RT\(seed)_KEY\(index)"
                secrets[name] = "key-\(seed)-\(index)"
                lines.append("  \(id): { headers: { X-API-Key: \"{{secret.\(name)}}\", X-Team: \(random.pick(words)) } }")
            case 2:
                let (token, key) = ("RT\(seed)_BOTH\(index)", "RT\(seed)_APP\(index)")
                secrets[token] = "both-\(seed)-\(index)"
                secrets[key] = "app-\(seed)-\(index)"
                lines.append("  \(id): { headers: { Authorization: \"Token {{secret.\(token)}}\", X-App-Key: \"app/{{secret.\(key)}}\" } }")
            default:
                lines.append("  \(id): { title: Plain \(index) }")
            }
        }
        lines.append("endpoints:")
        for index in 0..<random.int(2...7) {
            let method = random.pick(["GET", "GET", "POST", "PUT", "PATCH", "DELETE"])
            let id = "\(method.lowercased())\(random.pick(words).capitalized)\(index)"
            lines.append("  \(id):")
            lines.append("    title: \(random.pick(words).capitalized) number \(index)")
            if random.chance(75), let group = groups.isEmpty ? nil : random.pick(groups) { lines.append("    group: \(group)") }
            lines.append("    method: \(method)")
            let hasID = random.chance(50)
            lines.append("    path: /\(random.pick(words))s\(index)\(hasID ? "/{{id\(index)}}" : "")")
            var parameters: [String] = hasID ? ["id\(index): \"\(random.int(1...999))\""] : []
            var queryNames = Set<String>()
            var query: [String] = []
            for _ in 0..<random.int(0...3) {
                let name = random.pick(words)
                guard queryNames.insert(name).inserted else { continue }
                if random.chance(30) {
                    query.append("\(name): \"{{q_\(name)}}\"")
                    parameters.append("q_\(name): \(quoted(random.pick(texts)))")
                } else {
                    query.append("\(name): \(quoted(random.pick(texts)))")
                }
            }
            if !query.isEmpty { lines.append("    query: { \(query.joined(separator: ", ")) }") }
            var headers: [String] = []
            if random.chance(50) { headers.append("X-Trace: \(quoted("t-\(random.int(1...99))"))") }
            if features.ungroupedAuth, random.chance(20) {
                let name = "RT\(seed)_OWN\(index)"
                secrets[name] = "own-\(seed)-\(index)"
                headers.append("X-Own-Key: \"{{secret.\(name)}}\"")
            }
            var body: [String] = []
            if ["POST", "PUT", "PATCH"].contains(method) {
                switch random.int(features.multipart ? 0...3 : 0...2) {
                case 0:
                    body = ["    body: { name: \(quoted(random.pick(texts))), count: \(random.int(0...50)), tags: [\(random.pick(words)), \(random.pick(words))], nested: { ok: true } }"]
                case 1:
                    let xml = random.chance(50)
                    headers.append("Content-Type: \(xml ? "application/xml" : "text/plain")")
                    body = ["    body: \(quoted(xml ? "<note>\(random.pick(words))</note>" : "hello \(random.pick(texts))"))"]
                case 2:
                    body = ["    form: { \(random.pick(words)): \(quoted(random.pick(texts))), field: \(quoted(random.pick(texts))) }"]
                default:
                    body = ["    multipart:", "      - { name: caption, value: \(quoted(random.pick(texts))) }", "      - { name: kind, value: \(random.pick(words)), contentType: text/plain }"]
                }
            }
            if !headers.isEmpty { lines.append("    headers: { \(headers.joined(separator: ", ")) }") }
            if !parameters.isEmpty { lines.append("    parameters: { \(parameters.joined(separator: ", ")) }") }
            lines += body
            lines.append("    stub: { status: \(random.pick([200, 201])), body: { id: \(index), name: \(random.pick(words)) } }")
            if random.chance(50) {
                lines.append("    examples:")
                lines.append("      missing: { status: 404, body: { message: \(quoted(random.pick(texts))) } }")
                if random.chance(50) { lines.append("      broken: { status: 500, body: { error: \(random.pick(words)) } }") }
            }
        }
        return (lines.joined(separator: "\n") + "\n", secrets)
    }

    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }

    /// What an endpoint sends in an environment: method, URL, headers (sorted, names lowercased) and body
    /// (multipart bodies by their fields: the boundary is new each time).
    static func sent(_ endpoint: CatalogEndpoint, of service: Service, baseURL: String, catalog: CatalogSet, secrets: [String: String]) async throws -> String {
        let environment = try #require(service.environments.first { $0.baseURL.absoluteString == baseURL }, "\(service.id): no environment at \(baseURL)")
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:], dotEnv: secrets), transport: nil)
        let exchange = await caller.call(EndpointSelection(service: service, endpoint: endpoint, environment: environment), mode: .stub).exchange
        #expect(exchange.error?.kind != .invalidRequest, "\(endpoint.id): \(exchange.error?.message ?? "")")
        let request = exchange.request
        let headers = request.headers.fields.filter { !Headers.sameName($0.name, "Content-Length") }
            .map { field -> String in
                let value = field.value.hasPrefix("multipart/form-data") ? "multipart/form-data" : field.value
                return "\(field.name.lowercased()): \(value)"
            }.sorted()
        var body = String(decoding: request.body ?? Data(), as: UTF8.self)
        if case .multipart(let fields) = endpoint.body {
            body = fields.map { "\($0.name)|\($0.contentType ?? "")|\($0.content)" }.joined(separator: "\n")
        }
        return "\(request.method.rawValue) \(request.url.absoluteString)\n\(headers.joined(separator: "\n"))\n\n\(body)"
    }

    /// The examples' names, statuses and bodies (as JSON).
    static func examples(_ endpoint: CatalogEndpoint) -> [String] {
        ([endpoint.stub] + endpoint.examples).map { example in
            guard case .response(let status, _, let body) = example.sample else { return "\(example.name) \(example.sample)" }
            return "\(example.name) \(status) \((try? JSONValue.parse(body))?.compactText ?? String(decoding: body, as: UTF8.self))"
        }
    }

    static let seeds: [UInt64] = Array(1...24)

    /// A random catalog, loaded (it must load without an error).
    static func original(seed: UInt64, features: Features = Features()) throws -> (folder: TemporaryDirectory, catalog: CatalogSet, service: Service, secrets: [String: String]) {
        let (text, secrets) = catalog(seed: seed, features: features)
        let folder = try TemporaryDirectory()
        try folder.write("rt.yaml", text)
        let loaded = CatalogLoader.load(folder.catalogSource)
        #expect(loaded.diagnostics.filter(\.isError).isEmpty, "seed \(seed): \(loaded.diagnostics)\n\(text)")
        return (folder, loaded, try #require(loaded.services.first), secrets)
    }

    /// Writes the import and compares each endpoint with the original's; `more` checks what else the format carries.
    static func expectSameEndpoints(
        seed: UInt64, original: (catalog: CatalogSet, service: Service, secrets: [String: String]), imported result: CatalogImport,
        more: (CatalogEndpoint, CatalogEndpoint) -> Void = { _, _ in }
    ) async throws {
        #expect(!result.isPartial, "seed \(seed): \(result.messages)")
        let (written, catalog) = try loadWritten(result)
        defer { withExtendedLifetime(written) {} }
        let again = try #require(catalog.services.first)
        #expect(again.endpoints.map(\.id) == original.service.endpoints.map(\.id), "seed \(seed)")
        let base = "https://rt\(seed).example/api"
        for endpoint in original.service.endpoints {
            let imported = try #require(again.endpoint(endpoint.id))
            let before = try await sent(endpoint, of: original.service, baseURL: base, catalog: original.catalog, secrets: original.secrets)
            let after = try await sent(imported, of: again, baseURL: base, catalog: catalog, secrets: original.secrets)
            #expect(after == before, "seed \(seed) \(endpoint.id)")
            more(endpoint, imported)
        }
    }

    @Test(arguments: seeds)
    func openAPIExportThenImportKeepsEveryEndpoint(seed: UInt64) async throws {
        let original = try Self.original(seed: seed)
        let (document, _) = OpenAPIExporter.export(original.service)
        let result = try OpenAPIImporter.catalog(from: Data(document.prettyText().utf8), documentName: "rt.json", service: original.service.id)
        try await Self.expectSameEndpoints(seed: seed, original: (original.catalog, original.service, original.secrets), imported: result) { endpoint, imported in
            #expect(imported.group == endpoint.group, "seed \(seed) \(endpoint.id)")
            #expect(Self.examples(imported) == Self.examples(endpoint), "seed \(seed) \(endpoint.id)")
            #expect(imported.title == endpoint.title, "seed \(seed) \(endpoint.id)")
        }
    }

    @Test(arguments: seeds)
    func httpExportThenImportSendsTheSame(seed: UInt64) async throws {
        // A .http file has no multipart form of its own (the JetBrains text form holds file paths), no groups, no examples.
        let original = try Self.original(seed: seed, features: Features(multipart: false))
        let production = try #require(original.service.environment(named: "production"))
        let file = HTTPFileExporter.text(service: original.service, environment: production)
        let names = HTTPFileExporter.secrets(service: original.service, environment: production)
        let privateFile = HTTPFileExporter.privateEnvironment(secrets: names, environment: "production")
        #expect(!file.contains("{{secret."), "secrets are written {{NAME}}")
        let result = try HTTPFileImporter.catalog(text: file, documentName: "rt.http", privateEnvironments: Data(privateFile.utf8), service: original.service.id)
        try await Self.expectSameEndpoints(seed: seed, original: (original.catalog, original.service, original.secrets), imported: result)
    }

    @Test(arguments: seeds)
    func curlExportThenImportReadsTheSameRequest(seed: UInt64) async throws {
        let (folder, loaded, original, secrets) = try Self.original(seed: seed)
        defer { withExtendedLifetime(folder) {} }
        let production = try #require(original.environment(named: "production"))
        let caller = EndpointCaller(catalog: loaded, secrets: SecretStore(processEnvironment: [:], dotEnv: secrets), transport: nil)
        for endpoint in original.endpoints {
            let request = await caller.call(EndpointSelection(service: original, endpoint: endpoint, environment: production), mode: .stub).exchange.request
            let parsed = try CurlCommandParser.parse(request.curlCommand(redactor: nil))
            #expect(parsed.method == request.method, "seed \(seed) \(endpoint.id)")
            #expect(parsed.url == request.url, "seed \(seed) \(endpoint.id)")
            if case .multipart = endpoint.body {
                #expect(parsed.form.map(\.name) == ["caption", "kind"], "seed \(seed) \(endpoint.id)")
                continue
            }
            #expect(parsed.headers.map { "\($0.name): \($0.value)" } == request.headers.fields.map { "\($0.name): \($0.value)" }, "seed \(seed) \(endpoint.id)")
            #expect(parsed.body.map { Data($0.utf8) } == request.body.flatMap { $0.isEmpty ? nil : $0 }, "seed \(seed) \(endpoint.id)")
        }
    }
}
