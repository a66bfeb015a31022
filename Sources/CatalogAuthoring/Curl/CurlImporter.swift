import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Turns a curl command into a catalog endpoint. Secrets in the command (Authorization, cookies,
/// API keys, token-like query items) become `{{secret.NAME}}` placeholders, never text in the file;
/// numeric path segments become `{{…Id}}` placeholders with the number as their default.
package enum CurlImporter {
    /// The endpoint for `request`, relative to `baseURL` (the URL's origin when nil), and the names
    /// of the secrets it needs with the values the command held (for the caller to show or set,
    /// never to write).
    package static func endpoint(
        for request: CurlRequest, service: String, id: String? = nil, baseURL: URL? = nil, redactor: Redactor = .standard
    ) throws(AuthoringError) -> (endpoint: CatalogDraft.Endpoint, secrets: [(name: String, value: String)]) {
        var secrets: [(name: String, value: String)] = []
        func secret(_ label: String, _ value: String) -> String {
            let name = Identifier.secretName(service, label)
            if !secrets.contains(where: { $0.name == name }) { secrets.append((name, value)) }
            return "{{secret.\(name)}}"
        }
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            throw .invalidInput("'\(request.url)' is not a valid URL")
        }
        var path = components.percentEncodedPath
        if let baseURL {
            let prefix = baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path
            guard origin(of: request.url) == origin(of: baseURL), path.hasPrefix(prefix) else {
                throw .usage("\(request.url.absoluteString) is not under \(baseURL.absoluteString)")
            }
            path = String(path.dropFirst(prefix.count))
        }
        if path.isEmpty { path = "/" }

        var endpoint = CatalogDraft.Endpoint(id: "", method: request.method.rawValue, path: "")
        var segments: [String] = []
        var words: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if !segment.isEmpty, segment.allSatisfy(\.isNumber) {
                var name = (words.last ?? "").lowercased()
                if name.hasSuffix("s") { name.removeLast() }
                var placeholder = name.isEmpty ? "id" : "\(name)Id"
                while endpoint.parameters.contains(where: { $0.0 == placeholder }) { placeholder += "2" }
                endpoint.parameters.append((placeholder, segment))
                segments.append("{{\(placeholder)}}")
            } else {
                segments.append(PercentEncoding.decode(segment) ?? segment)
                if !segment.isEmpty { words.append(PercentEncoding.decode(segment) ?? segment) }
            }
        }
        endpoint.path = segments.joined(separator: "/")
        endpoint.id = id ?? Identifier.camelCase([request.method.rawValue.lowercased()] + (words.last.map { [$0] } ?? ["root"]), fallback: "request")

        for item in components.queryItems ?? [] {
            let value = item.value.map { redactor.isSensitiveQuery(item.name) ? secret(item.name, $0) : $0 }
            endpoint.query.append((item.name, value))
        }
        for header in request.headers {
            guard redactor.isSensitive(name: header.name) else {
                endpoint.headers.append(header)
                continue
            }
            let lower = header.name.lowercased()
            if lower == "authorization" || lower == "proxy-authorization", let space = header.value.firstIndex(of: " ") {
                let scheme = String(header.value[..<space])
                let label = scheme.lowercased() == "bearer" ? "token" : scheme
                endpoint.headers.append((header.name, "\(scheme) \(secret(label, String(header.value[header.value.index(after: space)...])))"))
            } else {
                endpoint.headers.append((header.name, secret(header.name, header.value)))
            }
        }
        if !request.form.isEmpty {
            endpoint.body = .multipart(request.form.map { field in
                var field = field
                field.value = field.value.map { redactor.isSensitiveQuery(field.name) ? secret(field.name, $0) : $0 }
                return field
            })
        } else if let body = request.body {
            let contentType = request.header("Content-Type")?.lowercased() ?? ""
            if contentType.contains("json"), let value = try? JSONValue.parse(body) {
                let redacted = redactedJSON(value, redactor: redactor, secret: secret)
                // The bytes as written (a signed body stays valid), unless a credential in them is
                // replaced by a placeholder, which needs the JSON rewritten.
                endpoint.body = redacted == value ? .text(body) : .json(redacted)
            } else if contentType.contains("x-www-form-urlencoded") {
                endpoint.body = .form(FormEncoding.decode(body).map { item in
                    let value = item.value ?? ""
                    return (item.name, redactor.isSensitiveQuery(item.name) ? secret(item.name, value) : value)
                })
            } else {
                endpoint.body = .text(body)
            }
        }
        return (endpoint, secrets)
    }

    /// A whole catalog for one curl command: a service named after the host, one environment at
    /// the URL's origin (live by default, as the command was), the endpoint, and notes naming the
    /// secrets to set.
    package static func catalog(for request: CurlRequest, service: String? = nil, id: String? = nil) throws(AuthoringError) -> CatalogDraft {
        let serviceID = service ?? serviceName(for: request.url)
        let (endpoint, secrets) = try Self.endpoint(for: request, service: serviceID, id: id)
        var draft = CatalogDraft(service: serviceID)
        draft.header = "Imported from a curl command by `apiexplorer import curl`."
        var environment = CatalogDraft.Environment(name: "default", baseURL: origin(of: request.url), comment: "from the command's URL")
        environment.fixtures = "never"
        environment.insecure = request.insecure
        draft.environments = [environment]
        draft.endpoints = [endpoint]
        let basic = endpoint.headers.first { $0.0.lowercased() == "authorization" && $0.1.lowercased().hasPrefix("basic {{secret.") }
        draft.notes = secrets.map { secret -> ImportNote in
            var note = "set $APIEXPLORER_SECRET_\(secret.name) in the environment or \(secret.name) in .env beside the catalog (the command's value is not written)"
            // `-u 'user:pa:ss'` (or a URL's userinfo): the header carries the pair encoded, and so does the secret.
            if let basic, basic.1.contains("{{secret.\(secret.name)}}") {
                note += "; it is the base64 of USER:PASSWORD as Authorization: Basic carries it (printf %s 'user:pa:ss' | base64), not the password alone"
            }
            return ImportNote(.info, note)
        }
        if request.hadURLCredentials {
            draft.notes.append("the URL held a user and password: they are sent as Authorization: Basic, as curl sends them, and kept as a secret, not in the catalog")
        }
        if request.insecure { draft.notes.append("the command used -k: TLS verification is off for this environment") }
        return draft
    }

    /// `api.example.com` → `example`; `localhost` → `localhost`; an IP address → `local`.
    package static func serviceName(for url: URL) -> String {
        guard let host = url.host, !host.isEmpty else { return "imported" }
        if host.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) { return "local" }
        let labels = host.split(separator: ".")
        return Identifier.make(String(labels.count >= 2 ? labels[labels.count - 2] : labels[0]), fallback: "imported")
    }

    /// `https://host:port`.
    static func origin(of url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = url.host
        components.port = url.port
        return components.string ?? ""
    }

    /// `value` with the strings of secret-named members replaced by `secret(name, value)`.
    static func redactedJSON(_ value: JSONValue, redactor: Redactor, secret: (String, String) -> String) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                if redactor.isSensitive(name: member.key), case .string(let text) = member.value {
                    return (member.key, .string(secret(member.key, text)))
                }
                return (member.key, redactedJSON(member.value, redactor: redactor, secret: secret))
            }))
        case .array(let elements):
            return .array(elements.map { redactedJSON($0, redactor: redactor, secret: secret) })
        default:
            return value
        }
    }
}
