import JSONSupport

// An entry as JSON (the record in `history/ID.json`, `call --json`, `history --json`): the same
// document as `JSONEncoder` with sorted keys makes from the Codable conformances (which read it
// back), built directly. The encoder's first use in a process (its containers and every record's
// coding keys) was a third of a millisecond of each `apiexplorer call`. `HistoryJSONTests` checks
// both agree byte for byte.

extension HistoryEntry {
    /// The entry as JSON: every key, `null` included (as `encode(to:)` writes it).
    var json: JSONValue {
        Self.sortedObject([
            ("id", .string(id)), ("date", .string(HistoryStore.timestamp(date))), ("catalog", catalog.map { .string($0.rawValue) }),
            ("service", .string(service)),
            ("endpoint", .string(endpoint)), ("environment", .string(environment)), ("mode", .string(mode.rawValue)),
            ("example", example.map(JSONValue.string) ?? .null),
            ("values", Self.sortedObject(values.map { ($0.key, JSONValue.string($0.value)) })),
            ("request", request.json), ("response", response?.json ?? .null), ("error", error?.json ?? .null),
            ("timing", timing?.json ?? .null),
        ])
    }

    /// An object with `members` in the order of their keys, and those whose value is nil left out
    /// (as synthesized `Encodable` conformances leave out nil optionals).
    static func sortedObject(_ members: [(key: String, value: JSONValue?)]) -> JSONValue {
        .object(JSONObject(members.compactMap { member in member.value.map { (member.key, $0) } }.sorted { $0.key < $1.key }))
    }
}

extension RequestRecord {
    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("method", .string(method)), ("url", .string(url)), ("headers", .array(headers.map(\.json))), ("body", body?.json),
            ("streamedBody", streamedBody.map(JSONValue.string)), ("form", form.map { .array($0.map(\.json)) }),
        ])
    }
}

extension HeaderRecord {
    var json: JSONValue { .object(["name": .string(name), "value": .string(value)]) }
}

extension BodyRecord {
    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("text", .string(text)), ("encoding", .string(encoding.rawValue)), ("size", .integer(size)), ("truncated", .bool(truncated)),
        ])
    }
}

extension FormFieldRecord {
    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("name", .string(name)), ("value", value.map(JSONValue.string)), ("fileName", fileName.map(JSONValue.string)),
            ("contentType", contentType.map(JSONValue.string)),
        ])
    }
}

extension ResponseRecord {
    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("status", .integer(status)), ("statusText", .string(statusText)), ("httpVersion", httpVersion.map(JSONValue.string)),
            ("headers", .array(headers.map(\.json))), ("body", body.json), ("size", .integer(size)), ("timeMs", .double(timeMs)),
            ("source", .string(source)), ("url", url.map(JSONValue.string)), ("declaredSize", declaredSize.map(JSONValue.integer)),
            ("file", file.map(JSONValue.string)),
        ])
    }
}

extension ErrorRecord {
    var json: JSONValue {
        HistoryEntry.sortedObject([("kind", .string(kind)), ("message", .string(message)), ("status", status.map(JSONValue.integer))])
    }
}
