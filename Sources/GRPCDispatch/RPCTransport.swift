import DispatcherCore
import FoundationEssentials
import GRPCCalls
import GRPCTransport
import GRPCWire
import JSONSupport
import ProtoJSON
import Synchronization

/// The dispatcher core's transport for gRPC calls: a request marked as one (`RPCStatus.contentType`)
/// is called with GRPCCore over one HTTP/2 connection per server (kept for the next calls), its
/// JSON body encoded by the service's descriptors; every other request goes to `http`. The answer
/// is a response like any other (`RPCStatus` says its shape), so plugins, the interceptor's
/// retries, error handlers, history and tests treat RPCs as they treat HTTP.
package final class RPCTransport: Transport {
    private let http: (any Transport)?
    private let pools: [String: DescriptorPool]
    private let problems: [String: String]
    private let connections = Mutex<[GRPCTarget: GRPCConnection]>([:])

    /// `pools` are the descriptor sets by service id (the first part of a request's identifier);
    /// `problems` why a service's set could not be read, said when one of its methods is called.
    package init(descriptors pools: [String: DescriptorPool], problems: [String: String] = [:], http: (any Transport)?) {
        self.pools = pools
        self.problems = problems
        self.http = http
    }

    package func send(_ request: Request) async throws(TransportError) -> Response {
        guard RPCStatus.isCall(request) else {
            guard let http else { throw TransportError(.unknown, message: "\(request.identifier) is not a gRPC call, and this transport sends only those.") }
            return try await http.send(request)
        }
        let service = String(request.identifier.prefix { $0 != "/" })
        guard let pool = pools[service] else {
            if let problem = problems[service] { throw TransportError(.unknown, message: "\(request.identifier) is a gRPC method, but \(problem); nothing was sent.") }
            throw TransportError(
                .unknown, message: "\(request.identifier) is a gRPC method, but service \(service) names no descriptor set ('descriptors:'), so its message cannot be encoded; nothing was sent.")
        }
        let method: MethodDescriptor
        let messages: [[UInt8]]
        do {
            method = try RPCMessages.method(request.url.path, in: pool)
            messages = try RPCMessages.encode(body: request.body, method: method, pool: pool)
        } catch {
            throw TransportError(.unknown, message: "\(error.message) Nothing was sent.")
        }
        let connection = try connection(for: request)
        let options = GRPCCallOptions(
            metadata: Self.metadata(request.headers), timeout: request.settings.timeouts.total, receiveLimit: request.settings.maximumBodySize)
        let result: GRPCCallResult
        do {
            let path = try GRPCMethodPath(parsing: method.path)
            let kind = GRPCCallKind(clientStreams: method.clientStreaming, serverStreams: method.serverStreaming)
            // A server stream's messages go to the observer (`call` prints them) as they arrive.
            let stream = method.serverStreaming ? request.options.onResponsePart.map { RPCMessageStream(observer: $0, method: method, pool: pool) } : nil
            result = try await connection.call(path, kind: kind, requests: .messages(messages), options: options) { event in stream?.receive(event) }
            stream?.finish()
        } catch {
            throw TransportError(.unknown, message: "\(error.message) Nothing was sent.")
        }
        if let failure = result.transportError { throw failure }
        return try Self.response(result, method: method, pool: pool, url: request.url)
    }

    /// Ends every connection.
    package func close() async {
        let open = connections.withLock { connections in
            defer { connections.removeAll() }
            return Array(connections.values)
        }
        for connection in open { await connection.close() }
    }

    /// The connection to the request's server (h2c for `http://`, TLS with the environment's
    /// trust for `https://`), opened once and kept.
    private func connection(for request: Request) throws(TransportError) -> GRPCConnection {
        let url = request.url
        guard let host = url.host, let scheme = url.scheme?.lowercased() else {
            throw TransportError(.unknown, message: "\(url.absoluteString) names no server for a gRPC call.")
        }
        let secure = scheme == "https" || scheme == "grpcs"
        let target = GRPCTarget(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: url.port ?? (secure ? 443 : 80), secure: secure,
            trust: request.settings.trust)
        return try connections.withLock { connections throws(TransportError) in
            if let known = connections[target] { return known }
            let made = try GRPCConnection(target: target)
            connections[target] = made
            return made
        }
    }

    /// The request's headers as metadata: names lowercased, the ones gRPC's transport owns left out.
    static func metadata(_ headers: Headers) -> GRPCMetadata {
        var metadata = GRPCMetadata()
        for field in headers {
            let name = field.name.lowercased()
            guard !GRPCMetadata.reservedRequestNames.contains(name), !name.hasPrefix(":") else { continue }
            metadata.append(name, field.value)
        }
        return metadata
    }

    /// The call as a response: the HTTP status of its code's meaning, headers and trailers, and
    /// the messages as JSON (or the status as `RPCStatus`'s JSON body).
    static func response(_ result: GRPCCallResult, method: MethodDescriptor, pool: DescriptorPool, url: URL) throws(TransportError) -> Response {
        var headers = Headers()
        for entry in result.headers { headers.add(entry.name, entry.value.wireText, origin: .server) }
        for entry in result.trailers { headers.add(entry.name, entry.value.wireText, origin: .server) }
        let code = result.status.code.rawValue
        if headers[RPCStatus.header] == nil { headers.add(RPCStatus.header, String(code), origin: .server) }
        let body: JSONValue
        do {
            let messages = try RPCMessages.json(of: result.messages, method: method, pool: pool)
            if code == 0 {
                body = messages
            } else {
                let status = result.status
                var lines = status.details.flatMap(\.lines)
                if let problem = status.detailsProblem { lines.append(problem) }
                var members: [(key: String, value: JSONValue)] = [
                    ("code", .string(status.code.name)), ("message", .string(status.message)), ("details", .array(lines.map(JSONValue.string))),
                ]
                let violations = status.details.flatMap { detail -> [String] in
                    guard case .badRequest(let found) = detail else { return [] }
                    return found.map(\.line)
                }
                if !violations.isEmpty { members.append(("violations", .array(violations.map(JSONValue.string)))) }
                for case .retryInfo(let delay) in status.details {
                    members.append(("retryDelay", .string("\(delay.secondsText)s")))
                    break
                }
                if !result.messages.isEmpty { members.append(("messages", method.serverStreaming ? messages : .array([messages]))) }
                body = .object(JSONObject(members))
            }
        } catch {
            throw TransportError(.cannotDecodeContentData, message: error.message)
        }
        return Response(
            status: RPCStatus.httpStatus(forCode: code), headers: headers, body: Data(body.prettyText().utf8), url: url, httpVersion: "2",
            timing: Timing(firstByte: result.firstMessageAfter ?? result.headersAfter, total: result.duration))
    }
}
