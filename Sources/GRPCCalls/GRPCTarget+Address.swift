import DispatcherCore
import GRPCTransport
import TextSupport

extension GRPCTarget {
    /// Reads where a gRPC server is: `HOST:PORT` (TLS unless `plaintext`, as grpcurl), or a URL:
    /// `grpc://` and `http://` for plaintext (h2c), `grpcs://` and `https://` for TLS (443 by default).
    package init(address: String, plaintext: Bool = false, trust: ServerTrust = ServerTrust()) throws(GRPCRequestError) {
        var rest = Substring(address.trimmed)
        var secure = !plaintext
        var defaultPort: Int?
        if let range = rest.firstRange(of: "://") {
            switch rest[..<range.lowerBound].lowercased() {
            case "grpc", "http", "h2c":
                secure = false
                defaultPort = 80
            case "grpcs", "https":
                secure = true
                defaultPort = 443
            case let scheme:
                throw GRPCRequestError("'\(address)': a gRPC address is HOST:PORT or a grpc://, grpcs://, http:// or https:// URL, not \(scheme)://.")
            }
            rest = rest[range.upperBound...]
            if let slash = rest.firstIndex(of: "/") {
                guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                    throw GRPCRequestError("'\(address)': a gRPC address has no path (methods are named apart: SERVICE/METHOD).")
                }
                rest = rest[..<slash]
            }
        }
        let host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw GRPCRequestError("'\(address)': an IPv6 address lacks its ']'.") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw GRPCRequestError("'\(address)': unexpected text after the IPv6 address.")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw GRPCRequestError("'\(address)' names no host.") }
        let port: Int
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw GRPCRequestError("'\(address)': the port '\(portText)' is not a number from 1 to 65535.")
            }
            port = number
        } else if let defaultPort {
            port = defaultPort
        } else {
            throw GRPCRequestError("'\(address)' has no port: write HOST:PORT.")
        }
        self.init(host: String(host), port: port, secure: secure, trust: trust)
    }
}
