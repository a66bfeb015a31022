import ArgumentParser

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
        name: [.customShort("w"), .long],
        help: ArgumentHelp(
            "After the response, print FORMAT with curl's %{variable}s replaced (%{http_code}, %{time_total}, %{json} …; docs/cli.md lists them). @FILE reads the format from FILE, @- from standard input.",
            valueName: "FORMAT"))
    var writeOut: String?

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Write a successful body to FILE as it arrives, never holding it in memory (no size cap; free disk space is checked). A FILE.part left by an interrupted run is continued with Range when the server allows.",
            valueName: "FILE"))
    var output: String?

    @Flag(help: "Let a download (-o FILE, or the endpoint's download: file) replace an existing file.")
    var force = false

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

    @Flag(
        inversion: .prefixedNo,
        help: "Clean the body of control characters (shown as ^[ …), as all other text is on a terminal; the default when standard output is a terminal. --no-safe writes it as received.")
    var safe: Bool?

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    /// What was given, as plain values: what `run` reads, and what the quick parse makes without
    /// the argument parser (see `CallArguments`).
    var arguments: CallArguments {
        CallArguments(
            endpoint: endpoint, environment: request.environment, variables: request.variables, example: request.example, stub: stub,
            live: live, include: include, json: json, output: output, message: message, listen: listen, cookiesFile: cookiesFile,
            cookieJar: cookieJar, noHistory: noHistory, reveal: reveal, safe: safe, catalog: catalogOptions.catalog, trust: catalogOptions.trust, force: force, maximumBodySize: bodyLimit.maximumBodySize,
            writeOut: writeOut)
    }

    func validate() throws { try arguments.validate() }

    func run() async throws { try await arguments.run() }
}
