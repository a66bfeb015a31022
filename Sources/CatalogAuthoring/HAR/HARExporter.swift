import DispatcherCore
import FoundationEssentials
import JSONSupport
import StateStore

/// Writes history entries as an HTTP Archive (HAR 1.2), for browsers' and proxies' HAR viewers.
/// Values are the history's, so secrets stay masked. apiexplorer's own fields (service,
/// endpoint, environment, mode, mapped error) go in `_apiexplorer`, as HAR allows for custom fields.
package enum HARExporter {
    /// The HAR document for `entries` (oldest first).
    package static func document(_ entries: [HistoryEntry], creatorVersion: String) -> JSONValue {
        [
            "log": [
                "version": "1.2",
                "creator": ["name": "apiexplorer", "version": .string(creatorVersion)],
                "entries": .array(entries.map(entry)),
            ]
        ]
    }

    /// The HAR text, pretty-printed.
    package static func text(_ entries: [HistoryEntry], creatorVersion: String) -> String {
        document(entries, creatorVersion: creatorVersion).prettyText()
    }

    static func entry(_ entry: HistoryEntry) -> JSONValue {
        let time = entry.response?.timeMs ?? 0
        let started = entry.date.addingTimeInterval(-time / 1000)
        var custom: JSONObject = [
            "service": .string(entry.service), "endpoint": .string(entry.endpoint), "environment": .string(entry.environment),
            "mode": .string(entry.mode.rawValue),
        ]
        custom["example"] = entry.example.map(JSONValue.string)
        if let error = entry.error {
            custom["error"] = [
                "kind": .string(error.kind), "message": .string(error.message), "status": error.status.map(JSONValue.integer) ?? .null,
            ]
        }
        return [
            "startedDateTime": .string(HistoryStore.timestamp(started)),
            "time": .double(time),
            "request": request(entry.request, httpVersion: entry.response?.httpVersion),
            "response": response(entry.response),
            "cache": [:],
            "timings": ["send": 0, "wait": .double(time), "receive": 0],
            "_apiexplorer": .object(custom),
        ]
    }

    static func request(_ request: RequestRecord, httpVersion: String?) -> JSONValue {
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
            object["postData"] = ["mimeType": .string(mimeType), "text": .string(body.encoding == .utf8 ? body.text : "(\(body.size) bytes of binary data)")]
        }
        return .object(object)
    }

    static func response(_ response: ResponseRecord?) -> JSONValue {
        guard let response else {
            // No response (a transport failure, a request that could not be built): HAR still needs one.
            return [
                "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                "content": ["size": 0, "mimeType": "x-unknown"], "redirectURL": "", "headersSize": -1, "bodySize": -1,
            ]
        }
        let mimeType = response.headers.first { Headers.sameName($0.name, "Content-Type") }?.value ?? "x-unknown"
        var content: JSONObject = ["size": .integer(response.size), "mimeType": .string(mimeType), "text": .string(response.body.text)]
        if response.body.encoding == .base64 { content["encoding"] = "base64" }
        if response.body.truncated { content["comment"] = .string("cut after \(response.body.data.count) of \(response.size) bytes") }
        let location = response.headers.first { Headers.sameName($0.name, "Location") }?.value ?? ""
        return [
            "status": .integer(response.status), "statusText": .string(response.statusText),
            "httpVersion": .string(response.httpVersion ?? "HTTP/1.1"), "cookies": [], "headers": headers(response.headers),
            "content": .object(content), "redirectURL": .string(location), "headersSize": -1, "bodySize": .integer(response.size),
        ]
    }

    static func headers(_ headers: [HeaderRecord]) -> JSONValue {
        .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] })
    }

    static func queryString(_ url: String) -> [JSONValue] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return FormEncoding.decode(String(query)).map { ["name": .string($0.name), "value": .string($0.value ?? "")] }
    }
}
