import DispatcherCore
import JSONSupport

/// The catalog of one host of a HAR capture, built from its entries in capture order.
struct HARService {
    let origin: String
    var draft: CatalogDraft
    var secrets: SecretBook
    private var endpointIDs = UniqueNames()
    /// The statuses each endpoint already has a fixture for, by endpoint index.
    private var statuses: [Int: Set<Int>] = [:]
    /// Endpoints whose stub has no body because the capture kept none (browsers often leave
    /// response bodies out), by index.
    private var bodiless: Set<Int> = []
    /// What the person should know about this host's endpoints.
    var notes: [ImportNote] = []

    init(id: String, origin: String) {
        self.origin = origin
        draft = CatalogDraft(service: id)
        secrets = SecretBook(service: id)
    }

    mutating func add(_ entries: [HAREntry]) {
        var paths = HARPathTemplate()
        for entry in entries { paths.record(entry.segments) }
        var endpoints: [String: Int] = [:]
        for entry in entries {
            let (path, parameters) = paths.template(entry.segments)
            let key = entry.method + " " + path
            if let index = endpoints[key] {
                addResponse(entry, to: index)
                continue
            }
            var endpoint = CatalogDraft.Endpoint(id: "", method: entry.method, path: path.isEmpty ? "/" : path)
            endpoint.source = entry.location
            let words = entry.segments.filter { !$0.isEmpty && !HARPathTemplate.isID($0) }.suffix(2).map(String.init)
            endpoint.id = endpointIDs.claim(Identifier.camelCase([entry.method.lowercased()] + (words.isEmpty ? ["root"] : words), fallback: "request"))
            endpoint.parameters = parameters
            endpoint.query = entry.query.map { item in
                (item.name, item.value.map { secrets.value(named: item.name, $0) })
            }
            endpoint.headers = headers(entry.headers)
            if let body = entry.body { addBody(body, to: &endpoint) }
            draft.endpoints.append(endpoint)
            endpoints[key] = draft.endpoints.count - 1
            addResponse(entry, to: draft.endpoints.count - 1)
        }
        for index in bodiless.sorted() {
            // The stub answers as the capture did: its status and headers, no body; `call --stub` takes that.
            draft.endpoints[index].expectsBody = false
            draft.endpoints[index].stub?.description = "the capture kept no body of this response"
            notes.append(ImportNote(
                .repaired, at: draft.endpoints[index].source,
                "the capture kept no response body: the stub answers its status and headers without one (expectsBody: false)"))
        }
        var local = CatalogDraft.Environment(name: "local", baseURL: "http://127.0.0.1:4010/\(draft.service)", comment: "the mock server: `apiexplorer mock`")
        local.fixtures = "immediate"
        local.secretDefaults = secrets.standIns
        var recorded = CatalogDraft.Environment(name: "recorded", type: BaseURLTemplate.environmentType(origin), baseURL: origin, comment: "where the capture was made")
        recorded.fixtures = "never"
        draft.environments = [local, recorded]
    }

    /// The headers an endpoint keeps: not the ones clients add on their own (`:authority`,
    /// `sec-*`, Host, User-Agent …); credentials as secrets.
    private mutating func headers(_ captured: [(String, String)]) -> [(String, String)] {
        var result: [(String, String)] = []
        for (name, value) in captured {
            let lower = name.lowercased()
            guard !lower.hasPrefix(":"), !lower.hasPrefix("sec-"), !HARImporter.ignoredHeaders.contains(lower) else { continue }
            guard CredentialName.isCredential(name), !value.isEmpty else {
                result.append((name, value))
                continue
            }
            let isAuthorization = lower == "authorization" || lower == "proxy-authorization"
            result.append((name, isAuthorization ? secrets.authorization(value, label: name) : secrets.placeholder(name, identity: value)))
        }
        return result
    }

    private mutating func addBody(_ body: (mimeType: String, text: String?, params: [(String, String)]), to endpoint: inout CatalogDraft.Endpoint) {
        let type = body.mimeType.lowercased()
        if type.contains("x-www-form-urlencoded") {
            let fields = body.params.isEmpty ? RequestURL.queryItems(Substring(body.text ?? "")).map { ($0.name, $0.value ?? "") } : body.params
            endpoint.body = .form(fields.map { ($0.0, secrets.value(named: $0.0, $0.1)) })
            return
        }
        guard let text = body.text, !text.isEmpty else { return }
        switch RequestBodyText.body(text, contentType: type) {
        case .json(let value):
            endpoint.body = .json(secrets.json(value))
        case let other:
            endpoint.body = other
            if endpoint.header("Content-Type") == nil, !type.isEmpty { endpoint.headers.append(("Content-Type", body.mimeType)) }
        }
    }

    /// The first 2xx response is the stub; the first of each other status an example.
    private mutating func addResponse(_ entry: HAREntry, to index: Int) {
        guard let response = entry.response else { return }
        let isSuccess = (200..<300).contains(response.status)
        let hasBody = response.body.map { !$0.isEmpty } ?? false
        // A 2xx whose body the capture kept replaces a stub whose body it did not.
        let replacesStub = isSuccess && hasBody && bodiless.contains(index)
        guard replacesStub || statuses[index, default: []].insert(response.status).inserted else { return }
        var endpoint = draft.endpoints[index]
        let isStub = replacesStub || (endpoint.stub == nil && isSuccess)
        if isStub {
            let answersEmpty = endpoint.method == "HEAD" || [204, 205, 304].contains(response.status)
            if hasBody || answersEmpty { bodiless.remove(index) } else { bodiless.insert(index) }
        }
        var name = "default"
        if !isStub {
            var names = UniqueNames(taken: Set(endpoint.examples.map(\.name) + ["default"]))
            name = names.claim(ImportedResponse.name(for: response.status))
        }
        let made = response.example(named: name, service: draft.service, endpoint: endpoint.id)
        if let fixture = made.fixture { draft.fixtures.append(fixture) }
        if isStub { endpoint.stub = made.example } else { endpoint.examples.append(made.example) }
        draft.endpoints[index] = endpoint
    }
}
