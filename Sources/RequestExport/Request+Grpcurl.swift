import DispatcherCore
import FoundationEssentials
import JSONSupport

extension Request {
    /// Metadata grpcurl (grpc-go) sets itself, or that is not metadata: never given as `-H`.
    static let grpcurlOwnedHeaders: Set<String> = [
        "content-type", "te", "grpc-encoding", "grpc-accept-encoding", "grpc-timeout", "grpc-status", "grpc-message", "grpc-status-details-bin",
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "content-length",
    ]

    /// The gRPC call as a grpcurl command line: `-plaintext` for h2c, the environment's TLS files
    /// (`-cacert`, `-cert`, `-key`, `-insecure`), `-H` metadata (secrets masked by `redactor`; nil
    /// shows them), `-d` the request messages as JSON (a client stream's one after another, as
    /// grpcurl reads them), `-max-time` the total timeout, `-protoset` the descriptor set (without
    /// one grpcurl asks the server's reflection), then the address and `method` (`pkg.Service/Method`).
    package func grpcurlCommand(method: String, protoset: String?, redactor: Redactor? = .standard) -> String {
        var parts = ["grpcurl"]
        let scheme = url.scheme?.lowercased() ?? "http"
        let secure = scheme == "https" || scheme == "grpcs"
        if !secure { parts.append("-plaintext") }
        if secure {
            let trust = settings.trust
            if trust.allowInsecure { parts.append("-insecure") }
            if let authority = trust.certificateAuthority { parts.append("-cacert \(ShellQuoting.quote(authority.path))") }
            if let client = trust.clientCertificate {
                parts.append("-cert \(ShellQuoting.quote(client.certificate.path))")
                parts.append("-key \(ShellQuoting.quote(client.privateKey.path))")
            }
        }
        for field in headers where !Self.grpcurlOwnedHeaders.contains(field.name.lowercased()) {
            let value = redactor?.header(name: field.name, value: field.value) ?? field.value
            parts.append("-H \(ShellQuoting.quote("\(field.name.lowercased()): \(value)"))")
        }
        if let data = grpcurlData(redactor: redactor) { parts.append("-d \(ShellQuoting.quote(data))") }
        if let total = settings.timeouts.total, total > .zero { parts.append("-max-time \(JSONValue.double(total.seconds).compactText)") }
        if let protoset { parts.append("-protoset \(ShellQuoting.quote(protoset))") }
        let host = url.host.map { $0.hasPrefix("[") ? $0 : ($0.contains(":") ? "[\($0)]" : $0) } ?? "localhost"
        parts.append(ShellQuoting.quote("\(host):\(url.port ?? (secure ? 443 : 80))"))
        parts.append(ShellQuoting.quote(method))
        return parts.joined(separator: " \\\n  ")
    }

    /// The request messages as `-d` takes them: one JSON object, or a client stream's (the body's
    /// list) one a line; nil for no body.
    private func grpcurlData(redactor: Redactor?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        guard let value = try? JSONValue.parse(body) else {
            return redactor?.body(body, contentType: "application/json") ?? String(decoding: body, as: UTF8.self)
        }
        let shown = redactor?.json(value) ?? value
        if case .array(let messages) = shown { return messages.map(\.compactText).joined(separator: "\n") }
        return shown.compactText
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
