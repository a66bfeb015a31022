import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Turns a HAR 1.2 capture (a browser's network log, `export har`) into catalogs: one service per
/// host, one endpoint per method and path shape (ids that vary become `{{placeholders}}`), the
/// captured responses as the stub and examples (one per status). Cookies, Authorization and API
/// key headers, secret-named query items, form fields and JSON members become
/// `{{secret.NAME}}`: the captured values are never written (secret-named members of response
/// bodies are masked).
public enum HARImporter {
    /// Headers a browser or client adds on its own, which an endpoint should not pin.
    static let ignoredHeaders: Set<String> = [
        "host", "content-length", "connection", "accept-encoding", "user-agent", "referer", "origin", "pragma", "cache-control",
        "priority", "dnt", "upgrade-insecure-requests", "te", "accept-language", "if-none-match", "if-modified-since", "keep-alive",
    ]

    /// The catalogs of a capture's bytes. Pure: nothing is read or written.
    public static func catalog(har data: Data, documentName: String) throws(AuthoringError) -> CatalogImport {
        let root = try ImportedDocument.json(data, what: "the HAR file \(documentName)")
        guard let entries = root.member("log")?.member("entries")?.elements else {
            throw .invalidInput("\(documentName) is not a HAR file (no log.entries)")
        }
        var hosts: [String] = []
        var byHost: [String: [HAREntry]] = [:]
        var notes: [String] = []
        var skipped = 0
        for value in entries {
            guard let entry = HAREntry(value) else {
                skipped += 1
                continue
            }
            if byHost[entry.origin] == nil { hosts.append(entry.origin) }
            byHost[entry.origin, default: []].append(entry)
        }
        if skipped > 0 { notes.append("\(skipped) entries were left out: not http(s) requests with an absolute URL, or methods catalogs do not send") }
        guard !hosts.isEmpty else { throw .invalidInput("\(documentName) has no http(s) request to import") }
        var ids = UniqueNames()
        var drafts: [CatalogDraft] = []
        for origin in hosts {
            let host = URL(string: origin)?.host ?? origin
            let short = CurlImporter.serviceName(for: URL(string: origin) ?? URL(fileURLWithPath: "/"))
            let id = ids.taken.contains(short) ? ids.claim(Identifier.make(host.lowercased(), fallback: "har")) : ids.claim(short)
            var service = HARService(id: id, origin: origin)
            service.add(byHost[origin] ?? [])
            service.draft.header = "Imported from \(documentName) (HAR, \(byHost[origin]?.count ?? 0) requests to \(host)) by `apiexplorer import har`."
            drafts.append(service.draft)
            notes += service.secrets.notes
        }
        return CatalogImport(drafts: drafts, notes: notes)
    }
}

/// One captured request and its response, read.
struct HAREntry {
    var method: String
    var origin: String
    var segments: [Substring]
    var query: [(name: String, value: String?)]
    var headers: [(String, String)]
    var body: (mimeType: String, text: String?, params: [(String, String)])?
    var response: ImportedResponse?

    init?(_ entry: JSONValue) {
        guard let request = entry.member("request"), let method = request.member("method")?.text?.uppercased(),
            HTTPMethod(rawValue: method) != nil, let raw = request.member("url")?.text, raw.hasPrefix("http"), let url = RequestURL(raw),
            url.base.hasPrefix("http://") || url.base.hasPrefix("https://")
        else { return nil }
        self.method = method
        origin = url.base.lowercased()
        segments = url.path.split(separator: "/", omittingEmptySubsequences: false)
        query = url.query
        headers = Self.pairs(request.member("headers"))
        if let post = request.member("postData") {
            body = (post.member("mimeType")?.text ?? "", post.member("text")?.text, Self.pairs(post.member("params")))
        }
        if let captured = entry.member("response"), let status = captured.member("status")?.intValue, status >= 100 {
            let content = captured.member("content")
            var text = content?.member("text")?.text
            if content?.member("encoding")?.text == "base64", let encoded = text {
                // Binary bodies stay out of text fixtures; text ones are decoded.
                text = Data(base64Encoded: encoded).flatMap { String(validating: $0, as: UTF8.self) }
            }
            var headers = Self.pairs(captured.member("headers"))
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }), let type = content?.member("mimeType")?.text, !type.isEmpty {
                headers.append(("Content-Type", type))
            }
            response = ImportedResponse(status: status, headers: headers, body: text)
        }
    }

    /// `[{name, value}]` as pairs.
    static func pairs(_ list: JSONValue?) -> [(String, String)] {
        (list?.elements ?? []).compactMap { item in item.member("name")?.text.map { ($0, item.member("value")?.text ?? "") } }
    }
}
