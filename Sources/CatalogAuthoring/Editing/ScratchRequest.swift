import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// A request typed or pasted in the explorer, outside any catalog: `METHOD URL`, a bare URL, or a
/// curl command. It is sent as the only endpoint of a service of its own, so it goes through the
/// same core (plugins, error filter, history) as catalog endpoints.
package enum ScratchRequest {
    /// Reads `curl …`, `METHOD URL` or `URL` (without a scheme: see `assumedScheme(for:)`).
    package static func parse(_ text: String) throws(AuthoringError) -> CurlRequest {
        let trimmed = text.trimmed
        guard !trimmed.isEmpty else { throw .invalidInput("type a URL (GET by default), METHOD URL, or paste a curl command") }
        if trimmed.hasPrefix("curl ") || trimmed == "curl" { return try CurlCommandParser.parse(trimmed) }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        var method = HTTPMethod.get
        var rest = words[...]
        if words.count > 1 {
            guard let given = HTTPMethod(rawValue: words[0].uppercased()) else {
                throw .invalidInput("'\(words[0])' is not a method: type METHOD URL (GET POST PUT PATCH DELETE HEAD OPTIONS), a URL, or a curl command")
            }
            method = given
            rest = words.dropFirst()
        }
        guard rest.count == 1, var address = rest.first else {
            throw .invalidInput("type one URL after the method (paste a curl command for headers and a body)")
        }
        if !address.contains("://") { address = assumedScheme(for: address) + "://" + address }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw .invalidInput("'\(address)' is not an http or https URL")
        }
        var request = CurlRequest(method: method, url: url)
        request.moveURLCredentials()
        return request
    }

    /// The scheme of an address typed without one: `http` when it names a port other than 443, or a
    /// host that is `localhost` or an IP address (where development servers listen, mostly without
    /// TLS; curl assumes http for every address); else `https`, as browsers' address bars do.
    static func assumedScheme(for address: String) -> String {
        let authority = address.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var host = Substring(authority)
        var port: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = after.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        if let port, !port.isEmpty, port != "443" { return "http" }
        let lowered = host.lowercased()
        let isAddress = lowered.contains(":") || (!lowered.isEmpty && lowered.allSatisfy { $0.isNumber || $0 == "." })
        return lowered == "localhost" || lowered.hasSuffix(".localhost") || isAddress ? "http" : "https"
    }

    /// A one-endpoint service (`id`, titled `title`) that sends `request`.
    ///
    /// When an environment's base URL holds the URL — the `preferred` environment first, then every
    /// environment of every service — the request is sent there with that environment's settings
    /// (headers, TLS, timeouts, secrets, auth refresh) and its path made relative; otherwise it
    /// goes to an environment named `direct` at the URL's origin, with default settings.
    package static func service(for request: CurlRequest, id: String, title: String, in catalog: CatalogSet, preferring preferred: EnvironmentKey?)
        -> (service: Service, matched: EnvironmentKey?)
    {
        let match = matchingEnvironment(for: request.url, in: catalog, preferring: preferred)
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let query = (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) }
        components?.query = nil
        var path = components?.percentEncodedPath ?? "/"
        let environment: Environment
        var service: Service
        if let match {
            let prefix = match.environment.baseURL.path.hasSuffix("/") ? String(match.environment.baseURL.path.dropLast()) : match.environment.baseURL.path
            path = String(path.dropFirst(prefix.count))
            environment = match.environment
            service = Service(
                id: id, title: title, file: match.service.file, directory: match.service.directory, variables: match.service.variables,
                environments: [environment], secretDefaults: match.service.secretDefaults.filter { $0.key == environment.name },
                errorRules: match.service.errorRules, authRefresh: match.service.authRefresh)
        } else {
            var origin = URLComponents()
            origin.scheme = request.url.scheme
            origin.host = request.url.host
            origin.port = request.url.port
            environment = Environment(name: "direct", baseURL: origin.url ?? request.url, fixtures: .never)
            path = path.isEmpty ? "/" : path
            service = Service(id: id, title: title, environments: [environment])
        }
        if !path.hasPrefix("/") { path = "/" + path }
        var headers = Headers()
        for header in request.headers { headers.add(header.name, header.value, origin: .endpoint) }
        let endpoint = CatalogEndpoint(
            id: "request", serviceID: id, title: "\(request.method.rawValue) \(request.url.absoluteString)", method: request.method,
            path: path, query: query, headers: headers, body: body(of: request), validation: .none)
        service.endpoints = [endpoint]
        return (service, match.map { EnvironmentKey($0.service, environment: $0.environment.name) })
    }

    /// The body as typed, byte for byte: JSON when the command says so (or it parses as JSON), else text.
    static func body(of request: CurlRequest) -> RequestBody {
        if !request.form.isEmpty {
            // Files relative to where the explorer runs, as curl reads them.
            return .multipart(request.form.map { field in
                let content: MultipartField.Content = field.file.map { .file(path: $0, filename: field.filename) } ?? .text(field.value ?? "")
                return MultipartField(name: field.name, content: content, contentType: field.contentType)
            })
        }
        guard let text = request.body else { return .none }
        let contentType = request.header("Content-Type")
        // JSON is checked, never re-encoded: the bytes pasted are the bytes sent.
        if contentType?.lowercased().contains("json") ?? true, (try? JSONValue.parse(Data(text.utf8))) != nil {
            return .text(text, contentType: contentType ?? "application/json")
        }
        // curl sends `-d` data as a form unless told otherwise.
        return .text(text, contentType: contentType ?? "application/x-www-form-urlencoded")
    }

    /// The request a scratch endpoint sends from `baseURL`, as a curl command would give it (for saving).
    package static func curlRequest(for endpoint: CatalogEndpoint, baseURL: URL) -> CurlRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let prefix = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = prefix + endpoint.path
        components.queryItems = endpoint.query.isEmpty ? nil : endpoint.query.map { URLQueryItem(name: $0.name, value: $0.value) }
        var headers = endpoint.headers.fields.map { (name: $0.name, value: $0.value) }
        let body: String?
        switch endpoint.body {
        case .none: body = nil
        case .json(let value): body = value.compactText
        case .text(let text, _): body = text
        case .data(let data, _): body = String(decoding: data, as: UTF8.self)
        case .form(let items): body = FormEncoding.encode(items)
        case .file, .multipart: body = nil
        }
        let (_, contentType) = endpoint.body.encoded()
        if let contentType, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append((name: "Content-Type", value: contentType))
        }
        return CurlRequest(method: endpoint.method, url: components.url ?? baseURL, headers: headers, body: body)
    }

    /// Whether `base` holds `url`: same scheme, host and port, and its path a prefix of the URL's.
    package static func holds(_ base: URL, _ url: URL) -> Bool {
        guard base.scheme?.lowercased() == url.scheme?.lowercased(), base.host?.lowercased() == url.host?.lowercased(),
            (base.port ?? defaultPort(base)) == (url.port ?? defaultPort(url))
        else { return false }
        let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        let path = url.path
        return prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/")
    }

    /// The environment whose base URL holds `url`, the preferred one first.
    static func matchingEnvironment(for url: URL, in catalog: CatalogSet, preferring preferred: EnvironmentKey?) -> (service: Service, environment: Environment)? {
        if let preferred, let found = catalog.environment(preferred), holds(found.environment.baseURL, url) { return found }
        for service in catalog.services {
            for environment in service.environments where holds(environment.baseURL, url) { return (service, environment) }
        }
        return nil
    }

    private static func defaultPort(_ url: URL) -> Int? {
        switch url.scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
