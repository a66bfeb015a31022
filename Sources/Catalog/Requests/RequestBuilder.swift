import DispatcherCore
import FoundationEssentials
import JSONSupport
import Synchronization
import TextSupport

/// Turns a catalog endpoint into a core `Target` and the `Environment` to send it in, with every
/// placeholder rendered.
///
/// `{{name}}` is looked up, first match wins, in: run-time values (set by the user), the endpoint's
/// `parameters`, the environment's `variables`, the service's `variables`.
/// `{{secret.NAME}}` is looked up in: run-time values (`secret.NAME`), the environment variable the
/// catalog declares for it or `APIEXPLORER_SECRET_NAME` (a trusted catalog only), the `.env` beside
/// the catalog, the environment's `secretDefaults`. Values put in the path are percent-encoded (a `/` is kept).
package struct RequestBuilder: Sendable {
    /// The service.
    package let service: Service
    /// The environment as written in the catalog.
    package let environment: Environment
    /// Where secrets come from.
    package let secrets: SecretStore
    /// When set, `{{secret.NAME}}`/`{{NAME}}` for this name is left as `{{secret.NAME}}` for the
    /// session's adapter to fill per attempt from the credential store (the auth refresh rule's `into`).
    package let deferredToken: String?
    /// What `{{$uuid}}`, `{{$timestamp}}` … are made from.
    package var generators: TemplateGenerators
    /// The secrets the service declares (`ServiceReach`, what its trust question lists): no other
    /// is read from the environment or `.env`, whatever a request names.
    private let declared: DeclaredSecrets

    /// Makes a builder.
    package init(
        service: Service, environment: Environment, secrets: SecretStore, deferredToken: String? = nil, generators: TemplateGenerators = .system
    ) {
        self.service = service
        self.environment = environment
        self.secrets = secrets
        self.deferredToken = deferredToken
        self.generators = generators
        declared = DeclaredSecrets(service)
    }

    /// Whether the service declares the secret `name` (see `ServiceReach`).
    package func declares(secret name: String) -> Bool { declared.contains(name) }

    /// The target and environment for `endpoint` with `values` set at run time and values
    /// `captured` from responses (response references included, by placeholder name); inherited
    /// headers (the environment's, the group's) named in the endpoint's `omittedHeaders` or in
    /// `removingHeaders` are left out.
    package func prepare(
        _ endpoint: CatalogEndpoint, values: [String: String] = [:], captured: [String: CapturedValue] = [:], removingHeaders: Set<String> = []
    ) throws(UnresolvedPlaceholderError) -> PreparedRequest {
        let removingHeaders = removingHeaders.union(endpoint.omittedHeaders)
        var renderer = Renderer(builder: self, endpoint: endpoint, values: values, captured: captured)
        let path = renderer.render(endpoint.path, at: "path", encoding: .path)
        let query = endpoint.query.map { item in
            QueryItem(name: item.name, value: item.value.map { renderer.render($0, at: "query item \(item.name)") })
        }
        var headers = Headers()
        for field in endpoint.headers {
            headers.add(field.name, renderer.render(field.value, at: "header \(field.name)"), origin: field.origin)
        }
        let body = renderer.render(endpoint.body)

        var prepared = environment
        prepared.headers = renderer.render(
            environment.headers.removing(removingHeaders), at: "header", of: "environment \(environment.name)")
        prepared.groupHeaders = [:]
        if let group = endpoint.group, let groupHeaders = environment.groupHeaders[group] {
            prepared.groupHeaders[group] = renderer.render(groupHeaders.removing(removingHeaders), at: "header", of: "group \(group)")
        }
        if !renderer.unresolved.isEmpty {
            throw UnresolvedPlaceholderError(endpoint: endpoint.key.description, uses: renderer.unresolved, secretHint: secrets.hint(for: service))
        }
        let target = Target(
            endpoint.method, path, identifier: endpoint.key.description, query: query, headers: headers, body: body,
            group: endpoint.group, sampleResponse: endpoint.stub.sample, examples: endpoint.examples.map(\.namedSample),
            validation: endpoint.validation, timeouts: endpoint.timeouts, expectsResponseBody: endpoint.expectsResponseBody,
            webSocketScript: endpoint.webSocket?.script)
        return PreparedRequest(target: target, environment: prepared, endpoint: endpoint)
    }

    /// A WebSocket message (or an expected value, `at` another place) with its placeholders filled
    /// as the endpoint's request would fill them.
    package func renderMessage(
        _ text: String, for endpoint: CatalogEndpoint, values: [String: String] = [:], captured: [String: CapturedValue] = [:],
        at location: String = "message"
    ) throws(UnresolvedPlaceholderError) -> String {
        guard text.hasPlaceholderOpening else { return text }
        var renderer = Renderer(builder: self, endpoint: endpoint, values: values, captured: captured)
        let rendered = renderer.render(text, at: location)
        if !renderer.unresolved.isEmpty {
            throw UnresolvedPlaceholderError(endpoint: endpoint.key.description, uses: renderer.unresolved, secretHint: secrets.hint(for: service))
        }
        return rendered
    }

    /// Every placeholder a request for `endpoint` uses (its own, its environment's and its group's
    /// headers but the omitted ones), with where each value comes from; secret values are masked
    /// unless `revealingSecrets`.
    /// `text` with its placeholders filled from the environment, the service and the secrets
    /// (credentials of `auth`, outside any endpoint); nil when one has no value.
    package func render(serviceText text: String) -> String? {
        var renderer = Renderer(builder: self, endpoint: CatalogEndpoint(id: "", serviceID: service.id, path: "/"), values: [:], captured: [:])
        let rendered = renderer.render(text, at: "auth")
        return renderer.unresolved.isEmpty ? rendered : nil
    }

    package func variables(
        for endpoint: CatalogEndpoint, values: [String: String] = [:], captured: [String: CapturedValue] = [:], revealingSecrets: Bool = false
    ) -> [ResolvedVariable] {
        var texts = endpoint.templateTexts + environment.headers.removing(endpoint.omittedHeaders).map(\.value)
        if let group = endpoint.group { texts += environment.groupHeaders[group]?.removing(endpoint.omittedHeaders).map(\.value) ?? [] }
        var seen = Set<String>()
        var result: [ResolvedVariable] = []
        for text in texts where text.hasPlaceholderOpening {
            for name in Template(text).placeholders where seen.insert(name).inserted {
                let placeholder = Placeholder(name)
                if let token = deferredToken, placeholder.secretName == token || name == token {
                    result.append(ResolvedVariable(name: name, value: nil, source: .refreshedToken, isSecret: true))
                } else if let found = resolve(placeholder, endpoint: endpoint, values: values, captured: captured) {
                    let isSecret = placeholder.secretName != nil
                    let shown = isSecret && !revealingSecrets ? Redactor.mask : found.value
                    result.append(ResolvedVariable(name: name, value: shown, source: found.source, isSecret: isSecret))
                } else {
                    result.append(ResolvedVariable(name: name, value: nil, source: nil, isSecret: placeholder.secretName != nil))
                }
            }
        }
        return result
    }

    /// The value of a placeholder and where it came from; nil when it has none.
    func resolve(
        _ placeholder: Placeholder, endpoint: CatalogEndpoint, values: [String: String], captured: [String: CapturedValue]
    ) -> (value: String, source: VariableSource)? {
        if let secret = placeholder.secretName {
            // A run-time value for a secret wins (set in the explorer, never written down), given
            // under the placeholder's own name or as `secret.NAME` (which `$processEnv NAME` reads too).
            if let value = values[placeholder.name] ?? values[Placeholder.secretPrefix + secret] { return (value, .runtime) }
            if declared.contains(secret), let found = secrets.lookup(secret, for: service) { return (found.value, .secret(found.source)) }
            if let value = service.secretDefaults[environment.name]?[secret] {
                return (value, .secret(.catalogDefault(environment: environment.name)))
            }
            return nil
        }
        let name = placeholder.name
        if let value = values[name] { return (value, name.hasPrefix(Prompt.prefix) ? .prompt : .runtime) }
        if case .success(let value)? = generators.value(for: name) { return (value, .generated) }
        if let found = captured[name] {
            let source: VariableSource = name.hasPrefix(ResponseReference.prefix)
                ? .response(found.endpoint, at: found.date) : .captured(found.endpoint, at: found.date)
            return (found.value, source)
        }
        if let value = endpoint.parameters[name] { return (value, .endpointParameter) }
        if let value = environment.variables[name] { return (value, .environment(environment.name)) }
        if let value = service.variables[name] { return (value, .service) }
        return nil
    }

    /// Every secret value a request of this service can carry, for the redactor.
    package var secretValues: [String] {
        service.secretNames.compactMap { name in secrets.value(name, for: service) ?? service.secretDefaults[environment.name]?[name] }
            + (service.secretDefaults[environment.name].map { Array($0.values) } ?? [])
    }
}

