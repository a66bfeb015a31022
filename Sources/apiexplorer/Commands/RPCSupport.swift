import Catalog
import DispatcherCore
import GRPCDispatch
import LiveTransport
import ProtoJSON

/// The transport `call` and `test` send through: HTTP, and the catalog's gRPC methods by their
/// services' descriptor sets (one connection per server for the whole run).
func withCallTransport<T>(
    _ catalog: CatalogSet, connectionsPerHost: Int = HTTPTransport.Configuration.defaultConnectionsPerHost, _ body: (any Transport) async throws -> T
) async throws -> T {
    try await withLiveTransport(connectionsPerHost: connectionsPerHost) { http in
        let descriptors = RPCDescriptors.pools(of: catalog.services)
        guard !descriptors.pools.isEmpty || !descriptors.problems.isEmpty else { return try await body(http) }
        let transport = RPCTransport(descriptors: descriptors.pools, problems: descriptors.problems, http: http)
        do {
            let result = try await body(transport)
            await transport.close()
            return result
        } catch {
            await transport.close()
            throw error
        }
    }
}

/// The descriptor sets of the services that have gRPC endpoints.
enum RPCDescriptors {
    /// Each service's set read, by service id; a damaged set is a problem said when one of its methods is called.
    static func pools(of services: [Service]) -> (pools: [String: DescriptorPool], problems: [String: String]) {
        var pools: [String: DescriptorPool] = [:]
        var problems: [String: String] = [:]
        for service in services where service.endpoints.contains(where: { $0.rpc != nil }) {
            guard let file = service.descriptorSet else { continue }
            do {
                pools[service.id] = try DescriptorPool(protoset: file.data)
            } catch {
                problems[service.id] = "the descriptor set \(file.path) of service \(service.id) cannot be read: \(error)"
            }
        }
        return (pools, problems)
    }

    /// `call --message`s for a gRPC endpoint as its body: one message, or for several (a client
    /// stream) a JSON list of them.
    static func body(messages: [String]) -> EndpointEdits? {
        guard !messages.isEmpty else { return nil }
        let text = messages.count == 1 ? messages[0] : "[" + messages.joined(separator: ",\n") + "]"
        return EndpointEdits(body: .text(text, isJSON: true))
    }
}
