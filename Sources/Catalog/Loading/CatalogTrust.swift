import CryptoSupport
import DispatcherCore
import FoundationEssentials
import SystemSupport

/// Which catalog files of a folder the person trusts, by the SHA-256 of their contents (the model
/// of direnv's `allow` and editors' workspace trust): any change to a file makes it a stranger's
/// again. An untrusted catalog loads and answers from its fixtures, but reaches nothing outside
/// itself — no secret from the environment, no file outside its folder, no download, no request
/// over the network — until the person has seen what it declares (`TrustDeclaration`) and said yes.
/// The bundled catalogs, files identical to them, and catalogs apiexplorer writes itself (imports,
/// the explorer's `N` and `W`) are trusted.
public struct CatalogTrust: Sendable, Hashable {
    /// Every file: `--trust`, or a program that chose its folder itself.
    public var trustsEverything: Bool
    /// The contents trusted in the folder, as `contentHash(of:)` gives them.
    public var contentHashes: Set<String>

    /// Makes a trust of these contents.
    public init(contentHashes: Set<String> = [], trustsEverything: Bool = false) {
        self.contentHashes = contentHashes
        self.trustsEverything = trustsEverything
    }

    /// Nothing on disk is trusted (but copies of the bundled catalogs).
    public static let nothing = CatalogTrust()
    /// Every file is trusted.
    public static let everything = CatalogTrust(trustsEverything: true)

    /// Whether a file with these bytes (named `fileName` in its folder) is trusted.
    func trusts(_ data: Data, contentHash: String, fileName: String) -> Bool {
        trustsEverything || contentHashes.contains(contentHash) || CatalogTrust.isBundledCopy(data, named: fileName)
    }

    /// This trust with `other`'s added.
    package func merging(_ other: CatalogTrust) -> CatalogTrust {
        CatalogTrust(contentHashes: contentHashes.union(other.contentHashes), trustsEverything: trustsEverything || other.trustsEverything)
    }

    /// Why an untrusted catalog may not do something, and how to trust it.
    package static func refusal(_ service: Service, doing what: String) -> String {
        "\(service.file) is not trusted, so it may not \(what): check what it declares and trust it "
            + "(`apiexplorer trust FOLDER`, `--trust`, or in the explorer when it asks)"
    }

    /// The SHA-256 of a file's bytes, in lowercase hexadecimal.
    package static func contentHash(of data: Data) -> String {
        HashFunction.sha256.hexHash(data)
    }

    /// Whether `data` is a bundled catalog file as built into the binary (`environments/` of the
    /// repository, or a copy of it).
    static func isBundledCopy(_ data: Data, named fileName: String) -> Bool {
        BundledCatalogFiles.files.contains { $0.path == fileName && $0.data == data }
    }
}

/// Where trust is remembered between runs (the state folder's `trust.json`, in `StateStore`).
package protocol TrustPersistence: Sendable {
    /// What is trusted in `folder`.
    func trust(for folder: URL) -> CatalogTrust
    /// Remembers that the files with these contents are trusted in `folder`.
    func trust(_ contentHashes: some Sequence<String> & Sendable, in folder: URL) throws(SystemError)
}

extension CatalogSet {
    /// The services that are not trusted.
    package var untrustedServices: [Service] { services.filter { !$0.isTrusted } }

    /// What each untrusted service declares, for the question asked before trusting them.
    package var untrustedDeclarations: [TrustDeclaration] { untrustedServices.map(TrustDeclaration.init) }

    /// The content hashes of the untrusted services (what trusting them remembers).
    package var untrustedContentHashes: [String] { untrustedServices.compactMap(\.contentHash) }
}

