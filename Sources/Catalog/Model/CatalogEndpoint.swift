import DispatcherCore
import FoundationEssentials
import Expectations
import JSONSupport

/// One endpoint of a service as written in its catalog: templates are kept as written and
/// rendered per request (see `RequestBuilder`).
public struct CatalogEndpoint: Sendable, Hashable, Identifiable {
    /// The id, unique within the service (`findPet`).
    public var id: String
    /// The service's id (`petstore`).
    public var serviceID: String
    /// A name for people; the id when the file gives none.
    public var title: String
    /// What the endpoint does, when the file says.
    public var summary: String?
    /// The group whose headers apply, if any.
    public var group: String?
    /// The method.
    public var method: HTTPMethod
    /// The path template (`/pet/{{petId}}`).
    public var path: String
    /// Query items; values may hold placeholders.
    package var query: [QueryItem]
    /// Headers the endpoint declares; values may hold placeholders.
    package var headers: Headers
    /// Inherited headers (the environment's, the group's) this endpoint does not send, by name (any case).
    package var omittedHeaders: Set<String>
    /// The body; strings inside may hold placeholders.
    package var body: RequestBody
    /// Default values for this endpoint's placeholders (below run-time values, above environment variables).
    package var parameters: [String: String]
    /// The default fixture (Moya's sample data).
    package var stub: CatalogExample
    /// The other fixtures, in file order.
    package var examples: [CatalogExample]
    /// Which statuses count as success.
    package var validation: ValidationType
    /// Timeouts over the environment's.
    package var timeouts: Timeouts?
    /// Whether a success must carry a body; nil means "for GET".
    package var expectsResponseBody: Bool?
    /// Where the endpoint is defined (`file:line:column` of its key).
    package var location: SourceLocation
    /// Values taken from its responses for later requests (`captures:`).
    package var captures: [Capture] = []
    /// The `{{prompt.NAME}}` questions it declares (`prompts:`), with defaults and choices.
    package var declaredPrompts: [Prompt] = []
    /// The GraphQL operation when the endpoint has a `graphql:` body (then `body` is its JSON);
    /// such endpoints get the built-in rule for errors inside a 200.
    package var graphQL: GraphQLOperation?
    /// Set when the endpoint answers with a stream read as it arrives (`stream:`).
    package var stream: StreamSettings?
    /// Its own error handlers (`handlers:`): asked before the service's chain, they stop it when they act.
    package var handlers: [HandlerRule] = []
    /// Where its body is downloaded to (`download:`), relative to where the explorer or `call` runs:
    /// the body goes to this file as it arrives instead of memory.
    package var download: String?
    /// Whether its requests turn the activity spinner (`showsActivity: false` for a background poll).
    package var showsActivity = true
    /// Set when the endpoint is a WebSocket (`websocket:`): sending it opens a conversation.
    package var webSocket: WebSocketSettings?
    /// What its responses should be (`expect:`), checked by `apiexplorer test`.
    package var expectations = ResponseExpectations()
    /// Set when the endpoint is a gRPC method (`grpc:`): its body is the request message as JSON
    /// (a list of messages for a client stream), its headers the metadata.
    package var rpc: RPCSettings?
    /// What `apiexplorer diff` leaves out of a comparison (`compare:`).
    package var compare = CompareSettings()

    /// Makes an endpoint.
    package init(
        id: String, serviceID: String, title: String? = nil, summary: String? = nil, group: String? = nil,
        method: HTTPMethod = .get, path: String, query: [QueryItem] = [], headers: Headers = Headers(),
        omittedHeaders: Set<String> = [], body: RequestBody = .none, parameters: [String: String] = [:], stub: CatalogExample = .defaultStub,
        examples: [CatalogExample] = [], validation: ValidationType = .successCodes, timeouts: Timeouts? = nil,
        expectsResponseBody: Bool? = nil, location: SourceLocation = SourceLocation(file: "", line: 1, column: 1)
    ) {
        self.id = id
        self.serviceID = serviceID
        self.title = title ?? id
        self.summary = summary
        self.group = group
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.omittedHeaders = omittedHeaders
        self.body = body
        self.parameters = parameters
        self.stub = stub
        self.examples = examples
        self.validation = validation
        self.timeouts = timeouts
        self.expectsResponseBody = expectsResponseBody
        self.location = location
    }

    /// The endpoint's key (`service/endpoint` in logs, history and on the command line).
    public var key: EndpointKey { EndpointKey(service: serviceID, endpoint: id) }

    /// The example named `name`; `default` (or nil) is the stub.
    package func example(named name: String?) -> CatalogExample? {
        guard let name, name != CatalogExample.defaultName else { return stub }
        return examples.first { $0.name == name }
    }

    /// How to get an answer when stub mode has no fixture for the endpoint: where to add one, the
    /// examples it does have, or `live` (how the caller switches to live mode).
    package func noFixtureAdvice(live: String) -> String {
        let place = location.file.isEmpty ? "" : " (\(location))"
        let named = examples.map(\.name)
        let pick = named.isEmpty ? "" : ", pick one of its examples (\(named.joined(separator: ", ")))"
        return "add a 'stub:' to \(id)\(place)\(pick), or send it live (\(live))"
    }

