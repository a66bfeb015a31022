import DispatcherCore
import FoundationEssentials
import JSONSupport

/// One API described by one catalog file: its environments, groups, endpoints, error rules and
/// auth refresh rule, in the order they were written.
public struct Service: Sendable, Hashable, Identifiable {
    /// The id used on the command line (`petstore` in `petstore/findPet`).
    public var id: String
    /// A name for people; the id when the file gives none.
    public var title: String
    /// What the API is, when the file says.
    public var summary: String?
    /// The catalog file as shown to the user.
    package var file: String
    /// The folder holding the file, for `.env` and fixture paths; nil for bundled catalogs.
    package var directory: URL?
    /// The catalog the service came from: what its kept state is filed under (see `CatalogID`).
    package var catalogID: CatalogID
    /// Variables every environment starts from (an environment's own variables win).
    package var variables: [String: String]
    /// The environments, in file order (the first is the default).
    public var environments: [Environment]
    /// Harmless stand-ins for secrets, per environment name (never allowed in production).
    package var secretDefaults: [String: [String: String]]
    /// The groups of endpoints, in file order.
    package var groups: [EndpointGroup]
    /// The endpoints, in file order.
    public var endpoints: [CatalogEndpoint]
    /// The error filter's rules, in file order (first match wins).
    package var errorRules: [ErrorRule]
    /// How an expired token is refreshed, if the service says.
    package var authRefresh: AuthRefreshRule?
    /// The credentials answering a Digest challenge (`auth.digest`), if the service says.
    package var digest: DigestCredentials?
    /// The error-handler chain in order (`handlers:`); nil for the default: the token refresh when
    /// `auth.refresh` is given.
    package var handlers: [HandlerRule]?
    /// What runs on every result before the caller sees it (`results:`).
    package var resultRules: [HandlerRule]
    /// Environments' own `handlers:`, replacing `handlers` there, by environment name.
    package var environmentHandlers: [String: [HandlerRule]]
    /// Environments' own `results:`, replacing `resultRules` there, by environment name.
    package var environmentResultRules: [String: [HandlerRule]]
    /// OAuth 2.0 sign-in (`auth.oauth2`), if the service says; texts may hold placeholders.
    package var oauth2: OAuth2Settings?
    /// How the mock server keeps sessions for this service (`mock: { session: … }`), if asked.
    package var mockSession: MockSessionRule?
    /// Whether its live cookie jars are kept between runs (`cookies: { persist: true }`).
    package var persistsCookies = false
    /// Whether the catalog may read files outside its folder (`allowOutsidePaths: true`); honoured
    /// only once the catalog is trusted.
    package var allowsOutsidePaths = false
    /// The environment variable each secret is read from, by secret name (`secrets: { NAME: { env:
    /// VARIABLE } }`), besides `APIEXPLORER_SECRET_NAME`.
    package var secretVariables: [String: String] = [:]
    /// The response schemas kept beside the catalog when it was imported (`schemas:`), read when
    /// the catalog loaded (confined to its folder like every file it names); nil when it names none.
    package var responseSchemas: ResponseSchemasFile?
    /// The gRPC descriptor set kept beside the catalog (`descriptors:`), read when the catalog
    /// loaded (confined to its folder); its gRPC endpoints' messages are encoded with it.
    package var descriptorSet: DescriptorSetFile?
    /// SHA-256 of the catalog file's bytes (hexadecimal): what trusting the catalog remembers. Nil
    /// for catalogs that are not files on disk (bundled, made in memory).
    package var contentHash: String?
    /// Whether the person trusts the file (or the program made it): an untrusted catalog loads and
    /// answers from its fixtures, but reads no secret from the environment, no file outside its
    /// folder, writes no download and sends nothing over the network (see `CatalogTrust`).
    package var isTrusted = true
    /// Its flows (`flows:`): ordered requests checked by `apiexplorer test`.
    package var flows: [Flow] = []
    /// Problems found in this service's file (a service with errors was loaded without the broken parts).
    public var diagnostics: [Diagnostic]

