import Catalog
import ProtoJSON

/// gRPC methods' descriptors as the explorer reads them: each service's descriptor set, read in
/// the background when its catalog is loaded, so the Edit tab can check a request message as it
/// is typed and list its fields.
package struct RPCState: Sendable {
    /// Per service id: the set read (or why it cannot be), and the file it was read from.
    package fileprivate(set) var sets: [String: (file: DescriptorSetFile, read: Result<DescriptorPool, RPCDescriptorProblem>)] = [:]

    /// The descriptors of a service's current set; nil while they are read or when it has none.
    package func descriptors(of service: Service) -> Result<DescriptorPool, RPCDescriptorProblem>? {
        guard let file = service.descriptorSet, let entry = sets[service.id], entry.file == file else { return nil }
        return entry.read
    }
}

/// Why a descriptor set could not be read.
package struct RPCDescriptorProblem: Error, Sendable, Hashable {
    package var message: String

    package init(_ message: String) { self.message = message }
}

/// What happens to the descriptors.
package enum RPCAction: Sendable {
    /// The catalogs were loaded or read again: sets not read yet are.
    case catalogsChanged(CatalogSet)
    /// A service's set was read.
    case read(service: String, file: DescriptorSetFile, Result<DescriptorPool, RPCDescriptorProblem>)
}

/// Work the descriptors ask of the runtime.
package enum RPCEffect: Sendable, Hashable {
    /// Read a service's descriptor set, reporting `.read`.
    case read(service: String, file: DescriptorSetFile)
}

enum RPCFeature: AppFeature {
    static func reduce(_ state: inout RPCState, _ action: RPCAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .catalogsChanged(let catalog):
            var effects: [AppEffect] = []
            var kept: [String: (file: DescriptorSetFile, read: Result<DescriptorPool, RPCDescriptorProblem>)] = [:]
            for service in catalog.services {
                guard let file = service.descriptorSet, service.endpoints.contains(where: { $0.rpc != nil }) else { continue }
                if let known = state.sets[service.id], known.file == file {
                    kept[service.id] = known
                } else {
                    effects.append(.rpc(.read(service: service.id, file: file)))
                }
            }
            state.sets = kept
            return effects
        case .read(let service, let file, let read):
            state.sets[service] = (file, read)
            return []
        }
    }
}
