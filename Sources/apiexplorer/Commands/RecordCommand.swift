import ArgumentParser
import Catalog
import CatalogAuthoring
import DispatcherCore
import Sessions
import StateStore

/// `apiexplorer record SERVICE/ENDPOINT`: the live response becomes the endpoint's fixture.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Sends an endpoint live and saves the response as its fixture.",
        discussion: """
            The body is saved beside the catalog as fixtures/SERVICE/ENDPOINT[-EXAMPLE].EXT (JSON pretty-printed, secrets \
            masked) and the endpoint's stub, or the example named with --example, points at it; the rest of the catalog \
            file is kept byte for byte. An existing fixture or example is replaced only with --force. Files are written \
            to temporary files and renamed into place, so an interruption leaves the old fixture intact.
            """)

    @Argument(help: ArgumentHelp("The endpoint, as SERVICE/ENDPOINT.", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String

    @OptionGroup var request: RequestOptionGroup

    @Flag(help: "Replace an existing fixture or example.")
    var force = false

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    func run() async throws {
        var catalog = catalogOptions.load().limitingBodies(to: bodyLimit.maximumBodySize)
        // The example names where the recording goes, so it need not exist yet.
        var (selection, values) = try request.resolve(endpoint, in: catalog, checkingExample: false)
        if !selection.service.isTrusted {
            catalog = try TrustGate.require(selection.service, in: catalog, to: "send requests over the network").limitingBodies(to: bodyLimit.maximumBodySize)
            (selection, values) = try request.resolve(endpoint, in: catalog, checkingExample: false)
        }
        let outcome = try await withLiveTransport { transport in
            // The live API answers; an example name is only where the recording goes, not asked of the server.
            await EndpointCaller(catalog: catalog, transport: transport).call(selection, mode: .live, example: nil, values: values)
        }
        guard let response = outcome.exchange.response else {
            let error = outcome.exchange.error
            Console.error("error: nothing to record: \(error.map { "\($0.kind.name): \(outcome.redactor.text($0.message))" } ?? "no response")")
            throw error?.kind == .invalidRequest ? ExitStatus.usage : ExitCode.failure
        }
        do throws(AuthoringError) {
            let recording = try FixtureRecorder.prepare(response, for: selection, example: request.example, redactor: outcome.redactor, force: force)
            try recording.update.commit(keepingTrustOf: selection.service, in: TrustFile())
            let what = recording.example == "default" ? "the stub" : "example '\(recording.example)'"
            let file = recording.fixturePath.map { " as \($0)" } ?? " (no body)"
            Console.out("Recorded \(response.statusLine)\(file): \(what) of \(selection.key) in \(selection.service.file)")
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
