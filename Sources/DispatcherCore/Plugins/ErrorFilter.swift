import FoundationEssentials
import JSONSupport
import Synchronization
import TextSupport

/// Maps every result into one `DispatchError` kind with a human message: first the rules in order,
/// then the built-in table (400 → badRequest, 401 → unauthorized … 5xx → serverError), and transport
/// failures by their code.
public struct ErrorFilter: Sendable, Hashable {
    /// Rules tried before the built-in table, first match wins.
    public var rules: [ErrorRule]

    /// Makes a filter with rules.
    public init(rules: [ErrorRule] = []) { self.rules = rules }

    /// Whether a rule may map a successful (2xx) response by its body (GraphQL's `errors` in a `200`):
    /// then a successful body must be held whole before it is judged.
    public var readsSuccessfulBodies: Bool {
        rules.contains { rule in (200..<300).contains(where: rule.statuses.matches) }
    }

    /// The error for a response, or nil when it is a success.
    public func error(for response: Response, request: Request) -> DispatchError? {
        var body = LazyJSON(response: response)
        for rule in rules where rule.statuses.matches(response.status) && rule.applies(to: request) {
            if let condition = rule.when {
                guard let json = body.value, condition.evaluate(json).contains(where: \.isPresent) else { continue }
            }
            let message: String
            var details: [String] = []
            switch rule.message {
            case .text(let text):
                message = text
            case .path(let path):
                details = body.value.map { ErrorFilter.gatherMessages(path.evaluate($0)) } ?? []
                message = details.isEmpty ? ErrorFilter.fallbackMessage(for: rule.kind, response: response, isJSON: body.value != nil) : details.joined(separator: "; ")
            case .graphQLErrors:
                details = body.value.map(ErrorRule.graphQLMessages) ?? []
                message = details.isEmpty ? ErrorFilter.fallbackMessage(for: rule.kind, response: response, isJSON: body.value != nil) : details.joined(separator: "; ")
            case nil:
                details = body.value.map { ErrorFilter.gatherMessages([$0]) } ?? []
                message = details.isEmpty ? ErrorFilter.fallbackMessage(for: rule.kind, response: response, isJSON: body.value != nil) : details.joined(separator: "; ")
            }
            return DispatchError(
                kind: rule.kind, message: message, details: details, status: response.status,
                retryAfter: ErrorFilter.retryAfter(in: response), response: response, source: "rule \(rule.name)")
        }

        // A gRPC call's status: its own code decides, not the HTTP status standing for it.
        if let error = RPCStatus.error(for: response) { return error }
        if request.validation.accepts(response.status) {
            guard request.expectsResponseBody, (response.downloadedFile?.byteCount ?? response.body.count) == 0, request.method != .head,
                ![204, 205, 304].contains(response.status)
            else { return nil }
            return DispatchError(
                kind: .noData, message: "The server answered \(response.statusLine) with an empty body where data was expected.",
                status: response.status, response: response, source: "empty body")
        }

        let kind = ErrorKind(status: response.status)
        let details = body.value.map { ErrorFilter.gatherMessages([$0]) } ?? []
        let message = details.isEmpty ? ErrorFilter.defaultMessage(for: kind, response: response) : details.joined(separator: "; ")
        return DispatchError(
            kind: kind, message: message, details: details, status: response.status,
            retryAfter: ErrorFilter.retryAfter(in: response), response: response, source: "status \(response.status)")
    }

    /// The error for a transport failure.
    public func error(for failure: TransportError) -> DispatchError {
        DispatchError(transport: failure)
    }

    /// `Retry-After` of the response as a duration.
    public static func retryAfter(in response: Response) -> Duration? {
        response.headers["Retry-After"].flatMap { RetryAfter.parse($0) }
    }

    /// The sentence for a kind when the body gives no message.
    /// The message when a rule's path found nothing: a body that is not JSON but short text (a
    /// proxy's `Bad Request: username is required`) says more than the status, so it is the message.
    static func fallbackMessage(for kind: ErrorKind, response: Response, isJSON: Bool) -> String {
        guard !isJSON, let text = plainText(response.body) else { return defaultMessage(for: kind, response: response) }
        return text
    }

