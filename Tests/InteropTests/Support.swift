import Catalog
import DispatcherCore
import Foundation
import Sessions
import StateStore
import SystemSupport
import TestSupport
import Testing

/// A small catalog: one service `shop` whose `local` environment points at `baseURL`.
enum ShopCatalog {
    static func text(baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") -> String {
        """
        # A test catalog.
        service: shop
        title: Test shop

        variables:
          itemId: "7"

        environments:
          local:
            baseURL: \(baseURL)
            fixtures: \(fixtures)
            headers:
              Accept: application/json
            secretDefaults:
              SHOP_TOKEN: shop-secret-token
            retry: none

        groups:
          authenticated:
            headers:
              Authorization: Bearer {{secret.SHOP_TOKEN}}

        endpoints:
          getItem:
            title: One item
            group: authenticated
            path: /items/{{itemId}}
            stub:
              bodyFile: fixtures/shop/item.json
            examples:
              missing:
                description: No such item.
                status: 404
                body: { message: No such item }

          listItems:
            path: /items
            query:
              limit: "{{limit}}"
            parameters: { limit: "10" }
            stub:
              body: [{ id: 1, name: Pen, price: 1.5, tags: [office] }, { id: 2, name: Cup, price: 3, tags: [] }]

          createItem:
            method: POST
            path: /items
            body: { name: "{{name}}" }
            stub:
              status: 201
              body: { id: 3, name: Lamp }

          needsValue:
            path: /search/{{query}}

        """
    }

    static let item = #"{"id": 7, "name": "Pen", "price": 1.5, "owner": {"name": "Ann", "email": null}, "tags": ["office"]}"#

    /// Writes the catalog and its fixture into `folder`.
    static func write(into folder: TemporaryDirectory, baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") throws {
        try folder.write("shop.yaml", text(baseURL: baseURL, fixtures: fixtures))
        try folder.write("fixtures/shop/item.json", item + "\n")
    }
}

/// Runs the built `apiexplorer` binary.
enum CLI {
    typealias Result = ChildProcess.Captured

    /// The binary beside the test bundle (`.build/debug/apiexplorer`), or `$APIEXPLORER_BINARY`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["APIEXPLORER_BINARY"] { return URL(fileURLWithPath: path) }
        return BuiltProducts.executable(named: "apiexplorer")
    }()

    /// Runs `apiexplorer arguments…` with `state` as the XDG state home; no proxies, no inherited
    /// catalog, no controlling terminal (a question cannot wait for the person running the tests).
    /// A `--catalog` folder is trusted (`--trust`: the test wrote it) unless `trusting` is false.
    static func run(
        _ arguments: [String], state: TemporaryDirectory, in directory: URL? = nil, environment extra: [String: String] = [:], trusting: Bool = true
    ) async throws -> Result {
        var arguments = arguments
        if trusting, let index = arguments.firstIndex(of: "--catalog") { arguments.insert("--trust", at: index) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = state.path
        environment.merge(extra) { $1 }
        let spawned = try ChildProcess(binary.path, arguments, environment: environment, directory: (directory ?? state.url).path, newSession: true)
        return await spawned.finish()
    }
}

/// Reads JSON output as Foundation objects for field checks.
func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

extension CallOutcome {
    /// The history entry of the call, as `apiexplorer call` keeps it.
    var historyEntry: HistoryEntry { HistoryEntry(self, date: Date()) }
}
