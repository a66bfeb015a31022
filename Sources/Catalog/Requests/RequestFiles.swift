import DispatcherCore
import FoundationEssentials

extension Service {
    /// `body` with every file it reads checked as it is about to be sent, after its placeholders
    /// were filled: inside the catalog's folder once symbolic links are followed (outside only when
    /// the catalog says `allowOutsidePaths: true` and is trusted), a regular readable file. Each
    /// path becomes the file's canonical path, so a link changed after the check cannot lead
    /// elsewhere. The problem, as a sentence, when a file may not be read.
    ///
    /// A catalog without a folder on disk (built into the binary, made in memory) reads only the
    /// files it names literally, which the loader placed and checked.
    package func confining(_ body: RequestBody, of endpoint: CatalogEndpoint) -> Result<RequestBody, RequestFileProblem> {
        let literal = Set(endpoint.bodyFilePaths.filter { !$0.hasPlaceholderOpening })
        func confine(_ path: String) -> Result<String, RequestFileProblem> {
            directory == nil && literal.contains(path) ? .success(path) : self.confine(path)
        }
        switch body {
        case .file(let path, let contentType):
            return confine(path).map { .file(path: $0, contentType: contentType ?? MediaType.forFile(path)) }
        case .multipart(var fields):
            for index in fields.indices {
                guard case .file(let path, let filename) = fields[index].content else { continue }
                switch confine(path) {
                case .success(let resolved):
                    fields[index].contentType = fields[index].contentType ?? MediaType.forFileOrBinary(path)
                    fields[index].content = .file(path: resolved, filename: filename ?? PathText.lastComponent(of: path))
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.multipart(fields))
        default:
            return .success(body)
        }
    }

    /// An environment's certificate files (CA, client certificate and key) checked as a live request
    /// is about to use them, as a body's files are: each becomes its canonical path. A catalog
    /// without a folder on disk names only files the loader placed.
    package func confining(_ trust: ServerTrust) -> Result<ServerTrust, RequestFileProblem> {
        guard directory != nil else { return .success(trust) }
        var confined = trust
        do throws(RequestFileProblem) {
            if let ca = trust.certificateAuthority { confined.certificateAuthority = URL(fileURLWithPath: try confine(ca.path).get()) }
            if let client = trust.clientCertificate {
                confined.clientCertificate = ClientCertificate(
                    certificate: URL(fileURLWithPath: try confine(client.certificate.path).get()),
                    privateKey: URL(fileURLWithPath: try confine(client.privateKey.path).get()))
            }
        } catch {
            return .failure(error)
        }
        return .success(confined)
    }

    /// The canonical path of a file a request of this service reads, or why it may not.
    func confine(_ path: String) -> Result<String, RequestFileProblem> {
        guard let directory else {
            return .failure(RequestFileProblem(path: path, reason: "cannot be read: the catalog has no folder on disk to read files from"))
        }
        let (access, resolved) = DiskFileSystem(root: directory).resolve(path, allowingOutside: allowsOutsidePaths && isTrusted)
        if let resolved { return .success(resolved) }
        if case .outside(let target) = access, allowsOutsidePaths, !isTrusted {
            return .failure(RequestFileProblem(
                path: path,
                reason: "is outside the catalog folder (it resolves to '\(target)'); the catalog is not trusted, so it reads files in its folder only"))
        }
        return .failure(RequestFileProblem(path: path, reason: access.problem ?? "cannot be read"))
    }
}

/// A file a request would read that it may not.
package struct RequestFileProblem: Error, Sendable, Hashable {
    /// The path as the request named it (placeholders filled).
    package var path: String
    /// Why (`is outside the catalog folder …`).
    package var reason: String

    /// `the file '/etc/shadow' is outside …: nothing was sent`.
    package var sentence: String { "the file '\(path)' \(reason); nothing was sent" }
}