    /// A short, printable text body, trimmed (nil for an empty, long, binary or markup body).
    static func plainText(_ body: Data) -> String? {
        guard !body.isEmpty, body.count <= 2048, let text = String(validating: body, as: UTF8.self) else { return nil }
        let trimmed = text.trimmed
        guard !trimmed.isEmpty, !trimmed.hasPrefix("<") else { return nil }
        let controls = trimmed.unicodeScalars.contains { scalar in scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" }
        guard !controls else { return nil }
        let oneLine = trimmed.split(whereSeparator: { (character: Character) in character.isNewline }).joined(separator: " ")
        return oneLine.count > 300 ? String(oneLine.prefix(300)) + "…" : oneLine
    }

    public static func defaultMessage(for kind: ErrorKind, response: Response) -> String {
        let line = response.statusLine
        switch kind {
        case .badRequest: return "The server rejected the request as invalid (\(line))."
        case .unauthorized: return "The request needs valid credentials (\(line)): sign in or refresh the token."
        case .forbidden: return "The credentials were accepted but do not allow this (\(line))."
        case .notFound: return "Nothing exists at this URL (\(line))."
        case .tooManyRequests:
            let wait = retryAfter(in: response).map { " Retry after \($0.secondsText) s." } ?? ""
            return "Too many requests: the server is rate limiting (\(line)).\(wait)"
        case .internalServerError: return "The server failed while handling the request (\(line))."
        case .clientError: return "The server refused the request (\(line))."
        case .serverError: return "The server failed (\(line))."
        case .unknown: return "Unexpected status \(line)."
        default: return "\(kind.name) (\(line))."
        }
    }

    /// Strings a person should read from error bodies: plain strings, and in objects the usual
    /// members (`message`, `error`, `detail`, `title`, `error_description`, `errors` …).
    public static func gatherMessages(_ values: [JSONValue]) -> [String] {
        var messages: [String] = []
        var pending = values[...]
        var budget = 1000  // a hostile body cannot make this loop forever
        while let value = pending.popFirst(), budget > 0 {
            budget -= 1
            switch value {
            case .string(let text):
                let trimmed = text.trimmed
                if !trimmed.isEmpty, !messages.contains(trimmed) { messages.append(trimmed) }
            case .array(let elements):
                pending = elements[...] + pending
            case .object(let object):
                let found = messageKeys.compactMap { object[$0] }
                pending = found[...] + pending
            default:
                break
            }
        }
        return messages
    }

    private static let messageKeys = ["message", "msg", "error_description", "detail", "title", "error", "errors", "description", "reason"]
}

extension JSONValue {
    /// Whether a value counts as found for a rule's `when`: not null, false, empty string or empty container.
    var isPresent: Bool {
        switch self {
        case .null, .bool(false): false
        case .string(let text): !text.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let object): !object.isEmpty
        default: true
        }
    }
}

/// Parses the body at most once, and only when a rule or message needs it.
struct LazyJSON {
    let response: Response
    private var parsed: JSONValue??

    init(response: Response) { self.response = response }

    var value: JSONValue? {
        mutating get {
            if let parsed { return parsed }
            let result = looksLikeJSON ? ParsedBodies.shared.json(of: response.body) : nil
            parsed = .some(result)
            return result
        }
    }

    private var looksLikeJSON: Bool {
        guard !response.body.isEmpty else { return false }
        if let type = response.headers["Content-Type"], LazyJSON.namesJSON(type) { return true }
        let first = response.body.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Whether a Content-Type's media type (before any `;`) mentions `json`, in any case: what
    /// `mediaType` would say, without making strings on every response.
    static func namesJSON(_ contentType: String) -> Bool {
        var text = contentType
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var lastFour: UInt32 = 0  // the last four bytes seen, lowercased
            for (position, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: ";") { return false }
                lastFour = lastFour << 8 | UInt32(UTF8Search.lower(byte))
                if position >= 3, lastFour == 0x6A73_6F6E { return true }  // "json"
            }
            return false
        } ?? false
    }
}

/// Bodies already parsed as JSON, by their bytes: a stub answers with the same sample body every
/// time, and a rule that looks inside 2xx bodies would parse it on every request. Only a few small
/// bodies are kept, compared byte for byte (cheaper than hashing them).
final class ParsedBodies: Sendable {
    /// The cache the error filter uses.
    static let shared = ParsedBodies()
    /// Larger bodies are parsed every time (comparing them would cost, keeping them would weigh).
    static let largestKept = 16 * 1024
    /// How many bodies are kept; the oldest goes first.
    static let limit = 8

    private struct Entry {
        var body: Data
        var value: JSONValue?
    }

    private struct State {
        var entries: [Entry] = []
        var next = 0
    }

    private let state = Mutex(State())

    /// The body parsed as JSON; nil when it is not JSON.
    func json(of body: Data) -> JSONValue? {
        guard body.count <= ParsedBodies.largestKept else { return try? JSONValue.parse(body) }
        let known = state.withLock { state in
            state.entries.first { $0.body.count == body.count && $0.body == body }
        }
        if let known { return known.value }
        let value = try? JSONValue.parse(body)
        state.withLock { state in
            let entry = Entry(body: body, value: value)
            if state.entries.count < ParsedBodies.limit {
                state.entries.append(entry)
            } else {
                state.entries[state.next] = entry
                state.next = (state.next + 1) % ParsedBodies.limit
            }
        }
        return value
    }
}
