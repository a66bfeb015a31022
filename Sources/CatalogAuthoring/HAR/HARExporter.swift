import DispatcherCore
import FoundationEssentials
import JSONSupport
import StateStore

/// One exchange as HAR 1.2 says it (http://www.softwareishard.com/blog/har-12-spec/): what
/// `HARExporter` writes. The history fills it (`export har`); values are written as given, so
/// secrets the history masked stay masked.
package struct HARExchange: Sendable {
    package typealias Header = (name: String, value: String)
    /// A body as kept: text, or base64 of bytes that are not; the whole body's size; how many bytes
    /// were kept when only a part was.
    package typealias Body = (text: String, isBase64: Bool, size: Int, keptBytes: Int?)
    /// A field of a multipart form (a file by its name: its bytes were never kept).
    package typealias FormField = (name: String, value: String?, fileName: String?, contentType: String?)
    package typealias Request = (method: String, url: String, headers: [Header], body: Body?, form: [FormField]?)
    package typealias Response = (status: Int, statusText: String, httpVersion: String?, headers: [Header], body: Body, size: Int)

    /// When the request was sent, as HAR writes it (ISO 8601, UTC, milliseconds).
    package var started: String
    /// How long it took, in milliseconds.
    package var time: Double
    package var request: Request
    /// Nil when none came (a transport failure, a request that could not be built).
    package var response: Response?
    /// apiexplorer's own fields (service, endpoint, environment, mode, mapped error), as `_apiexplorer`.
    package var custom: JSONObject

    package init(started: String, time: Double, request: Request, response: Response?, custom: JSONObject) {
        self.started = started
        self.time = time
        self.request = request
        self.response = response
        self.custom = custom
    }
}

/// Writes exchanges as an HTTP Archive (HAR 1.2), for browsers' and proxies' HAR viewers; its
/// reader is `HARImporter`. apiexplorer's own fields go in `_apiexplorer`, as HAR allows for custom fields.
package enum HARExporter {
    /// The HAR document for `exchanges` (oldest first).
    package static func document(_ exchanges: [HARExchange], creatorVersion: String) -> JSONValue {
        [
            "log": [
                "version": "1.2",
                "creator": ["name": "apiexplorer", "version": .string(creatorVersion)],
                "entries": .array(exchanges.map(entry)),
            ]
        ]
    }

    /// The HAR text, pretty-printed.
    package static func text(_ exchanges: [HARExchange], creatorVersion: String) -> String {
        document(exchanges, creatorVersion: creatorVersion).prettyText()
    }

    static func entry(_ exchange: HARExchange) -> JSONValue {
        [
            "startedDateTime": .string(exchange.started),
            "time": .double(exchange.time),
            "request": request(exchange.request, httpVersion: exchange.response?.httpVersion),
            "response": response(exchange.response),
            "cache": [:],
            "timings": ["send": 0, "wait": .double(exchange.time), "receive": 0],
            "_apiexplorer": .object(exchange.custom),
        ]
    }

    static func request(_ request: HARExchange.Request, httpVersion: String?) -> JSONValue {
        var object: JSONObject = [
            "method": .string(request.method), "url": .string(request.url), "httpVersion": .string(httpVersion ?? "HTTP/1.1"),
            "cookies": [], "headers": headers(request.headers), "queryString": .array(queryString(request.url)),
            "headersSize": -1, "bodySize": .integer(request.body?.size ?? 0),
        ]
        if let form = request.form {
            // HAR 1.2 §postData: a multipart form as params (files by name; their bytes were never kept).
            let mimeType = request.headers.first { Headers.sameName($0.name, "Content-Type") }?.value ?? "multipart/form-data"
            object["postData"] = ["mimeType": .string(mimeType), "params": .array(form.map { field in
                var param: JSONObject = ["name": .string(field.name)]
                if let value = field.value { param["value"] = .string(value) }
                if let fileName = field.fileName { param["fileName"] = .string(fileName) }
                if let contentType = field.contentType { param["contentType"] = .string(contentType) }
                return .object(param)
            })]
        } else if let body = request.body {
            let mimeType = request.headers.first { Headers.sameName($0.name, "Content-Type") }?.value ?? "application/octet-stream"
            object["postData"] = ["mimeType": .string(mimeType), "text": .string(body.isBase64 ? "(\(body.size) bytes of binary data)" : body.text)]
        }
        return .object(object)
    }

    static func response(_ response: HARExchange.Response?) -> JSONValue {
        guard let response else {
            // No response (a transport failure, a request that could not be built): HAR still needs one.
            return [
                "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                "content": ["size": 0, "mimeType": "x-unknown"], "redirectURL": "", "headersSize": -1, "bodySize": -1,
            ]
        }
        let mimeType = response.headers.first { Headers.sameName($0.name, "Content-Type") }?.value ?? "x-unknown"
        var content: JSONObject = ["size": .integer(response.size), "mimeType": .string(mimeType), "text": .string(response.body.text)]
        if response.body.isBase64 { content["encoding"] = "base64" }
        if let kept = response.body.keptBytes { content["comment"] = .string("cut after \(kept) of \(response.size) bytes") }
        let location = response.headers.first { Headers.sameName($0.name, "Location") }?.value ?? ""
        return [
            "status": .integer(response.status), "statusText": .string(response.statusText),
            "httpVersion": .string(response.httpVersion ?? "HTTP/1.1"), "cookies": [], "headers": headers(response.headers),
            "content": .object(content), "redirectURL": .string(location), "headersSize": -1, "bodySize": .integer(response.size),
        ]
    }

    static func headers(_ headers: [(name: String, value: String)]) -> JSONValue {
        .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] })
    }

    static func queryString(_ url: String) -> [JSONValue] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return FormEncoding.decode(String(query)).map { ["name": .string($0.name), "value": .string($0.value ?? "")] }
    }
}
