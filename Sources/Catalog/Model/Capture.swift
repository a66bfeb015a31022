import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Where a value is taken from in a response: a member of the JSON body, a header, the status.
package enum ResponseSelector: Sendable, Hashable, CustomStringConvertible {
    /// The first value a JSONPath selects in the body (`$.id`).
    case body(JSONPath)
    /// A header's value (`header ETag`).
    case header(String)
    /// The status code (`status`).
    case status
    /// The whole body as text.
    case wholeBody

    /// Reads `$.id`, `header ETag`, `status` or `body`; nil with a message when it is none of them.
    package static func parse(_ text: String) -> Result<ResponseSelector, SelectorError> {
        let trimmed = text.trimmed
        if trimmed == "status" { return .success(.status) }
        if trimmed == "body" || trimmed.isEmpty { return .success(.wholeBody) }
        if trimmed == "header" || trimmed.hasPrefix("header ") || trimmed.hasPrefix("header:") {
            let name = String(trimmed.dropFirst("header".count)).trimmed.trimmingPrefix(":").description.trimmed
            guard !name.isEmpty else { return .failure(SelectorError(message: "'header' needs a header name: header ETag")) }
            return .success(.header(name))
        }
        if trimmed.hasPrefix("$") {
            do throws(JSONPathError) {
                return .success(.body(try JSONPath(trimmed)))
            } catch {
                return .failure(SelectorError(message: "\(trimmed) is not a JSONPath: \(error)"))
            }
        }
        return .failure(SelectorError(message: "'\(trimmed)' is not $.a.json.path, header NAME, status or body"))
    }

    /// The selected value as text (strings as they are, other JSON compact); nil when absent.
    package func value(in response: CapturedResponse) -> String? {
        switch self {
        case .status: return String(response.status)
        case .header(let name): return response.headers.first { Headers.sameName($0.name, name) }?.value
        case .wholeBody: return String(decoding: response.body, as: UTF8.self)
        case .body(let path):
            guard let root = try? JSONValue.parse(response.body), let value = path.first(in: root) else { return nil }
            switch value {
            case .string(let text): return text
            case .number(let literal): return literal
            case .null: return nil
            default: return value.compactText
            }
        }
    }

    package var description: String {
        switch self {
        case .body(let path): path.description
        case .header(let name): "header \(name)"
        case .status: "status"
        case .wholeBody: "body"
        }
    }

    /// Why a selector cannot be read.
    package struct SelectorError: Error, Sendable, Hashable {
        /// What is wrong.
        package var message: String
        /// Whether it names another catalog's endpoint (an error when the catalog loads).
        package var isOtherCatalog = false

        package init(message: String, isOtherCatalog: Bool = false) {
            self.message = message
            self.isOtherCatalog = isOtherCatalog
        }
    }
}

/// A value an endpoint takes from its responses for later requests (`captures: { petId: $.id }`).
package struct Capture: Sendable, Hashable {
    /// The variable it fills (`{{petId}}`).
    package var name: String
    /// Where in the response.
    package var selector: ResponseSelector

    /// Makes a capture.
    package init(name: String, selector: ResponseSelector) {
        self.name = name
        self.selector = selector
    }
}

