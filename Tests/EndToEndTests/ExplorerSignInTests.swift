import Foundation
import Synchronization
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The OAuth 2.0 device flow in the real binary against an authorization server of the test's:
    /// the code and URL shown while the request waits, approval simulated, the token used.
    @Suite(.offPool) struct ExplorerSignInTests {
        @Test func theDeviceFlowShowsTheCodeAndSendsTheTokenOnceApproved() async throws {
            let approved = Mutex(false)
            let handler: TestHTTPServer.Handler = { request in
                switch request.path {
                case "/device":
                    return .json(#"{"device_code":"d1","user_code":"WDJB-MJHT","verification_uri":"https://auth.example/device","interval":1}"#)
                case "/token":
                    return approved.withLock { $0 } ? .json(#"{"access_token":"device-at","expires_in":600}"#) : .json(#"{"error":"authorization_pending"}"#, status: .badRequest)
                default:
                    return request.headers.first(name: "Authorization") == "Bearer device-at" ? .json(#"{"me":"tv"}"#) : .status(.unauthorized)
                }
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let base = server.baseURL.absoluteString
                try folder.write("api.yaml", """
                    service: api
                    environments:
                      local: { baseURL: "\(base)/api", fixtures: never, retry: none }
                    auth:
                      oauth2:
                        grant: device_code
                        deviceAuthorizationURL: "\(base)/device"
                        tokenURL: "\(base)/token"
                        clientID: tv-app
                    endpoints:
                      me: { path: /me }
                    """)
                let state = try TemporaryDirectory()
                let session = try ExplorerSessionTests.launch(
                    "--trust --catalog \(TmuxSession.quote(folder.path)) --env api/local --live", environment: ["XDG_STATE_HOME": state.path])
                defer { session.close() }
                try await session.waitFor("Enter sends")
                try await session.send("Enter")
                try await session.waitFor("and enter WDJB-MJHT")
                try await session.waitFor("https://auth.example/device")
                approved.withLock { $0 = true }
                try await session.waitFor("200 OK")
                try await session.waitFor(#""me": "tv""#)
                // The token view: the token the device flow got, masked, with its expiry.
                try await session.send("T")
                try await session.waitFor("oauth2 · Bearer")
                try await session.waitFor("(v reveals)")
                try await session.waitFor("expires  in ")
            }
        }
    }
}
