import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import Sessions
import TerminalKit

/// A small catalog for app tests: two services, three environments for the first.
package enum TestCatalog {
    package static let shop = """
        service: shop
        title: Shop API
        environments:
          local:
            type: development
            baseURL: http://127.0.0.1:9/shop
            fixtures: immediate
            secretDefaults:
              SHOP_TOKEN: tok-secret-123
          staging:
            type: staging
            baseURL: https://staging.shop.test
            fixtures: immediate
          production:
            type: production
            baseURL: https://shop.test
            fixtures: never
        groups:
          signedIn:
            headers:
              Authorization: Bearer {{secret.SHOP_TOKEN}}
        endpoints:
          listItems:
            title: List items
            path: /items
            stub:
              body: [{ id: 1, name: Lamp }]
            examples:
              rateLimited:
                status: 429
                headers: { Retry-After: "2" }
                body: { message: slow down }
              offline:
                networkError: notConnectedToInternet
          getItem:
            title: Get an item
            group: signedIn
            path: /items/{{id}}
            parameters: { id: "1" }
            stub:
              body: { id: 1, name: Lamp }
          createItem:
            title: Create an item
            method: POST
            path: /items
            body: { name: Chair }
            stub:
              status: 201
              body: { id: 2, name: Chair }
          deleteItem:
            method: DELETE
            path: /items/{{id}}
            parameters: { id: "1" }
            stub:
              status: 204
        """

    package static let echo = """
        service: echo
        environments:
          local:
            baseURL: http://127.0.0.1:9/echo
        endpoints:
          ping:
            path: /ping
            stub:
              body: { pong: true }
        """

    /// The key of `service` in `environment`, for a catalog loaded in memory as bundled files
    /// (`load()`'s, or one file named after its service).
    package static func key(_ service: String, _ environment: String) -> EnvironmentKey {
        let files = ["shop": "1-shop.yaml", "echo": "2-echo.yaml"]
        return EnvironmentKey(catalog: CatalogID(file: files[service] ?? service + ".yaml", in: nil), service: service, environment: environment)
    }

    package static func load() -> CatalogSet {
        CatalogLoader.load(
            fileSystem: InMemoryFileSystem(texts: ["1-shop.yaml": shop, "2-echo.yaml": echo]), source: .bundled)
    }

    /// When test requests finish.
    package static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A finished stub exchange of `shop/listItems`, its request carrying the shop's secret.
    package static func exchange(status: Int, body: String = "{}", environment: String = "local", error: DispatchError? = nil) -> Exchange {
        let request = Request(
            identifier: "shop/listItems", method: .get, url: URL(string: "http://127.0.0.1:9/shop/items?token=tok-secret-123")!,
            headers: Headers([("Authorization", "Bearer tok-secret-123"), ("Accept", "application/json")], origin: .group("signedIn")),
            settings: TransportSettings(environment: Environment(name: environment, baseURL: URL(string: "http://127.0.0.1:9")!)))
        let response = Response(status: status, body: Data(body.utf8), source: .stub(example: nil))
        return Exchange(
            request: request, result: error.map { .failure($0) } ?? .success(response), trace: [], environmentName: environment,
            environmentType: .development, stubBehavior: .immediate, attempts: 1, notes: [])
    }

    package static func state(size: Size = Size(width: 120, height: 40)) -> AppState {
        AppState(catalog: load(), size: size)
    }
}

extension AppState {
    /// Applies key presses given as `"j j Enter"`, collecting the effects.
    package mutating func press(_ keys: String) -> [AppEffect] {
        var effects: [AppEffect] = []
        for event in (try? KeyEvent.parseSequence(keys)) ?? [] {
            effects += AppReducer.reduce(&self, .terminal(.key(event)))
        }
        return effects
    }

    /// The text of the rendered screen.
    package var screen: String { AppView.render(self).buffer.plainText() }
}

extension [AppEffect] {
    /// The tickets of the send effects.
    package var sent: [RequestTicket] {
        compactMap { if case .exchanges(.send(let ticket)) = $0 { ticket } else { nil } }
    }
}

extension AppState {
    /// Delivers a finished exchange and performs the body work it asks for, as the runtime would.
    @discardableResult
    package mutating func finish(ticket: Int, _ exchange: Exchange, redactor: Redactor = .standard, signOut: SignOut? = nil) -> [AppEffect] {
        let finished = FinishedExchange(ticket: ticket, exchange: exchange, redactor: redactor, finishedAt: TestCatalog.now, signOut: signOut)
        let effects = AppReducer.reduce(&self, .exchanges(.finished(finished)))
        performBodyWork(effects)
        return effects
    }

    /// Applies key presses, then performs the body builds and match counts they ask for.
    @discardableResult
    package mutating func pressAndPerform(_ keys: String) -> [AppEffect] {
        let effects = press(keys)
        performBodyWork(effects)
        return effects
    }

    /// Builds bodies and counts matches synchronously and feeds the results back, as the runtime does
    /// in the background.
    package mutating func performBodyWork(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case .body(.build(let key, let generation, let data, let contentType, let masking)):
                let document = BodyDocument(data: masking?.data(data) ?? data, contentType: contentType)
                _ = AppReducer.reduce(&self, .body(.built(key: key, generation: generation, document: BodyHandle(document))))
            case .body(.countMatches(let key, let handle, let query)):
                let count = handle.document.countMatches(for: query)
                let complete = BodyMatchCount(count: count, isComplete: true, fraction: 1)
                _ = AppReducer.reduce(&self, .body(.matchesCounted(key: key, document: handle, query: query, count: complete)))
            default:
                break
            }
        }
    }

    /// The state after sending listItems and receiving `body`, with the body built.
    package static func answered(_ body: Data, contentType: String? = "application/json", size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = TestCatalog.state(size: size)
        _ = state.press("Enter")
        var exchange = TestCatalog.exchange(status: 200)
        if case .success(var response) = exchange.result {
            response.body = body
            if let contentType { response.headers = Headers([("Content-Type", contentType)], origin: .server) }
            response.timing = Timing(firstByte: .milliseconds(3), total: .milliseconds(4))
            exchange.result = .success(response)
        }
        state.finish(ticket: 1, exchange)
        return state
    }

    /// The selected endpoint's body view.
    package var bodyView: BodyViewState? { selectedBodyPane?.active?.view }
}

/// Tests name endpoints as people write them: `"shop/listItems"`.
extension EndpointKey: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        guard let key = EndpointKey(text) else { preconditionFailure("not SERVICE/ENDPOINT: \(text)") }
        self = key
    }
}