extension Headers {
    /// These headers without the ones named in `names` (any case).
    func removing(_ names: Set<String>) -> Headers {
        guard !names.isEmpty else { return self }
        return Headers(fields.filter { field in !names.contains { Headers.sameName($0, field.name) } })
    }
}

/// A rendered request: the core target and the environment (its headers rendered) to send it in.
package struct PreparedRequest: Sendable {
    /// The target, every placeholder filled (but the deferred token's).
    package var target: Target
    /// The environment with its headers and the endpoint's group headers rendered.
    package var environment: Environment
    /// The catalog endpoint it came from.
    package var endpoint: CatalogEndpoint
}

/// Where a placeholder's value came from.
package enum VariableSource: Sendable, Hashable, CustomStringConvertible {
    /// Set by the user at run time.
    case runtime
    /// The endpoint's `parameters`.
    case endpointParameter
    /// The variables of the named environment.
    case environment(String)
    /// The service's `variables`.
    case service
    /// A secret, from this place.
    case secret(SecretStore.Source)
    /// The auth refresh rule's token, filled for each attempt from the credential store.
    case refreshedToken
    /// Captured from a response of this endpoint (its `captures`), at this time.
    case captured(EndpointKey, at: Date)
    /// Read from the latest response of this endpoint (`{{response.ENDPOINT …}}`), received at this time.
    case response(EndpointKey, at: Date)
    /// Answered to a `{{prompt.NAME}}` question for this request.
    case prompt
    /// Made by a built-in generator (`{{$uuid}}`, `{{$timestamp}}` …) for this request.
    case generated

    package var description: String {
        switch self {
        case .runtime: "run-time value"
        case .endpointParameter: "endpoint parameters"
        case .environment(let name): "environment \(name)"
        case .service: "service variables"
        case .secret(let source): source.description
        case .refreshedToken: "refreshed token"
        case .captured(let endpoint, _): "captured from \(endpoint)"
        case .response(let endpoint, _): "response of \(endpoint)"
        case .prompt: "asked"
        case .generated: "generated"
        }
    }
}

