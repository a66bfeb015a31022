import ArgumentParser
import Catalog
import FoundationEssentials
import RequestExport

/// `apiexplorer export grpcurl SERVICE/METHOD [--reveal]`: a gRPC endpoint's call as a grpcurl command line.
struct ExportGrpcurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpcurl",
        abstract: "Prints a gRPC endpoint's call as a grpcurl command (secrets masked unless --reveal).",
        discussion: """
            The call as `apiexplorer call` would make it in that environment: -plaintext for h2c (http://), the \
            environment's TLS files, metadata as -H, the request message as -d JSON (a client stream's messages one a \
            line), -max-time from timeouts, -protoset the catalog's descriptor set, then HOST:PORT and SERVICE/METHOD. \
            Nothing is sent.
            """)

    @OptionGroup var arguments: ExportCodeArguments

    func run() async throws {
        try await arguments.print { request, redactor, selection in
            guard let rpc = selection.endpoint.rpc else {
                throw ExitStatus.fail(CatalogLookupError("\(selection.key) is an HTTP endpoint, not a gRPC method: `apiexplorer export curl` writes it"))
            }
            let protoset = selection.service.descriptorSet.map { file in
                selection.service.directory.map { $0.appendingPathComponent(file.path).path } ?? file.path
            }
            return request.grpcurlCommand(method: rpc.method, protoset: protoset, redactor: redactor) + "\n"
        }
    }
}