/// What captures and response references read of a response.
package struct CapturedResponse: Sendable, Hashable {
    /// The status.
    package var status: Int
    /// The headers.
    package var headers: [HeaderField]
    /// The body.
    package var body: Data

    /// Makes one.
    package init(status: Int, headers: [HeaderField], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// What captures read of a core response.
    package init(_ response: Response) {
        self.init(status: response.status, headers: response.headers.fields, body: response.body)
    }
}

/// A value taken from a response, with where and when.
package struct CapturedValue: Sendable, Hashable, Codable {
    /// The value.
    package var value: String
    /// The endpoint whose response it came from.
    package var endpoint: EndpointKey
    /// When that response arrived.
    package var date: Date

    /// Makes one.
    package init(value: String, endpoint: EndpointKey, date: Date) {
        self.value = value
        self.endpoint = endpoint
        self.date = date
    }
}

extension CatalogEndpoint {
    /// The values this endpoint's captures take from `response` (captures that find nothing are left out).
    package func capturedValues(from response: CapturedResponse, at date: Date) -> [String: CapturedValue] {
        var values: [String: CapturedValue] = [:]
        for capture in captures {
            guard let value = capture.selector.value(in: response) else { continue }
            values[capture.name] = CapturedValue(value: value, endpoint: key, date: date)
        }
        return values
    }
}

extension Capture {
    /// Whether what it takes is a secret: its name looks secret (`token`, `sessionKey` …), or it
    /// reads a header or a member whose name does (`header Set-Cookie`, `$.access_token`).
    package var isSecret: Bool {
        let redactor = Redactor.standard
        if redactor.isSensitive(name: name) { return true }
        switch selector {
        case .header(let header): return redactor.isSensitive(name: header)
        case .body(let path): return redactor.isSensitive(name: path.description)
        case .status, .wholeBody: return false
        }
    }
}

extension CatalogEndpoint {
    /// The values of its secret captures (`Capture.isSecret`) in `response`.
    package func secretCaptures(from response: Response) -> [String] {
        let secret = captures.filter(\.isSecret)
        guard !secret.isEmpty else { return [] }
        let captured = CapturedResponse(response)
        return secret.compactMap { $0.selector.value(in: captured) }
    }
}

/// `{{response.addPet $.id}}`: a value read from the latest response of another endpoint of the
/// same service (`service/endpoint` may name it too) in the same environment of the same catalog.
package struct ResponseReference: Sendable, Hashable {
    /// The prefix of such placeholders.
    package static let prefix = "response."

    /// The endpoint whose response is read.
    package var endpoint: EndpointKey
    /// What is read of it.
    package var selector: ResponseSelector

    /// Reads a placeholder's name; nil when it is not a response reference, an error when it is a broken one.
    package static func parse(_ name: String, service: String) -> Result<ResponseReference, ResponseSelector.SelectorError>? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        let target = rest.prefix { $0 != " " }
        let selectorText = String(rest.dropFirst(target.count))
        guard !target.isEmpty else {
            return .failure(.init(message: "{{\(name)}} names no endpoint: {{response.ENDPOINT $.path}}"))
        }
        let parts = target.split(separator: "/", maxSplits: 1).map(String.init)
        let endpoint = parts.count == 2 ? EndpointKey(service: parts[0], endpoint: parts[1]) : EndpointKey(service: service, endpoint: parts[0])
        guard endpoint.service == service else {
            return .failure(.init(
                message: "{{\(name)}} reads a response of service '\(endpoint.service)', another catalog's: a catalog reads only its own "
                    + "responses ({{response.ENDPOINT …}} of service '\(service)')",
                isOtherCatalog: true))
        }
        return ResponseSelector.parse(selectorText).map { ResponseReference(endpoint: endpoint, selector: $0) }
    }

    /// The values of every response reference in `names`, read from the responses `latest` gives
    /// (nil: that endpoint has no response yet); references that find nothing are left out.
    package static func values(
        for names: some Sequence<String>, service: String, latest: (EndpointKey) -> (response: CapturedResponse, date: Date)?
    ) -> [String: CapturedValue] {
        var values: [String: CapturedValue] = [:]
        for name in names {
            guard case .success(let reference)? = parse(name, service: service), let (response, date) = latest(reference.endpoint),
                let value = reference.selector.value(in: response)
            else { continue }
            values[name] = CapturedValue(value: value, endpoint: reference.endpoint, date: date)
        }
        return values
    }
}

/// `{{prompt.NAME}}`: a value asked for each time the request is sent.
package struct Prompt: Sendable, Hashable {
    /// The prefix of such placeholders.
    package static let prefix = "prompt."

    /// The name after `prompt.`.
    package var name: String
    /// The question shown (the name when the catalog gives none).
    package var message: String?
    /// The answer offered.
    package var defaultValue: String?
    /// The only answers allowed, when given.
    package var choices: [String]
    /// Typed answers are masked and never kept.
    package var isSecret: Bool

    /// Makes a prompt.
    package init(name: String, message: String? = nil, defaultValue: String? = nil, choices: [String] = [], isSecret: Bool = false) {
        self.name = name
        self.message = message
        self.defaultValue = defaultValue
        self.choices = choices
        self.isSecret = isSecret
    }

    /// The placeholder's full name, `prompt.NAME`.
    package var placeholder: String { Prompt.prefix + name }
}

extension CatalogEndpoint {
    /// The prompts a request of this endpoint asks (declared ones with their settings, others plain), in order of use.
    package func prompts(among names: [String]) -> [Prompt] {
        names.filter { $0.hasPrefix(Prompt.prefix) }.map { name in
            let short = String(name.dropFirst(Prompt.prefix.count))
            return declaredPrompts.first { $0.name == short } ?? Prompt(name: short)
        }
    }
}

/// The values captured in one service and environment, stub and live apart (a token captured from
/// a fixture must never be sent to a real server, nor the other way round).
package struct CapturedValues: Sendable, Hashable, Codable {
    /// Captured from stub responses.
    package var stub: [String: CapturedValue] = [:]
    /// Captured from live responses.
    package var live: [String: CapturedValue] = [:]

    /// None yet.
    package init() {}

    /// The values of one mode.
    package subscript(mode: RequestMode) -> [String: CapturedValue] {
        get { mode == .live ? live : stub }
        set { if mode == .live { live = newValue } else { stub = newValue } }
    }

    /// Whether nothing was captured.
    package var isEmpty: Bool { stub.isEmpty && live.isEmpty }
}