/// A placeholder with its value (masked for secrets) and source; nil value means unresolved.
package struct ResolvedVariable: Sendable, Hashable {
    /// The name as written (`petId`, `secret.PETSTORE_TOKEN`).
    package var name: String
    /// The value, `••••` for secrets, nil when it has none (or is filled at send time).
    package var value: String?
    /// Where the value comes from; nil when it has none.
    package var source: VariableSource?
    /// Whether this is a secret.
    package var isSecret: Bool
}

/// Placeholders without a value: names each one and where it is used. Never holds a value.
package struct UnresolvedPlaceholderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One use of a placeholder without a value.
    package struct Use: Sendable, Hashable {
        /// The name as written (`petId`, `secret.PETSTORE_TOKEN`).
        package var name: String
        /// Where it is used (`path`, `header Authorization`, `query item status`, `body`).
        package var location: String
    }

    /// `service/endpoint`.
    package var endpoint: String
    /// Every use without a value, in order.
    package var uses: [Use]
    /// Where secrets can be set.
    package var secretHint: SecretHint

    /// One line per use: `petstore/findPet: header Authorization uses {{secret.PETSTORE_TOKEN}}, which has no value (…)`.
    package var description: String {
        uses.map { use in
            let hint: String
            let service = endpoint.split(separator: "/").first.map(String.init) ?? ""
            if let secret = Placeholder(use.name).secretName {
                hint = secretHint.sentence(for: secret)
            } else if case .success(let reference)? = ResponseReference.parse(use.name, service: service) {
                hint = "send \(reference.endpoint) first in this environment, or check that its latest response has \(reference.selector)"
            } else if case .failure(let problem)? = ResponseReference.parse(use.name, service: service) {
                hint = problem.message
            } else if case .failure(let problem)? = TemplateGenerators.system.value(for: use.name) {
                hint = problem.message
            } else if use.name.hasPrefix("$") {
                hint = "not a built-in generator (\(TemplateGenerators.names.joined(separator: ", ")), $processEnv NAME or $dotenv NAME); "
                    + "give it a value with a run-time value or in variables"
            } else if use.name.hasPrefix(Prompt.prefix) {
                hint = "it is asked when the request is sent: answer it in the explorer, or give --var \(use.name)=… to call"
            } else {
                hint = "set it as a run-time value, in the endpoint's parameters or in the environment's variables, or capture it from a response"
            }
            return "\(endpoint): \(use.location) uses {{\(use.name)}}, which has no value (\(hint))"
        }.joined(separator: "\n")
    }

    /// The error as the dispatcher reports it (`invalidRequest`).
    package var dispatchError: DispatchError { .invalidRequest(description) }
}

