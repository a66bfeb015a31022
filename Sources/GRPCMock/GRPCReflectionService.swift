import FoundationEssentials
import GRPCCore
import GRPCReflection
import GRPCTransport
import GRPCWire
import SwiftProtobuf

/// Server reflection (`grpc.reflection.v1` and `v1alpha`, whose messages are the same on the wire)
/// over a descriptor set: the services, the file defining a symbol or an extension, a file by
/// name, each sent with the files it imports that this stream has not sent yet (as grpc-go does).
struct GRPCReflectionService: Sendable {
    let index: GRPCDescriptorIndex

    init(descriptors: Google_Protobuf_FileDescriptorSet) {
        // The reflection services describe themselves too, as a server's own reflection does.
        var set = descriptors
        let present = Set(set.file.map(\.name))
        for file in GRPCReflectionDescriptors.files where !present.contains(file.name) { set.file.append(file) }
        index = GRPCDescriptorIndex(set)
    }

    func register(in router: inout RPCRouter<GRPCServerTransport>) {
        for service in ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"] {
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: service, method: "ServerReflectionInfo"), deserializer: GRPCRawBytes(),
                serializer: GRPCRawBytes()
            ) { request, _ in
                StreamingServerResponse<[UInt8]> { writer in
                    var sent: Set<String> = []
                    for try await bytes in request.messages {
                        let question: Grpc_Reflection_V1_ServerReflectionRequest
                        do {
                            question = try Grpc_Reflection_V1_ServerReflectionRequest(serializedBytes: bytes)
                        } catch {
                            throw RPCError(code: .invalidArgument, message: "The request is not a ServerReflectionRequest.")
                        }
                        try await writer.write(try answer(question, sent: &sent).serializedBytes())
                    }
                    return [:]
                }
            }
        }
    }

    /// The answer to one request; `sent` holds the files this stream has already sent.
    func answer(_ request: Grpc_Reflection_V1_ServerReflectionRequest, sent: inout Set<String>) -> Grpc_Reflection_V1_ServerReflectionResponse {
        var response = Grpc_Reflection_V1_ServerReflectionResponse()
        response.validHost = request.host
        response.originalRequest = request
        switch request.messageRequest {
        case .listServices?:
            var list = Grpc_Reflection_V1_ListServiceResponse()
            list.service = index.serviceNames.map { name in
                var service = Grpc_Reflection_V1_ServiceResponse()
                service.name = name
                return service
            }
            response.listServicesResponse = list
        case .fileByFilename(let name)?:
            if index.file(named: name) != nil {
                response.fileDescriptorResponse = files(index.fileWithDependencies(name), sent: &sent)
            } else {
                response.errorResponse = error(.notFound, "file '\(name)' not found")
            }
        case .fileContainingSymbol(let symbol)?:
            if let (_, file) = index.symbol(symbol) {
                response.fileDescriptorResponse = files(index.fileWithDependencies(file), sent: &sent)
            } else {
                response.errorResponse = error(.notFound, "symbol '\(symbol)' not found")
            }
        case .fileContainingExtension(let wanted)?:
            if let found = index.extensions(of: wanted.containingType).first(where: { $0.field.number == wanted.extensionNumber }) {
                response.fileDescriptorResponse = files(index.fileWithDependencies(found.file), sent: &sent)
            } else {
                response.errorResponse = error(.notFound, "extension \(wanted.extensionNumber) of '\(wanted.containingType)' not found")
            }
        case .allExtensionNumbersOfType(let type)?:
            if case .message? = index.symbol(type)?.symbol {
                var numbers = Grpc_Reflection_V1_ExtensionNumberResponse()
                numbers.baseTypeName = type
                numbers.extensionNumber = index.extensions(of: type).map(\.field.number)
                response.allExtensionNumbersResponse = numbers
            } else {
                response.errorResponse = error(.notFound, "message type '\(type)' not found")
            }
        case nil:
            response.errorResponse = error(.invalidArgument, "the request asks nothing")
        }
        return response
    }

    private func files(_ files: [Google_Protobuf_FileDescriptorProto], sent: inout Set<String>) -> Grpc_Reflection_V1_FileDescriptorResponse {
        var response = Grpc_Reflection_V1_FileDescriptorResponse()
        for file in files where sent.insert(file.name).inserted {
            if let bytes: [UInt8] = try? file.serializedBytes() { response.fileDescriptorProto.append(Data(bytes)) }
        }
        // A file already sent on this stream is sent again when it is the one asked for: the
        // client asked, so it lacks it.
        if response.fileDescriptorProto.isEmpty, let last = files.last, let bytes: [UInt8] = try? last.serializedBytes() {
            response.fileDescriptorProto.append(Data(bytes))
        }
        return response
    }

    private func error(_ code: GRPCStatusCode, _ message: String) -> Grpc_Reflection_V1_ErrorResponse {
        var error = Grpc_Reflection_V1_ErrorResponse()
        error.errorCode = Int32(code.rawValue)
        error.errorMessage = message
        return error
    }
}