    /// Makes a service.
    package init(
        id: String, title: String? = nil, summary: String? = nil, file: String = "", directory: URL? = nil,
        variables: [String: String] = [:], environments: [Environment] = [], secretDefaults: [String: [String: String]] = [:],
        groups: [EndpointGroup] = [], endpoints: [CatalogEndpoint] = [], errorRules: [ErrorRule] = [],
        authRefresh: AuthRefreshRule? = nil, digest: DigestCredentials? = nil, handlers: [HandlerRule]? = nil,
        resultRules: [HandlerRule] = [], environmentHandlers: [String: [HandlerRule]] = [:],
        environmentResultRules: [String: [HandlerRule]] = [:], diagnostics: [Diagnostic] = []
    ) {
        self.id = id
        self.title = title ?? id
        self.summary = summary
        self.file = file
        self.directory = directory
        catalogID = .inMemory(id)
        self.variables = variables
        self.environments = environments
        self.secretDefaults = secretDefaults
        self.groups = groups
        self.endpoints = endpoints
        self.errorRules = errorRules
        self.authRefresh = authRefresh
        self.digest = digest
        self.handlers = handlers
        self.resultRules = resultRules
        self.environmentHandlers = environmentHandlers
        self.environmentResultRules = environmentResultRules
        self.diagnostics = diagnostics
    }

    /// The error-handler chain in environment `name`: its own, else the service's (nil: the default).
    package func handlers(in name: String) -> [HandlerRule]? { environmentHandlers[name] ?? handlers }

    /// The result handlers in environment `name`: its own, else the service's.
    package func resultRules(in name: String) -> [HandlerRule] { environmentResultRules[name] ?? resultRules }

    /// Ids of the endpoints that send the `auth.refresh` token in their own, their group's or the
    /// environment's headers (the login endpoint left out).
    package func endpointsSendingRefreshedToken(in environment: Environment?) -> Set<String> {
        guard let rule = authRefresh else { return [] }
        var found: Set<String> = []
        for endpoint in endpoints where endpoint.id != rule.endpoint {
            var texts = endpoint.headers.map(\.value) + (environment?.headers.map(\.value) ?? [])
            if let group = endpoint.group {
                texts += (environment?.groupHeaders[group] ?? self.group(group)?.headers ?? Headers()).map(\.value)
            }
            if texts.contains(where: { CatalogFileDecoder.uses(rule.into, in: $0) }) { found.insert(endpoint.id) }
        }
        return found
    }

    /// The environment named `name`.
    public func environment(named name: String) -> Environment? {
        environments.first { $0.name == name }
    }

    /// The endpoint with id `id`.
    public func endpoint(_ id: String) -> CatalogEndpoint? {
        endpoints.first { $0.id == id }
    }

    /// The group with id `id`.
    package func group(_ id: String) -> EndpointGroup? {
        groups.first { $0.id == id }
    }

    /// The error filter made of this service's rules, then the built-in rule for its GraphQL
    /// endpoints (so a rule of the catalog can still say otherwise).
    package var errorFilter: ErrorFilter {
        let graphQL = Set(endpoints.filter { $0.graphQL != nil }.map(\.key.description))
        return ErrorFilter(rules: graphQL.isEmpty ? errorRules : errorRules + [.graphQL(targets: graphQL)])
    }

    /// Whether this service's file had errors (the broken parts were left out).
    package var isPartial: Bool { diagnostics.contains(where: \.isError) }

    /// Every secret name the service reads, wherever it is used (`ServiceReach`).
    package var secretNames: Set<String> { ServiceReach.secrets(of: self) }
}

/// A named group of endpoints sharing headers (e.g. `authenticated`).
package struct EndpointGroup: Sendable, Hashable, Identifiable {
    /// The id endpoints refer to.
    package var id: String
    /// A name for people.
    package var title: String
    /// Headers every endpoint of the group sends (environments may override them).
    package var headers: Headers

    /// Makes a group.
    package init(id: String, title: String? = nil, headers: Headers = Headers()) {
        self.id = id
        self.title = title ?? id
        self.headers = headers
    }
}

