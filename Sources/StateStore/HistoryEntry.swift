import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import Sessions
import SystemSupport
import TextSupport

/// One request as apiexplorer keeps it: what was sent (secrets masked), what came back, the
/// mapped error, and enough to send it again (service, endpoint, environment, mode, example,
/// run-time values). `apiexplorer call --json` prints exactly this object; see docs/cli.md.
package struct HistoryEntry: Sendable, Hashable, Codable, Identifiable {
    /// Unique id (a UUID).
    package var id: String
    /// When the request finished.
    package var date: Date
    /// The catalog that declared the service (nil in entries kept before catalogs had their own
    /// state: no `{{response.…}}` reads them, and they are not sent again).
    package var catalog: CatalogID?
    /// The service id.
    package var service: String
    /// The endpoint id within the service.
    package var endpoint: String
    /// The environment's name.
    package var environment: String
    /// Stub or live.
    package var mode: RequestMode
    /// The example asked for; nil for the default stub and for a live send (examples are fixtures).
    package var example: String?
    /// Run-time values the request was sent with (secret-looking names masked).
    package var values: [String: String]
    /// The request as sent.
    package var request: RequestRecord
    /// The response, when there was one (an error may carry one too).
    package var response: ResponseRecord?
    /// The mapped error, or nil on success.
    package var error: ErrorRecord?
    /// Where the time went (curl's figures and each attempt's phases), for a request that went
    /// over the network; nil for a stub, a cached answer and entries kept before it was recorded.
    package var timing: TimingRecord?

    /// Makes an entry.
    package init(
        id: String = UUID().uuidString, date: Date, service: String, endpoint: String, environment: String, mode: RequestMode,
        example: String?, values: [String: String], request: RequestRecord, response: ResponseRecord?, error: ErrorRecord?
    ) {
        self.id = id
        self.date = date
        self.service = service
        self.endpoint = endpoint
        self.environment = environment
        self.mode = mode
        self.example = example
        self.values = values
        self.request = request
        self.response = response
        self.error = error
    }

    /// The catalog of an entry as its call names it: an entry of an unknown catalog names one
    /// that no loaded catalog is (`unknown:SERVICE`), so that nothing of a catalog matches it.
    static func catalog(_ text: String?, service: String) -> CatalogID {
        CatalogID(rawValue: text ?? "unknown:" + service)
    }

    /// The entry for a finished call. Request headers, URL and body always pass through the
    /// outcome's redactor; the response body does too and is cut at `defaultBodyLimit` when the
    /// entry is for the history file (`forHistory`), not when it is printed (`call --json`).
    package init(_ outcome: CallOutcome, forHistory: Bool = true, date: Date) {
        self.init(
            exchange: outcome.exchange, call: outcome.call, redactor: outcome.redactor, redactResponseBody: forHistory,
            bodyLimit: forHistory ? HistoryEntry.defaultBodyLimit : nil, date: date)
        catalog = outcome.call.catalog
    }

    /// The entry for a finished exchange. Request headers, URL and body always pass through
    /// `redactor`; the response body does when `redactResponseBody` (history on disk) and is cut
    /// at `bodyLimit` bytes.
    package init(
        exchange: Exchange, call: EndpointCall, redactor: Redactor, redactResponseBody: Bool = true,
        bodyLimit: Int? = HistoryEntry.defaultBodyLimit, date: Date
    ) {
        let request = exchange.request
        let values = call.values
        self.init(
            date: date, service: call.endpoint.service, endpoint: call.endpoint.endpoint, environment: exchange.environmentName,
            mode: exchange.isStubbed ? .stub : .live, example: exchange.isStubbed ? call.example : nil,
            values: Dictionary(uniqueKeysWithValues: values.map { ($0.key, redactor.isSensitive(name: $0.key) ? Redactor.mask : redactor.text($0.value)) }),
            request: RequestRecord(request, redactor: redactor),
            response: exchange.response.map { ResponseRecord($0, redactor: redactor, redactBody: redactResponseBody, bodyLimit: bodyLimit) },
            error: exchange.error.map { ErrorRecord($0, redactor: redactor) })
        catalog = call.catalog
        timing = TimingRecord(exchange.transfers, redactor: redactor)
    }

    private enum CodingKeys: String, CodingKey {
        case id, date, catalog, service, endpoint, environment, mode, example, values, request, response, error, timing
    }

    /// Writes every key, `null` included, so readers of `call --json` always find `response` and `error`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(catalog, forKey: .catalog)
        try container.encode(service, forKey: .service)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(environment, forKey: .environment)
        try container.encode(mode, forKey: .mode)
        try container.encode(example, forKey: .example)
        try container.encode(values, forKey: .values)
        try container.encode(request, forKey: .request)
        try container.encode(response, forKey: .response)
        try container.encode(error, forKey: .error)
        try container.encode(timing, forKey: .timing)
    }

    /// Bodies kept in history are cut after 64 KiB (they are for a look back, not an archive).
    package static let defaultBodyLimit = 64 * 1024

    /// The endpoint.
    package var key: EndpointKey { EndpointKey(service: service, endpoint: endpoint) }

    /// Whether the request ended in a mapped error.
    package var failed: Bool { error != nil }

    /// What is needed to send the request again. Masked values cannot be replayed: the caller
    /// supplies them again (they come back from the catalog's secrets anyway).
    package var call: EndpointCall {
        EndpointCall(
            endpoint: key, catalog: Self.catalog(catalog?.rawValue, service: service), environment: environment, mode: mode, example: example,
            values: values.filter { $0.value != Redactor.mask })
    }
}

