/// Reads a `text/event-stream` body as it arrives, chunk by chunk, into events: the WHATWG HTML
/// standard's parsing rules (§9.2.5–9.2.6). Lines end with CRLF, LF or CR, also when a chunk ends
/// between the CR and the LF; a leading BOM is skipped; `:` lines are comments; an event is
/// dispatched at a blank line and only when it has data; `id` values with NUL are ignored; `retry`
/// takes ASCII digits only. An event the stream ends in the middle of is dropped, as the standard says.
package struct ServerSentEventParser: Sendable {
    /// The reconnection time the stream asked for with `retry`, in milliseconds.
    package private(set) var retry: Int?
    /// The last event ID so far (sent back as `Last-Event-ID` when reconnecting).
    package private(set) var lastEventID = ""
    /// Comment lines seen (servers send them to keep a connection open).
    package private(set) var commentCount = 0

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    /// The previous chunk ended in a CR: a LF first in the next one belongs to it.
    private var afterCR = false
    /// Whether the first bytes (and so a BOM) were looked at.
    private var startChecked = false

    /// Makes a parser for a new stream (a reconnection keeps `lastEventID` by using the same parser).
    package init() {}

    /// Reads the next bytes of the stream; returns the events they complete.
    package mutating func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var bytes = Array(bytes)[...]
        if !startChecked {
            // A BOM may arrive split across chunks; wait for three bytes (or the end of a short stream).
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let pending = line + bytes
            if pending.count < 3, bom.starts(with: pending) {
                line = Array(pending)
                return []
            }
            startChecked = true
            bytes = (pending.starts(with: bom) ? Array(pending.dropFirst(3)) : Array(pending))[...]
            line = []
        }
        for byte in bytes {
            switch byte {
            case 0x0A:
                if afterCR {
                    afterCR = false
                    continue
                }
                endLine(into: &events)
            case 0x0D:
                afterCR = true
                endLine(into: &events)
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// Forgets a partly read event (the connection ended); the last event ID and retry stay.
    package mutating func reset() {
        line = []
        data = []
        hasData = false
        eventType = []
        afterCR = false
        startChecked = false
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            dispatch(into: &events)
            return
        }
        if line[0] == UInt8(ascii: ":") {
            commentCount += 1
            return
        }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event": eventType = Array(value)
        case "data":
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                retry = milliseconds
            }
        default: break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data.removeAll(keepingCapacity: true)
            eventType.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return }
        if data.last == 0x0A { data.removeLast() }
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        events.append(ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID))
    }
}
