import FoundationEssentials
import JSONSupport
import TextSupport

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
    /// Secret values in use, shared with the sessions that resolve them (tokens refreshed later
    /// included): masked wherever they appear, like `secretValues`.
    package var registry: SecretRegistry?

    /// Values shorter than this are never masked by value.
    package static let minimumSecretLength = 4

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

    /// A redactor that masks nothing (what `--reveal` and `v` ask for).
    public static let revealing = Redactor(headerNames: [], nameFragments: [], queryNames: [])

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
        for value in values where value.count >= Redactor.minimumSecretLength { copy.secretValues.formUnion(Redactor.encodings(of: value)) }
        return copy
    }

    /// Every form a secret value takes where a request or a document carries it: as it is,
    /// percent-encoded (in a path, a query, a form; upper- and lowercase hexadecimal), JSON-escaped,
    /// and base64 (standard and URL-safe, with and without padding).
    package static func encodings(of value: String) -> [String] {
        var forms = [value]
        func add(_ form: String) {
            if form.count >= minimumSecretLength, !forms.contains(form) { forms.append(form) }
        }
        let form = FormEncoding.escape(value)
        // A form's space is `+` as HTML forms and most clients write it.
        for encoded in [PercentEncoding.encode(value, keeping: PercentEncoding.isPathAllowed), PercentEncoding.encode(value), form, form.replacing("%20", with: "+")] {
            add(encoded)
            if encoded.utf8.contains(UInt8(ascii: "%")) { add(lowercasingPercentEscapes(encoded)) }
        }
        let json = JSONValue.string(value).compactText
        add(String(json.dropFirst().dropLast()))
        let base64 = Data(value.utf8).base64EncodedString()
        add(base64)
        let unpadded = String(base64.prefix { $0 != "=" })
        add(unpadded)
        let urlSafe = unpadded.replacing("+", with: "-").replacing("/", with: "_")
        add(urlSafe)
        return forms
    }

    /// `%2F` as `%2f`: some clients write percent escapes in lowercase.
    private static func lowercasingPercentEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
                for offset in 1...2 where bytes[index + offset] >= UInt8(ascii: "A") && bytes[index + offset] <= UInt8(ascii: "F") {
                    bytes[index + offset] += 32
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This redactor also masking every value `registry` knows, now and later.
    package func knowing(_ registry: SecretRegistry) -> Redactor {
        var copy = self
        copy.registry = registry
        return copy
    }

    /// Every value masked by value, longest first.
    package var knownValues: [String] {
        let registered = registry?.values ?? []
        if secretValues.isEmpty { return registered }
        return Set(registered).union(secretValues).sorted { $0.utf8.count > $1.utf8.count }
    }

    /// Whether a header, query or member name is secret.
    package func isSensitive(name: String) -> Bool {
        // No allocation: this runs for every header of every logged request.
        headerNames.contains { Headers.sameName($0, name) } || nameFragments.contains { name.utf8ContainsIgnoringASCIICase($0) }
    }

    /// A header value as it may be shown: an auth scheme stays visible (`Bearer ••••`).
    package func header(name: String, value: String) -> String {
        guard isSensitive(name: name) else { return text(value) }
        let lower = name.asciiLowercased
        if lower == "authorization" || lower == "proxy-authorization",
            let space = value.firstIndex(of: " "), !value[..<space].isEmpty
        {
            return "\(value[..<space]) \(Redactor.mask)"
        }
        if lower == "cookie" || lower == "set-cookie" {
            return cookie(value, setCookie: lower == "set-cookie")
        }
        return Redactor.mask
    }

    /// Cookie names stay visible, values are masked whatever the cookie is called (a cookie named
    /// `secure` or `Path` is a cookie all the same); the attributes after a Set-Cookie's first pair
    /// stay visible.
    private func cookie(_ value: String, setCookie: Bool) -> String {
        value.split(separator: ";", omittingEmptySubsequences: false).enumerated().map { index, part -> String in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, !setCookie || index == 0 else { return String(part) }
            return "\(pair[0])=\(Redactor.mask)"
        }.joined(separator: ";")
    }

    /// Every header as `(name, shown value)`.
    package func headers(_ headers: Headers) -> [(name: String, value: String)] {
        headers.map { ($0.name, header(name: $0.name, value: $0.value)) }
    }

    /// A URL with secret query values and any password masked.
    package func url(_ url: URL) -> String {
        self.url(url.absoluteString)
    }

    /// A URL text with secret query values and any password masked.
    package func url(_ text: String) -> String {
        var result = text
        if let offset = result.utf8FirstOffset(of: "://") {
            let authority = result.utf8.index(result.utf8.startIndex, offsetBy: offset + 3)
            let end = result[authority...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? result.endIndex
            if let at = result[authority..<end].lastIndex(of: "@"), let colon = result[authority..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: Redactor.mask)
            }
        }
        guard let mark = result.firstIndex(of: "?") else { return self.text(result) }
        let fragmentStart = result[mark...].firstIndex(of: "#") ?? result.endIndex
        let query = result[result.index(after: mark)..<fragmentStart]
        let masked = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let raw = String(parts[0])
            let name = raw.utf8.contains(UInt8(ascii: "%")) ? (PercentEncoding.decode(raw) ?? raw) : raw
            guard parts.count == 2, isSensitiveQuery(name) else { return String(pair) }
            return "\(parts[0])=\(Redactor.mask)"
        }.joined(separator: "&")
        return self.text(String(result[...mark]) + masked + String(result[fragmentStart...]))
    }

    /// Whether a query item's name is secret.
    package func isSensitiveQuery(_ name: String) -> Bool {
        queryNames.contains(name.asciiLowercased) || isSensitive(name: name)
    }

    /// Free text with every known secret value masked.
    package func text(_ text: String) -> String {
        guard !secretValues.isEmpty || registry?.isEmpty == false else { return text }
        var result = text
        // Longest first, so a secret containing another is masked whole.
        for secret in knownValues where result.utf8Contains(secret) {
            result = result.utf8Replacing(secret, with: Redactor.mask)
        }
        return result
    }

    /// Bytes with every known secret value masked (exact bytes; nothing else changes).
    package func data(_ data: Data) -> Data {
        let secrets = knownValues
        guard !secrets.isEmpty, !data.isEmpty else { return data }
        var result = data
        for secret in secrets {
            let pattern = Array(secret.utf8)
            guard result.withUnsafeBytes({ UTF8Search.firstOffset(of: pattern, in: $0, from: 0) }) != nil else { continue }
            result = result.withUnsafeBytes { bytes in
                var output = Data()
                output.reserveCapacity(bytes.count)
                var start = 0
                while let found = UTF8Search.firstOffset(of: pattern, in: bytes, from: start) {
                    output.append(contentsOf: bytes[start..<found])
                    output.append(contentsOf: Redactor.mask.utf8)
                    start = found + pattern.count
                }
                output.append(contentsOf: bytes[start...])
                return output
            }
        }
        return result
    }

    /// A body as text to show: JSON members and form fields with secret names masked, known
    /// secrets masked; binary bodies summarised.
    package func body(_ data: Data, contentType: String?) -> String {
        let type = contentType?.asciiLowercased ?? ""
        if type.utf8Contains("x-www-form-urlencoded") {
            let text = String(decoding: data, as: UTF8.self)
            let decoded = FormEncoding.decode(text)
            // Shown as sent unless a field must be masked (re-encoding would change how it reads).
            guard decoded.contains(where: { isSensitiveQuery($0.name) }) else { return self.text(text) }
            let items = decoded.map { item in
                isSensitiveQuery(item.name) ? QueryItem(name: item.name, value: Redactor.mask) : item
            }
            return self.text(FormEncoding.encode(items).utf8Replacing(FormEncoding.escape(Redactor.mask), with: Redactor.mask))
        }
        if type.utf8Contains("json") || data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "[") {
            if let value = try? JSONValue.parse(data) {
                return self.text(json(value).compactText)
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { return "(\(data.count) bytes of binary data)" }
        return self.text(text)
    }

    /// A JSON value with members whose names are secret masked, at any depth.
    package func json(_ value: JSONValue) -> JSONValue {
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
