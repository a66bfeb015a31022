import NIOHTTP1

/// Ready-made handlers for common server shapes.
package enum TestHandlers {
    /// Dispatches on the request path (query ignored); unknown paths get `fallback` (404 by default).
    package static func routes(
        _ routes: [String: TestHTTPServer.Handler],
        fallback: @escaping TestHTTPServer.Handler = { _ in .status(.notFound) }
    ) -> TestHTTPServer.Handler {
        { request in await (routes[request.path] ?? fallback)(request) }
    }

    /// A chain of redirects: `/redirect/N` answers `status` to `/redirect/N-1`, and `/redirect/0`
    /// answers `final`. Start a client at `/redirect/<hops>` to make it follow exactly `hops` redirects.
    /// Other paths get 404.
    package static func redirectChain(
        status: HTTPResponseStatus = .found, final: TestResponse = .ok("done")
    ) -> TestHTTPServer.Handler {
        { request in
            guard request.path.hasPrefix("/redirect/"), let remaining = Int(request.path.dropFirst("/redirect/".count)),
                remaining >= 0
            else { return .status(.notFound) }
            return remaining == 0 ? final : .redirect(to: "/redirect/\(remaining - 1)", status: status)
        }
    }

    /// A redirect loop: `/loop/a` redirects to `/loop/b` and `/loop/b` back to `/loop/a`, forever.
    /// Other paths get 404.
    package static func redirectLoop(status: HTTPResponseStatus = .found) -> TestHTTPServer.Handler {
        { request in
            switch request.path {
            case "/loop/a": .redirect(to: "/loop/b", status: status)
            case "/loop/b": .redirect(to: "/loop/a", status: status)
            default: .status(.notFound)
            }
        }
    }
}
