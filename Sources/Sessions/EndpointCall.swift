import Catalog
import DispatcherCore

/// One request to make: an endpoint, the environment it goes to, stub or live, the example to
/// answer with (or ask the mock server for) and run-time values. The explorer, `call`, history
/// replays and drift checks all describe requests this way.
package struct EndpointCall: Sendable, Hashable {
    /// The endpoint.
    package var endpoint: EndpointKey
    /// The catalog that declares its service: where its state is read and kept.
    package var catalog: CatalogID
    /// The environment's name.
    package var environment: String
    /// Stub or live.
    package var mode: RequestMode
    /// The example; nil for the default.
    package var example: String?
    /// Run-time values for `{{placeholders}}`.
    package var values: [String: String]
    /// Changes to the endpoint for this request (a draft in the explorer); nil sends it as written.
    package var edits: EndpointEdits?
    /// Values captured from earlier responses and response references, by placeholder name
    /// (below run-time values, above the catalog's).
    package var captured: [String: CapturedValue] = [:]
    /// Where a successful body is written instead of memory (a download); nil keeps it in memory.
    package var downloadPath: String?
    /// What `downloadPath` is relative to, and whether it was checked.
    package var downloadPlace = DownloadPlace.workingDirectory

    /// What a download's path is.
    package enum DownloadPlace: Sendable, Hashable {
        /// Relative to where the explorer runs (a path the person typed).
        case workingDirectory
        /// A name in the downloads folder (the catalog's `download:`, confined to it).
        case downloadsFolder
        /// Made absolute and checked: a file there is replaced only when `replaces`.
        case checked(replaces: Bool)
    }

    /// Makes a call.
    package init(
        endpoint: EndpointKey, catalog: CatalogID, environment: String, mode: RequestMode, example: String? = nil, values: [String: String] = [:],
        edits: EndpointEdits? = nil
    ) {
        self.endpoint = endpoint
        self.catalog = catalog
        self.environment = environment
        self.mode = mode
        self.example = example
        self.values = values
        self.edits = edits
    }

    /// Secret values the call carries beyond the catalog's: typed secrets, secret answers and
    /// captured values whose names look secret (masked like the catalog's secrets).
    package var secretValues: [String] {
        Self.secretValues(values: values, captured: captured, prompts: [])
    }

    /// The secret values among run-time `values` (`secret.NAME` and secret-looking names), answers
    /// to secret `prompts` and `captured` values whose names look secret.
    package static func secretValues(values: [String: String], captured: [String: CapturedValue], prompts: [Prompt]) -> [String] {
        let typed = values.filter { $0.key.hasPrefix("secret.") || Redactor.standard.isSensitive(name: $0.key) }.map(\.value)
        let answers = prompts.filter(\.isSecret).compactMap { values[$0.placeholder] }
        return typed + answers + captured.filter { Redactor.standard.isSensitive(name: $0.key) }.map(\.value.value)
    }

    /// Whether a download's path was made absolute and checked.
    package var downloadIsChecked: Bool {
        if case .checked = downloadPlace { return true }
        return false
    }

    /// The service in the environment the call goes to.
    package var environmentKey: EnvironmentKey { EnvironmentKey(catalog: catalog, service: endpoint.service, environment: environment) }

    /// The options that send it this way: live over the network, stub answered at once (an
    /// example's own delay still applies).
    package var options: RequestOptions {
        var options = RequestOptions(stubBehavior: mode == .live ? .never : .immediate, example: example)
        let replaces = if case .checked(true) = downloadPlace { true } else { false }
        options.download = downloadPath.map { DownloadDestination(path: $0, replaces: replaces) }
        return options
    }
}

/// A finished call: what was asked, what happened, and the redactor that masks every secret the
/// request could carry.
package struct CallOutcome: Sendable {
    /// What was asked.
    package var call: EndpointCall
    /// What happened.
    package var exchange: Exchange
    /// Masks the secrets this request could carry.
    package var redactor: Redactor
    /// The session's cookie jar after the request (for `call -c cookies.txt`).
    package var cookies: [Cookie] = []

    /// Makes an outcome.
    package init(call: EndpointCall, exchange: Exchange, redactor: Redactor) {
        self.call = call
        self.exchange = exchange
        self.redactor = redactor
    }

    /// 0 on success, 1 for a mapped error, 2 when the request could not be built or stub mode has
    /// no fixture for it (nothing was sent, nothing answered).
    package var exitStatus: Int32 {
        guard let error = exchange.error else { return 0 }
        return error.kind.answeredNothing ? 2 : 1
    }
}

extension EndpointSelection {
    /// The call that sends this selection.
    package func call(mode: RequestMode, example: String? = nil, values: [String: String] = [:], edits: EndpointEdits? = nil) -> EndpointCall {
        EndpointCall(endpoint: key, catalog: service.catalogID, environment: environment.name, mode: mode, example: example, values: values, edits: edits)
    }
}
