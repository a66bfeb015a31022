import ArgumentParser
import Catalog
import DispatcherCore
import FoundationEssentials
import LiveTransport
import MockServer
import Sessions
import StateStore
import SystemSupport

/// What `call` was given, as plain values, and what it does with them. Kept apart from
/// `CallCommand`: the first use of that type looks up a conformance for each of its property
/// wrappers (each lookup a scan of the binary's conformance records), so a plain command
/// line is read straight into this (`quickParse`) and run without touching it.
struct CallArguments: Equatable, Sendable {
    /// The command's name, as `CallCommand` declares it (a test checks they agree).
    static let commandName = "call"

    var endpoint = ""
    var environment: String?
    var variables: [String] = []
    var example: String?
    var stub = false
    var live = false
    var include = false
    var json = false
    var output: String?
    var message: [String] = []
    var listen: Double = 1
    var cookiesFile: String?
    var cookieJar: String?
    var noHistory = false
    var reveal = false
    /// `--safe` / `--no-safe`: whether the body is cleaned of control characters; nil: when
    /// standard output is a terminal.
    var safe: Bool?
    var catalog: String?
    /// `--trust`: the catalog folder's files are trusted for this run.
    var trust = false
    /// `--force`: a download replaces an existing file.
    var force = false
    var maximumBodySize: Int?
    /// `-w` / `--write-out FORMAT`: curl's figures printed after the response (`WriteOut`).
    var writeOut: String?

    /// The checks the argument parser runs before `run` (the quick parse runs them too).
    func validate() throws(ValidationError) {
        if stub && live { throw ValidationError("--stub and --live exclude each other.") }
        if !(listen >= 0 && listen.isFinite) { throw ValidationError("--listen takes a number of seconds (0 or more).") }
    }

