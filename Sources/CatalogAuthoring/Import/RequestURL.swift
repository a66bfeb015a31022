import TextSupport

/// A request URL as collections write it (`{{baseUrl}}/users/:id?page=2`,
/// `https://api.example.com/v1/users`), split into the part that becomes an environment's base
/// URL and the endpoint's path and query.
struct RequestURL: Sendable {
    /// What the environments' base URL is made of: a placeholder (`{{baseUrl}}`), an origin
    /// (`https://api.example.com`), or an origin holding placeholders (`https://{{host}}`).
    var base: String
    /// The path after the base, starting with `/`; `:name` segments are written `{{name}}`.
    var path: String
    /// Query items in order, percent-decoded; nil value: a bare name.
    var query: [(name: String, value: String?)]

    /// Splits `raw`; nil when it has neither a scheme and host nor a leading placeholder.
    /// A URL without a scheme is taken as `http://` (as Postman does).
    init?(_ raw: String) {
        var text = raw.trimmed
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        var queryText: Substring?
        if let mark = text.firstIndex(of: "?") {
            queryText = text[text.index(after: mark)...]
            text = String(text[..<mark])
        }
        let baseEnd: String.Index
        if text.hasPrefix("{{"), let close = text.firstRange(of: "}}") {
            baseEnd = close.upperBound
        } else {
            if !text.contains("://") {
                guard let first = text.first, first != "/" else { return nil }
                text = "http://" + text
            }
            guard let scheme = text.firstRange(of: "://") else { return nil }
            baseEnd = text[scheme.upperBound...].firstIndex(of: "/") ?? text.endIndex
            guard baseEnd > scheme.upperBound else { return nil }
        }
        base = String(text[..<baseEnd])
        var rest = String(text[baseEnd...])
        // `{{scheme}}://{{host}}/x`: the placeholder was only part of the origin.
        if rest.hasPrefix("://") {
            let end = rest.dropFirst(3).firstIndex(of: "/") ?? rest.endIndex
            base += rest[..<end]
            rest = String(rest[end...])
        }
        path = Self.placeholderSegments(rest.isEmpty ? "/" : rest.hasPrefix("/") ? rest : "/" + rest)
        query = queryText.map(Self.queryItems) ?? []
    }

    /// `/users/:id` → `/users/{{id}}`.
    static func placeholderSegments(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count > 1 && segment.hasPrefix(":") ? "{{\(segment.dropFirst())}}" : String(segment)
        }.joined(separator: "/")
    }

    /// `a=1&b&c=x%20y` → `[(a, 1), (b, nil), (c, x y)]`.
    static func queryItems(_ text: Substring) -> [(name: String, value: String?)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let text = String(part).replacing("+", with: " ")
                return PercentEncoding.decode(text) ?? text
            }
            return (decoded(parts[0]), parts.count == 2 ? decoded(parts[1]) : nil)
        }
    }
}
