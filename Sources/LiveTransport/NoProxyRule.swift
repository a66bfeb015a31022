import FoundationEssentials
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry of `NO_PROXY`, matched like curl: `*` matches every host; a name matches itself and
/// its subdomains (`example.com` and `.example.com` both match `api.example.com` and `example.com`);
/// an IP address matches itself, a CIDR block (`10.0.0.0/8`, `fd00::/8`) every address inside.
/// A `:port` suffix (`localhost:8080`, `[::1]:8080`) limits the entry to that port.
public enum NoProxyRule: Sendable, Hashable, CustomStringConvertible {
    /// `*`: no host uses the proxy.
    case everything
    /// A host name and its subdomains, lowercased, without a leading dot.
    case domain(String, port: Int?)
    /// An address block: the address bytes (4 or 16) and the prefix length.
    case network([UInt8], prefixLength: Int, port: Int?)

    /// Reads a comma- or space-separated list; entries that cannot be read are skipped.
    package static func parseList(_ text: String) -> [NoProxyRule] {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap { NoProxyRule(String($0)) }
    }

    /// Reads one entry; nil when it is empty.
    package init?(_ entry: String) {
        var text = entry.trimmedSpaces.lowercased()
        guard !text.isEmpty else { return nil }
        if text == "*" {
            self = .everything
            return
        }
        var port: Int?
        if text.hasPrefix("[") {
            // [v6] or [v6]:port
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.lastIndex(of: ":"),
            let parsed = Int(text[text.index(after: colon)...])
        {
            port = parsed
            text = String(text[..<colon])
        }
        var prefix: Int?
        if let slash = text.firstIndex(of: "/") {
            prefix = Int(text[text.index(after: slash)...])
            text = String(text[..<slash])
        }
        if let address = IPAddress.bytes(of: text) {
            let maximum = address.count * 8
            self = .network(address, prefixLength: min(max(prefix ?? maximum, 0), maximum), port: port)
            return
        }
        while text.hasPrefix(".") { text.removeFirst() }
        while text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        self = .domain(text, port: port)
    }

    /// Whether a request to `host` on `port` bypasses the proxy.
    package func matches(host: String, port: Int) -> Bool {
        switch self {
        case .everything:
            return true
        case .domain(let domain, let rulePort):
            if let rulePort, rulePort != port { return false }
            var name = host.lowercased()
            while name.hasSuffix(".") { name.removeLast() }
            return name == domain || name.hasSuffix("." + domain)
        case .network(let network, let prefixLength, let rulePort):
            if let rulePort, rulePort != port { return false }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            guard let address = IPAddress.bytes(of: bare), address.count == network.count else { return false }
            return IPAddress.prefix(of: address, equals: network, length: prefixLength)
        }
    }

    /// The entry as written in `NO_PROXY`.
    public var description: String {
        switch self {
        case .everything: return "*"
        case .domain(let name, let port): return name + (port.map { ":\($0)" } ?? "")
        case .network(let bytes, let length, let port):
            let address = IPAddress.text(of: bytes)
            let shown = bytes.count == 16 && port != nil ? "[\(address)]" : address
            return shown + (length == bytes.count * 8 ? "" : "/\(length)") + (port.map { ":\($0)" } ?? "")
        }
    }
}

/// IPv4/IPv6 text ↔ bytes, through the C library.
enum IPAddress {
    /// The 4 or 16 bytes of an address literal, or nil when `text` is not one.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The address as text.
    static func text(of bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        guard ok else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the first `length` bits of `a` and `b` are equal.
    static func prefix(of a: [UInt8], equals b: [UInt8], length: Int) -> Bool {
        var remaining = length
        for (x, y) in zip(a, b) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if x & mask != y & mask { return false }
            remaining -= bits
        }
        return true
    }
}
