import DispatcherCore
import FoundationEssentials
import JSONSupport
import Synchronization
import SystemSupport

/// Prints a response as it arrives, for `call`: plain output writes the body's bytes as they come
/// (the same bytes the whole body would print, only sooner) — a stream's, and any successful body
/// the caller lets pass without holding it (`takesSuccessfulBody`); `--json` writes each
/// Server-Sent Event as one JSON object per line. Known secret values are masked unless revealed.
final class CallStreamPrinter: Sendable {
    private struct State {
        var printing = false
        var isEventStream = false
        /// A gRPC server stream: its body parts are the pieces of the messages' JSON list, one message each.
        var isRPCStream = false
        var parser = ServerSentEventParser()
        var printedBytes = 0
        var printedEvents = 0
        /// Events parsed over every connection.
        var eventCount = 0
        /// The cookie values this response sets: secrets the session learns only once it has ended.
        var setCookies: [String] = []
        /// The version and status line of the head about to arrive, as the server sent them.
        var statusLine: (version: String, line: String)?
    }

    private let state = Mutex(State())
    private let json: Bool
    private let include: Bool
    private let reveal: Bool
    /// Whether the body is cleaned of control characters (`--safe`).
    private let safe: Bool
    /// Whether the endpoint says it streams: then any body prints as it arrives.
    private let endpointStreams: Bool
    /// Whether a successful (2xx) body is printed as it arrives (plain output, no rule reads it).
    private let takesSuccessfulBody: Bool
    private let started = ContinuousClock.now

    init(json: Bool, include: Bool, reveal: Bool, safe: Bool, endpointStreams: Bool, takesSuccessfulBody: Bool = false) {
        self.takesSuccessfulBody = takesSuccessfulBody && !json
        self.json = json
        self.include = include
        self.reveal = reveal
        self.safe = safe
        self.endpointStreams = endpointStreams
    }

    /// Whether the body was printed as it arrived (then it is not printed again at the end).
    var printedBody: Bool { state.withLock { $0.printing && !json } }

    /// Whether events were printed as JSON lines (then the outcome follows on one line).
    var printedEvents: Bool { state.withLock { $0.printedEvents > 0 } }

    /// Events received so far, over every connection.
    var eventCount: Int { state.withLock { $0.eventCount } }

    /// Where a reconnection starts: the last event id and the stream's `retry`.
    var resumePoint: (lastEventID: String, retry: Int?) { state.withLock { ($0.parser.lastEventID, $0.parser.retry) } }

    /// Keeps the status line as received, for `--include` to print with the head that follows.
    func observeStatusLine(httpVersion: String, statusLine: String) {
        state.withLock { $0.statusLine = (httpVersion, statusLine) }
    }

    func observe(_ part: ResponsePart, redactor: Redactor) -> Bool {
        let reveal = self.reveal
        return state.withLock { state in
            let redactor = reveal ? Redactor.revealing : redactor.adding(secretValues: state.setCookies)
            switch part {
            case .head(let status, let headers):
                let mediaType = MediaType.essence(of: headers["Content-Type"])
                // A reconnection carries on: the last event id and retry stay, a half-read event does not.
                var parser = state.parser
                parser.reset()
                let (printedEvents, eventCount, received) = (state.printedEvents, state.eventCount, state.statusLine)
                state = State()
                state.parser = parser
                state.printedEvents = printedEvents
                state.eventCount = eventCount
                state.setCookies = headers.values(for: "Set-Cookie").compactMap { line in
                    line.split(separator: ";", maxSplits: 1).first?.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init)
                }
                state.isEventStream = mediaType == MediaType.eventStream
                state.isRPCStream = mediaType?.hasPrefix(RPCStatus.contentType) == true
                state.printing =
                    json
                    ? state.isEventStream || state.isRPCStream
                    : (endpointStreams || state.isRPCStream || MediaType.streamed.contains(mediaType ?? "")
                        || (takesSuccessfulBody && (200..<300).contains(status)))
                if state.printing, !json, include {
                    // As received (no phrase invented); a stub's is the standard one.
                    let line = received?.line ?? HTTPStatus.line(for: status)
                    Console.out(Console.head(httpVersion: received?.version, statusLine: line, headers: headers, redactor: redactor), terminator: "")
                }
                return state.printing
            case .body(let data):
                guard state.printing else { return false }
                if json, state.isRPCStream {
                    if let message = Self.rpcMessage(data) {
                        StandardStreams.writeOutput(Self.line(message: message, at: started.duration(to: .now), redactor: redactor))
                        state.printedEvents += 1
                    }
                } else if json {
                    let at = started.duration(to: .now)
                    for event in state.parser.parse(data) {
                        StandardStreams.writeOutput(Self.line(event, at: at, redactor: redactor))
                        state.printedEvents += 1
                        state.eventCount += 1
                    }
                } else {
                    // Read for the last event id, which a reconnection sends.
                    if state.isEventStream { state.eventCount += state.parser.parse(data).count }
                    Console.body(redactor.data(data), safe: safe)
                    state.printedBytes += data.count
                }
                return true
            }
        }
    }

    /// The message in a piece of a gRPC stream's list (`[` or `,`, then the message); nil for its end.
    static func rpcMessage(_ piece: Data) -> JSONValue? {
        var text = Substring(String(decoding: piece, as: UTF8.self))
        text = text.drop { $0 == "[" || $0 == "," || $0.isWhitespace }
        guard !text.isEmpty, !text.hasPrefix("]") else { return nil }
        return try? JSONValue.parse(Data(text.utf8))
    }

    /// `{"message":{…},"at":0.123}`: one gRPC stream message, when it came.
    static func line(message: JSONValue, at: Duration, redactor: Redactor) -> String {
        let seconds = Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18
        let object = JSONValue.object(JSONObject([("message", redactor.json(message)), ("at", .number(String((seconds * 1000).rounded() / 1000)))]))
        return object.compactText + "\n"
    }

    /// `{"event":"token","id":"7","data":{…},"at":0.123}`: data parsed when it is JSON.
    static func line(_ event: ServerSentEvent, at: Duration, redactor: Redactor) -> String {
        let text = redactor.text(event.data)
        let data = (try? JSONValue.parse(text)) ?? .string(text)
        let seconds = Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18
        let object = JSONValue.object(JSONObject([
            ("event", .string(event.type)), ("id", .string(event.lastEventID)), ("data", data),
            ("at", .number(String((seconds * 1000).rounded() / 1000))),
        ]))
        return object.compactText + "\n"
    }
}
