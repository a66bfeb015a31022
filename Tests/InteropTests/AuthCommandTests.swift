import Foundation
import NIOHTTP1
import Synchronization
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `apiexplorer auth login|status|logout` and `persist: true`: the token kept owner-only in the
    /// state folder and used by later runs, its value never printed, forgotten on logout.
    @Suite(.offPool) struct AuthCommandTests {
        @Test func loginKeepsTheTokenThatCallThenUsesAndLogoutForgetsIt() async throws {
            let issued = Mutex(0)
            let handler: TestHTTPServer.Handler = { request in
                if request.path == "/token" {
                    issued.withLock { $0 += 1 }
                    return .json(#"{"access_token":"canary-access-token-42","token_type":"Bearer","expires_in":3600,"scope":"read"}"#)
                }
                return request.headers.first(name: "Authorization") == "Bearer canary-access-token-42" ? .json(#"{"me":"app"}"#) : .status(.unauthorized)
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                let base = server.baseURL.absoluteString
                try folder.write("api.yaml", """
                    service: api
                    environments:
                      local: { baseURL: "\(base)/api", fixtures: never, retry: none }
                    auth:
                      oauth2: { tokenURL: "\(base)/token", clientID: app, clientSecret: "{{secret.API_SECRET}}", persist: true }
                    endpoints:
                      me: { path: /me }
                    """)
                let environment = ["APIEXPLORER_SECRET_API_SECRET": "canary-client-secret"]
                let login = try await CLI.run(["auth", "login", "api", "--catalog", folder.path], state: state, environment: environment)
                #expect(login.status == 0, "\(login.errors)")
                #expect(login.output.hasPrefix("Signed in to api · local · scope read · expires in "), "\(login.output)")
                #expect(login.output.contains(" · kept in \(state.path)/apiexplorer/tokens.json"))
                let file = state.url.appendingPathComponent("apiexplorer/tokens.json")
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                #expect(try String(contentsOf: file, encoding: .utf8).contains("canary-access-token-42"))

                let status = try await CLI.run(["auth", "status"], state: state)
                #expect(status.output.hasPrefix("api · local: Bearer token, expires in "), "\(status.output)")
                #expect(status.output.contains(" · scope read"))
                // A later run uses the kept token: no second sign-in.
                let call = try await CLI.run(["call", "api/me", "--catalog", folder.path], state: state, environment: environment)
                #expect(call.status == 0, "\(call.errors)")
                #expect(issued.withLock { $0 } == 1)
                // Neither value is printed anywhere, nor kept in the history.
                for output in [login.output, login.errors, status.output, status.errors, call.output, call.errors] {
                    #expect(!output.contains("canary-access-token-42") && !output.contains("canary-client-secret"))
                }
                let history = try String(contentsOf: state.url.appendingPathComponent("apiexplorer/history.jsonl"), encoding: .utf8)
                #expect(!history.contains("canary-access-token-42") && !history.contains("canary-client-secret"))

                let logout = try await CLI.run(["auth", "logout", "api", "--catalog", folder.path], state: state)
                #expect(logout.output == "Signed out of api · local: its token is forgotten.\n")
                let after = try await CLI.run(["auth", "status"], state: state)
                #expect(after.output.hasPrefix("No token is kept"))
            }
        }
    }
}
