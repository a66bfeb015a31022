import ArgumentParser
import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import ResponseDiff
import Sessions
import StateStore
import SystemSupport
import TextSupport

/// `apiexplorer diff SERVICE/ENDPOINT --env A --env B`: the same request to two environments,
/// what came back compared; `--history` compares one send with the last one kept.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Sends an endpoint to two environments (or once, against the history) and shows what differs.",
        discussion: """
            Compares the status, the headers (those that change on every response, like Date, only with --all-headers) \
            and the body: structurally when both are JSON (paths added, removed and changed; arrays by position, or by \
            the key the endpoint's compare: rules name), else byte for byte. The endpoint's compare: { ignore: [...] } \
            leaves locations out. --noise sends to the first environment twice and drops what differs between those two \
            (Twitter's Diffy). Nothing is kept in the history. Exit status: 0 the same, 1 a difference, 2 a usage \
            error or a request that failed (a failed transfer is not compared).
            """)

    @Argument(help: ArgumentHelp("The endpoint, as SERVICE/ENDPOINT (see `apiexplorer list`).", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String

    @Option(name: .customLong("env"), help: ArgumentHelp("An environment: give two, or one with --history.", valueName: "NAME"))
    var environments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A run-time value for {{NAME}} (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Flag(help: "Compare with the last response of the endpoint in the history (in the --env environment, else the service's first).")
    var history = false

    @Flag(help: "Send to the first environment twice and leave out what differs between those two responses.")
    var noise = false

    @Flag(help: "Compare the headers that change on every response too (Date, Set-Cookie, X-Request-Id …).")
    var allHeaders = false

    @Flag(help: "Answer from the fixtures.")
    var stub = false

    @Flag(help: "Send the requests over the network.")
    var live = false

    @Flag(help: "Print one JSON object: both sides, the differences, what was ignored and the noise.")
    var json = false

    @OptionGroup var catalogOptions: CatalogOptions

    func validate() throws {
        if stub && live { throw ValidationError("--stub and --live exclude each other.") }
        if history {
            if environments.count > 1 { throw ValidationError("--history compares with the history: give one --env at most.") }
        } else if environments.count != 2 {
            throw ValidationError("Give two environments (--env A --env B), or --history to compare with the last response kept.")
        }
    }

    func run() async throws {
        var catalog = CatalogOptions.load(CatalogSource.resolve(option: catalogOptions.catalog), trustingEverything: catalogOptions.trust)
        let names: [String?] = history ? [environments.first] : environments
        var sides = try names.map { name throws(ExitCode) in
            try resolveRequest(endpoint, environment: name, variables: variables, example: nil, in: catalog, checkingExample: false)
        }
        let modes = sides.map { side in stub ? RequestMode.stub : live ? .live : EndpointCaller.defaultMode(of: side.0.environment) }
        if modes.contains(.live), !sides[0].0.service.isTrusted {
            catalog = try TrustGate.require(sides[0].0.service, in: catalog, to: "send requests over the network")
            sides = try names.map { name throws(ExitCode) in
                try resolveRequest(endpoint, environment: name, variables: variables, example: nil, in: catalog, checkingExample: false)
            }
        }
        let rules = CompareRules(
            ignore: sides[0].0.endpoint.compare.ignore, arrays: sides[0].0.endpoint.compare.arrays.map { ($0.location, $0.key) },
            comparesVolatileHeaders: allHeaders)
        let selections = sides
        let outcomes: [Side] = try await withLiveTransport { transport in
            let caller = EndpointCaller(
                catalog: catalog, transport: transport, onSignInPrompt: { Console.error($0.sentence) }, tokens: TokenFile(), cookies: CookieFile())
            var outcomes: [Side] = []
            for (index, (selection, values)) in selections.enumerated() {
                let sends = index == 0 && noise ? 2 : 1
                for _ in 0..<sends {
                    let outcome = await caller.call(selection, mode: modes[index], values: values)
                    outcomes.append(try Self.side(outcome, name: selection.environment.name))
                }
            }
            return outcomes
        }
        let left = outcomes[0]
        let leftAgain = noise ? outcomes[1] : nil
        let right: Side
        if history {
            guard let kept = Self.kept(selections[0].0, skipping: 0) else {
                Console.error("error: the history has no response of \(endpoint) in \(selections[0].0.environment.name) to compare with")
                throw ExitStatus.usage
            }
            right = kept
        } else {
            right = outcomes[noise ? 2 : 1]
        }
        let comparison = ResponseComparison(left.response, right.response, rules: rules, leftAgain: leftAgain?.response)
        if json {
            Console.out(Self.json(comparison, left: left, right: right).prettyText())
        } else {
            print(comparison, left: left, right: right)
        }
        if comparison.differ { throw ExitCode(1) }
    }

    /// One side of the comparison: its name and response.
    struct Side {
        var name: String
        var response: ComparedResponse
    }

    /// The side of a finished call; a call that got no complete response ends the command (exit 2):
    /// half an answer is not something to compare.
    static func side(_ outcome: CallOutcome, name: String) throws(ExitCode) -> Side {
        let exchange = outcome.exchange
        if let failure = exchange.failedTransfer {
            Console.error("error: \(name): \(failure.code.rawValue): \(outcome.redactor.text(failure.message))")
            throw ExitStatus.usage
        }
        guard let response = exchange.response else {
            let message = exchange.error.map { "\($0.kind.name): \(outcome.redactor.text($0.message))" } ?? "no response"
            Console.error("error: \(name): \(message)")
            throw ExitStatus.usage
        }
        let redactor = outcome.redactor
        return Side(
            name: name,
            response: ComparedResponse(
                status: response.status, headers: redactor.headers(response.headers), body: redactor.data(response.body),
                bodyIsComplete: !response.isTruncated && response.downloadedFile == nil))
    }

    /// The newest response kept for the selection's endpoint and environment.
    static func kept(_ selection: EndpointSelection, skipping: Int) -> Side? {
        let store = HistoryStore()
        let match = store.summaries().last { summary in
            summary.call.endpoint == selection.key && summary.call.catalog == selection.service.catalogID
                && summary.call.environment == selection.environment.name && summary.status != nil
        }
        guard let match, let record = store.entry(id: match.id)?.response else { return nil }
        return Side(
            name: "history \(HistoryStore.timestamp(match.date))",
            response: ComparedResponse(
                status: record.status, headers: record.headers.map { ($0.name, $0.value) }, body: record.body.data,
                bodyIsComplete: !record.body.truncated && record.file == nil))
    }

    /// The comparison for people, values cleaned of control characters.
    private func print(_ comparison: ResponseComparison, left: Side, right: Side) {
        let clean = TerminalText.cleaned
        Console.out("\(endpoint): \(left.name) ↔ \(right.name)")
        for difference in comparison.differences {
            let line: String
            switch difference.kind {
            case .changed: line = "  ~ \(difference.location): \(difference.left ?? "") → \(difference.right ?? "")"
            case .added: line = "  + \(difference.location): \(difference.right ?? "") (only in \(right.name))"
            case .removed: line = "  - \(difference.location): \(difference.left ?? "") (only in \(left.name))"
            }
            Console.out(clean(line))
        }
        for note in comparison.notes { Console.out("  note: \(note)") }
        var summary = comparison.differences.isEmpty ? "No differences" : "\(comparison.differences.count) difference\(comparison.differences.count == 1 ? "" : "s")"
        var apart: [String] = []
        if !comparison.ignored.isEmpty { apart.append("ignored: " + comparison.ignored.map(\.location).joined(separator: ", ")) }
        if !comparison.noise.isEmpty { apart.append("noise: " + comparison.noise.map(\.location).joined(separator: ", ")) }
        if !apart.isEmpty { summary += " (" + apart.joined(separator: "; ") + ")" }
        Console.out(clean(summary))
    }

    /// The comparison as JSON.
    static func json(_ comparison: ResponseComparison, left: Side, right: Side) -> JSONValue {
        func list(_ differences: [ResponseDifference]) -> JSONValue {
            .array(differences.map { difference in
                .object([
                    "kind": .string(difference.kind.rawValue), "location": .string(difference.location),
                    "left": difference.left.map(JSONValue.string) ?? .null, "right": difference.right.map(JSONValue.string) ?? .null,
                ])
            })
        }
        return .object([
            "left": .object(["name": .string(left.name), "status": left.response.status.map(JSONValue.integer) ?? .null]),
            "right": .object(["name": .string(right.name), "status": right.response.status.map(JSONValue.integer) ?? .null]),
            "differ": .bool(comparison.differ), "differences": list(comparison.differences), "ignored": list(comparison.ignored),
            "noise": list(comparison.noise), "notes": .array(comparison.notes.map(JSONValue.string)),
        ])
    }
}
