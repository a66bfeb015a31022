import Catalog
import GRPCCalls
import GRPCMock
import GRPCWire
import MockServer
import ProtoJSON
import SwiftProtobuf

/// `apiexplorer mock`'s gRPC server: the catalogs' gRPC methods answered from their fixtures
/// (messages with delays, or a status with details), reflection on over their descriptor sets.
/// A call picks an example by the metadata `x-mock-example: NAME`, as HTTP requests do.
enum RPCMock {
    /// The port gRPC is served on by default (the bundled catalogs' local gRPC environments point at it).
    static let defaultPort = 4011
    /// The port gRPC is served on over TLS with `mock --tls`.
    static let defaultTLSPort = 4012

    /// The methods and the merged descriptor set of `services`; a fixture whose message does not
    /// fit its method's output type is a problem said at start (the call then answers `INTERNAL`).
    static func plan(_ services: [Service]) -> (methods: [GRPCMockMethod], descriptors: Google_Protobuf_FileDescriptorSet, problems: [String]) {
        var methods: [GRPCMockMethod] = []
        var files: [Google_Protobuf_FileDescriptorProto] = []
        var fileNames: Set<String> = []
        var served: Set<String> = []
        var problems: [String] = []
        let read = RPCDescriptors.pools(of: services)
        problems += read.problems.values.sorted()
        for service in services {
            guard let pool = read.pools[service.id] else { continue }
            for file in pool.fileDescriptors where fileNames.insert(file.name).inserted { files.append(file) }
            for endpoint in service.endpoints {
                guard let rpc = endpoint.rpc else { continue }
                guard let method = pool.method(named: rpc.method.replacing("/", with: ".")) else {
                    problems.append("\(endpoint.key): the descriptor set has no method \(rpc.method)")
                    continue
                }
                // Several endpoints may call one method (with other bodies); the first one's fixtures serve it.
                guard served.insert(method.fullName).inserted else { continue }
                var answers: [String: GRPCMockAnswer] = [:]
                var delays: [String: Duration] = [:]
                for example in [endpoint.stub] + endpoint.examples {
                    let answer = Self.answer(example, endpoint: endpoint, method: method, pool: pool)
                    if case .status(let status) = answer.reply, status.code == .internalError, example.rpc != nil {
                        problems.append("\(endpoint.key), example \(example.name): \(status.message)")
                    }
                    answers[example.name] = answer
                    delays[example.name] = example.delay ?? .zero
                }
                let kind = GRPCCallKind(clientStreams: method.clientStreaming, serverStreams: method.serverStreaming)
                let path = GRPCMethodPath(service: String(rpc.method.prefix { $0 != "/" }), method: method.name)
                let stub = CatalogExample.defaultName
                methods.append(GRPCMockMethod(path, kind: kind) { [answers, delays] request in
                    let name = request.metadata[MockServer.exampleHeader.lowercased()] ?? stub
                    guard let answer = answers[name] else {
                        let known = answers.keys.sorted().joined(separator: ", ")
                        return GRPCMockAnswer(.status(GRPCStatus(code: .notFound, message: "\(endpoint.key) has no example named '\(name)'; it has \(known).")))
                    }
                    if let delay = delays[name], delay > .zero { try? await Task.sleep(for: delay) }
                    return answer
                })
            }
        }
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = files
        return (methods, set, problems)
    }

    /// An example as the server's answer.
    static func answer(_ example: CatalogExample, endpoint: CatalogEndpoint, method: MethodDescriptor, pool: DescriptorPool) -> GRPCMockAnswer {
        guard let fixture = example.rpc else {
            let advice = endpoint.noFixtureAdvice(live: "against a real server")
            return GRPCMockAnswer(.status(GRPCStatus(code: .unimplemented, message: "\(endpoint.key) has no fixture: \(advice)")))
        }
        var headers = GRPCMetadata()
        for (name, value) in fixture.headers { headers.append(name.lowercased(), value) }
        var trailers = GRPCMetadata()
        for (name, value) in fixture.trailers { trailers.append(name.lowercased(), value) }
        var messages: [GRPCMockAnswer.Message] = []
        for (index, message) in fixture.messages.enumerated() {
            do {
                messages.append(GRPCMockAnswer.Message(try pool.encodeJSON(message.json, as: method.output), delay: message.after ?? .zero))
            } catch {
                let text = "message \(index + 1) does not fit \(pool[method.output].fullName): \(error)"
                return GRPCMockAnswer(.status(GRPCStatus(code: .internalError, message: text)), headers: headers, trailers: trailers)
            }
        }
        guard fixture.code != 0 else { return GRPCMockAnswer(.messages(messages), headers: headers, trailers: trailers) }
        var details: [GRPCErrorDetail] = []
        if let reason = fixture.errorReason { details.append(.errorInfo(reason: reason, domain: fixture.errorDomain ?? "", metadata: [:])) }
        if !fixture.violations.isEmpty {
            details.append(.badRequest(fixture.violations.map { GRPCErrorDetail.FieldViolation(field: $0.field, description: $0.description) }))
        }
        if let delay = fixture.retryDelay { details.append(.retryInfo(delay: delay)) }
        let status = GRPCStatus(code: GRPCStatusCode(wireValue: fixture.code), message: fixture.statusMessage, details: details)
        return GRPCMockAnswer(.status(status), headers: headers, trailers: trailers)
    }
}