/// `auth.digest`: who answers a Digest challenge; either may hold placeholders (`{{secret.…}}`).
package struct DigestCredentials: Sendable, Hashable {
    /// The user name, as written.
    package var username: String
    /// The password, as written (a `{{secret.…}}` placeholder, normally).
    package var password: String

    /// Makes credentials.
    package init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// How an expired token is refreshed: which endpoint is sent, on which errors, where the new
/// token is read from and which placeholder it fills.
package struct AuthRefreshRule: Sendable, Hashable {
    /// The endpoint (of the same service) that returns a new token.
    package var endpoint: String
    /// Statuses that trigger a refresh.
    package var statuses: Set<Int>
    /// Error kinds that trigger a refresh (e.g. a rule's `expiredUserSession`).
    package var kinds: Set<ErrorKind>
    /// Where the token is in the refresh response's JSON body.
    package var token: JSONPath
    /// The variable the token goes into: fills `{{secret.NAME}}` and `{{NAME}}`.
    package var into: String

    /// Makes a rule.
    package init(endpoint: String, statuses: Set<Int> = [401], kinds: Set<ErrorKind> = [], token: JSONPath, into: String) {
        self.endpoint = endpoint
        self.statuses = statuses
        self.kinds = kinds
        self.token = token
        self.into = into
    }
}

/// `mock: { session: { expiresAfter: 3 } }`: the mock issues a token from the `auth.refresh`
/// endpoint and lets protected endpoints use it this many times before they answer "expired".
package struct MockSessionRule: Sendable, Hashable {
    /// Uses of a token before it expires.
    package var expiresAfter: Int

    /// Makes a rule.
    package init(expiresAfter: Int = 3) {
        self.expiresAfter = expiresAfter
    }
}

/// `auth.oauth2` as written: every text may hold placeholders (a client secret is `{{secret.X}}`).
package struct OAuth2Settings: Sendable, Hashable {
    /// `client_credentials` or `password`.
    package var grant: String
    /// The token endpoint.
    package var tokenURL: String
    /// The client id.
    package var clientID: String
    /// The client secret, if any.
    package var clientSecret: String?
    /// `basic` (default) or `post`.
    package var clientAuth: String
    /// Scopes asked for.
    package var scopes: [String]
    /// The `audience` parameter.
    package var audience: String?
    /// More token request parameters.
    package var parameters: [String: String]
    /// The user, for the password grant.
    package var username: String?
    /// The user's password, for the password grant.
    package var password: String?
    /// The header the token goes in (`Authorization`).
    package var header: String
    /// What comes before the token in it (`Bearer `).
    package var prefix: String
    /// The token stub mode uses (stub and live never share one).
    package var stubToken: String
    /// The device authorization endpoint, for the device_code grant.
    package var deviceAuthorizationURL: String?
    /// The authorization endpoint, for the authorization_code grant (PKCE, loopback redirect).
    package var authorizationURL: String?
    /// The issuer whose published metadata gives the endpoints not written here (OpenID Connect Discovery).
    package var issuer: String?
    /// Whether live tokens are kept between runs (in the state folder, owner-only).
    package var persist = false

    /// Makes settings.
    package init(
        grant: String = "client_credentials", tokenURL: String, clientID: String, clientSecret: String? = nil, clientAuth: String = "basic",
        scopes: [String] = [], audience: String? = nil, parameters: [String: String] = [:], username: String? = nil, password: String? = nil,
        header: String = "Authorization", prefix: String = "Bearer ", stubToken: String = "stub-oauth2-access-token"
    ) {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuth = clientAuth
        self.scopes = scopes
        self.audience = audience
        self.parameters = parameters
        self.username = username
        self.password = password
        self.header = header
        self.prefix = prefix
        self.stubToken = stubToken
    }
}

/// A sign-in that waits for the person (the OAuth 2.0 device flow): where to go and what to type.
public struct SignInPrompt: Sendable, Hashable {
    /// The service and environment signing in.
    public var environment: EnvironmentKey
    /// The code to type.
    public var userCode: String
    /// Where to type it.
    public var verificationURL: String
    /// The same with the code in it, when the server gives one.
    public var completeURL: String?

    /// Makes a prompt.
    public init(environment: EnvironmentKey, userCode: String, verificationURL: String, completeURL: String? = nil) {
        self.environment = environment
        self.userCode = userCode
        self.verificationURL = verificationURL
        self.completeURL = completeURL
    }

    /// `To sign in to petstore · local, open https://… and enter WDJB-MJHT.` (a browser sign-in has no code to type).
    public var sentence: String {
        let code = userCode.isEmpty ? " in a browser" : " and enter \(userCode)"
        return "To sign in to \(environment.service) · \(environment.environment), open \(verificationURL)\(code)."
    }
}

/// The file of response schemas a catalog names (`schemas:`): JSON that `ContractCheck` reads.
package struct ResponseSchemasFile: Sendable, Hashable {
    /// The path as the catalog writes it, relative to its folder.
    package var path: String
    /// The file's bytes.
    package var data: Data

    package init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}