    /// Every example's name, the default first.
    public var exampleNames: [String] { [stub.name] + examples.map(\.name) }

    /// Every text that may hold placeholders: path, query values, header values and body strings.
    package var templateTexts: [String] {
        var texts = [path]
        texts += query.compactMap(\.value)
        texts += headers.map(\.value)
        switch body {
        case .json(let value): value.forEachString { texts.append($0) }
        case .text(let text, _): texts.append(text)
        case .form(let items): texts += items.compactMap(\.value)
        case .file(let path, _): texts.append(path)
        case .multipart(let fields):
            for field in fields {
                switch field.content {
                case .text(let text): texts.append(text)
                case .file(let path, _): texts.append(path)
                case .bytes: break
                }
            }
        case .none, .data: break
        }
        texts += webSocket?.messages.map(\.text) ?? []
        return texts
    }

    /// The placeholder names the endpoint itself uses (not its environment's headers), in order, without repeats.
    package var placeholders: [String] {
        var names: [String] = []
        for text in templateTexts where text.hasPlaceholderOpening {
            for name in Template(text).placeholders where !names.contains(name) { names.append(name) }
        }
        return names
    }
}

/// A fixture: what a stub (or the mock server) answers for an endpoint.
package struct CatalogExample: Sendable, Hashable {
    /// The name the default fixture goes by.
    package static let defaultName = "default"

    /// The example's name (`default` for the stub).
    package var name: String
    /// A sentence for people, when the file gives one.
    package var summary: String?
    /// The answer.
    package var sample: SampleResponse
    /// How long the answer takes, over the environment's fixture delay.
    package var delay: Duration?
    /// When set, the mock server sends the body piece by piece this far apart: event by event for
    /// `text/event-stream`, line by line otherwise (to try a stream offline).
    package var streamInterval: Duration?
    /// Whether it answers the attempts a handler resumes or retries too (`repeats: true`): a
    /// session revoked for good, where a refresh does not help.
    package var repeats = false
    /// What the response should be when this example is asked for (`expect:`): it replaces the
    /// endpoint's for this example.
    package var expectations = ResponseExpectations()
    /// An RPC's answer as written (messages with delays, a status with details): `sample` is the
    /// response it makes in stub mode; the mock serves these.
    package var rpc: RPCFixture?
    /// The body file a load left unread (`FixtureReading.whenNeeded`): `sample`'s body is empty
    /// until `readingBodyFile()` reads it.
    package var bodyFile: FixtureFile?
    /// Makes an example.
    package init(name: String, summary: String? = nil, sample: SampleResponse, delay: Duration? = nil, streamInterval: Duration? = nil) {
        self.name = name
        self.summary = summary
        self.sample = sample
        self.delay = delay
        self.streamInterval = streamInterval
    }

    /// What an endpoint that declares no `stub:` has: no fixture, so stub mode says so.
    package static let defaultStub = CatalogExample(name: defaultName, sample: .noFixture)

    /// Whether there is an answer (an endpoint without `stub:` has none).
    package var isFixture: Bool { sample != .noFixture }

    /// The core's named sample.
    package var namedSample: NamedSample { NamedSample(name: name, sample: sample, repeats: repeats) }
}

/// A place in a catalog file.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as shown to the user.
    package var file: String
    /// 1-based line.
    package var line: Int
    /// 1-based column.
    package var column: Int

    /// Makes a location.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    package var description: String { "\(file):\(line):\(column)" }
}

extension JSONValue {
    /// Calls `body` with every string in the value (member names included), depth first.
    func forEachString(_ body: (String) -> Void) {
        switch self {
        case .string(let text): body(text)
        case .array(let elements): elements.forEach { $0.forEachString(body) }
        case .object(let object):
            for member in object {
                body(member.key)
                member.value.forEachString(body)
            }
        default: break
        }
    }
}

/// A WebSocket endpoint's settings (`websocket:`).
package struct WebSocketSettings: Sendable, Hashable {
    /// A message the person can send by name; placeholders are filled when it is sent.
    package struct NamedMessage: Sendable, Hashable {
        /// Its name.
        package var name: String
        /// Its text (JSON written compactly).
        package var text: String

        /// Makes one.
        package init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// Offered in `Sec-WebSocket-Protocol`, in order of preference.
    package var subprotocols: [String]
    /// Named messages, in file order.
    package var messages: [NamedMessage]
    /// What the far end does in stub mode and on the mock server; nil echoes.
    package var script: WebSocketScript?
    /// How often an idle connection is pinged; nil: never.
    package var pingInterval: Duration?

    /// Makes settings.
    package init(subprotocols: [String] = [], messages: [NamedMessage] = [], script: WebSocketScript? = nil, pingInterval: Duration? = nil) {
        self.subprotocols = subprotocols
        self.messages = messages
        self.script = script
        self.pingInterval = pingInterval
    }
}

/// How an endpoint's streamed answer is read (`stream: true` or `stream: { reconnect: true }`).
package struct StreamSettings: Sendable, Hashable {
    /// Whether a Server-Sent Events stream that the server closes is opened again after its `retry`
    /// time, with `Last-Event-ID`, as a browser's EventSource does.
    package var reconnect: Bool

    /// Makes settings.
    package init(reconnect: Bool = false) {
        self.reconnect = reconnect
    }
}
