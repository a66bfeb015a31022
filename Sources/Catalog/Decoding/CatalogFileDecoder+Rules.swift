import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let errorRuleKeys = ["name", "status", "when", "error", "message"]
    static let authKeys = ["refresh", "digest", "oauth2"]
    static let oauth2Keys = [
        "grant", "tokenURL", "clientID", "clientSecret", "clientAuth", "scopes", "audience", "parameters", "username", "password",
        "header", "prefix", "stubToken", "deviceAuthorizationURL", "authorizationURL", "persist", "issuer",
    ]
    static let oauth2Grants = ["client_credentials", "password", "device_code", "authorization_code"]
    static let digestKeys = ["username", "password"]
    static let refreshKeys = ["endpoint", "on", "token", "into"]

    // MARK: Error rules

    func decodeErrorRules(_ node: YAMLNode) -> [ErrorRule] {
        guard case .sequence(let sequence) = node.content else {
            error("'errors' must be a list of rules (- status: 400, error: badRequest), not \(describe(node))", at: node)
            return []
        }
        var rules: [ErrorRule] = []
        for (index, element) in sequence.enumerated() {
            if let rule = decodeErrorRule(element, index: index) { rules.append(rule) }
        }
        return rules
    }

    private func decodeErrorRule(_ node: YAMLNode, index: Int) -> ErrorRule? {
        let subject = "error rule \(index + 1)"
        guard let fields = entries(node, subject, allowed: Self.errorRuleKeys) else { return nil }
        require(["error"], in: fields, of: node, subject)
        let before = errorCount
        var name: String?
        var statuses = ErrorRule.StatusMatch.any
        var when: JSONPath?
        var kindName: String?
        var message: ErrorRule.Message?
        for field in fields {
            let value = field.value
            switch field.key {
            case "name": name = nonEmptyText(value, "the name of \(subject)")
            case "status": statuses = decodeStatusMatch(value, subject) ?? .any
            case "when": when = jsonPath(value, "'when' of \(subject)")
            case "error":
                guard let text = nonEmptyText(value, "the error of \(subject)"), identifier(text, at: value, "error kind") else { continue }
                kindName = text
                if !ErrorKind.builtInNames.contains(text), let builtIn = DidYouMean.suggestion(for: text, among: ErrorKind.builtInNames) {
                    warning("'\(text)' is not a built-in error kind, so it is a custom one; did you mean '\(builtIn)'?", at: value)
                }
            case "message":
                guard let text = nonEmptyText(value, "the message of \(subject)") else { continue }
                if text.hasPrefix("$") {
                    message = jsonPath(value, "the message of \(subject)").map(ErrorRule.Message.path)
                } else {
                    message = .text(text)
                }
            default: break
            }
        }
        if !fields.contains(where: { $0.key == "status" }), when == nil {
            warning("\(subject) has neither 'status' nor 'when', so it turns every response into an error, successes included", at: node)
        }
        guard errorCount == before, let kindName else { return nil }
        let line = node.line
        return ErrorRule(
            name: name ?? "\(kindName) (\(fileName):\(line))", statuses: statuses, when: when,
            kind: ErrorKind(name: kindName, status: statuses.representativeStatus), message: message)
    }

    /// `404`, `[401, 403]`, `4xx`, `500-599` or `any`.
    func decodeStatusMatch(_ node: YAMLNode, _ what: @autoclosure () -> String) -> ErrorRule.StatusMatch? {
        if case .sequence = node.content {
            let codes = list(node, "the status of \(what())").compactMap { integer($0, "a status of \(what())", in: 100...599) }
            return .codes(Set(codes))
        }
        guard case .scalar(let scalar) = node.content else {
            error("the status of \(what()) must be a status (404), a list ([401, 403]), a class (4xx), a range (500-599) or any, not \(describe(node))", at: node)
            return nil
        }
        if case .int(let code) = YAMLScalar(scalar) {
            guard (100...599).contains(code) else {
                error("the status of \(what()) must be between 100 and 599, not \(code)", at: node)
                return nil
            }
            return .codes([code])
        }
        let text = scalar.text.trimmedSpaces.lowercased()
        if text == "any" || text == "*" { return .any }
        if text.count == 3, text.hasSuffix("xx"), let digit = Int(text.prefix(1)), (1...5).contains(digit) {
            return .range((digit * 100)...(digit * 100 + 99))
        }
        let bounds = text.split(separator: "-").map { Int($0.trimmedSpaces) }
        if bounds.count == 2, let low = bounds[0], let high = bounds[1], low <= high, (100...599).contains(low), (100...599).contains(high) {
            return .range(low...high)
        }
        error("the status of \(what()) must be a status (404), a list ([401, 403]), a class (4xx), a range (500-599) or any, not '\(scalar.text)'", at: node)
        return nil
    }

    // MARK: Auth

    /// The refresh rule. Endpoints that put the refreshed token where it cannot be replaced per
    /// attempt (the path or the body) are left out with an error.
    func decodeAuth(_ node: YAMLNode, endpoints: inout [CatalogEndpoint], environments: [Environment])
        -> (refresh: AuthRefreshRule?, digest: DigestCredentials?, oauth2: OAuth2Settings?)
    {
        guard let fields = entries(node, "'auth'", allowed: Self.authKeys) else { return (nil, nil, nil) }
        let digest = fields.first { $0.key == "digest" }.flatMap(decodeDigest)
        let oauth2 = fields.first { $0.key == "oauth2" }.flatMap(decodeOAuth2)
        guard let refresh = fields.first(where: { $0.key == "refresh" }) else { return (nil, digest, oauth2) }
        return (decodeRefresh(refresh, endpoints: &endpoints, environments: environments), digest, oauth2)
    }

    /// `auth.oauth2`: the grant, the token endpoint and the client, secrets as `{{secret.NAME}}`.
    private func decodeOAuth2(_ entry: Entry) -> OAuth2Settings? {
        let subject = "'auth.oauth2'"
        guard let parts = entries(entry.value, subject, allowed: Self.oauth2Keys) else { return nil }
        require(["clientID"], in: parts, of: entry.keyNode, subject)
        if !parts.contains(where: { $0.key == "tokenURL" || $0.key == "issuer" }) {
            error("'auth.oauth2' needs 'tokenURL', or 'issuer' to read the endpoints from the issuer's metadata", at: entry.keyNode)
        }
        let before = errorCount
        var settings = OAuth2Settings(tokenURL: "", clientID: "")
        for part in parts {
            let value = part.value
            let what = "auth.oauth2.\(part.key)"
            switch part.key {
            case "grant":
                guard let grant = nonEmptyText(value, what) else { continue }
                if Self.oauth2Grants.contains(grant) {
                    settings.grant = grant
                } else if grant == "urn:ietf:params:oauth:grant-type:device_code" {
                    settings.grant = "device_code"
                } else {
                    error("'\(grant)' is not a grant apiexplorer knows (\(Self.oauth2Grants.joined(separator: ", ")))\(DidYouMean.hint(for: grant, among: Self.oauth2Grants))", at: value)
                }
            case "tokenURL": settings.tokenURL = nonEmptyText(value, what) ?? ""
            case "clientID": settings.clientID = nonEmptyText(value, what) ?? ""
            case "clientSecret": settings.clientSecret = text(value, what)
            case "clientAuth":
                guard let auth = nonEmptyText(value, what) else { continue }
                if ["basic", "post"].contains(auth) { settings.clientAuth = auth } else { error("auth.oauth2.clientAuth is basic or post, not '\(auth)'", at: value) }
            case "scopes":
                if case .sequence = value.content {
                    settings.scopes = list(value, what).compactMap { nonEmptyText($0, "a scope in \(what)") }
                } else {
                    settings.scopes = (text(value, what) ?? "").split(separator: " ").map(String.init)
                }
            case "audience": settings.audience = nonEmptyText(value, what)
            case "parameters": settings.parameters = textDictionary(value, what) ?? [:]
            case "username": settings.username = nonEmptyText(value, what)
            case "password": settings.password = text(value, what)
            case "header": settings.header = nonEmptyText(value, what) ?? "Authorization"
            case "prefix": settings.prefix = text(value, what) ?? ""
            case "deviceAuthorizationURL": settings.deviceAuthorizationURL = nonEmptyText(value, what)
            case "authorizationURL": settings.authorizationURL = nonEmptyText(value, what)
            case "issuer": settings.issuer = nonEmptyText(value, what)
            case "persist": settings.persist = boolean(value, what) ?? false
            default: settings.stubToken = nonEmptyText(value, what) ?? settings.stubToken
            }
        }
        if settings.grant == "authorization_code", settings.authorizationURL == nil, settings.issuer == nil {
            error("the authorization_code grant needs auth.oauth2.authorizationURL (where the browser signs in)", at: entry.keyNode)
        }
        if settings.grant == "device_code", settings.deviceAuthorizationURL == nil, settings.issuer == nil {
            error("the device_code grant needs auth.oauth2.deviceAuthorizationURL (where the user code is asked for)", at: entry.keyNode)
        }
        if settings.grant == "password", settings.username == nil || settings.password == nil {
            error("the password grant needs auth.oauth2.username and auth.oauth2.password", at: entry.keyNode)
        }
        guard errorCount == before else { return nil }
        return settings
    }

    /// `auth.refresh`.
    private func decodeRefresh(_ refresh: Entry, endpoints: inout [CatalogEndpoint], environments: [Environment]) -> AuthRefreshRule? {
        let subject = "auth.refresh"
        guard let parts = entries(refresh.value, "'\(subject)'", allowed: Self.refreshKeys) else { return nil }
        require(["endpoint", "token", "into"], in: parts, of: refresh.keyNode, "'\(subject)'")
        let before = errorCount
        var endpointID: String?
        var statuses: Set<Int> = []
        var kinds: Set<ErrorKind> = []
        var token: JSONPath?
        var into: String?
        var intoNode: YAMLNode?
        var hasOn = false
        for part in parts {
            let value = part.value
            switch part.key {
            case "endpoint":
                guard let id = nonEmptyText(value, "\(subject).endpoint") else { continue }
                if endpoints.contains(where: { $0.id == id }) {
                    endpointID = id
                } else {
                    let hint = DidYouMean.hint(for: id, among: endpoints.map(\.id))
                    error("\(subject).endpoint names '\(id)', which is not a loaded endpoint of this service\(hint)", at: value)
                }
            case "on":
                hasOn = true
                for trigger in list(value, "\(subject).on") {
                    guard case .scalar(let scalar) = trigger.content else {
                        error("\(subject).on lists statuses (401) and error kinds (expiredUserSession), not \(describe(trigger))", at: trigger)
                        continue
                    }
                    if case .int = YAMLScalar(scalar) {
                        if let status = integer(trigger, "a status in \(subject).on", in: 100...599) { statuses.insert(status) }
                    } else if let name = nonEmptyText(trigger, "an error kind in \(subject).on"), identifier(name, at: trigger, "error kind") {
                        kinds.insert(ErrorKind(name: name))
                    }
                }
            case "token": token = jsonPath(value, "\(subject).token")
            default:
                guard var name = nonEmptyText(value, "\(subject).into") else { continue }
                if let secret = Placeholder(name).secretName { name = secret }
                into = name
                intoNode = value
            }
        }
        if !hasOn { statuses = [401] }
        guard errorCount == before, let endpointID, let token, let into else { return nil }

        var used = false
        // Read in place: iterating the array (or `removeAll(where:)`) copied every endpoint.
        let misplacedAt: [Int] = endpoints.withUnsafeBufferPointer { endpoints in
            endpoints.indices.filter { index in
                let placement = tokenPlacement(of: into, in: endpoints[index])
                used = used || placement.headersOrQuery
                guard let misplaced = placement.misplaced else { return false }
                let mark = endpoints[index].location
                report(.error, "endpoint '\(endpoints[index].id)' uses the refreshed token \(Placeholder.secret(into)) in its \(misplaced); "
                    + "a refreshed token can be put in headers and query items only", line: mark.line, column: mark.column)
                isolatedErrorCount += 1
                return true
            }
        }
        for index in misplacedAt.reversed() { endpoints.remove(at: index) }
        for environment in environments {
            let texts = environment.headers.map(\.value) + environment.groupHeaders.values.flatMap { $0.map(\.value) }
            used = used || texts.contains { CatalogFileDecoder.uses(into, in: $0) }
        }
        if !used {
            warning("\(subject).into is \(into), but no header or query item uses {{secret.\(into)}}: the refreshed token would go nowhere", at: intoNode)
        }
        if !endpoints.contains(where: { $0.id == endpointID }) {
            error("\(subject).endpoint '\(endpointID)' was left out because of the errors above", at: parts.first { $0.key == "endpoint" }?.value)
            return nil
        }
        return AuthRefreshRule(endpoint: endpointID, statuses: statuses, kinds: kinds, token: token, into: into)
    }

    /// `auth.digest: { username: ann, password: "{{secret.PASSWORD}}" }`: answered on a 401 Digest challenge.
    private func decodeDigest(_ digest: Entry) -> DigestCredentials? {
        guard let parts = entries(digest.value, "'auth.digest'", allowed: Self.digestKeys) else { return nil }
        require(["username", "password"], in: parts, of: digest.keyNode, "'auth.digest'")
        var username: String?
        var password: String?
        for part in parts {
            switch part.key {
            case "username": username = nonEmptyText(part.value, "auth.digest.username")
            default: password = text(part.value, "auth.digest.password")
            }
        }
        guard let username, let password else { return nil }
        return DigestCredentials(username: username, password: password)
    }

    /// Where an endpoint uses the token variable.
    func tokenPlacement(of name: String, in endpoint: CatalogEndpoint) -> (headersOrQuery: Bool, misplaced: String?) {
        let inHeaders = endpoint.headers.contains { CatalogFileDecoder.uses(name, in: $0.value) }
            || endpoint.query.contains { $0.value.map { CatalogFileDecoder.uses(name, in: $0) } ?? false }
        if CatalogFileDecoder.uses(name, in: endpoint.path) { return (inHeaders, "path") }
        var inBody = false
        switch endpoint.body {
        case .json(let value): value.forEachString { inBody = inBody || CatalogFileDecoder.uses(name, in: $0) }
        case .text(let text, _): inBody = CatalogFileDecoder.uses(name, in: text)
        case .form(let items): inBody = items.contains { $0.value.map { CatalogFileDecoder.uses(name, in: $0) } ?? false }
        case .multipart(let fields):
            inBody = fields.contains { if case .text(let text) = $0.content { CatalogFileDecoder.uses(name, in: text) } else { false } }
        case .none, .data, .file: break
        }
        return (inHeaders, inBody ? "body" : nil)
    }

    /// Whether a template uses `{{secret.NAME}}` or `{{NAME}}`.
    static func uses(_ name: String, in text: String) -> Bool {
        guard text.hasPlaceholderOpening, text.containsBytes(name) else { return false }
        return Template(text).placeholders.contains { $0 == name || Placeholder($0).secretName == name }
    }
}

extension ErrorRule.StatusMatch {
    /// The status a `clientError`/`serverError` kind reports: the rule's only or lowest status.
    var representativeStatus: Int? {
        switch self {
        case .any: nil
        case .codes(let codes): codes.min()
        case .range(let range): range.lowerBound
        }
    }
}
