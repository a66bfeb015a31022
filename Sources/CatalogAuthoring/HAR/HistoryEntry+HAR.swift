import FoundationEssentials
import JSONSupport
import StateStore

extension HistoryEntry {
    /// The entry as HAR's exchange (the history's values: secrets stay masked).
    package var harExchange: HARExchange {
        let time = response?.timeMs ?? 0
        var custom: JSONObject = [
            "service": .string(service), "endpoint": .string(endpoint), "environment": .string(environment), "mode": .string(mode.rawValue),
        ]
        custom["example"] = example.map(JSONValue.string)
        if let error {
            custom["error"] = ["kind": .string(error.kind), "message": .string(error.message), "status": error.status.map(JSONValue.integer) ?? .null]
        }
        let harRequest: HARExchange.Request = (
            request.method, request.url, request.headers.map { ($0.name, $0.value) }, request.body.map(Self.harBody),
            request.form?.map { ($0.name, $0.value, $0.fileName, $0.contentType) })
        let harResponse = response.map { response -> HARExchange.Response in
            (response.status, response.statusText, response.httpVersion, response.headers.map { ($0.name, $0.value) }, Self.harBody(response.body), response.size)
        }
        return HARExchange(
            started: HistoryStore.timestamp(date.addingTimeInterval(-time / 1000)), time: time, request: harRequest, response: harResponse, custom: custom)
    }

    static func harBody(_ body: BodyRecord) -> HARExchange.Body {
        (body.text, body.encoding == .base64, body.size, body.truncated ? body.data.count : nil)
    }
}
