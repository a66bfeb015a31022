import DispatcherCore
import FoundationEssentials
import TextSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let environmentKeys = [
        "type", "baseURL", "headers", "groupHeaders", "variables", "secretDefaults", "cachePolicy", "fixtures",
        "timeouts", "retry", "redirects", "maxBodySize", "tls", "trackInflights", "handlers", "results",
    ]
    static let tlsKeys = ["pins", "ca", "clientCertificate", "insecure", "minimumVersion"]
    static let clientCertificateKeys = ["certificate", "key"]
    static let timeoutKeys = ["connect", "read", "total"]
    static let retryKeys = [
        "limit", "statuses", "methods", "networkErrors", "backoff", "multiplier", "maxBackoff", "honourRetryAfter", "maxRetryAfter",
    ]
    static let redirectKeys = ["follow", "limit", "allowDowngrade"]

    /// An environment with what the core's `Environment` does not carry.
    struct DecodedEnvironment {
        var environment: Environment
        var secretDefaults: [String: String]
        /// `handlers:` of this environment, replacing the service's chain here.
        var handlers: [HandlerRule]?
        /// `results:` of this environment, replacing the service's.
        var results: [HandlerRule]?
    }

    func decodeEnvironments(_ node: YAMLNode, groups: [EndpointGroup]) -> [DecodedEnvironment] {
        guard let entries = entries(node, "'environments'") else { return [] }
        return entries.compactMap { entry in
            isolated { decodeEnvironment(entry, groups: groups) }
        }
    }

    private func decodeEnvironment(_ entry: Entry, groups: [EndpointGroup]) -> DecodedEnvironment? {
        let name = entry.key
        guard identifier(name, at: entry.keyNode, "environment") else { return nil }
        let subject = "environment '\(name)'"
        let moved = [
            "pins": "'tls'", "ca": "'tls'", "insecure": "'tls'", "clientCertificate": "'tls'", "minimumVersion": "'tls'",
            "connect": "'timeouts'", "read": "'timeouts'",
        ]
        guard let fields = entries(entry.value, subject, allowed: Self.environmentKeys, moved: moved) else { return nil }
        require(["baseURL"], in: fields, of: entry.keyNode, subject)
        var baseURL: URL?
        var environment = Environment(name: name, baseURL: URL(fileURLWithPath: "/"))
        var secretDefaults: [String: String] = [:]
        var secretDefaultsNode: YAMLNode?
        var handlers: [HandlerRule]?
        var results: [HandlerRule]?
        var groupOverrides: [String: Headers] = [:]
        for field in fields {
            let value = field.value
            switch field.key {
            case "type":
                if let label = nonEmptyText(value, "the type of \(subject)") { environment.type = EnvironmentType(label: label) }
            case "baseURL": baseURL = decodeBaseURL(value, subject)
            case "headers":
                environment.headers = headers(value, "the headers of \(subject)", origin: .environment(name)) ?? Headers()
                warnAboutLiteralCredentials(in: value, "the headers of \(subject)")
            case "groupHeaders": groupOverrides = decodeGroupHeaders(value, subject, groups: groups)
            case "variables": environment.variables = textDictionary(value, "the variables of \(subject)") ?? [:]
            case "secretDefaults":
                secretDefaults = textDictionary(value, "the secretDefaults of \(subject)") ?? [:]
                secretDefaultsNode = field.keyNode
            case "cachePolicy":
                if let policy = decodeCachePolicy(value, subject) { environment.cachePolicy = policy }
            case "fixtures":
                if let behavior = decodeFixtures(value, subject) { environment.fixtures = behavior }
            case "timeouts":
                if let timeouts = decodeTimeouts(value, "the timeouts of \(subject)", base: .standard) { environment.timeouts = timeouts }
            case "retry":
                if let retry = decodeRetry(value, subject) { environment.retry = retry }
            case "redirects":
                if let redirects = decodeRedirects(value, subject) { environment.redirects = redirects }
            case "maxBodySize":
                if let size = byteCount(value, "the maxBodySize of \(subject)") { environment.maximumBodySize = size }
            case "tls":
                if let trust = decodeTLS(value, subject) { environment.trust = trust }
            case "handlers": handlers = decodeHandlerRules(value, "handler of \(subject)")
            case "results": results = decodeHandlerRules(value, "result handler of \(subject)", results: true)
            case "trackInflights":
                environment.tracksInflights = boolean(value, "'trackInflights' of \(subject)") ?? false
            default: break
            }
        }
        if !secretDefaults.isEmpty, environment.type.isProduction {
            error("\(subject) is a production environment: secretDefaults are for local and demo environments; "
                + "take production secrets from the process environment or .env", at: secretDefaultsNode)
        }
        for weakness in environment.trust.weaknesses {
            warning("in \(subject), \(weakness)", at: fields.first { $0.key == "tls" }?.keyNode)
        }
        var groupHeaders: [String: Headers] = [:]
        for group in groups where !group.headers.isEmpty { groupHeaders[group.id] = group.headers }
        for (group, headers) in groupOverrides {
            var merged = groupHeaders[group] ?? Headers()
            merged.merge(headers, origin: .group(group))
            groupHeaders[group] = merged
        }
        environment.groupHeaders = groupHeaders
        guard let baseURL else { return nil }
        environment.baseURL = baseURL
        return DecodedEnvironment(environment: environment, secretDefaults: secretDefaults, handlers: handlers, results: results)
    }

    private func decodeBaseURL(_ node: YAMLNode, _ what: @autoclosure () -> String) -> URL? {
        guard let text = nonEmptyText(node, "the baseURL of \(what())") else { return nil }
        if text.hasPlaceholderOpening {
            error("the baseURL of \(what()) cannot hold placeholders: give each deployment its own environment", at: node)
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            error("the baseURL of \(what()) is not a valid URL: '\(text)' (write it like https://api.example.com/v1)", at: node)
            return nil
        }
        guard scheme == "http" || scheme == "https" else {
            error("the baseURL of \(what()) must start with http:// or https://, not \(scheme)://", at: node)
            return nil
        }
        if text.utf8.contains(UInt8(ascii: " ")) {
            warning("the baseURL of \(what()) holds a space: it is sent as %20; write it percent-encoded if that is meant", at: node)
        }
        if url.query != nil || url.fragment != nil {
            warning("the baseURL of \(what()) has a query or fragment; endpoint paths are appended before it", at: node)
        }
        if URLCredentials(url).map({ !$0.password.isEmpty }) == true {
            warning(
                "the baseURL of \(what()) holds a password in clear: it is sent as Authorization: Basic (as curl sends it) and masked "
                    + "wherever it is shown, but anyone reading this file sees it; keep it out of the catalog with "
                    + "headers: { Authorization: \"Basic {{secret.NAME}}\" } and NAME in .env", at: node)
        }
        return url
    }

    private func decodeGroupHeaders(_ node: YAMLNode, _ what: @autoclosure () -> String, groups: [EndpointGroup]) -> [String: Headers] {
        guard let entries = entries(node, "the groupHeaders of \(what())") else { return [:] }
        var result: [String: Headers] = [:]
        for entry in entries {
            guard groups.contains(where: { $0.id == entry.key }) else {
                let hint = DidYouMean.hint(for: entry.key, among: groups.map(\.id))
                error("unknown group '\(entry.key)' in the groupHeaders of \(what())\(hint.isEmpty ? " (declare it under 'groups')" : hint)", at: entry.keyNode)
                continue
            }
            result[entry.key] = headers(entry.value, "the headers of group '\(entry.key)' in \(what())", origin: .group(entry.key))
            warnAboutLiteralCredentials(in: entry.value, "the headers of group '\(entry.key)' in \(what())")
        }
        return result
    }

    private func decodeCachePolicy(_ node: YAMLNode, _ what: @autoclosure () -> String) -> CachePolicy? {
        guard let text = nonEmptyText(node, "the cachePolicy of \(what())") else { return nil }
        if let policy = CachePolicy(rawValue: text) { return policy }
        let names = CachePolicy.allCases.map(\.rawValue)
        error("unknown cachePolicy '\(text)' in \(what())\(DidYouMean.hint(for: text, among: names)) (one of \(names.joined(separator: ", ")))", at: node)
        return nil
    }

    /// `never`, `immediate` or `delayed(0.3)` / `delayed(300ms)`.
    func decodeFixtures(_ node: YAMLNode, _ what: @autoclosure () -> String) -> StubBehavior? {
        guard let text = nonEmptyText(node, "the fixtures type of \(what())") else { return nil }
        let trimmed = text.trimmedSpaces
        switch trimmed {
        case "never": return .never
        case "immediate": return .immediate
        default: break
        }
        if trimmed.hasPrefix("delayed("), trimmed.hasSuffix(")") {
            let inner = String(trimmed.dropFirst("delayed(".count).dropLast())
            if let delay = CatalogFileDecoder.parseDuration(inner) { return .delayed(delay) }
        }
        error("the fixtures type of \(what()) must be never, immediate or delayed(SECONDS), not '\(text)'", at: node)
        return nil
    }

    /// Timeouts over `base`; `none` or null for a value means no limit of that kind. nil after an error.
    func decodeTimeouts(_ node: YAMLNode, _ what: @autoclosure () -> String, base: Timeouts) -> Timeouts? {
        guard let fields = entries(node, what(), allowed: Self.timeoutKeys) else { return nil }
        var timeouts = base
        var failed = false
        for field in fields {
            guard let value = optionalDuration(field.value, "'\(field.key)' in \(what())") else {
                failed = true
                continue
            }
            switch field.key {
            case "connect": timeouts.connect = value
            case "read": timeouts.read = value
            default: timeouts.total = value
            }
        }
        return failed ? nil : timeouts
    }

    /// A retry policy, `none`/`false` for no retries. The outer optional is nil after an error.
    private func decodeRetry(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RetryPolicy?? {
        if isNull(node) { return .some(nil) }
        if case .scalar(let scalar) = node.content, ["none", "false"].contains(scalar.text) { return .some(nil) }
        func place() -> String { "the retry policy of \(what())" }
        guard let fields = entries(node, place(), allowed: Self.retryKeys) else { return nil }
        var policy = RetryPolicy()
        let before = errorCount
        for field in fields {
            let value = field.value
            func name() -> String { "'\(field.key)' in \(place())" }
            switch field.key {
            case "limit": policy.limit = integer(value, name(), in: 0...100) ?? policy.limit
            case "statuses": policy.statuses = Set(list(value, name()).compactMap { integer($0, name(), in: 100...599) })
            case "methods": policy.methods = Set(list(value, name()).compactMap { method($0, name()) })
            case "networkErrors": policy.transportCodes = Set(list(value, name()).compactMap { transportCode($0, name()) })
            case "backoff": policy.initialBackoff = duration(value, name()) ?? policy.initialBackoff
            case "multiplier": policy.multiplier = number(value, name()) ?? policy.multiplier
            case "maxBackoff": policy.maximumBackoff = duration(value, name()) ?? policy.maximumBackoff
            case "honourRetryAfter": policy.honoursRetryAfter = boolean(value, name()) ?? policy.honoursRetryAfter
            default: policy.maximumRetryAfter = duration(value, name()) ?? policy.maximumRetryAfter
            }
        }
        return errorCount == before ? .some(policy) : nil
    }

    private func decodeRedirects(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RedirectPolicy? {
        if case .scalar(let scalar) = node.content, case .bool(let follow) = YAMLScalar(scalar) {
            return RedirectPolicy(follow: follow)
        }
        func place() -> String { "the redirects of \(what())" }
        guard let fields = entries(node, place(), allowed: Self.redirectKeys) else { return nil }
        var policy = RedirectPolicy()
        for field in fields {
            switch field.key {
            case "follow": policy.follow = boolean(field.value, "'follow' in \(place())") ?? policy.follow
            case "allowDowngrade": policy.allowsDowngrade = boolean(field.value, "'allowDowngrade' in \(place())") ?? policy.allowsDowngrade
            default: policy.limit = integer(field.value, "'limit' in \(place())", in: 0...100) ?? policy.limit
            }
        }
        return policy
    }

    private func decodeTLS(_ node: YAMLNode, _ what: @autoclosure () -> String) -> ServerTrust? {
        func place() -> String { "the tls settings of \(what())" }
        guard let fields = entries(node, place(), allowed: Self.tlsKeys) else { return nil }
        var trust = ServerTrust()
        for field in fields {
            let value = field.value
            switch field.key {
            case "pins":
                for pinNode in list(value, "'pins' in \(place())") {
                    guard let text = nonEmptyText(pinNode, "a pin in \(place())") else { continue }
                    do {
                        trust.pins.append(try PublicKeyPin(text))
                    } catch {
                        self.error("\(error.reason) in \(place()): '\(text)'", at: pinNode)
                    }
                }
            case "ca": trust.certificateAuthority = fileReference(value, "the CA file of \(what())")
            case "clientCertificate":
                func certificatePlace() -> String { "the clientCertificate of \(what())" }
                guard let parts = entries(value, certificatePlace(), allowed: Self.clientCertificateKeys) else { continue }
                require(Self.clientCertificateKeys, in: parts, of: field.keyNode, certificatePlace())
                var certificate: URL?
                var key: URL?
                for part in parts {
                    if part.key == "certificate" {
                        certificate = fileReference(part.value, "the client certificate file of \(what())")
                    } else {
                        key = fileReference(part.value, "the client key file of \(what())")
                    }
                }
                if let certificate, let key { trust.clientCertificate = ClientCertificate(certificate: certificate, privateKey: key) }
            case "minimumVersion":
                guard let text = nonEmptyText(value, "'minimumVersion' in \(place())") else { continue }
                if let version = TLSProtocolVersion(text) {
                    trust.minimumVersion = version
                } else {
                    self.error("'minimumVersion' in \(place()) must be 1.0, 1.1, 1.2 or 1.3, not '\(text)'", at: value)
                }
            default:
                trust.allowInsecure = boolean(value, "'insecure' in \(place())") ?? false
            }
        }
        return trust
    }

    /// An HTTP method name.
    func method(_ node: YAMLNode, _ what: @autoclosure () -> String) -> HTTPMethod? {
        guard let text = nonEmptyText(node, what()) else { return nil }
        if let method = HTTPMethod(rawValue: text.uppercased()) { return method }
        let names = HTTPMethod.allCases.map(\.rawValue)
        error("unknown method '\(text)' in \(what())\(DidYouMean.hint(for: text.uppercased(), among: names))", at: node)
        return nil
    }

    /// The codes by name: the synthesized `init(rawValue:)` compares the text with each name in turn.
    private static let transportCodes = Dictionary(uniqueKeysWithValues: TransportError.Code.allCases.map { ($0.rawValue, $0) })

    /// A transport failure's name (`timedOut`, `notConnectedToInternet` …).
    func transportCode(_ node: YAMLNode, _ what: @autoclosure () -> String) -> TransportError.Code? {
        guard let text = nonEmptyText(node, what()) else { return nil }
        if let code = Self.transportCodes[text] { return code }
        let names = TransportError.Code.allCases.map(\.rawValue)
        let hint = DidYouMean.hint(for: text, among: names)
        error("unknown network error '\(text)' in \(what())\(hint.isEmpty ? " (one of \(names.joined(separator: ", ")))" : hint)", at: node)
        return nil
    }
}
