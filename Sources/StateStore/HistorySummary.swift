import Catalog
import FoundationEssentials
import JSONSupport
import Sessions

/// One line of the history's index: what the history list shows and what sending the request
/// again needs, and nothing else (no headers, no bodies), so reading 500 of them at launch costs
/// well under a millisecond. The whole entry is kept beside it (see `HistoryStore`).
package struct HistorySummary: Sendable, Hashable {
    /// The entry's id.
    package var id: String
    /// When the request finished.
    package var date: Date
    /// What was sent, where and how (masked run-time values left out).
    package var call: EndpointCall
    /// The method.
    package var method: String
    /// The URL as sent, secrets masked.
    package var url: String
    /// The status, when there was a response.
    package var status: Int?
    /// The reason phrase, when there was a response.
    package var statusText: String?
    /// The mapped error's kind, or nil on success.
    package var errorKind: String?
    /// curl's `time_total` of the last attempt, in microseconds, when the request went over the
    /// network (what `history --stats` reads).
    package var timeMicroseconds: Int?

    /// Makes a summary.
    package init(id: String, date: Date, call: EndpointCall, method: String, url: String, status: Int?, statusText: String?, errorKind: String?) {
        self.id = id
        self.date = date
        self.call = call
        self.method = method
        self.url = url
        self.status = status
        self.statusText = statusText
        self.errorKind = errorKind
    }

    /// The summary of an entry.
    package init(_ entry: HistoryEntry) {
        self.init(
            id: entry.id, date: entry.date, call: entry.call, method: entry.request.method, url: entry.request.url,
            status: entry.response?.status, statusText: entry.response?.statusText, errorKind: entry.error?.kind)
        timeMicroseconds = entry.timing.map { Int(($0.timeTotal * 1_000_000).rounded()) }
    }

    /// Whether it ended in a mapped error.
    package var failed: Bool { errorKind != nil }

    /// `200 OK`, `404 notFound`, `timeout`, or `—`.
    package var outcome: String {
        if let errorKind { return status.map { "\($0) \(errorKind)" } ?? errorKind }
        guard let status else { return "—" }
        return statusText.map { $0.isEmpty ? "\(status)" : "\(status) \($0)" } ?? "\(status)"
    }

    /// The index line's JSON (one object, no line breaks).
    var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "date": .string(HistoryStore.timestamp(date)), "service": .string(call.endpoint.service),
            "endpoint": .string(call.endpoint.endpoint), "environment": .string(call.environment), "mode": .string(call.mode.rawValue),
            "method": .string(method), "url": .string(url),
        ]
        object["catalog"] = .string(call.catalog.rawValue)
        if let example = call.example { object["example"] = .string(example) }
        if !call.values.isEmpty {
            object["values"] = .object(JSONObject(call.values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        }
        if let status { object["status"] = .integer(status) }
        if let statusText { object["statusText"] = .string(statusText) }
        if let errorKind { object["error"] = .string(errorKind) }
        if let timeMicroseconds { object["timeUs"] = .integer(timeMicroseconds) }
        return .object(object)
    }

    /// Reads an index line; nil for a damaged one (or one from a newer version).
    init?(json value: JSONValue) {
        guard case .object(let object) = value else { return nil }
        var fields = IndexFields()
        fields.id = object["id"]?.stringValue
        fields.date = object["date"]?.stringValue
        fields.catalog = object["catalog"]?.stringValue
        fields.service = object["service"]?.stringValue
        fields.endpoint = object["endpoint"]?.stringValue
        fields.environment = object["environment"]?.stringValue
        fields.mode = object["mode"]?.stringValue
        fields.method = object["method"]?.stringValue
        fields.url = object["url"]?.stringValue
        if case .object(let members)? = object["values"] {
            for member in members { if case .string(let text) = member.value { fields.values[member.key] = text } }
        }
        fields.example = object["example"]?.stringValue
        if case .number(let literal)? = object["status"] { fields.status = Int(literal) }
        fields.statusText = object["statusText"]?.stringValue
        fields.error = object["error"]?.stringValue
        if case .number(let literal)? = object["timeUs"] { fields.time = Int(literal) }
        self.init(fields)
    }

    /// An index line's fields as either reader finds them (`json` names them).
    struct IndexFields {
        var id, date, catalog, service, endpoint, environment, mode, method, url, example, statusText, error: String?
        var status, time: Int?
        var values: [String: String] = [:]
    }

    /// The summary an index line's fields make; nil when one it needs is missing or wrong.
    init?(_ fields: IndexFields) {
        guard let id = fields.id, let dateText = fields.date, let date = HistoryStore.date(from: dateText), let service = fields.service,
            let endpoint = fields.endpoint, let environment = fields.environment, let modeText = fields.mode,
            let mode = RequestMode(rawValue: modeText), let method = fields.method, let url = fields.url
        else { return nil }
        self.init(
            id: id, date: date,
            call: EndpointCall(
                endpoint: EndpointKey(service: service, endpoint: endpoint), catalog: HistoryEntry.catalog(fields.catalog, service: service),
                environment: environment, mode: mode, example: fields.example, values: fields.values),
            method: method, url: url, status: fields.status, statusText: fields.statusText, errorKind: fields.error)
        timeMicroseconds = fields.time
    }
}
