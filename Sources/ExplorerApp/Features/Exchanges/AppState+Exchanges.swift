import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions

/// What the exchanges slice says of the whole state: answers, requests in flight, the mode.
extension AppState {
    /// The last result per endpoint.
    package var responses: [EndpointKey: CallOutcome] { exchanges.responses }

    /// Requests sent and not yet answered, by ticket id.
    package var inFlight: [Int: RequestTicket] { exchanges.inFlight }

    /// The example each endpoint sends; absent means the default.
    package var chosenExample: [EndpointKey: String] { exchanges.chosenExample }

    /// Values captured from responses per service and environment, stub and live apart.
    package var captured: [EnvironmentKey: CapturedValues] { exchanges.captured }

    /// The spinner's frame.
    package var spinnerFrame: Int { exchanges.spinner.frame }

    /// Whether anything is in flight, so the spinner should turn.
    package var needsSpinner: Bool { exchanges.needsSpinner }

    /// The last result of the selected endpoint.
    package var selectedResponse: CallOutcome? {
        selectedEndpoint.flatMap { exchanges.responses[$0.key] }
    }

    /// The request in flight for the selected endpoint, newest first.
    package var selectedInFlight: RequestTicket? {
        guard let endpoint = selectedEndpoint else { return nil }
        return exchanges.inFlight.values.filter { $0.endpoint == endpoint.key }.max { $0.id < $1.id }
    }

    /// The example the selected endpoint sends.
    package var selectedExample: String? {
        selectedEndpoint.flatMap { exchanges.chosenExample[$0.key] }
    }

    /// Stub or live in the active environment: as `s` switched it there, else live with `--live`,
    /// else as the environment's `fixtures:` say (`never`: live), as `call` decides.
    package var mode: RequestMode { exchanges.mode(in: activeEnvironmentKey, activeEnvironment) }

    /// The mode the selected endpoint is sent in: a scratch request has no fixtures and always goes live.
    package var sendMode: RequestMode {
        activeService.map { scratch.holds($0.id) } == true ? .live : mode
    }

    /// The values captured in the active service and environment for the current mode, with the
    /// values of the `{{response.…}}` references `endpoint` uses.
    func capturedValues(for endpoint: CatalogEndpoint, environment: EnvironmentKey, mode: RequestMode) -> [String: CapturedValue] {
        ExchangesFeature.capturedValues(for: endpoint, environment: environment, mode: mode, exchanges, catalog: catalog)
    }

    /// This run's latest response of `key` in the active environment and mode, and when it came.
    func latestResponse(of key: EndpointKey) -> (response: CapturedResponse, date: Date)? {
        activeEnvironmentKey.flatMap { ExchangesFeature.latestResponse(of: key, environment: $0, mode: mode, exchanges) }
    }
}
