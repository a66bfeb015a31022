import FoundationEssentials
import TextSupport

/// Where and how requests are sent: one of a service's deployments (dev, staging, prod …).
public struct Environment: Sendable, Hashable {
    /// Copy-on-write (`CopyOnWrite`): the dispatcher reads the current environment for every
    /// request, and each copy of its references was a few percent of a stub request.
    private var storage: CopyOnWrite<Fields>

    /// Short name, unique within a service (`local`, `staging`, `production`).
    public var name: String {
        get { storage.value.name }
        _modify { yield &storage.value.name }
    }
    /// What kind of deployment this is; production is shown with care.
    public var type: EnvironmentType {
        get { storage.value.type }
        _modify { yield &storage.value.type }
    }
    /// The URL that endpoint paths are appended to.
    public var baseURL: URL {
        get { storage.value.baseURL }
        _modify { yield &storage.value.baseURL }
    }
    /// Headers sent with every endpoint (lowest precedence).
    public var headers: Headers {
        get { storage.value.headers }
        _modify { yield &storage.value.headers }
    }
    /// Headers for named groups of endpoints, applied over the common headers.
    public var groupHeaders: [String: Headers] {
        get { storage.value.groupHeaders }
        _modify { yield &storage.value.groupHeaders }
    }
    /// Values for `{{name}}` placeholders in endpoint paths.
    public var variables: [String: String] {
        get { storage.value.variables }
        _modify { yield &storage.value.variables }
    }
    /// How the live transport uses its HTTP cache.
    public var cachePolicy: CachePolicy {
        get { storage.value.cachePolicy }
        _modify { yield &storage.value.cachePolicy }
    }
    /// How stub mode answers in this environment (`never` means stub mode is off by default).
    public var fixtures: StubBehavior {
        get { storage.value.fixtures }
        _modify { yield &storage.value.fixtures }
    }
    /// TLS verification, custom CA, client certificate and public-key pins.
    public var trust: ServerTrust {
        get { storage.value.trust }
        _modify { yield &storage.value.trust }
    }
    /// Connect, read and total timeouts.
    public var timeouts: Timeouts {
        get { storage.value.timeouts }
        _modify { yield &storage.value.timeouts }
    }
    /// How failed requests are retried; nil for no retries.
    public var retry: RetryPolicy? {
        get { storage.value.retry }
        _modify { yield &storage.value.retry }
    }
    /// Whether and how far redirects are followed.
    public var redirects: RedirectPolicy {
        get { storage.value.redirects }
        _modify { yield &storage.value.redirects }
    }
    /// Largest response body accepted, in bytes.
    public var maximumBodySize: Int {
        get { storage.value.maximumBodySize }
        _modify { yield &storage.value.maximumBodySize }
    }
    /// Whether identical requests in flight share one response (one request on the wire).
    public var tracksInflights: Bool {
        get { storage.value.tracksInflights }
        _modify { yield &storage.value.tracksInflights }
    }

    /// Makes an environment; everything but the name and base URL has a sensible default.
    public init(
        name: String,
        type: EnvironmentType = .development,
        baseURL: URL,
        headers: Headers = Headers(),
        groupHeaders: [String: Headers] = [:],
        variables: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocol,
        fixtures: StubBehavior = .immediate,
        trust: ServerTrust = ServerTrust(),
        timeouts: Timeouts = .standard,
        retry: RetryPolicy? = nil,
        redirects: RedirectPolicy = RedirectPolicy(),
        maximumBodySize: Int = Environment.defaultMaximumBodySize
    ) {
        storage = CopyOnWrite(Fields(
            name: name, type: type, baseURL: baseURL, headers: headers, groupHeaders: groupHeaders, variables: variables,
            cachePolicy: cachePolicy, fixtures: fixtures, trust: trust, timeouts: timeouts, retry: retry, redirects: redirects,
            maximumBodySize: maximumBodySize, tracksInflights: false))
    }

    /// 256 MiB.
    public static let defaultMaximumBodySize = 256 * 1024 * 1024

