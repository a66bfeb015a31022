import Foundation
import JSONSupport

/// Masks secrets before anything is shown, logged, exported or kept in history: sensitive headers
/// (`Authorization`, `Cookie`, API keys …), secret-looking query items and JSON members, and any
/// known secret value wherever it appears.
public struct Redactor: Sendable, Hashable {
    /// What replaces a secret.
    public static let mask = "••••"

    /// Header names that are always secret (lowercased).
    public var headerNames: Set<String>
    /// Fragments that make a header, query or JSON member name secret (lowercased).
    public var nameFragments: [String]
    /// Query item names that are secret though short (lowercased).
    public var queryNames: Set<String>
    /// Values known to be secret (resolved `{{secret.X}}` values): masked wherever they appear.
    public var secretValues: Set<String>

    /// Makes a redactor; the defaults cover the usual suspects.
    public init(
        headerNames: Set<String> = Redactor.defaultHeaderNames, nameFragments: [String] = Redactor.defaultNameFragments,
        queryNames: Set<String> = ["key", "sig", "code", "auth", "jwt"], secretValues: Set<String> = []
    ) {
        self.headerNames = headerNames
        self.nameFragments = nameFragments
        self.queryNames = queryNames
        self.secretValues = secretValues
    }

    /// The default redactor.
    public static let standard = Redactor()

    /// Headers whose values are always masked.
    public static let defaultHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token",
    ]

    /// Name fragments that make a value secret.
    public static let defaultNameFragments = [
        "token", "secret", "password", "passwd", "apikey", "api-key", "api_key", "session", "signature",
        "credential", "private_key", "private-key", "authorization", "cookie",
    ]

    /// This redactor also masking `values` (values shorter than 4 characters are ignored: masking
    /// every `a` would destroy the text and hide nothing).
    public func adding(secretValues values: some Sequence<String>) -> Redactor {
        var copy = self
        copy.secretValues.formUnion(values.filter { $0.count >= 4 })
        return copy
    }

    /// Whether a header, query or member name is secret.
    public func isSensitive(name: String) -> Bool {
        let lower = name.lowercased()
        return headerNames.contains(lower) || nameFragments.contains { Redactor.bytes(of: lower, contain: $0) }
    }

    /// Whether `fragment` occurs in `text`, compared byte by byte: Foundation's `String.contains`
    /// bridges to NSString and costs microseconds per call on Linux, for every header logged.
    static func bytes(of text: String, contain fragment: String) -> Bool {
        var text = text
        var fragment = fragment
        return text.withUTF8 { haystack in
            fragment.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    var index = 1
                    while index < needle.count, haystack[start + index] == needle[index] { index += 1 }
                    if index == needle.count { return true }
                }
                return false
            }
        }
    }

    /// A header value as it may be shown: an auth scheme stays visible (`Bearer ••••`).
    public func header(name: String, value: String) -> String {
        guard isSensitive(name: name) else { return text(value) }
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization",
            let space = value.firstIndex(of: " "), !value[..<space].isEmpty
        {
            return "\(value[..<space]) \(Redactor.mask)"
        }
        if lower == "cookie" || lower == "set-cookie" {
            return cookie(value)
        }
        return Redactor.mask
    }

    /// Cookie names stay visible, values are masked; attributes of Set-Cookie stay visible.
    private func cookie(_ value: String) -> String {
        let attributes: Set<String> = ["path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "partitioned"]
        return value.split(separator: ";", omittingEmptySubsequences: false).map { part -> String in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            guard pair.count == 2, !attributes.contains(name.lowercased()) else { return String(part) }
            return "\(pair[0])=\(Redactor.mask)"
        }.joined(separator: ";")
    }

    /// Every header as `(name, shown value)`.
    public func headers(_ headers: Headers) -> [(name: String, value: String)] {
        headers.map { ($0.name, header(name: $0.name, value: $0.value)) }
    }

    /// A URL with secret query values and any password masked.
    public func url(_ url: URL) -> String {
        self.url(url.absoluteString)
    }

    /// A URL text with secret query values and any password masked.
    public func url(_ text: String) -> String {
        var result = text
        if let scheme = result.range(of: "://"), let at = result[scheme.upperBound...].firstIndex(of: "@"),
            let colon = result[scheme.upperBound..<at].firstIndex(of: ":")
        {
            result.replaceSubrange(result.index(after: colon)..<at, with: Redactor.mask)
        }
        guard let mark = result.firstIndex(of: "?") else { return self.text(result) }
        let fragmentStart = result[mark...].firstIndex(of: "#") ?? result.endIndex
        let query = result[result.index(after: mark)..<fragmentStart]
        let masked = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = (String(parts[0]).removingPercentEncoding ?? String(parts[0]))
            guard parts.count == 2, isSensitiveQuery(name) else { return String(pair) }
            return "\(parts[0])=\(Redactor.mask)"
        }.joined(separator: "&")
        return self.text(String(result[...mark]) + masked + String(result[fragmentStart...]))
    }

    /// Whether a query item's name is secret.
    public func isSensitiveQuery(_ name: String) -> Bool {
        queryNames.contains(name.lowercased()) || isSensitive(name: name)
    }

    /// Free text with every known secret value masked.
    public func text(_ text: String) -> String {
        guard !secretValues.isEmpty else { return text }
        var result = text
        // Longest first, so a secret containing another is masked whole.
        for secret in secretValues.sorted(by: { $0.count > $1.count }) where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        return result
    }

    /// A body as text to show: JSON members and form fields with secret names masked, known
    /// secrets masked; binary bodies summarised.
    public func body(_ data: Data, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("x-www-form-urlencoded") {
            let text = String(decoding: data, as: UTF8.self)
            let items = FormEncoding.decode(text).map { item in
                isSensitiveQuery(item.name) ? QueryItem(name: item.name, value: Redactor.mask) : item
            }
            return self.text(FormEncoding.encode(items).replacingOccurrences(of: FormEncoding.escape(Redactor.mask), with: Redactor.mask))
        }
        if type.contains("json") || data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "[") {
            if let value = try? JSONValue.parse(data) {
                return self.text(json(value).compactText)
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { return "(\(data.count) bytes of binary data)" }
        return self.text(text)
    }

    /// A JSON value with members whose names are secret masked, at any depth.
    public func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                (member.key, isSensitive(name: member.key) && member.value.isScalar ? .string(Redactor.mask) : json(member.value))
            }))
        case .array(let elements):
            return .array(elements.map(json))
        default:
            return value
        }
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
