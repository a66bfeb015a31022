import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import TerminalKit

/// A small catalog for app tests: two services, three environments for the first.
enum TestCatalog {
    static let shop = """
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

    static let echo = """
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

    static func load() -> CatalogSet {
        CatalogLoader.load(
            fileSystem: InMemoryFileSystem(texts: ["1-shop.yaml": shop, "2-echo.yaml": echo]), source: .bundled)
    }

    static func state(size: Size = Size(width: 120, height: 40)) -> AppState {
        AppState(catalog: load(), size: size)
    }
}

extension AppState {
    /// Applies key presses given as `"j j Enter"`, collecting the effects.
    mutating func press(_ keys: String) -> [AppEffect] {
        var effects: [AppEffect] = []
        for event in (try? KeyEvent.parseSequence(keys)) ?? [] {
            effects += AppReducer.reduce(&self, .terminal(.key(event)))
        }
        return effects
    }

    /// The text of the rendered screen.
    var screen: String { AppView.render(self).buffer.plainText() }
}

extension [AppEffect] {
    /// The tickets of the send effects.
    var sent: [RequestTicket] {
        compactMap { if case .send(let ticket) = $0 { ticket } else { nil } }
    }
}