    /// The fields, shared by copies until one changes.
    private struct Fields: Hashable {
        var name: String
        var type: EnvironmentType
        var baseURL: URL
        var headers: Headers
        var groupHeaders: [String: Headers]
        var variables: [String: String]
        var cachePolicy: CachePolicy
        var fixtures: StubBehavior
        var trust: ServerTrust
        var timeouts: Timeouts
        var retry: RetryPolicy?
        var redirects: RedirectPolicy
        var maximumBodySize: Int
        var tracksInflights: Bool
    }
}

/// The kind of deployment an environment is.
public enum EnvironmentType: Sendable, Hashable, CustomStringConvertible {
    case development
    case staging
    case production
    /// Any other label (`qa`, `sandbox` …).
    case custom(String)

    /// Reads a label: the three known words, else a custom label.
    public init(label: String) {
        switch label.lowercased() {
        case "development", "dev": self = .development
        case "staging", "stage": self = .staging
        case "production", "prod": self = .production
        default: self = .custom(label)
        }
    }

    /// The label as written in catalogs.
    public var label: String {
        switch self {
        case .development: "development"
        case .staging: "staging"
        case .production: "production"
        case .custom(let label): label
        }
    }

    /// Whether requests here touch production.
    public var isProduction: Bool { self == .production }

    public var description: String { label }
}

/// How the live transport's HTTP cache is used (the names of URLRequest.CachePolicy).
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// Follow the server's `Cache-Control`, `ETag` and `Last-Modified` (RFC 9111).
    case useProtocol
    /// Always load from the network; the cache is neither read nor written.
    case reloadIgnoringCache
    /// Use a cached response however old; load only on a miss.
    case returnCacheElseLoad
    /// Use a cached response however old; never load (offline): a miss is an error.
    case returnCacheDontLoad
}

/// Connect, read and total deadlines. nil means no limit of that kind.
public struct Timeouts: Sendable, Hashable {
    /// Time allowed to open the connection (TCP and TLS).
    public var connect: Duration?
    /// Time allowed between bytes once connected.
    public var read: Duration?
    /// Time allowed for the whole request, redirects included.
    public var total: Duration?

    /// Makes timeouts.
    public init(connect: Duration? = nil, read: Duration? = nil, total: Duration? = nil) {
        self.connect = connect
        self.read = read
        self.total = total
    }

    /// 10 s to connect, 30 s between bytes, 120 s in all.
    public static let standard = Timeouts(connect: .seconds(10), read: .seconds(30), total: .seconds(120))

    /// These timeouts with every value that `override` sets replacing ours.
    public func overridden(by override: Timeouts?) -> Timeouts {
        guard let override else { return self }
        return Timeouts(
            connect: override.connect ?? connect, read: override.read ?? read, total: override.total ?? total)
    }
}

/// Which timeout fired.
public enum TimeoutPhase: String, Sendable, Hashable {
    case connect, read, total
    /// The request waited for a connection of the pool to become free (every one to the host was
    /// busy) for as long as the connect timeout allows: no connection attempt failed.
    case connectionWait = "connection wait"
}

/// Whether redirects are followed, and how many.
public struct RedirectPolicy: Sendable, Hashable {
    /// Follow redirects at all.
    public var follow: Bool
    /// Most redirects followed before `tooManyRedirects`.
    public var limit: Int
    /// Whether a request carrying credentials may follow a redirect from https to plain http
    /// (they are dropped there all the same); refused by default.
    public var allowsDowngrade: Bool

    /// Makes a redirect policy (default: follow up to 10, never from https to http with credentials).
    public init(follow: Bool = true, limit: Int = 10, allowsDowngrade: Bool = false) {
        self.follow = follow
        self.limit = limit
        self.allowsDowngrade = allowsDowngrade
    }
}

