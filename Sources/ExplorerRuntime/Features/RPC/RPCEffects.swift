import ExplorerApp
import ProtoJSON

/// Reads gRPC descriptor sets for the Edit tab, off the UI path.
struct RPCEffects: Sendable {
    func perform(_ effect: RPCEffect, _ context: EffectContext) {
        switch effect {
        case .read(let service, let file):
            context.load {
                do {
                    return .rpc(.read(service: service, file: file, .success(try DescriptorPool(protoset: file.data))))
                } catch {
                    return .rpc(.read(service: service, file: file, .failure(RPCDescriptorProblem("the descriptor set \(file.path) cannot be read: \(error)"))))
                }
            }
        }
    }
}
