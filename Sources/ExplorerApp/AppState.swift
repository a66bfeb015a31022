import Foundation
import Catalog
import DispatcherCore
import TerminalKit

/// Everything the explorer shows, in one value. Only the reducer changes it.
public struct AppState: Sendable {
    /// The loaded catalogs (services, diagnostics, where they came from).
    public var catalog: CatalogSet
    /// Terminal size in cells.
    public var size: Size
    /// Which pane has the keyboard.
    public var focus: Pane = .endpoints
    /// Stub or live.
    public var mode: Mode = .stub
    /// Cursor and scroll of the environments pane (rows of `environmentRows`). The row under the
    /// cursor is the active service and environment.
    public var environmentList = ListState(selected: 0)
    /// Cursor and scroll of the endpoints pane, per service id (rows of `visibleEndpoints`).
    public var endpointLists: [String: ListState] = [:]
    /// The endpoint filter typed after `/`; nil when no filter is open.
    public var filter: FilterState?
    /// The tab shown in the response pane.
    public var tab: ResponseTab = .body
    /// Scroll offsets of the text tabs, by tab.
    public var tabScroll: [ResponseTab: Int] = [:]
    /// The last result per endpoint (`service/endpoint`).
    public var responses: [String: ResponseRecord] = [:]
    /// The Body tab of each response, by endpoint key (as `responses`).
    public var bodies: [String: BodyPane] = [:]
    /// The next id for a body build or query; results carrying an older id are stale.
    public var nextBodyGeneration = 1
    /// Requests sent and not yet answered, by ticket id.
    public var inFlight: [Int: RequestTicket] = [:]
    /// The example each endpoint sends, by `service/endpoint`; absent means the default.
    public var chosenExample: [String: String] = [:]
    /// Requests on the wire, as the activity plugin counts them.
    public var activity = 0
    /// The spinner's frame.
    public var spinnerFrame = 0
    /// Ticks carry this generation; a tick of an older one is stale and ignored.
    public var spinnerGeneration = 0
    /// Whether a spinner tick is scheduled.
    public var spinnerScheduled = false
    /// The network log, newest last, bounded.
    public var log: [String] = []
    /// An overlay over the panes, if any.
    public var overlay: Dialog?
    /// Whether secrets are shown in clear on screen.
    public var revealsSecrets = false
    /// A short message for the status bar (copied, cancelled …).
    public var notice: String?
    /// The next request ticket id.
    public var nextTicket = 1
    /// Set when the app should exit.
    public var isQuitting = false
    /// Requests sent, newest first: this run's and (loaded at launch) earlier ones.
    public var history: [HistoryItem] = []
    /// The last `apiexplorer check` result per `service/environment/endpoint`, for the drift badge.
    public var driftMarks: [String: DriftMark] = [:]

    /// Makes the initial state for a catalog and terminal size.
    public init(catalog: CatalogSet, size: Size) {
        self.catalog = catalog
        self.size = size
        environmentList = ListState(selected: environmentRows.firstIndex { $0.isEnvironment } ?? 0)
    }

    /// The most log lines kept.
    public static let logLimit = 2000
}

/// A pane that can have focus, in Tab order.
public enum Pane: Int, Sendable, Hashable, CaseIterable {
    case environments, endpoints, response
}

/// One request in the history: enough to show it and to send it again.
public struct HistoryItem: Sendable, Hashable {
    /// What was sent, where and how (its id is not used again).
    public var ticket: RequestTicket
    /// The method and URL as sent, secrets masked.
    public var requestLine: String
    /// `200 OK`, or the mapped error kind.
    public var outcome: String
    /// Whether it ended in an error.
    public var failed: Bool
    /// When it was sent.
    public var date: Date

    /// Makes an item.
    public init(ticket: RequestTicket, requestLine: String, outcome: String, failed: Bool, date: Date) {
        self.ticket = ticket
        self.requestLine = requestLine
        self.outcome = outcome
        self.failed = failed
        self.date = date
    }

    /// The most items kept in the app.
    public static let limit = 500
}

/// What the last drift check (`apiexplorer check`) said of an endpoint in an environment.
public enum DriftMark: String, Sendable, Hashable {
    /// The live response matched the stub.
    case matches
    /// The live response differed from the stub.
    case drifted
    /// The live request failed, so nothing could be compared.
    case failed

    /// The key of `AppState.driftMarks`.
    public static func key(service: String, environment: String, endpoint: String) -> String {
        "\(service)/\(environment)/\(endpoint)"
    }
}

/// Whether requests are answered by fixtures or sent over the network.
public enum Mode: String, Sendable, Hashable {
    case stub = "STUB"
    case live = "LIVE"

    /// The other mode.
    public var toggled: Mode { self == .stub ? .live : .stub }
}

/// The tabs of the response pane, numbered 1–5.
public enum ResponseTab: Int, Sendable, Hashable, CaseIterable {
    case body = 1, headers, errors, request, log

    /// The tab's title.
    public var title: String {
        switch self {
        case .body: "Body"
        case .headers: "Headers"
        case .errors: "Errors"
        case .request: "Request"
        case .log: "Log"
        }
    }
}

/// The endpoint filter being typed.
public struct FilterState: Sendable, Hashable {
    /// The text typed so far.
    public var input = InputState()
    /// Whether keys go to the input (false once Enter accepted it; the filter stays applied).
    public var isEditing = true

    /// The query.
    public var query: String { input.text }
}

/// A floating window over the panes.
public enum Dialog: Sendable, Hashable {
    /// The keys, generated from the keymap.
    case help(scroll: Int)
    /// The endpoint's examples to pick from.
    case examplePicker(endpoint: String, list: ListState)
    /// Asks before a request that changes data in production.
    case confirmSend(RequestTicket)
    /// The catalog diagnostics.
    case diagnostics(scroll: Int)
    /// Requests sent before, to read and send again.
    case history(list: ListState)
}

/// One request the user sent: what, where and how.
public struct RequestTicket: Sendable, Hashable {
    /// Unique per app run.
    public var id: Int
    /// The service's id.
    public var serviceID: String
    /// The endpoint's id.
    public var endpointID: String
    /// The environment's name.
    public var environmentName: String
    /// Stub or live.
    public var mode: Mode
    /// The example to answer with (stub) or ask the mock server for (live); nil for the default.
    public var example: String?

    /// A ticket for one request.
    public init(id: Int, serviceID: String, endpointID: String, environmentName: String, mode: Mode, example: String?) {
        self.id = id
        self.serviceID = serviceID
        self.endpointID = endpointID
        self.environmentName = environmentName
        self.mode = mode
        self.example = example
    }

    /// `service/endpoint`.
    public var endpointKey: String { "\(serviceID)/\(endpointID)" }
}

/// The last result for an endpoint, with how it was obtained.
public struct ResponseRecord: Sendable {
    /// The ticket that produced it.
    public var ticket: RequestTicket
    /// What happened.
    public var exchange: Exchange
    /// Masks the secrets this request could carry.
    public var redactor: Redactor
}