    /// Sends the endpoint and prints what came back (see `CallCommand` for the output and exit status).
    func run() async throws {
        let writeOutFormat: String? = if let writeOut { try Self.writeOutFormat(writeOut) } else { nil }
        var catalog = CatalogOptions.load(CatalogSource.resolve(option: catalog), trustingEverything: trust).limitingBodies(to: maximumBodySize)
        var (selection, values) = try resolveRequest(
            endpoint, environment: environment, variables: variables, example: example, in: catalog, checkingExample: true)
        let mode: RequestMode = stub ? .stub : live ? .live : EndpointCaller.defaultMode(of: selection.environment)
        // An example is a fixture: a live send goes to the server as the catalog says, without it.
        if mode == .live, let example, example != CatalogExample.defaultName {
            let why = live ? "--live" : "\(selection.environment.name) has fixtures: never"
            Console.error(
                "error: --example \(example) picks a fixture, which answers in stub mode only, and this call is live (\(why)): "
                    + "add --stub to get the example (the mock server picks one by the header \(MockServer.exampleHeader) or the query item mock-example).")
            throw ExitStatus.usage
        }
        // Reaching outside an untrusted catalog (the network, its download file) asks first.
        if mode == .live || (output == nil && selection.endpoint.download != nil) {
            let trusted = try TrustGate.require(
                selection.service, in: catalog, to: mode == .live ? "send requests over the network" : "write its download file")
            if !selection.service.isTrusted {
                catalog = trusted.limitingBodies(to: maximumBodySize)
                (selection, values) = try resolveRequest(
                    endpoint, environment: environment, variables: variables, example: example, in: catalog, checkingExample: true)
            }
        }
        // Weakened TLS is said on every live call, not only by validate.
        if mode == .live, selection.environment.baseURL.scheme?.lowercased() == "https" {
            for weakness in selection.environment.trust.weaknesses { Console.error("warning: in \(selection.environment.name), \(weakness)") }
        }
        let chain = CallChain(selection: selection, mode: mode)
        let captured = chain.capturedValues()
        values = try chain.answeringPrompts(values)
        let download = try downloadDestination(for: selection.endpoint)
        // A stream (an event stream, NDJSON, or an endpoint that says `stream:`) prints as it arrives;
        // so does any successful plain body, in bounded memory, unless a rule must read it whole
        // (GraphQL's errors in a 200) or it goes to a file or into the --json object.
        let passesBody = !json && download == nil && selection.endpoint.webSocket == nil && selection.endpoint.stream?.reconnect != true
            && !selection.service.errorFilter.readsSuccessfulBodies
            // A body delivering a secret capture is printed whole, the secret masked in it.
            && !selection.endpoint.captures.contains(where: \.isSecret)
        let printer = CallStreamPrinter(
            json: json, include: include, reveal: reveal, safe: Console.cleansBody(safe), endpointStreams: selection.endpoint.stream != nil,
            takesSuccessfulBody: passesBody)
        let kept = passesBody ? HistoryEntry.defaultBodyLimit : nil
        var outcome: CallOutcome
        // `stream: { reconnect: true }`: a closed event stream is opened again until the server says
        // stop (204, or anything but a 200 event stream) or the person presses Ctrl-C.
        let (selected, answered) = (selection, values)
        // A WebSocket endpoint: its messages go once it is open, frames print as they come.
        // A gRPC method: --message gives the request message (repeated: a client stream's messages).
        let rpcEdits = selection.endpoint.rpc == nil ? nil : RPCDescriptors.body(messages: message)
        let conversation = try selection.endpoint.webSocket.map { settings in
            try webSocketConversation(settings, selection: selected, values: answered, captured: captured, mode: mode, catalog: catalog)
        }
        let progressLine = DownloadProgressLine.forCall(downloading: download != nil, json: json)
        let reportProgress: (@Sendable (Int, Int?) -> Void)?
        if let progressLine {
            reportProgress = { received, expected in progressLine.report(received: received, expected: expected) }
        } else {
            reportProgress = nil
        }
        @Sendable func send(_ caller: EndpointCaller) async -> CallOutcome {
            var outcome = await caller.call(
                selected, mode: mode, example: example, values: answered, captured: captured, edits: rpcEdits, onResponsePart: printer.observe,
                onStatusLine: printer.observeStatusLine, streamedBodyKept: kept, download: download, webSocket: conversation?.conversation,
                progress: reportProgress)
            progressLine?.end()
            var edits: EndpointEdits?
            // The connections' events stay one outcome however the stream ends; each reconnection says so.
            var stream = ReconnectingStream(outcome.exchange)
            var last = outcome.exchange
            while stream.shouldReconnect(selected.endpoint, after: last) {
                let (lastEventID, retry) = printer.resumePoint
                let delay = StreamReconnection.delay(retry: retry)
                Console.error("note: " + stream.reconnectingNote(delay: delay, lastEventID: lastEventID))
                try? await Task.sleep(for: delay)
                edits = StreamReconnection.edits(edits, endpoint: selected.endpoint, lastEventID: lastEventID)
                let next = await caller.call(
                    selected, mode: mode, example: example, values: answered, captured: captured, edits: edits,
                    onResponsePart: printer.observe, onStatusLine: printer.observeStatusLine, streamedBodyKept: kept)
                last = next.exchange
                stream.add(next.exchange, eventsSoFar: printer.eventCount)
                outcome.cookies = next.cookies
            }
            stream.noteWhenGivenUp(selected.endpoint, after: last)
            for note in stream.exchange.notes.dropFirst(outcome.exchange.notes.count) { Console.error("note: \(note)") }
            outcome.exchange = stream.exchange
            return outcome
        }
        let startingCookies = try readCookies()
        if mode == .live {
            // A device sign-in prints its URL and code, so it works over SSH.
            outcome = try await withCallTransport(catalog) { transport in
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
                try AtomicFile.write(response.body, to: URL(fileURLWithPath: download.path), replacing: download.replaces)
            } catch {
                Console.error("error: the body could not be written to \(download.path): \(error)")
                throw ExitCode(1)
            }
            response.downloadedFile = DownloadedFile(path: download.path, byteCount: response.body.count)
            response.body = Data()
            outcome.exchange.result = .success(response)
        }
        chain.keepCaptures(of: outcome)
        if !noHistory, outcome.exchange.error?.kind.answeredNothing != true {
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
        if let writeOutFormat { printWriteOut(writeOutFormat, outcome: shown) }
        if outcome.exchange.error?.kind == .noFixture {
            Console.error("hint: " + selection.endpoint.noFixtureAdvice(live: "--live"))
        }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }

    /// Where a successful body goes: `-o FILE` relative to where the command runs (as curl's), or
    /// the catalog's `download:` name in the downloads folder (`DownloadsFolder`); nil keeps it in
    /// memory. An existing file is replaced only with `--force`.
    private func downloadDestination(for endpoint: CatalogEndpoint) throws(ExitCode) -> DownloadDestination? {
        let path: String
        if let output {
            path = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
        } else if let name = endpoint.download {
            switch DownloadsFolder.file(name, in: DownloadsFolder.path(environment: ProcessEnvironment.variables)) {
            case .success(let file): path = file
            case .failure(let problem):
                Console.error("error: \(endpoint.key): \(problem); nothing was sent")
                throw ExitStatus.usage
            }
        } else {
            return nil
        }
        if !force, FileStatus.exists(path) {
            Console.error("error: \(path) exists; --force replaces it (nothing was sent)")
            throw ExitStatus.usage
        }
        return DownloadDestination(path: path, replaces: force)
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
                Console.out(
                    Console.head(httpVersion: response.httpVersion, statusLine: response.receivedStatusLine, headers: response.headers, redactor: redactor),
                    terminator: "")
            }
            Console.body(redactor.data(response.body), safe: Console.cleansBody(safe))
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