/// One header as recorded.
package struct HeaderRecord: Sendable, Hashable, Codable {
    /// The name as sent.
    package var name: String
    /// The value (masked when secret).
    package var value: String

    /// Makes a header record.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A body as recorded: UTF-8 text, or base64 for bytes that are not.
package struct BodyRecord: Sendable, Hashable, Codable {
    /// How `text` holds the bytes.
    package enum Encoding: String, Sendable, Hashable, Codable {
        /// The bytes are UTF-8 text.
        case utf8
        /// The bytes, base64-encoded.
        case base64
    }

    /// The body (possibly cut, see `truncated`).
    package var text: String
    /// How `text` holds the bytes.
    package var encoding: Encoding
    /// The size of the whole body in bytes.
    package var size: Int
    /// Whether `text` holds only the first part of the body.
    package var truncated: Bool

    /// Makes a body record.
    package init(text: String, encoding: Encoding, size: Int, truncated: Bool) {
        self.text = text
        self.encoding = encoding
        self.size = size
        self.truncated = truncated
    }

    /// Records `data`: text when it is UTF-8 (masked by `redactor` when given), else base64;
    /// only the first `limit` bytes are kept.
    package init(_ data: Data, contentType: String?, redactor: Redactor?, limit: Int?) {
        let truncated = limit.map { data.count > $0 } ?? false
        let kept = truncated ? data.prefix(limit ?? data.count) : data
        size = data.count
        self.truncated = truncated
        if let text = BodyRecord.utf8Text(kept, mayEndMidCharacter: truncated) {
            // A cut JSON body no longer parses, so it is masked as text.
            self.text = redactor.map { truncated ? $0.text(text) : $0.body(kept, contentType: contentType) } ?? text
            encoding = .utf8
        } else {
            self.text = kept.base64EncodedString()
            encoding = .base64
        }
    }

    /// The recorded bytes.
    package var data: Data {
        switch encoding {
        case .utf8: Data(utf8: text)
        case .base64: Data(base64Encoded: text) ?? Data()
        }
    }

    private static func utf8Text(_ data: Data, mayEndMidCharacter: Bool) -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        guard mayEndMidCharacter else { return nil }
        // A cut may split the last character: drop up to 3 trailing bytes.
        for drop in 1...3 where data.count > drop {
            if let text = String(data: data.dropLast(drop), encoding: .utf8) { return text }
        }
        return nil
    }
}

