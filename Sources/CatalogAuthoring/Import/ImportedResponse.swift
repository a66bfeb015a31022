import DispatcherCore
import FoundationEssentials
import JSONSupport

/// A response saved with a request (a Postman example, an Insomnia or HAR response), turned into
/// a stub or named example with its body in a fixture file.
struct ImportedResponse {
    /// The status.
    var status: Int
    /// Its headers as saved.
    var headers: [(String, String)]
    /// The body text, if any.
    var body: String?

    /// Headers that describe one transfer, not the response (a fixture is sent whole and plain),
    /// and credentials (never written).
    static func keeps(header name: String, redactor: Redactor = .standard) -> Bool {
        let lower = name.lowercased()
        let transfer: Set<String> = ["content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive", "date"]
        return !transfer.contains(lower) && !redactor.isSensitive(name: name)
    }

    /// The example named `name` (`default` for the stub) of endpoint `endpoint`; its body goes to
    /// `fixtures/SERVICE/ENDPOINT[-NAME].EXT`, pretty-printed when it is JSON.
    func example(named name: String, description: String? = nil, service: String, endpoint: String)
        -> (example: CatalogDraft.Example, fixture: (path: String, data: Data)?)
    {
        var example = CatalogDraft.Example(name: name, description: description, status: status)
        example.headers = headers.filter { Self.keeps(header: $0.0) }
        guard let body, !body.isEmpty else { return (example, nil) }
        let contentType = headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
        let stem = "fixtures/\(service)/\(endpoint)\(name == "default" ? "" : "-\(name)")"
        let path: String
        let data: Data
        if let value = try? JSONValue.parse(body), contentType.isEmpty || contentType.contains("json") {
            path = stem + ".json"
            // Tokens and passwords in captured bodies are masked like in the history.
            data = Data((CredentialName.masked(value).prettyText() + "\n").utf8)
        } else {
            path = stem + "." + Self.fileExtension(for: contentType)
            data = Data(body.utf8)
        }
        example.bodyFile = path
        return (example, (path, data))
    }

    /// The fixture file extension for a content type (`.txt` when unknown; the saved header still says what it is).
    static func fileExtension(for contentType: String) -> String {
        if contentType.contains("json") { return "json" }
        if contentType.contains("html") { return "html" }
        if contentType.contains("xml") { return "xml" }
        if contentType.contains("csv") { return "csv" }
        return "txt"
    }
}
