import ArgumentParser

/// `apiexplorer import openapi|curl|postman|insomnia|http|har|graphql|grpc|protoset|proto`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Makes catalogs from OpenAPI (and Swagger 2.0) documents, Postman collections, Insomnia exports, .http files, HAR captures, GraphQL schemas and gRPC descriptors (reflection, protosets, .proto files), and endpoints from curl commands.",
        subcommands: [ImportOpenAPICommand.self, ImportCurlCommand.self, ImportPostmanCommand.self, ImportInsomniaCommand.self, ImportHTTPCommand.self, ImportHARCommand.self, ImportGraphQLCommand.self, ImportGRPCCommand.self, ImportProtosetCommand.self, ImportProtoCommand.self])
}
