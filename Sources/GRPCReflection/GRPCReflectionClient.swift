import GRPCCalls
import GRPCWire
import SwiftProtobuf

/// Descriptors from a server's reflection service: `grpc.reflection.v1.ServerReflection`, else
/// the older `grpc.reflection.v1alpha` (Python's grpcio-reflection serves only that one). One
/// conversation lists the services, asks for the file defining each, then for every file those
/// import, by name, until nothing is missing.
package struct GRPCReflectionClient: Sendable {
    /// The reflection API a server answered.
    package enum API: String, Sendable, Hashable, CaseIterable {
        case v1 = "grpc.reflection.v1"
        case v1alpha = "grpc.reflection.v1alpha"

        var method: GRPCMethodPath { GRPCMethodPath(service: rawValue + ".ServerReflection", method: "ServerReflectionInfo") }
    }

    /// What reflection gave.
    package struct Result: Sendable {
        /// Every file the services need, dependencies first (as `protoc --include_imports` orders them).
        package var set: Google_Protobuf_FileDescriptorSet
        /// The services the server listed, sorted.
        package var services: [String]
        package var api: API
        /// Services whose descriptors the server would not give (they are left out), one sentence each.
        package var notes: [String]
    }

    /// The most files taken from one server, and their bytes in all.
    package static let fileLimit = 10_000
    package static let byteLimit = 64 << 20

    package let connection: GRPCConnection
    /// Metadata (credentials) and the deadline of the whole conversation.
    package let options: GRPCCallOptions

    package init(connection: GRPCConnection, options: GRPCCallOptions = GRPCCallOptions(timeout: .seconds(30))) {
        self.connection = connection
        self.options = options
    }

    /// The server's descriptors, by the first API it answers.
    package func fetch() async throws(GRPCDescriptorError) -> Result {
        for api in API.allCases {
            if let result = try await converse(api) { return result }
        }
        throw GRPCDescriptorError(
            .noReflection, "\(connection.target) does not support the reflection API; import a protoset or .proto files.")
    }

    /// Nil when the server does not implement this API.
    private func converse(_ api: API) async throws(GRPCDescriptorError) -> Result? {
        let (requests, requestSink) = AsyncStream.makeStream(of: [UInt8].self)
        let (responses, responseSink) = AsyncStream.makeStream(of: [UInt8].self)
        let connection = self.connection
        let options = self.options
        let call = Task {
            defer { responseSink.finish() }
            return try? await connection.call(api.method, kind: .bidirectionalStreaming, requests: .stream(requests), options: options) { event in
                if case .message(let message) = event { responseSink.yield(message) }
            }
        }
        var conversation = Conversation(responses: responses.makeAsyncIterator(), requests: requestSink)
        let outcome: Swift.Result<Result, ConversationEnd>
        do {
            outcome = .success(try await collect(api, &conversation))
        } catch {
            outcome = .failure(error)
        }
        requestSink.finish()
        let ending = await withTaskCancellationHandler { await call.value } onCancel: { call.cancel() }
        switch outcome {
        case .success(let result):
            return result
        case .failure(.failed(let error)):
            throw error
        case .failure(.ended):
            guard let ending else { throw GRPCDescriptorError(.reflectionFailed, "The reflection call to \(connection.target) could not be made.") }
            if ending.status.code == .unimplemented, conversation.answers == 0 { return nil }
            let why = ending.transportError?.message ?? ending.status.description
            throw GRPCDescriptorError(.reflectionFailed, "Reflection on \(connection.target) (\(api.rawValue)) failed: \(why)")
        }
    }

    private func collect(_ api: API, _ conversation: inout Conversation) async throws(ConversationEnd) -> Result {
        var listing = Grpc_Reflection_V1_ServerReflectionRequest()
        listing.listServices = "*"
        let listed = try await conversation.ask(listing)
        guard case .listServicesResponse(let list)? = listed.messageResponse else {
            throw .failed(unexpected(listed, asked: "the list of services", api: api))
        }
        let services = list.service.map(\.name).sorted()
        var files: [String: Google_Protobuf_FileDescriptorProto] = [:]
        var order: [String] = []
        var bytes = 0
        var notes: [String] = []
        func take(_ response: Grpc_Reflection_V1_ServerReflectionResponse, asked: String) throws(ConversationEnd) -> Bool {
            switch response.messageResponse {
            case .fileDescriptorResponse(let found)?:
                for raw in found.fileDescriptorProto {
                    bytes += raw.count
                    guard files.count < Self.fileLimit, bytes <= Self.byteLimit else {
                        throw .failed(GRPCDescriptorError(.reflectionFailed, "\(connection.target) sent more descriptors than apiexplorer takes (\(Self.fileLimit) files, \(Self.byteLimit >> 20) MiB)."))
                    }
                    let file: Google_Protobuf_FileDescriptorProto
                    do {
                        file = try Google_Protobuf_FileDescriptorProto(serializedBytes: raw)
                    } catch {
                        throw .failed(GRPCDescriptorError(.reflectionFailed, "\(connection.target) sent a file descriptor for \(asked) that is not one (\(GRPCProtoset.reason(error)))."))
                    }
                    if files[file.name] == nil {
                        files[file.name] = file
                        order.append(file.name)
                    }
                }
                return true
            case .errorResponse?:
                return false
            default:
                throw .failed(unexpected(response, asked: asked, api: api))
            }
        }
        for service in services {
            var request = Grpc_Reflection_V1_ServerReflectionRequest()
            request.fileContainingSymbol = service
            let response = try await conversation.ask(request)
            if try !take(response, asked: service) {
                notes.append("\(service): the server gave no descriptor (\(Self.describe(response)))")
            }
        }
        // The imports of every file taken, until none is missing.
        var next = 0
        while next < order.count {
            let file = files[order[next]]!
            next += 1
            for dependency in file.dependency where files[dependency] == nil {
                var request = Grpc_Reflection_V1_ServerReflectionRequest()
                request.fileByFilename = dependency
                let response = try await conversation.ask(request)
                guard try take(response, asked: dependency), files[dependency] != nil else {
                    throw .failed(GRPCDescriptorError(
                        .incomplete, "\(connection.target) lacks \(dependency), which \(file.name) imports (\(Self.describe(response)))."))
                }
            }
        }
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = Self.dependenciesFirst(order, files)
        return Result(set: set, services: services, api: api, notes: notes)
    }

    /// The files ordered so that each comes after those it imports.
    static func dependenciesFirst(_ names: [String], _ files: [String: Google_Protobuf_FileDescriptorProto]) -> [Google_Protobuf_FileDescriptorProto] {
        var ordered: [Google_Protobuf_FileDescriptorProto] = []
        var visited: Set<String> = []
        func visit(_ name: String) {
            guard visited.insert(name).inserted, let file = files[name] else { return }
            file.dependency.forEach(visit)
            ordered.append(file)
        }
        names.forEach(visit)
        return ordered
    }

    private func unexpected(_ response: Grpc_Reflection_V1_ServerReflectionResponse, asked: String, api: API) -> GRPCDescriptorError {
        GRPCDescriptorError(.reflectionFailed, "\(connection.target) answered a request for \(asked) (\(api.rawValue)) with \(Self.describe(response)).")
    }

    /// A response in words, for errors: the server's error code and message, or what it sent instead.
    static func describe(_ response: Grpc_Reflection_V1_ServerReflectionResponse) -> String {
        switch response.messageResponse {
        case .errorResponse(let error)?:
            let code = GRPCStatusCode(rawValue: Int(error.errorCode)).map(\.name) ?? "code \(error.errorCode)"
            return error.errorMessage.isEmpty ? code : "\(code): \(error.errorMessage)"
        case .fileDescriptorResponse?: return "file descriptors"
        case .listServicesResponse?: return "a list of services"
        case .allExtensionNumbersResponse?: return "extension numbers"
        case nil: return "an empty answer"
        }
    }

    /// Why a conversation stopped before it was done.
    private enum ConversationEnd: Error {
        /// The call ended (its result says why).
        case ended
        case failed(GRPCDescriptorError)
    }

    /// One request, then its answer, in turn.
    private struct Conversation {
        var responses: AsyncStream<[UInt8]>.Iterator
        let requests: AsyncStream<[UInt8]>.Continuation
        var answers = 0

        mutating func ask(_ request: Grpc_Reflection_V1_ServerReflectionRequest) async throws(ConversationEnd) -> Grpc_Reflection_V1_ServerReflectionResponse {
            guard let bytes: [UInt8] = try? request.serializedBytes() else {
                throw .failed(GRPCDescriptorError(.reflectionFailed, "A reflection request could not be encoded."))
            }
            requests.yield(bytes)
            guard let answer = await responses.next() else { throw .ended }
            answers += 1
            do {
                return try Grpc_Reflection_V1_ServerReflectionResponse(serializedBytes: answer)
            } catch {
                throw .failed(GRPCDescriptorError(.reflectionFailed, "The server's reflection answer is not a ServerReflectionResponse (\(GRPCProtoset.reason(error)))."))
            }
        }
    }
}
