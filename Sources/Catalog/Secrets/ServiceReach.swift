import DispatcherCore
import FoundationEssentials
import SystemSupport

/// What a service can reach outside itself, found in one walk of everything it renders as a
/// template (environments, groups, endpoints with their bodies, multipart parts, GraphQL
/// variables and WebSocket messages, flows' steps, auth) and of what it names: hosts, secrets,
/// files, downloads and the state it keeps.
///
/// The same walk decides and tells: a request's `{{secret.NAME}}` is read only when NAME is among
/// `secrets` (`RequestBuilder`), a download only when its name is among `downloads`, and the
/// trust question (`TrustDeclaration`) lists exactly these. A use the walk missed is refused, not
/// read unannounced.
package struct ServiceReach: Sendable, Hashable {
    /// Origins (`https://api.example.com`) it sends requests to, in the order found.
    package var hosts: [String] = []
    /// Environments that follow redirects, which lead wherever a server says.
    package var followsRedirects: [String] = []
    /// Every secret name it reads, sorted.
    package var secrets: [String] = []
    /// Files it reads outside its folder (absolute paths as written), and paths made from
    /// placeholders (checked in its folder when sent).
    package var files: [String] = []
    /// Whether it may read any file the person can (`allowOutsidePaths: true`).
    package var readsAnyFile = false
    /// The `download:` names it may write in the downloads folder (names that would be refused are left out).
    package var downloads: [String] = []
    /// The state it keeps between runs, for people (`keeps OAuth 2.0 tokens`).
    package var state: [String] = []

    /// The walk of `service`.
    package init(_ service: Service) {
        secrets = ServiceReach.secrets(of: service).sorted()

        func addHost(_ text: String?) {
            guard let text, !text.isEmpty else { return }
            let origin = URL(string: text).flatMap(ServiceReach.origin) ?? text
            if !hosts.contains(origin) { hosts.append(origin) }
        }
        for environment in service.environments {
            addHost(ServiceReach.origin(environment.baseURL))
            if environment.redirects.follow { followsRedirects.append(environment.name) }
        }
        if let oauth2 = service.oauth2 {
            [oauth2.tokenURL, oauth2.issuer, oauth2.deviceAuthorizationURL, oauth2.authorizationURL].forEach(addHost)
        }

        for endpoint in service.endpoints {
            for path in endpoint.bodyFilePaths where path.hasPlaceholderOpening || !ServiceReach.isInside(path, service.directory) {
                if !files.contains(path) { files.append(path) }
            }
        }
        for environment in service.environments {
            let trust = environment.trust
            for url in [trust.certificateAuthority, trust.clientCertificate?.certificate, trust.clientCertificate?.privateKey].compactMap({ $0 })
            where !ServiceReach.isInside(url.path, service.directory) && !files.contains(url.path) {
                files.append(url.path)
            }
        }
        readsAnyFile = service.allowsOutsidePaths

        for endpoint in service.endpoints {
            guard let name = endpoint.download, DownloadsFolder.nameProblem(name) == nil, !downloads.contains(name) else { continue }
            downloads.append(name)
        }

        if service.oauth2?.persist == true { state.append("keeps its OAuth 2.0 tokens between runs (its own, never another catalog's)") }
        if service.persistsCookies { state.append("keeps its cookies between runs (its own, never another catalog's)") }
        let captures = service.endpoints.contains { !$0.captures.isEmpty } || service.flows.contains { $0.steps.contains { !$0.captures.isEmpty } }
        if captures { state.append("keeps values captured from its responses") }
        var readsResponses = false
        ServiceReach.forEachTemplateText(of: service) { text in
            if !readsResponses, text.contains("{{" + ResponseReference.prefix) { readsResponses = true }
        }
        if readsResponses { state.append("reads its own latest responses ({{response.…}})") }
    }

    /// The secret names of the walk alone (what a session masks and the builder may read).
    package static func secrets(of service: Service) -> Set<String> {
        var names = Set<String>()
        forEachTemplateText(of: service) { text in
            guard text.hasPlaceholderOpening else { return }
            for name in Template(text).placeholders {
                if let secret = Placeholder(name).secretName { names.insert(secret) }
            }
        }
        if let into = service.authRefresh?.into { names.insert(into) }
        return names
    }

    /// Calls `body` with every text of `service` that is rendered as a template when it sends.
    package static func forEachTemplateText(of service: Service, _ body: (String) -> Void) {
        service.variables.values.forEach(body)
        for group in service.groups { group.headers.forEach { body($0.value) } }
        for environment in service.environments {
            environment.variables.values.forEach(body)
            environment.headers.forEach { body($0.value) }
            environment.groupHeaders.values.forEach { $0.forEach { body($0.value) } }
        }
        for endpoint in service.endpoints {
            endpoint.templateTexts.forEach(body)
            endpoint.parameters.values.forEach(body)
        }
        for flow in service.flows {
            for step in flow.steps {
                step.values.values.forEach(body)
                switch step.body {
                case .text(let text, _)?: body(text)
                case .form(let items)?: items.compactMap(\.value).forEach(body)
                case .none?, nil: break
                }
            }
        }
        if let oauth2 = service.oauth2 {
            [oauth2.tokenURL, oauth2.clientID, oauth2.clientSecret, oauth2.username, oauth2.password, oauth2.audience, oauth2.issuer,
             oauth2.deviceAuthorizationURL, oauth2.authorizationURL]
                .compactMap { $0 }.forEach(body)
            oauth2.parameters.values.forEach(body)
            oauth2.scopes.forEach(body)
        }
        if let digest = service.digest {
            body(digest.username)
            body(digest.password)
        }
    }

    /// `https://host:port` of a URL (the port when it is not the scheme's).
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    /// Whether a path as kept (absolute after load) is inside `directory`.
    static func isInside(_ path: String, _ directory: URL?) -> Bool {
        guard let directory else { return !path.hasPrefix("/") }
        guard path.hasPrefix("/") else { return !path.split(separator: "/").contains("..") }
        return ResolvedPath.isInside(path, folder: directory.path)
    }
}
