import ArgumentParser
import Catalog
import DispatcherCore
import FoundationEssentials
import LiveTransport
import StateStore
import SystemSupport

/// `apiexplorer call SERVICE/ENDPOINT`: one request through the core, for scripts and CI.
///
/// Plain output: the response body on standard output (with `--include`, the status line and
/// headers first), the mapped error on standard error. `--json` prints one object (a history
/// entry: service, endpoint, environment, mode, request with secrets masked, response with the
/// whole body, error or null), documented in docs/cli.md. Exit status: 0 success, 1 a mapped
/// error, 2 a usage or catalog error (unknown names, a placeholder without a value).
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Sends one endpoint and prints the response.",
        discussion: """
            Stub mode answers from the catalog's fixtures (at once; an example's own delay still applies); live mode \
            sends the request over the network. Without --stub or --live the environment decides (live when its \
            fixtures are `never`). The request is kept in the history (secrets masked) unless --no-history. \
            Exit status: 0 success, 1 a mapped error (unauthorized, notFound …), 2 a usage or catalog error.
            """)

    @Argument(help: ArgumentHelp("The endpoint, as SERVICE/ENDPOINT (see `apiexplorer list`).", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String

    @OptionGroup var request: RequestOptionGroup

    @Flag(help: "Answer from the fixtures.")
    var stub = false

    @Flag(help: "Send the request over the network.")
    var live = false

    @Flag(name: [.customShort("i"), .long], help: "Print the status line and headers before the body.")
    var include = false

    @Flag(help: "Print one JSON object describing the request, the response and the mapped error.")
    var json = false

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Write a successful body to FILE as it arrives, never holding it in memory (no size cap; free disk space is checked). A FILE.part left by an interrupted run is continued with Range when the server allows.",
            valueName: "FILE"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "WebSocket: a text message to send once the conversation is open (repeatable, in order); @NAME sends the catalog's named message.",
            valueName: "TEXT"))
    var message: [String] = []

    @Option(help: ArgumentHelp("WebSocket: how long to print what arrives before closing with 1000 normal (default 1).", valueName: "SECONDS"))
    var listen: Double = 1

    @Option(
        name: [.customShort("b"), .customLong("cookies")],
        help: ArgumentHelp("Send the cookies of a Netscape cookies.txt file (what curl -c writes) where they match.", valueName: "FILE"))
    var cookiesFile: String?

    @Option(
        name: [.customShort("c"), .customLong("cookie-jar")],
        help: ArgumentHelp("Write the session's cookies after the request to FILE as cookies.txt (curl -b reads it; values in clear).", valueName: "FILE"))
    var cookieJar: String?

    @Flag(help: "Do not keep the request in the history.")
    var noHistory = false

    @Flag(help: "Show secrets in clear in what is printed (the history keeps them masked).")
    var reveal = false

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    func validate() throws {
        if stub && live { throw ValidationError("--stub and --live exclude each other.") }
        if !(listen >= 0 && listen.isFinite) { throw ValidationError("--listen takes a number of seconds (0 or more).") }
    }

    func run() async throws {
        let catalog = catalogOptions.load().limitingBodies(to: bodyLimit.maximumBodySize)
        var (selection, values) = try request.resolve(endpoint, in: catalog, checkingExample: true)
        let mode: RequestMode = stub ? .stub : live ? .live : EndpointCaller.defaultMode(of: selection.environment)
        let chain = CallChain(selection: selection, mode: mode)
        let captured = chain.capturedValues()
        values = try chain.answeringPrompts(values)
        // A stream (an event stream, NDJSON, or an endpoint that says `stream:`) prints as it arrives.
        let printer = CallStreamPrinter(json: json, include: include, reveal: reveal, endpointStreams: selection.endpoint.stream != nil)
        var outcome: CallOutcome
        // `stream: { reconnect: true }`: a closed event stream is opened again until the server says
        // stop (204, or anything but a 200 event stream) or the person presses Ctrl-C.
        let (selected, answered) = (selection, values)
        // A file relative to where the command runs, as curl's -o.
        let download = (output ?? selection.endpoint.download).map { DownloadDestination(path: $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0) }
        // A WebSocket endpoint: its messages go once it is open, frames print as they come.
        let conversation = try selection.endpoint.webSocket.map { settings in
            try webSocketConversation(settings, selection: selected, values: answered, captured: captured, mode: mode, catalog: catalog)
        }
        @Sendable func send(_ caller: EndpointCaller) async -> CallOutcome {
            var outcome = await caller.call(
                selected, mode: mode, example: request.example, values: answered, captured: captured, onResponsePart: printer.observe,
                download: download, webSocket: conversation?.conversation)
            var edits: EndpointEdits?
            while StreamReconnection.shouldReconnect(selected.endpoint, after: outcome.exchange) {
                let (lastEventID, retry) = printer.resumePoint
                try? await Task.sleep(for: StreamReconnection.delay(retry: retry))
                edits = StreamReconnection.edits(edits, endpoint: selected.endpoint, lastEventID: lastEventID)
                outcome = await caller.call(
                    selected, mode: mode, example: request.example, values: answered, captured: captured, edits: edits,
                    onResponsePart: printer.observe)
            }
            return outcome
        }
        let startingCookies = try readCookies()
        if mode == .live {
            // A device sign-in prints its URL and code, so it works over SSH.
            outcome = try await withLiveTransport { transport in
                await send(EndpointCaller(
                    catalog: catalog, transport: transport, onSignInPrompt: { Console.error($0.sentence) }, tokens: TokenFile(), cookies: CookieFile(),
                    startingCookies: startingCookies))
            }
        } else {
            outcome = await send(EndpointCaller(catalog: catalog, transport: nil, startingCookies: startingCookies))
        }
        try writeCookies(outcome.cookies)
        if let download, outcome.exchange.error == nil, var response = outcome.exchange.response, response.downloadedFile == nil {
            // A stub (or a cached answer) came whole: it goes to the file all the same.
            do throws(SystemError) {
                try AtomicFile.write(response.body, to: URL(fileURLWithPath: download.path))
            } catch {
                Console.error("error: the body could not be written to \(download.path): \(error)")
                throw ExitCode(1)
            }
            response.downloadedFile = DownloadedFile(path: download.path, byteCount: response.body.count)
            response.body = Data()
            outcome.exchange.result = .success(response)
        }
        chain.keepCaptures(of: outcome)
        if !noHistory, outcome.exchange.error?.kind != .invalidRequest {
            do throws(SystemError) {
                try HistoryStore().append(HistoryEntry(outcome, date: Date()))
            } catch {
                Console.error("warning: the request was not kept in the history: \(error)")
            }
        }
        var shown = outcome
        if reveal { shown.redactor = .revealing }
        if json {
            // The body is streamed into the JSON: memory stays near one copy of it (issue 12). After
            // events printed one per line, the outcome takes one line too, so the output is NDJSON.
            HistoryEntry.writeJSON(shown, date: Date(), pretty: !printer.printedEvents && conversation == nil) { StandardStreams.writeOutput($0) }
        } else {
            printPlain(shown, bodyPrinted: printer.printedBody || conversation != nil)
        }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }

    /// The response as received, but for known secret values (a server may echo a token), which
    /// are masked unless `--reveal`.
    private func printPlain(_ outcome: CallOutcome, bodyPrinted: Bool) {
        let redactor = outcome.redactor
        if let file = outcome.exchange.response?.downloadedFile {
            let resumed = file.resumedFrom > 0 ? " (continued after \(ByteCount.format(file.resumedFrom)) already there)" : ""
            Console.error("Saved \(ByteCount.format(file.byteCount)) to \(file.path)\(resumed).")
        }
        if let response = outcome.exchange.response, !bodyPrinted {
            if include {
                var head = "\(response.httpVersion ?? "HTTP/1.1") \(response.statusLine)\r\n"
                for field in response.headers { head += "\(field.name): \(redactor.text(field.value))\r\n" }
                StandardStreams.writeOutput(head + "\r\n")
            }
            StandardStreams.writeOutput(redactor.data(response.body))
            if response.body.last != UInt8(ascii: "\n"), !response.body.isEmpty, StandardStreams.isOutputTerminal {
                StandardStreams.writeOutput("\n")
            }
        }
        if let error = outcome.exchange.error {
            let status = error.status.map { " (HTTP \($0))" } ?? ""
            Console.error("error: \(error.kind.name)\(status): \(outcome.redactor.text(error.message))")
        }
    }
}