/// What a catalog would reach outside itself once trusted: the hosts it sends to, the secrets it
/// reads and from where, the files it reads outside its folder, the files it downloads.
package struct TrustDeclaration: Sendable, Hashable {
    /// The service and its file, as shown.
    package var service: String
    package var file: String
    /// Origins (`https://api.example.com`) it sends requests to.
    package var hosts: [String]
    /// Each secret it reads, with where from (`$APIEXPLORER_SECRET_TOKEN`, `$GITHUB_TOKEN`).
    package var secrets: [(name: String, variables: [String])]
    /// Files outside its folder it names (absolute paths as written), and paths made from
    /// placeholders (checked in its folder when sent).
    package var files: [String]
    /// Whether it may read any file the person can (`allowOutsidePaths: true`).
    package var readsAnyFile: Bool
    /// Files it writes responses to (`download:`), in the downloads folder.
    package var downloads: [String]

    /// What `service` declares.
    package init(_ service: Service) {
        self.service = service.id
        file = service.file
        var hosts: [String] = []
        func addHost(_ text: String?) {
            guard let text, !text.isEmpty else { return }
            let origin = URL(string: text).flatMap(TrustDeclaration.origin) ?? text
            if !hosts.contains(origin) { hosts.append(origin) }
        }
        for environment in service.environments { addHost(TrustDeclaration.origin(environment.baseURL)) }
        if let oauth2 = service.oauth2 {
            [oauth2.tokenURL, oauth2.issuer, oauth2.deviceAuthorizationURL, oauth2.authorizationURL].forEach(addHost)
        }
        self.hosts = hosts
        var names = service.secretNames
        var texts: [String] = []
        if let oauth2 = service.oauth2 { texts += [oauth2.clientSecret, oauth2.password, oauth2.username].compactMap { $0 } }
        if let digest = service.digest { texts += [digest.username, digest.password] }
        for text in texts where text.hasPlaceholderOpening {
            for name in Template(text).placeholders { if let secret = Placeholder(name).secretName { names.insert(secret) } }
        }
        secrets = names.sorted().map { name in
            (name, (service.secretVariables[name].map { [$0] } ?? []) + [SecretStore.environmentPrefix + name])
        }
        var files: [String] = []
        for endpoint in service.endpoints {
            for path in endpoint.bodyFilePaths where path.hasPlaceholderOpening || !TrustDeclaration.isInside(path, service.directory) {
                if !files.contains(path) { files.append(path) }
            }
        }
        for environment in service.environments {
            let trust = environment.trust
            for url in [trust.certificateAuthority, trust.clientCertificate?.certificate, trust.clientCertificate?.privateKey].compactMap({ $0 })
            where !TrustDeclaration.isInside(url.path, service.directory) && !files.contains(url.path) {
                files.append(url.path)
            }
        }
        self.files = files
        readsAnyFile = service.allowsOutsidePaths
        downloads = service.endpoints.compactMap(\.download)
    }

    /// The declaration as lines for a person: what trusting the catalog allows.
    package var lines: [String] {
        var lines = ["\(service) (\(file))"]
        lines += hosts.map { "  sends requests to \($0)" }
        lines += secrets.map { "  reads secret \($0.name) from \($0.variables.map { "$" + $0 }.joined(separator: " or ")) (or .env beside it)" }
        if readsAnyFile { lines.append("  may read any file you can read (allowOutsidePaths: true)") }
        lines += files.map { "  reads \($0.hasPlaceholderOpening ? "the file named by \($0)" : $0)" }
        lines += downloads.map { "  writes downloads to \($0) in the downloads folder" }
        if lines.count == 1 { lines.append("  nothing outside its folder") }
        return lines
    }

    package static func == (lhs: TrustDeclaration, rhs: TrustDeclaration) -> Bool { lhs.lines == rhs.lines }
    package func hash(into hasher: inout Hasher) { hasher.combine(lines) }

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

extension CatalogEndpoint {
    /// The files its request body reads when sent (`bodyFile`, multipart files), as kept: absolute
    /// after load, or with placeholders.
    package var bodyFilePaths: [String] {
        switch body {
        case .file(let path, _): return [path]
        case .multipart(let fields):
            return fields.compactMap { field in
                if case .file(let path, _) = field.content { return path }
                return nil
            }
        default: return []
        }
    }
}
