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
    /// `{{secret.NAME}}` written `{{NAME}}` (see `privateEnvironment`).
    package static func text(service: Service, environment: Environment, endpoints: [CatalogEndpoint]? = nil) -> String {
        var text = rawText(service: service, environment: environment, endpoints: endpoints)
        for name in secretNames(in: text) { text = text.replacing("{{secret.\(name)}}", with: "{{\(name)}}") }
        return text
    }

    /// The secrets the file for these endpoints uses, in order.
    package static func secrets(service: Service, environment: Environment, endpoints: [CatalogEndpoint]? = nil) -> [String] {
        secretNames(in: rawText(service: service, environment: environment, endpoints: endpoints))
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

    static func rawText(service: Service, environment: Environment, endpoints: [CatalogEndpoint]?) -> String {
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
    static func block(_ endpoint: CatalogEndpoint, environment: Environment, shared: [String: String]) -> [String] {
        var lines = ["### \(endpoint.title)", "# @name \(endpoint.id)"]
        for name in endpoint.parameters.keys.sorted() where shared[name] != endpoint.parameters[name] {
            lines.append("@\(name) = \(endpoint.parameters[name] ?? "")")
        }
        let query = endpoint.query.map(pair)
        lines.append("\(endpoint.method.rawValue) {{\(baseVariable)}}\(endpoint.path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        var headers: [(String, String)] = environment.headers.map { ($0.name, $0.value) }
        let group = endpoint.group.flatMap { environment.groupHeaders[$0] } ?? Headers()
        for field in Array(group) + Array(endpoint.headers) {
            headers.removeAll { $0.0.lowercased() == field.name.lowercased() }
            headers.append((field.name, field.value))
        }
        let (body, contentType) = bodyText(endpoint.body)
        if let contentType, !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", contentType)) }
        lines += headers.map { "\($0.0): \($0.1)" }
        if let body { lines += ["", body] }
        return lines
    }

    /// The body as text with the Content-Type it implies; a binary body is left out.
    static func bodyText(_ body: RequestBody) -> (String?, String?) {
        switch body {
        case .none: return (nil, nil)
        case .json(let value): return (value.prettyText(), "application/json")
        case .text(let text, let contentType): return (text, contentType)
        case .form(let items):
            // Not FormEncoding: it would encode the braces of placeholders.
            return (items.map(pair).joined(separator: "&"), "application/x-www-form-urlencoded")
        case .data(let data, let contentType): return (String(validating: data, as: UTF8.self), contentType)
        case .file(let path, let contentType): return ("< \(path)", contentType ?? MediaType.forFileOrBinary(path))
        case .multipart(let fields): return (multipartText(fields), "multipart/form-data; boundary=\(multipartBoundary)")
        }
    }

    /// The boundary a `.http` multipart body is written with (the JetBrains client's own).
    static let multipartBoundary = "WebAppBoundary"

    /// A multipart body as the JetBrains HTTP Client writes it: each part with its headers, a file
    /// as `< path`, read when the request is sent.
    static func multipartText(_ fields: [MultipartField]) -> String {
        var lines: [String] = []
        for field in fields {
            lines.append("--\(multipartBoundary)")
            lines += field.headerBlock().split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
            lines.append("")
            switch field.content {
            case .text(let text): lines.append(text)
            case .file(let path, _): lines.append("< \(path)")
            case .bytes(let data, _): lines.append(String(decoding: data, as: UTF8.self))
            }
        }
        lines.append("--\(multipartBoundary)--")
        return lines.joined(separator: "\n")
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
