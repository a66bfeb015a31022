import TestSupport

/// A small catalog: one service `shop` whose `local` environment points at `baseURL`.
package enum ShopCatalog {
    package static func text(baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") -> String {
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

    package static let item = #"{"id": 7, "name": "Pen", "price": 1.5, "owner": {"name": "Ann", "email": null}, "tags": ["office"]}"#

    /// Writes the catalog and its fixture into `folder`.
    package static func write(into folder: TemporaryDirectory, baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") throws {
        try folder.write("shop.yaml", text(baseURL: baseURL, fixtures: fixtures))
        try folder.write("fixtures/shop/item.json", item + "\n")
    }
}
