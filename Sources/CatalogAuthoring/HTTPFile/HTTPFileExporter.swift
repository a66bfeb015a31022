import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Writes catalog endpoints as a `.http` file (JetBrains HTTP Client / VS Code REST Client):
/// `@baseUrl` from the environment, the service's and environment's variables as `@name = value`,
/// each endpoint a `###` block with its `# @name`, headers (environment, group, endpoint) and
/// body. Placeholders stay placeholders; `{{secret.NAME}}` values are never written.
package enum HTTPFileExporter {
    /// The variable holding the environment's base URL.
    package static let baseVariable = "baseUrl"
    /// The file JetBrains' HTTP Client reads secrets from, beside the `.http` file.
    package static let privateEnvironmentFile = "http-client.private.env.json"

    /// The file for `endpoints` of `service` in `environment` (all endpoints when nil), with every
    /// `{{secret.NAME}}` written `{{NAME}}` (see `privateEnvironment`). Files the requests send are
    /// written relative to `folder` (where the `.http` file goes) when inside it.
    package static func text(service: Service, environment: Environment, endpoints: [CatalogEndpoint]? = nil, folder: String? = nil) -> String {
        export(service: service, environment: environment, endpoints: endpoints, folder: folder).text
    }

    /// The file (as `text`) and what the person should know: what a `.http` file cannot say,
    /// files written with a path `import http` will not read.
    package static func export(
        service: Service, environment: Environment, endpoints: [CatalogEndpoint]? = nil, folder: String? = nil
    ) -> (text: String, notes: [String]) {
        var writer = Writer(folder: folder)
        var text = writer.rawText(service: service, environment: environment, endpoints: endpoints)
        for name in secretNames(in: text) { text = text.replacing("{{secret.\(name)}}", with: "{{\(name)}}") }
        // What a .http file has no place for, said once.
        let chosen = endpoints ?? service.endpoints
        var untold: [String] = []
        if service.environments.count > 1 { untold.append("the other environments (export each with --env)") }
        if chosen.contains(where: { !$0.examples.isEmpty || $0.stub.sample != .noFixture }) { untold.append("stubs and examples") }
        if chosen.contains(where: { !$0.captures.isEmpty || !$0.expectations.assertions.isEmpty }) { untold.append("captures and expect: checks") }
        if !untold.isEmpty {
            writer.notes.append("a .http file has no place for \(untold.joined(separator: ", ")): not written; each request is written whole (its environment's and group's headers on it)")
        }
        return (text, writer.notes)
    }

    /// The secrets the file for these endpoints uses, in order.
    package static func secrets(service: Service, environment: Environment, endpoints: [CatalogEndpoint]? = nil) -> [String] {
        var writer = Writer(folder: nil)
        return secretNames(in: writer.rawText(service: service, environment: environment, endpoints: endpoints))
    }

    /// `http-client.private.env.json` for the secrets a file uses: each named under the
    /// environment with an empty value to fill in (JetBrains' HTTP Client and VS Code REST Client
    /// read it beside the file, and git should not keep it). `existing` keeps what the user
    /// already filled in; secret values are never written.
    package static func privateEnvironment(secrets: [String], environment: String, existing: Data? = nil) -> String {
        var root = existing.flatMap { try? JSONValue.parse($0) }?.objectValue ?? JSONObject()
        var values = root[environment]?.objectValue ?? JSONObject()
        for name in secrets where values[name] == nil { values[name] = "" }
        root[environment] = .object(values)
        return JSONValue.object(root).prettyText() + "\n"
    }

    static func secretNames(in text: String) -> [String] {
        var names: [String] = []
        for name in Template(text).placeholders where name.hasPrefix("secret.") {
            let secret = String(name.dropFirst("secret.".count))
            if !names.contains(secret) { names.append(secret) }
        }
        return names
    }

    /// The boundary a `.http` multipart body is written with (the JetBrains client's own).
    static let multipartBoundary = "WebAppBoundary"

    /// Writes the blocks, gathering notes.
    struct Writer {
        /// Where the `.http` file goes: files inside it are written relative to it.
        let folder: String?
        var notes: [String] = []

        mutating func rawText(service: Service, environment: Environment, endpoints: [CatalogEndpoint]?) -> String {
            var lines = ["# Exported from service \(service.id) (environment \(environment.name)) by `apiexplorer export http`."]
            var base = environment.baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            lines.append("@\(baseVariable) = \(base)")
            var variables = service.variables
            variables.merge(environment.variables) { $1 }
            lines += variables.keys.sorted().map { "@\($0) = \(variables[$0] ?? "")" }
            for endpoint in endpoints ?? service.endpoints {
                lines += [""] + block(endpoint, environment: environment, shared: variables)
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// One endpoint's `###` block; its parameters that differ from the file's variables are set just before it.
        mutating func block(_ endpoint: CatalogEndpoint, environment: Environment, shared: [String: String]) -> [String] {
            // One line: a second line of the title would be read as the request line.
            let title = endpoint.title.split(whereSeparator: \.isNewline).map { $0.trimmed }.filter { !$0.isEmpty }.joined(separator: " ")
            var lines = ["### \(title.isEmpty ? endpoint.id : title)", "# @name \(endpoint.id)"]
            for name in endpoint.parameters.keys.sorted() where shared[name] != endpoint.parameters[name] {
                lines.append("@\(name) = \(references(in: endpoint.parameters[name] ?? "", endpoint: endpoint))")
            }
            let query = endpoint.query.map(HTTPFileExporter.pair)
            lines.append(references(in: "\(endpoint.method.rawValue) {{\(baseVariable)}}\(endpoint.path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), endpoint: endpoint))
            // As a request merges them: the environment's, then the group's, then the endpoint's;
            // a later one takes the place of the one it replaces.
            var headers: [(String, String)] = environment.headers.filter { field in !endpoint.omittedHeaders.contains { Headers.sameName($0, field.name) } }.map { ($0.name, $0.value) }
            let group = (endpoint.group.flatMap { environment.groupHeaders[$0] } ?? Headers()).filter { field in !endpoint.omittedHeaders.contains { Headers.sameName($0, field.name) } }
            for field in Array(group) + Array(endpoint.headers) {
                if let index = headers.firstIndex(where: { Headers.sameName($0.0, field.name) }) {
                    headers[index] = (field.name, field.value)
                } else {
                    headers.append((field.name, field.value))
                }
            }
            let (body, contentType) = bodyText(endpoint.body, endpoint: endpoint)
            if let contentType, !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", contentType)) }
            lines += headers.map { "\($0.0): \(references(in: $0.1, endpoint: endpoint))" }
            if let body { lines += ["", references(in: body, endpoint: endpoint)] }
            return lines
        }

        /// `{{response.login $.token}}` as the HTTP clients write a request reference:
        /// `{{login.response.body.$.token}}` (`header X` → `.response.headers.X`, `body` →
        /// `.response.body.*`); one to another service's endpoint has no form there: kept, noted.
        mutating func references(in text: String, endpoint: CatalogEndpoint) -> String {
            guard text.contains("{{response.") else { return text }
            var result = ""
            var rest = Substring(text)
            while let open = rest.firstRange(of: "{{response."), let close = rest[open.upperBound...].firstRange(of: "}}") {
                result += rest[..<open.lowerBound]
                let inner = rest[open.upperBound..<close.lowerBound]
                let id = inner.prefix { $0 != " " }
                let selector = inner.dropFirst(id.count).trimmed
                if id.contains("/") {
                    notes.append("\(endpoint.id): {{response.\(inner)}} reads another service's response, which a .http file cannot say: kept as written")
                    result += "{{response.\(inner)}}"
                } else if selector == "body" {
                    result += "{{\(id).response.body.*}}"
                } else if selector.hasPrefix("header ") {
                    result += "{{\(id).response.headers.\(selector.dropFirst(7).trimmed)}}"
                } else {
                    result += "{{\(id).response.body.\(selector)}}"
                }
                rest = rest[close.upperBound...]
            }
            return result + rest
        }

        /// The body as text with the Content-Type it implies; a binary body is left out.
        mutating func bodyText(_ body: RequestBody, endpoint: CatalogEndpoint) -> (String?, String?) {
            switch body {
            case .none: return (nil, nil)
            case .json(let value): return (value.prettyText(), "application/json")
            case .text(let text, let contentType): return (text, contentType)
            case .form(let items):
                // Not FormEncoding: it would encode the braces of placeholders.
                return (items.map(HTTPFileExporter.pair).joined(separator: "&"), "application/x-www-form-urlencoded")
            case .data(let data, let contentType):
                guard let text = String(validating: data, as: UTF8.self) else {
                    notes.append("\(endpoint.id): its body is binary, which a .http file cannot hold: left out")
                    return (nil, contentType)
                }
                return (text, contentType)
            case .file(let path, let contentType): return ("< \(file(path, endpoint: endpoint))", contentType ?? MediaType.forFileOrBinary(path))
            case .multipart(let fields): return (multipartText(fields, endpoint: endpoint), "multipart/form-data; boundary=\(HTTPFileExporter.multipartBoundary)")
            }
        }

        /// A multipart body as the JetBrains HTTP Client writes it: each part with its headers, a
        /// file as `< path` (read when the request is sent, and by `import http`).
        mutating func multipartText(_ fields: [MultipartField], endpoint: CatalogEndpoint) -> String {
            var lines: [String] = []
            for field in fields {
                lines.append("--\(HTTPFileExporter.multipartBoundary)")
                // The disposition, and the Content-Type only when the catalog gives one (a file's is its extension's either way).
                lines.append(field.headerBlock().split(separator: "\r\n", omittingEmptySubsequences: true).first.map(String.init) ?? "")
                if let type = field.contentType { lines.append("Content-Type: \(type)") }
                lines.append("")
                switch field.content {
                case .text(let text): lines.append(text.replacing("\r\n", with: "\n"))
                case .file(let path, _): lines.append("< \(file(path, endpoint: endpoint))")
                case .bytes(let data, _): lines.append(String(decoding: data, as: UTF8.self))
                }
            }
            lines.append("--\(HTTPFileExporter.multipartBoundary)--")
            return lines.joined(separator: "\n")
        }

        /// A file's path as the `.http` file names it: `./relative` inside its folder; absolute
        /// elsewhere (noted: `import http` reads no file from outside the file's folder).
        mutating func file(_ path: String, endpoint: CatalogEndpoint) -> String {
            guard path.hasPrefix("/") else { return path }
            if let folder, path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") {
                return "./" + path.dropFirst(folder.hasSuffix("/") ? folder.count : folder.count + 1)
            }
            notes.append("\(endpoint.id): \(path) is outside the folder of the .http file: written as an absolute path, which `import http` does not read (write the file inside the catalog folder, or copy it)")
            return path
        }
    }

    /// `name=value` (or a bare name) as written in a URL or a form.
    static func pair(_ item: QueryItem) -> String {
        item.value.map { "\(queryText(item.name))=\(queryText($0))" } ?? queryText(item.name)
    }

    /// What would end a query name or value, percent-encoded (placeholders' braces are kept).
    static let escapes: [Character: String] = ["&": "%26", "=": "%3D", "#": "%23", " ": "%20", "+": "%2B", "%": "%25"]

    /// A query name or value as written in a URL.
    static func queryText(_ text: String) -> String {
        text.reduce(into: "") { result, character in result += escapes[character] ?? String(character) }
    }
}
