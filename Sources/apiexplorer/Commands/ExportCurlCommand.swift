import ArgumentParser
import DispatcherCore
import RequestExport

/// `apiexplorer export curl SERVICE/ENDPOINT [--reveal]`: the request as a curl command line.
struct ExportCurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Prints an endpoint's request as a curl command (secrets masked unless --reveal).",
        discussion: """
            The request is rendered exactly as `apiexplorer call` would send it in that environment: environment, \
            group and endpoint headers, placeholders filled, the body encoded. Nothing is sent.
            """)

    @OptionGroup var arguments: ExportCodeArguments

    func run() async throws { try await arguments.print { $0.curlCommand(redactor: $1) + "\n" } }
}
