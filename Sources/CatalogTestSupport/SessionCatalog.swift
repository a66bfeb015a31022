/// The catalog the session tests send through (auth refresh, error rules, a group's headers,
/// secrets in a query); the catalog fuzz tests start from it too.
package enum SessionCatalog {
    package static let text = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:1/api
            fixtures: immediate
            secretDefaults: { SHOP_TOKEN: old-token, SHOP_PASSWORD: pw }
          bare:
            baseURL: http://127.0.0.1:1/api
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        auth:
          refresh: { endpoint: login, on: [401, sessionExpired], token: $.data.token, into: SHOP_TOKEN }
        errors:
          - status: 400
            error: badRequest
            message: $.errors[*].message
          - status: 419
            error: sessionExpired
          - status: 2xx
            when: $.error
            error: applicationError
            message: $.error.message
        endpoints:
          login:
            method: POST
            path: /login
            body: { password: "{{secret.SHOP_PASSWORD}}" }
            stub: { body: { data: { token: stub-fresh } } }
          me:
            group: signedIn
            path: /me
            stub: { body: { name: Ann } }
            examples:
              unauthorized: { status: 401, body: { message: bad token } }
              invalid: { status: 400, body: { errors: [{ message: one }, { message: two }] } }
              hidden: { status: 200, body: { error: { message: quota exceeded } } }
              slow: { body: { name: Ann }, delay: 1.5 }
          search:
            path: /search
            query: { access_token: "{{secret.SHOP_TOKEN}}", q: pets }
            stub: { body: [] }
          open:
            path: /open/{{id}}
        """
}