/// Renders the texts of one request, collecting every unresolved use.
private struct Renderer {
    /// How a value is written where its placeholder was: as it is, percent-encoded for a path, or
    /// escaped for inside a JSON string.
    enum Encoding { case none, path, jsonString }

    let builder: RequestBuilder
    let endpoint: CatalogEndpoint
    let values: [String: String]
    let captured: [String: CapturedValue]
    var unresolved: [UnresolvedPlaceholderError.Use] = []

    init(builder: RequestBuilder, endpoint: CatalogEndpoint, values: [String: String], captured: [String: CapturedValue]) {
        self.builder = builder
        self.endpoint = endpoint
        self.values = values
        self.captured = captured
    }

    mutating func render(_ text: String, at location: String, encoding: Encoding = .none) -> String {
        guard text.hasPlaceholderOpening else { return text }
        var missing: [String] = []
        let rendered = (try? Template(text).render { name -> String? in
            let placeholder = Placeholder(name)
            if let token = builder.deferredToken, placeholder.secretName == token || name == token {
                return Placeholder.secret(token)
            }
            guard let found = builder.resolve(placeholder, endpoint: endpoint, values: values, captured: captured) else {
                missing.append(name)
                return ""
            }
            switch encoding {
            case .none: return found.value
            case .path: return PercentEncoding.encode(found.value, keeping: PercentEncoding.isPathAllowed)
            case .jsonString: return String(JSONValue.string(found.value).compactText.dropFirst().dropLast())
            }
        }) ?? text
        for name in missing where !unresolved.contains(where: { $0.name == name && $0.location == location }) {
            unresolved.append(UnresolvedPlaceholderError.Use(name: name, location: location))
        }
        return rendered
    }

    mutating func render(_ headers: Headers, at location: String, of owner: String) -> Headers {
        var rendered = Headers()
        for field in headers {
            rendered.add(field.name, render(field.value, at: "\(owner) \(location) \(field.name)"), origin: field.origin)
        }
        return rendered
    }

    /// A file path made from placeholders, relative to the catalog's folder (as a written one is).
    func resolvedPath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = builder.service.directory else { return path }
        return directory.appendingPathComponent(path).path
    }

    mutating func render(_ body: RequestBody) -> RequestBody {
        switch body {
        case .none, .data: return body
        case .text(let text, let contentType):
            // JSON as typed (an edited body) is sent as written; a value filled into it is escaped,
            // since its placeholders can only stand inside strings (the text parsed as JSON).
            let encoding: Encoding = contentType == EndpointEdits.jsonContentType ? .jsonString : .none
            return .text(render(text, at: "body", encoding: encoding), contentType: contentType)
        case .form(let items):
            return .form(items.map { item in QueryItem(name: item.name, value: item.value.map { render($0, at: "form field \(item.name)") }) })
        case .json(let value): return .json(render(value))
        case .file(let path, let contentType): return .file(path: resolvedPath(render(path, at: "body file")), contentType: contentType)
        case .multipart(let fields):
            return .multipart(fields.map { field in
                var rendered = field
                switch field.content {
                case .text(let text): rendered.content = .text(render(text, at: "multipart field \(field.name)"))
                case .file(let path, let filename):
                    rendered.content = .file(path: resolvedPath(render(path, at: "multipart file \(field.name)")), filename: filename)
                case .bytes: break
                }
                return rendered
            })
        }
    }

    mutating func render(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(render(text, at: "body"))
        case .array(let elements): return .array(elements.map { render($0) })
        case .object(let object):
            return .object(JSONObject(object.map { member in (render(member.key, at: "body"), render(member.value)) }))
        default: return value
        }
    }
}

/// The secret names of a service's `ServiceReach`, walked the first time one is asked for (a
/// builder made for a preview never asks).
private final class DeclaredSecrets: Sendable {
    private let service: Service
    private let names = Mutex<Set<String>?>(nil)

    init(_ service: Service) {
        self.service = service
    }

    func contains(_ name: String) -> Bool {
        names.withLock { names in
            if names == nil { names = ServiceReach.secrets(of: service) }
            return names?.contains(name) ?? false
        }
    }
}
