import DispatcherCore
import FoundationEssentials
import JSONSupport

/// A gRPC endpoint's settings (`grpc: package.Service/Method`).
package struct RPCSettings: Sendable, Hashable {
    /// `package.Service/Method`, as grpcurl writes it.
    package var method: String

    package init(method: String) { self.method = method }

    /// The service's full name (`routeguide.RouteGuide`).
    package var service: String { String(method.prefix { $0 != "/" }) }
    /// The HTTP/2 path gRPC calls it by (`/routeguide.RouteGuide/GetFeature`).
    package var path: String { "/" + method }
}

/// An RPC's fixture: messages (each after its delay), then a status, with headers and trailers.
/// Stub mode answers with `sample` (the response the gRPC transport would make); the mock serves
/// the messages as a real gRPC server does.
package struct RPCFixture: Sendable, Hashable {
    /// A message and how long after the previous one it comes.
    package struct Message: Sendable, Hashable {
        package var json: JSONValue
        package var after: Duration?

        package init(json: JSONValue, after: Duration? = nil) {
            self.json = json
            self.after = after
        }
    }

    /// One `BadRequest` field violation.
    package struct Violation: Sendable, Hashable {
        package var field: String
        package var description: String

        package init(field: String, description: String) {
            self.field = field
            self.description = description
        }
    }

    package var messages: [Message] = []
    /// Whether the fixture gives a list (`messages:`, a stream) rather than one `message:`.
    package var isStream = false
    /// Response headers (metadata sent before the messages).
    package var headers: [(String, String)] = []
    /// Trailers sent with the status.
    package var trailers: [(String, String)] = []
    /// The status code (0 `OK`).
    package var code = 0
    /// `grpc-message`.
    package var statusMessage = ""
    /// `google.rpc.RetryInfo`'s delay.
    package var retryDelay: Duration?
    /// `google.rpc.BadRequest`'s field violations.
    package var violations: [Violation] = []
    /// `google.rpc.ErrorInfo`'s reason and domain.
    package var errorReason: String?
    package var errorDomain: String?

    package init() {}

    package static func == (lhs: RPCFixture, rhs: RPCFixture) -> Bool {
        lhs.messages == rhs.messages && lhs.isStream == rhs.isStream && lhs.code == rhs.code && lhs.statusMessage == rhs.statusMessage
            && lhs.retryDelay == rhs.retryDelay && lhs.violations == rhs.violations && lhs.errorReason == rhs.errorReason
            && lhs.errorDomain == rhs.errorDomain && lhs.headers.elementsEqual(rhs.headers, by: ==) && lhs.trailers.elementsEqual(rhs.trailers, by: ==)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
        hasher.combine(code)
        hasher.combine(statusMessage)
    }

    /// The status details as the lines a person reads (what the gRPC transport writes for the
    /// same details, so stub and live read alike).
    package var detailLines: [String] {
        var lines: [String] = []
        if let errorReason { lines.append("ErrorInfo: \(errorReason) (domain \(errorDomain ?? ""))") }
        lines += violations.map { "\($0.field): \($0.description)" }
        if let retryDelay { lines.append("RetryInfo: retry after \(retryDelay.secondsText) s") }
        return lines
    }

    /// The response the gRPC transport would make of this answer: the HTTP status of the code's
    /// meaning, the headers and trailers with `grpc-status`, and the JSON body (`RPCStatus`).
    package var sample: SampleResponse {
        var all = Headers()
        for (name, value) in headers { all.add(name, value, origin: .server) }
        all.add(RPCStatus.header, String(code), origin: .server)
        if !statusMessage.isEmpty { all.add("grpc-message", statusMessage, origin: .server) }
        for (name, value) in trailers { all.add(name, value, origin: .server) }
        let body: JSONValue
        if code == 0 {
            body = isStream ? .array(messages.map(\.json)) : messages.first?.json ?? .object([:])
        } else {
            var members: [(key: String, value: JSONValue)] = [
                ("code", .string(RPCStatus.name(of: code))), ("message", .string(statusMessage)), ("details", .array(detailLines.map(JSONValue.string))),
            ]
            if !violations.isEmpty { members.append(("violations", .array(violations.map { .string("\($0.field): \($0.description)") }))) }
            if let retryDelay { members.append(("retryDelay", .string("\(retryDelay.secondsText)s"))) }
            if !messages.isEmpty { members.append(("messages", .array(messages.map(\.json)))) }
            body = .object(JSONObject(members))
        }
        return .response(status: RPCStatus.httpStatus(forCode: code), headers: all, body: Data(body.prettyText().utf8))
    }
}

/// The descriptor set kept beside the catalog (`descriptors: routeguide.protoset`): a serialized
/// `FileDescriptorSet`, read when the catalog loads (confined to its folder, bounded).
package struct DescriptorSetFile: Sendable, Hashable {
    /// The path as the catalog writes it, relative to its folder.
    package var path: String
    /// The file's bytes.
    package var data: Data

    package init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}
