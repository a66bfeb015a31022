import Catalog
import DispatcherCore
import Foundation

/// Sends catalog endpoints the way `apiexplorer call` does: one `ServiceSession` per request,
/// stub or live, secrets from the catalog's `.env` and the process environment.
public struct EndpointCaller: Sendable {
    /// The catalogs.
    public let catalog: CatalogSet
    /// Where `{{secret.NAME}}` values come from.
    public let secrets: SecretStore
    /// Sends live requests; nil when only stubs are wanted.
    public let transport: (any Transport)?

    /// Makes a caller; `secrets` default to the catalog folder's `.env` and the process environment.
    public init(catalog: CatalogSet, secrets: SecretStore? = nil, transport: (any Transport)?) {
        self.catalog = catalog
        self.secrets = secrets ?? SecretStore.load(for: catalog.source)
        self.transport = transport
    }

    /// The mode a request takes when none is asked for: the environment's (live when its fixtures are `never`).
    public static func defaultMode(of environment: Environment) -> HistoryEntry.Mode {
        environment.fixtures.isStubbed ? .stub : .live
    }

    /// A session for the selection's service and environment.
    public func session(for selection: EndpointSelection) -> ServiceSession {
        ServiceSession(service: selection.service, environment: selection.environment, secrets: secrets, transport: transport)
    }

    /// Sends the selection's endpoint. Stub mode answers at once (an example's own delay still
    /// applies); live mode without a transport fails as an invalid request (the dispatcher's).
    public func call(
        _ selection: EndpointSelection, mode: HistoryEntry.Mode? = nil, example: String? = nil, values: [String: String] = [:]
    ) async -> CallOutcome {
        let mode = mode ?? Self.defaultMode(of: selection.environment)
        let session = session(for: selection)
        let options = RequestOptions(stubBehavior: mode == .live ? .never : .immediate, example: example)
        let exchange = await session.send(selection.endpoint, values: values, options: options)
        return CallOutcome(selection: selection, example: example, values: values, exchange: exchange, redactor: session.redactor)
    }

    /// Sends a request again from its history entry.
    public func replay(_ request: ReplayRequest) async throws(InteropError) -> CallOutcome {
        let selection = try EndpointSelection.resolve("\(request.service)/\(request.endpoint)", environment: request.environment, in: catalog)
        return await call(selection, mode: request.mode, example: request.example, values: request.values)
    }
}

/// A finished call: the exchange and what is needed to record and show it.
public struct CallOutcome: Sendable {
    /// What was sent.
    public var selection: EndpointSelection
    /// The example asked for.
    public var example: String?
    /// The run-time values.
    public var values: [String: String]
    /// The exchange.
    public var exchange: Exchange
    /// Masks every secret the session could send.
    public var redactor: Redactor

    /// Makes an outcome.
    public init(selection: EndpointSelection, example: String?, values: [String: String], exchange: Exchange, redactor: Redactor) {
        self.selection = selection
        self.example = example
        self.values = values
        self.exchange = exchange
        self.redactor = redactor
    }

    /// The record of it: for history (response body masked and cut) or for output (`forHistory: false`).
    public func entry(forHistory: Bool = true, date: Date = Date()) -> HistoryEntry {
        HistoryEntry(
            exchange: exchange, service: selection.service.id, endpoint: selection.endpoint.id, example: example, values: values,
            redactor: redactor, redactResponseBody: forHistory, bodyLimit: forHistory ? HistoryEntry.defaultBodyLimit : nil, date: date)
    }

    /// 0 on success, 1 for a mapped error, 2 when the request could not be built (nothing was sent).
    public var exitStatus: Int32 {
        guard let error = exchange.error else { return 0 }
        return error.kind == .invalidRequest ? 2 : 1
    }
}
