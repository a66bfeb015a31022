import Catalog
import DispatcherCore
import GRPCDispatch
import ProtoJSON
import Synchronization

/// The explorer's live transport: HTTP, and gRPC calls (requests whose content type marks them)
/// through `RPCTransport` with the descriptor set of the service that made them, as `call` sends
/// them, a server stream's messages shown as they come. A service's set is read at its first call, not at launch, and its connections are kept
/// until the catalog gives it another set.
final class RPCCallTransport: Transport {
    private let http: any Transport
    /// The descriptor sets of the catalogs loaded last, by service id.
    private let sets = Mutex<[String: DescriptorSetFile]>([:])
    /// Per service id: the set a transport was made for, and that transport.
    private let calls = Mutex<[String: (file: DescriptorSetFile, transport: RPCTransport)]>([:])

    init(http: any Transport) {
        self.http = http
    }

    /// Takes the descriptor sets of newly loaded catalogs (calls under way keep their transports).
    func use(_ services: [Service]) {
        var found: [String: DescriptorSetFile] = [:]
        for service in services {
            if let file = service.descriptorSet { found[service.id] = file }
        }
        sets.withLock { $0 = found }
    }

    func send(_ request: Request) async throws(TransportError) -> Response {
        guard RPCStatus.isCall(request) else { return try await http.send(request) }
        return try await transport(for: String(request.identifier.prefix { $0 != "/" })).send(request)
    }

    /// The gRPC transport for a service's calls; without a readable set, one that says why when called.
    private func transport(for service: String) -> RPCTransport {
        guard let file = sets.withLock({ $0[service] }) else { return RPCTransport(descriptors: [:], http: nil) }
        return calls.withLock { calls in
            if let known = calls[service], known.file == file { return known.transport }
            let made: RPCTransport
            do {
                made = RPCTransport(descriptors: [service: try DescriptorPool(protoset: file.data)], http: nil, relaysStreams: true)
            } catch {
                made = RPCTransport(
                    descriptors: [:], problems: [service: "the descriptor set \(file.path) of service \(service) cannot be read: \(error)"], http: nil)
            }
            calls[service] = (file, made)
            return made
        }
    }
}
