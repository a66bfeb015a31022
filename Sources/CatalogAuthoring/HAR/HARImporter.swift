import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Turns a HAR 1.2 capture (a browser's network log, `export har`) into catalogs: one service per
/// host, one endpoint per method and path shape (ids that vary become `{{placeholders}}`), the
/// captured responses as the stub and examples (one per status). Cookies, Authorization and API
/// key headers, secret-named query items, form fields and JSON members become
/// `{{secret.NAME}}`: the captured values are never written (secret-named members of response
/// bodies are masked).
package enum HARImporter {
    /// Headers a browser or client adds on its own, which an endpoint should not pin.
    static let ignoredHeaders: Set<String> = [
        "host", "content-length", "connection", "accept-encoding", "user-agent", "referer", "origin", "pragma", "cache-control",
        "priority", "dnt", "upgrade-insecure-requests", "te", "accept-language", "if-none-match", "if-modified-since", "keep-alive",
    ]

    /// The catalogs of a capture's bytes. Pure: nothing is read or written. Entries that are not
    /// requests a catalog can send are left out, each named in a note; repeated headers are
    /// joined, pseudo-headers and names that are not header names dropped, with notes.
    package static func catalog(har data: Data, documentName: String) throws(AuthoringError) -> CatalogImport {
        let root = try ImportedDocument.json(data, what: "the HAR file \(documentName)")
        guard let entries = root.member("log")?.member("entries")?.elements else {
            throw .invalidInput("\(documentName) is not a HAR file (no log.entries)")
        }
        var hosts: [String] = []
        var byHost: [String: [HAREntry]] = [:]
        var tally: [ImportNote] = []
        for (index, value) in entries.enumerated() {
            let location = DocumentPlace.pointer(documentName, ["log", "entries", String(index)])
            switch HAREntry.read(value, location: location, tally: &tally) {
            case .success(let entry):
                if byHost[entry.origin] == nil { hosts.append(entry.origin) }
                byHost[entry.origin, default: []].append(entry)
            case .failure(let reason):
                tally.append(ImportNote(reason.kind, at: location, reason.message))
            }
        }
        guard !hosts.isEmpty else {
            let reasons = ImportNoteGroup.grouping(tally).prefix(3).map { "\n  \($0)" }.joined()
            throw .invalidInput("\(documentName) has no http(s) request to import, so nothing was written\(reasons)")
        }
        var ids = UniqueNames()
        var drafts: [CatalogDraft] = []
        var notes: [ImportNote] = []
        for origin in hosts {
            let host = URL(string: origin)?.host ?? origin
            let short = CurlImporter.serviceName(for: URL(string: origin) ?? URL(fileURLWithPath: "/"))
            let id = ids.taken.contains(short) ? ids.claim(Identifier.make(host.lowercased(), fallback: "har")) : ids.claim(short)
            var service = HARService(id: id, origin: origin)
            service.add(byHost[origin] ?? [])
            service.draft.header = "Imported from \(documentName) (HAR, \(byHost[origin]?.count ?? 0) requests to \(host)) by `apiexplorer import har`."
            drafts.append(service.draft)
            notes += service.notes + service.secrets.notes
        }
        return CatalogImport(drafts: drafts, notes: tally + notes)
    }

    /// RFC 9110 token characters: what a header's name may hold.
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Captured headers as a catalog can say them: HTTP/2 pseudo-headers (`:authority`) and names
    /// that are not header names (WebPageTest's request line `GET /pixel HTTP/1.1`, a cookie split
    /// from its line) dropped, repeated names joined (`a, b`; cookies with `; `), as HTTP allows.
    static func repairedHeaders(_ headers: [(String, String)], at location: String, tally: inout [ImportNote]) -> [(String, String)] {
        var result: [(String, String)] = []
        var positions: [String: Int] = [:]
        var joined: Set<String> = []
        for (name, value) in headers {
            if name.hasPrefix(":") { continue }
            guard isHeaderName(name) else {
                tally.append(ImportNote(.repaired, at: location, "a header whose name is not a header name (a request line or a broken line of the capture) was dropped"))
                continue
            }
            let lower = name.lowercased()
            guard let index = positions[lower] else {
                positions[lower] = result.count
                result.append((name, value))
                continue
            }
            // Set-Cookie lines cannot be joined (RFC 6265); they are credentials, never written anyway.
            if lower == "set-cookie" { continue }
            result[index].1 += (lower == "cookie" ? "; " : ", ") + value
            joined.insert(result[index].0)
        }
        for name in joined.sorted() {
            tally.append(ImportNote(.repaired, at: location, "the repeated header \(name) was joined into one (values separated as HTTP allows)"))
        }
        return result
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

    /// Where the entry is in the capture.
    var location = ""

    /// Why an entry was not read.
    struct Reason: Error {
        var kind: ImportNote.Kind
        var message: String
    }

    /// Reads an entry, repairing its headers (notes go to `tally`); fails saying why it cannot be a catalog's request.
    static func read(_ entry: JSONValue, location: String, tally: inout [ImportNote]) -> Result<HAREntry, Reason> {
        guard let request = entry.member("request") else { return .failure(Reason(kind: .skipped, message: "an entry without a request was left out")) }
        let raw = request.member("url")?.text ?? ""
        let scheme = raw.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            // data:, blob:, chrome-extension: … never went over the network.
            return .failure(Reason(kind: .info, message: "entries that are not http(s) requests (\(scheme.isEmpty ? "no URL" : scheme + ":")) were left out"))
        }
        guard let url = RequestURL(raw), url.base.hasPrefix("http://") || url.base.hasPrefix("https://") else {
            return .failure(Reason(kind: .skipped, message: "an entry whose URL has no host was left out"))
        }
        let method = request.member("method")?.text?.uppercased() ?? ""
        guard HTTPMethod(rawValue: method) != nil else {
            return .failure(Reason(kind: .skipped, message: "a \(method.isEmpty ? "request without a method" : method + " request") was left out: catalogs do not send it"))
        }
        var result = HAREntry(method: method, origin: url.base.lowercased(), segments: url.path.split(separator: "/", omittingEmptySubsequences: false), query: url.query, headers: [])
        result.location = location
        result.headers = HARImporter.repairedHeaders(Self.pairs(request.member("headers")), at: location + "/request/headers", tally: &tally)
        if let post = request.member("postData") {
            result.body = (post.member("mimeType")?.text ?? "", post.member("text")?.text, Self.pairs(post.member("params")))
        }
        if let captured = entry.member("response"), let status = captured.member("status")?.intValue, status >= 100 {
            let content = captured.member("content")
            var text = content?.member("text")?.text
            if content?.member("encoding")?.text == "base64", let encoded = text {
                // Binary bodies stay out of text fixtures; text ones are decoded.
                text = Data(base64Encoded: encoded).flatMap { String(validating: $0, as: UTF8.self) }
            }
            var headers = HARImporter.repairedHeaders(Self.pairs(captured.member("headers")), at: location + "/response/headers", tally: &tally)
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }), let type = content?.member("mimeType")?.text, !type.isEmpty {
                headers.append(("Content-Type", type))
            }
            result.response = ImportedResponse(status: status, headers: headers, body: text)
        }
        return .success(result)
    }

    private init(method: String, origin: String, segments: [Substring], query: [(name: String, value: String?)], headers: [(String, String)]) {
        self.method = method
        self.origin = origin
        self.segments = segments
        self.query = query
        self.headers = headers
    }

    /// `[{name, value}]` as pairs.
    static func pairs(_ list: JSONValue?) -> [(String, String)] {
        (list?.elements ?? []).compactMap { item in item.member("name")?.text.map { ($0, item.member("value")?.text ?? "") } }
    }
}