/// How the server's certificate is checked.
public struct ServerTrust: Sendable, Hashable {
    /// SHA-256 pins of the server's SubjectPublicKeyInfo; empty means no pinning.
    public var pins: [PublicKeyPin]
    /// A PEM file of extra trusted CA certificates for this environment.
    public var certificateAuthority: URL?
    /// A client certificate and key for mutual TLS.
    public var clientCertificate: ClientCertificate?
    /// Skip certificate verification entirely. Explicit, never a default.
    public var allowInsecure: Bool
    /// The oldest TLS version accepted (1.2 unless an old server needs less).
    public var minimumVersion: TLSProtocolVersion

    /// Makes a trust configuration; by default the system's CAs, no pins, TLS 1.2 or later.
    public init(
        pins: [PublicKeyPin] = [], certificateAuthority: URL? = nil,
        clientCertificate: ClientCertificate? = nil, allowInsecure: Bool = false, minimumVersion: TLSProtocolVersion = .default
    ) {
        self.pins = pins
        self.certificateAuthority = certificateAuthority
        self.clientCertificate = clientCertificate
        self.allowInsecure = allowInsecure
        self.minimumVersion = minimumVersion
    }

    /// What weakens the connection's protection, one sentence each, for warnings: verification off,
    /// a TLS version older than 1.2 accepted. Empty for the defaults.
    package var weaknesses: [String] {
        var found: [String] = []
        if allowInsecure {
            found.append("certificate verification is off (tls.insecure): anyone on the network can read and change the traffic")
        }
        if minimumVersion < .default {
            found.append("TLS \(minimumVersion) is accepted (tls.minimumVersion): versions before 1.2 have known attacks")
        }
        return found
    }
}

/// A TLS protocol version.
public enum TLSProtocolVersion: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case v1_0 = 10, v1_1 = 11, v1_2 = 12, v1_3 = 13

    /// What a client accepts unless told otherwise: TLS 1.2, as curl and browsers.
    public static let `default` = TLSProtocolVersion.v1_2

    /// `1.0`, `1.1`, `1.2`, `1.3` (also with a `TLS` or `TLSv` prefix).
    public init?(_ text: String) {
        var trimmed = Substring(text.lowercased())
        for prefix in ["tlsv", "tls"] where trimmed.hasPrefix(prefix) { trimmed = trimmed.dropFirst(prefix.count) }
        guard let version = TLSProtocolVersion.allCases.first(where: { $0.description == trimmed }) else { return nil }
        self = version
    }

    public var description: String { "1.\(rawValue - 10)" }

    public static func < (lhs: TLSProtocolVersion, rhs: TLSProtocolVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A client certificate chain and private key, as PEM files.
public struct ClientCertificate: Sendable, Hashable {
    /// PEM certificate chain, leaf first.
    public var certificate: URL
    /// PEM private key.
    public var privateKey: URL

    /// Makes a client certificate reference.
    public init(certificate: URL, privateKey: URL) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}

/// A SHA-256 pin of a SubjectPublicKeyInfo, written `sha256/BASE64` (curl's `--pinnedpubkey`, HPKP).
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest.
    public let digest: [UInt8]

    /// Makes a pin from a digest.
    public init(digest: [UInt8]) { self.digest = digest }

    /// Reads `sha256/BASE64` (also `sha256//BASE64` as curl writes it).
    public init(_ text: String) throws(PinFormatError) {
        let trimmed = text.trimmedSpaces
        guard trimmed.lowercased().hasPrefix("sha256/") else { throw PinFormatError(text: text, reason: "a pin starts with 'sha256/'") }
        var encoded = trimmed.dropFirst("sha256/".count)
        if encoded.first == "/" { encoded = encoded.dropFirst() }
        guard let data = Data(base64Encoded: String(encoded)) else {
            throw PinFormatError(text: text, reason: "the pin is not valid base64")
        }
        guard data.count == 32 else {
            throw PinFormatError(text: text, reason: "a SHA-256 pin is 32 bytes, this one is \(data.count)")
        }
        digest = Array(data)
    }

    public var description: String { "sha256/" + Data(digest).base64EncodedString() }
}

/// A pin that could not be read.
public struct PinFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "invalid pin '\(text)': \(reason)" }
}
