import Catalog
import ProtoJSON

/// gRPC methods' descriptors as the explorer reads them: a service's descriptor set, read in the
/// background the first time the Edit tab shows one of its methods (not at launch), so the tab can
/// check a request message as it is typed and list its fields.
package struct RPCState: Sendable {
    /// Per service id: the set read (or why it cannot be), and the file it was read from.
    package fileprivate(set) var sets: [String: (file: DescriptorSetFile, read: Result<DescriptorPool, RPCDescriptorProblem>)] = [:]
    /// The sets being read, by service id.
    fileprivate var reading: [String: DescriptorSetFile] = [:]

    /// Whether a set is being read (the explorer is busy until it arrives).
    package var isReading: Bool { !reading.isEmpty }

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
    /// The catalogs were loaded or read again: sets no longer theirs are dropped.
    case catalogsChanged(CatalogSet)
    /// A method of this service is shown in the Edit tab: its set is read unless it is (or is being).
    case shown(Service)
    /// A service's set was read.
    case read(service: String, file: DescriptorSetFile, Result<DescriptorPool, RPCDescriptorProblem>)
}

/// Work the descriptors ask of the runtime.
package enum RPCEffect: Sendable, Hashable {
    /// Read a service's descriptor set, reporting `.read`.
    case read(service: String, file: DescriptorSetFile)
}

enum RPCFeature: AppFeature {
    /// The service whose set the Edit tab needs now and has not: a gRPC method shown there.
    static func needed(_ state: AppState) -> Service? {
        guard state.tab == .edit, state.selectedEndpoint?.rpc != nil, let service = state.activeService, let file = service.descriptorSet,
            state.rpc.sets[service.id]?.file != file, state.rpc.reading[service.id] != file
        else { return nil }
        return service
    }

    static func reduce(_ state: inout RPCState, _ action: RPCAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .catalogsChanged(let catalog):
            var kept: [String: (file: DescriptorSetFile, read: Result<DescriptorPool, RPCDescriptorProblem>)] = [:]
            for service in catalog.services {
                if let file = service.descriptorSet, let known = state.sets[service.id], known.file == file { kept[service.id] = known }
            }
            state.sets = kept
            return []
        case .shown(let service):
            guard let file = service.descriptorSet, state.sets[service.id]?.file != file, state.reading[service.id] != file else { return [] }
            state.reading[service.id] = file
            return [.rpc(.read(service: service.id, file: file))]
        case .read(let service, let file, let read):
            if state.reading[service] == file { state.reading[service] = nil }
            state.sets[service] = (file, read)
            return []
        }
    }
}