/// The request as recorded, secrets masked.
package struct RequestRecord: Sendable, Hashable, Codable {
    /// The method.
    package var method: String
    /// The URL, secret query values masked.
    package var url: String
    /// Every header, secret values masked.
    package var headers: [HeaderRecord]
    /// The body, when there was one.
    package var body: BodyRecord?
    /// A body read from disk as it was sent: the file (`<file …>`) or the multipart form described,
    /// never its bytes.
    package var streamedBody: String?
    /// A multipart form's fields (text values masked), for HAR's `postData.params`.
    package var form: [FormFieldRecord]?

    /// Makes a request record.
    package init(method: String, url: String, headers: [HeaderRecord], body: BodyRecord?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Records a request; everything passes through `redactor`.
    package init(_ request: Request, redactor: Redactor) {
        method = request.method.rawValue
        url = redactor.url(request.url)
        headers = redactor.headers(request.headers).map { HeaderRecord(name: $0.name, value: $0.value) }
        body = request.body.flatMap { $0.isEmpty ? nil : BodyRecord($0, contentType: request.headers["Content-Type"], redactor: redactor, limit: nil) }
        if let streamed = request.streamedBody {
            streamedBody = redactor.text(streamed.summary)
            if case .multipart(let fields) = streamed.source {
                form = fields.map { field in
                    switch field.content {
                    case .text(let text): FormFieldRecord(name: field.name, value: redactor.text(text), contentType: field.contentType)
                    case .file, .bytes: FormFieldRecord(name: field.name, fileName: field.filename, contentType: field.headerContentType)
                    }
                }
            }
        }
    }
}

/// A field of a multipart form as recorded: text (masked) or a file named.
package struct FormFieldRecord: Sendable, Hashable, Codable {
    /// The field's name.
    package var name: String
    /// Its text, secret values masked (nil for a file).
    package var value: String?
    /// The file name sent (nil for text).
    package var fileName: String?
    /// Its Content-Type, when it had one.
    package var contentType: String?

    /// Makes a record.
    package init(name: String, value: String? = nil, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
    }
}

/// The response as recorded.
package struct ResponseRecord: Sendable, Hashable, Codable {
    /// The status code.
    package var status: Int
    /// The reason phrase (`Not Found`), empty when the code has none.
    package var statusText: String
    /// The HTTP version, when known.
    package var httpVersion: String?
    /// The headers, secret values masked.
    package var headers: [HeaderRecord]
    /// The body.
    package var body: BodyRecord
    /// The body's size in bytes.
    package var size: Int
    /// Time from sending to the last byte, in milliseconds.
    package var timeMs: Double
    /// `network`, `stub`, `stub (notFound)`, `cache` …
    package var source: String
    /// The URL that answered, after redirects.
    package var url: String?
    /// When the body was cut at the size limit: the length the server declared (Content-Length),
    /// if it did; `body.truncated` is true and `size` counts the bytes kept.
    package var declaredSize: Int?
    /// Where the body went when it was downloaded to a file (`d`, `call -o`); `body` is then empty
    /// and `size` is the file's.
    package var file: String?

    /// Makes a response record.
    package init(
        status: Int, statusText: String, httpVersion: String?, headers: [HeaderRecord], body: BodyRecord, size: Int, timeMs: Double,
        source: String, url: String?
    ) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.size = size
        self.timeMs = timeMs
        self.source = source
        self.url = url
    }

    /// Records a response; headers pass through `redactor`, the body too when `redactBody` (else
    /// only its known secret values are masked).
    package init(_ response: Response, redactor: Redactor, redactBody: Bool, bodyLimit: Int?) {
        status = response.status
        statusText = HTTPStatus.reasonPhrase(for: response.status) ?? ""
        httpVersion = response.httpVersion
        headers = redactor.headers(response.headers).map { HeaderRecord(name: $0.name, value: $0.value) }
        // Printed bodies stay as received but for known secret values (a server echoing a token).
        let contentType = response.headers["Content-Type"]
        body = redactBody
            ? BodyRecord(response.body, contentType: contentType, redactor: redactor, limit: bodyLimit)
            : BodyRecord(redactor.data(response.body), contentType: contentType, redactor: nil, limit: bodyLimit)
        if response.isTruncated {
            body.truncated = true
            // A coded body's Content-Length counts compressed bytes, not the body's.
            if response.headers["Content-Encoding"] == nil { declaredSize = response.headers["Content-Length"].flatMap { Int($0) } }
        }
        size = response.bodySize
        file = response.downloadedFile?.path
        timeMs = (response.timing.total.seconds * 1000 * 1000).rounded() / 1000
        source = response.source.description
        url = response.url.map { redactor.url($0) }
    }
}

/// The mapped error as recorded.
package struct ErrorRecord: Sendable, Hashable, Codable {
    /// The kind's name (`notFound`, `unauthorized`, `applicationError` …).
    package var kind: String
    /// The sentence for a person.
    package var message: String
    /// The HTTP status, when there was a response.
    package var status: Int?

    /// Makes an error record.
    package init(kind: String, message: String, status: Int?) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    /// Records a dispatch error, known secret values in its message masked by `redactor`.
    package init(_ error: DispatchError, redactor: Redactor? = nil) {
        self.init(kind: error.kind.name, message: redactor?.text(error.message) ?? error.message, status: error.status)
    }
}

extension HistoryEntry {
    /// The entry as JSON text (keys sorted, `/` unescaped), pretty-printed for people when asked.
    package func jsonText(pretty: Bool) -> String {
        pretty ? json.prettyText() : json.compactText
    }

    /// Entries as a JSON array text.
    package static func jsonText(_ entries: [HistoryEntry], pretty: Bool) -> String {
        let array = JSONValue.array(entries.map(\.json))
        return pretty ? array.prettyText() : array.compactText
    }

    /// Decodes an entry from its JSON text.
    package static func decode(_ data: Data) throws -> HistoryEntry {
        try HistoryStore.decoder.decode(HistoryEntry.self, from: data)
    }

    /// One line for people: `2025-01-31 12:00:01  live  petstore/findPet (local)  200 OK  12 ms`.
    package var summaryLine: String {
        let time = date.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day().dateTimeSeparator(.space).time(includingFractionalSeconds: false))
        var parts = [time, mode.rawValue.padded(to: 4), "\(request.method) \(key) (\(environment))"]
        if let response { parts.append("\(response.status)\(response.statusText.isEmpty ? "" : " \(response.statusText)")") }
        if let error { parts.append("→ \(error.kind): \(error.message)") }
        if let response { parts.append("\(Int(response.timeMs.rounded())) ms") }
        return parts.joined(separator: "  ")
    }
}
