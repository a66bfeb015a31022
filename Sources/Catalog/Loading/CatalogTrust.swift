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

/// What a catalog would reach outside itself once trusted: the hosts it sends to (and whether
/// it follows redirects elsewhere), the secrets it reads and from where, the files it reads
/// outside its folder, the files it downloads and the state it keeps. Made from `ServiceReach`,
/// the walk whose findings the request builder and the download check also obey, so the question
/// cannot leave out what a trusted catalog then does.
package struct TrustDeclaration: Sendable, Hashable {
    /// The service and its file, as shown.
    package var service: String
    package var file: String
    /// What it reaches.
    package var reach: ServiceReach
    /// Where each secret is read from (`$APIEXPLORER_SECRET_TOKEN`, `$GITHUB_TOKEN`), by name.
    private var variables: [String: [String]]

    /// What `service` declares.
    package init(_ service: Service) {
        self.service = service.id
        file = service.file
        reach = ServiceReach(service)
        var variables: [String: [String]] = [:]
        for name in reach.secrets {
            variables[name] = (service.secretVariables[name].map { [$0] } ?? []) + [SecretStore.environmentPrefix + name]
        }
        self.variables = variables
    }

    /// Origins (`https://api.example.com`) it sends requests to.
    package var hosts: [String] { reach.hosts }
    /// Each secret it reads, with where from.
    package var secrets: [(name: String, variables: [String])] { reach.secrets.map { ($0, variables[$0] ?? []) } }
    /// Files outside its folder it names, and paths made from placeholders.
    package var files: [String] { reach.files }
    /// Whether it may read any file the person can.
    package var readsAnyFile: Bool { reach.readsAnyFile }
    /// Files it writes responses to (`download:`), in the downloads folder.
    package var downloads: [String] { reach.downloads }

    /// The declaration as lines for a person: what trusting the catalog allows.
    package var lines: [String] {
        var lines = ["\(service) (\(file))"]
        lines += hosts.map { "  sends requests to \($0)" }
        if !reach.followsRedirects.isEmpty, !hosts.isEmpty {
            lines.append("  follows redirects from them to any host they name, without its credentials (\(reach.followsRedirects.joined(separator: ", ")))")
        }
        lines += secrets.map { "  reads secret \($0.name) from \($0.variables.map { "$" + $0 }.joined(separator: " or ")) (or .env beside it)" }
        if readsAnyFile { lines.append("  may read any file you can read (allowOutsidePaths: true)") }
        lines += files.map { "  reads \($0.hasPlaceholderOpening ? "the file named by \($0)" : $0)" }
        lines += downloads.map { "  writes downloads to \($0) in the downloads folder" }
        lines += reach.state.map { "  \($0)" }
        if lines.count == 1 { lines.append("  nothing outside its folder") }
        return lines
    }

    package static func == (lhs: TrustDeclaration, rhs: TrustDeclaration) -> Bool { lhs.lines == rhs.lines }
    package func hash(into hasher: inout Hasher) { hasher.combine(lines) }
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
