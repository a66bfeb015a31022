import Catalog
import Foundation
import NIOHTTP1
import StateStore
import SystemSupport
import TestSupport
import Testing

/// Issue 47: state that never crosses catalogs, a trust question that lists everything, secrets
/// masked in every encoding, controls shown escaped. Each test is the attack, from the side of
/// the catalog's author or the server's.
extension BinaryTests.SecurityTests {
    // MARK: State belongs to the catalog that made it

    /// The user's catalog signs in: the server sets a cookie and the catalog captures a session
    /// token. A catalog from elsewhere declaring the same `service:` gets neither: its request
    /// naming the token is not sent, and its plain request carries no cookie.
    @Test func aSecondCatalogWithTheSameServiceNameReceivesNothing() async throws {
        let token = "tok-8a7f6e5d4c3b"
        let cookie = "ck-1f2e3d4c5b6a"
        try await withTestHTTPServer(handler: { request in
            request.path == "/login"
                ? .json(#"{"token": "\#(token)"}"#, headers: ["Set-Cookie": "sid=\(cookie); Path=/"])
                : .ok("seen")
        }) { server in
            let state = try TemporaryDirectory()
            let mine = try TemporaryDirectory()
            try mine.write("api.yaml", """
                service: api
                cookies: { persist: true }
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  login: { method: POST, path: /login, captures: { sessionToken: $.token } }
                  me: { path: /me, headers: { X-Session: "{{sessionToken}}" } }
                """)
            let login = try await CLI.run(["call", "api/login", "--catalog", mine.path], state: state)
            #expect(login.status == 0, "\(login.errors)")
            let me = try await CLI.run(["call", "api/me", "--catalog", mine.path], state: state)
            #expect(me.status == 0, "\(me.errors)")
            #expect(server.requests.last?.header("X-Session") == token)
            #expect(server.requests.last?.header("Cookie") == "sid=\(cookie)")

            let theirs = try TemporaryDirectory()
            try theirs.write("api.yaml", """
                service: api
                cookies: { persist: true }
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  steal: { path: "/steal/{{sessionToken}}" }
                  peek: { path: /peek }
                """)
            let steal = try await CLI.run(["call", "api/steal", "--catalog", theirs.path], state: state)
            #expect(steal.status == 2, "\(steal.output)")
            #expect(steal.errors.contains("{{sessionToken}}, which has no value"), "\(steal.errors)")
            let peek = try await CLI.run(["call", "api/peek", "--catalog", theirs.path], state: state)
            #expect(peek.status == 0, "\(peek.errors)")
            #expect(server.requests.map(\.path) == ["/login", "/me", "/peek"])
            #expect(server.requests.last?.header("Cookie") == nil)
            // The user's own catalog still has both.
            let again = try await CLI.run(["call", "api/me", "--catalog", mine.path], state: state)
            #expect(again.status == 0)
            #expect(server.requests.last?.header("X-Session") == token && server.requests.last?.header("Cookie") == "sid=\(cookie)")
        }
    }

    /// `{{response.other/login …}}` names another catalog's endpoint: validate says where, and
    /// sending reads nothing of the other catalog's response (it carries that catalog's token).
    @Test func aResponseOfAnotherCatalogCannotBeRead() async throws {
        try await withTestHTTPServer(handler: { request in
            request.path == "/login" ? .json(#"{"token": "tok-other-catalog-77"}"#) : .ok("seen")
        }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            try folder.write("bank.yaml", """
                service: bank
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  login: { method: POST, path: /login }
                """)
            try folder.write("thief.yaml", """
                service: thief
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  grab: { path: "/grab", headers: { X-Loot: "{{response.bank/login $.token}}" } }
                """)
            let validate = try await CLI.run(["validate", folder.path], state: state, trusting: false)
            #expect(validate.status == 1)
            #expect(validate.output.contains("thief.yaml:5:45: error: {{response.bank/login $.token}} reads a response of service 'bank'"), "\(validate.output)")
            let login = try await CLI.run(["call", "bank/login", "--catalog", folder.path], state: state)
            #expect(login.status == 0, "\(login.errors)")
            let grab = try await CLI.run(["call", "thief/grab", "--catalog", folder.path], state: state)
            #expect(grab.status == 2, "\(grab.output)")
            #expect(server.requests.map(\.path) == ["/login"])
        }
    }

    // MARK: The trust question lists everything

    /// Nine secrets, three of them where the old question looked (headers), the others only in a
    /// flow step's body and values, an example's parameters, OAuth 2.0, Digest, a multipart part,
    /// GraphQL variables and a WebSocket message: `trust` names all nine, every host, and the state
    /// the catalog keeps; once trusted, a secret it did not declare is not read.
    @Test func theTrustQuestionNamesEverySecretTheCatalogReads() async throws {
        let state = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        try folder.write("nine.yaml", """
            service: nine
            cookies: { persist: true }
            environments:
              local: { baseURL: "https://api.nine.example", headers: { X-One: "{{secret.ONE}}" } }
            auth:
              oauth2:
                tokenURL: https://login.nine.example/token
                clientID: nine
                clientSecret: "{{secret.FOUR}}"
                persist: true
              digest: { username: me, password: "{{secret.FIVE}}" }
            endpoints:
              two: { path: /two, headers: { X-Two: "{{secret.TWO}}" } }
              three: { path: "/three/{{secret.THREE}}" }
              upload:
                method: POST
                path: /up
                multipart: [{ name: note, value: "{{secret.SIX}}" }]
              query:
                path: /graphql
                graphql: { query: "query Q($k: String) { a(k: $k) }", variables: { k: "{{secret.SEVEN}}" } }
              chat:
                path: /chat
                websocket: { messages: { hello: { k: "{{secret.EIGHT}}" } } }
              plain: { method: POST, path: /plain, captures: { id: $.id } }
            flows:
              sneaky:
                steps:
                  - endpoint: plain
                    body: '{"key": "{{secret.NINE}}"}'
            """)
        let trust = try await CLI.run(["trust", folder.path], state: state, trusting: false)
        #expect(trust.status == 0, "\(trust.errors)")
        for name in ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"] {
            #expect(trust.output.contains("reads secret \(name) from $APIEXPLORER_SECRET_\(name)"), "\(name): \(trust.output)")
        }
        for line in [
            "sends requests to https://api.nine.example", "sends requests to https://login.nine.example",
            "follows redirects from them to any host they name", "keeps its OAuth 2.0 tokens between runs",
            "keeps its cookies between runs", "keeps values captured from its responses",
        ] {
            #expect(trust.output.contains(line), "\(line): \(trust.output)")
        }
    }

    /// Issue 49: `snapshot` ignored the trust `apiexplorer trust` gave (it asked, then said the
    /// catalog "cannot be trusted from here"). It reads that trust; a question its keys answer
    /// holds for the run only, and nothing is written to the state folder.
    @Test func snapshotUsesTheTrustGivenWithTheTrustCommand() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("hello from the server") }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            try folder.write("hello.yaml", """
                service: hello
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  greet: { path: /greet }
                """)
            let snapshot = ["snapshot", "--catalog", folder.path, "--env", "hello/local", "--live", "--size", "120x30", "--keys"]
            let asked = try await CLI.run(snapshot + ["Enter"], state: state, trusting: false)
            #expect(asked.status == 0, "\(asked.errors)")
            #expect(asked.output.contains("hello.yaml is not trusted"), "\(asked.output)")
            #expect(server.requestCount == 0)
            // Answered by the keys: sent, trusted for this run only.
            let answered = try await CLI.run(snapshot + ["Enter y"], state: state, trusting: false)
            #expect(answered.status == 0, "\(answered.errors)")
            #expect(answered.output.contains("hello from the server"), "\(answered.output)")
            #expect(!answered.output.contains("cannot be trusted from here"), "\(answered.output)")
            #expect(server.requestCount == 1)
            #expect(!FileManager.default.fileExists(atPath: state.url.appendingPathComponent("apiexplorer/trust.json").path))
            // Trusted with `apiexplorer trust`: sent without a question.
            let trust = try await CLI.run(["trust", folder.path], state: state, trusting: false)
            #expect(trust.status == 0, "\(trust.errors)")
            let trusted = try await CLI.run(snapshot + ["Enter"], state: state, trusting: false)
            #expect(trusted.status == 0, "\(trusted.errors)")
            #expect(!trusted.output.contains("is not trusted"), "\(trusted.output)")
            #expect(trusted.output.contains("hello from the server"), "\(trusted.output)")
            #expect(server.requestCount == 2)
        }
    }

    // MARK: Masking and escaping

    /// A secret in a URL path travels percent-encoded: `export curl`, `call --json` and a body the
    /// server echoes show it masked in that form too.
    @Test func aPercentEncodedPathSecretIsMasked() async throws {
        let secret = "s3cr et/päss?#1"
        let encoded = "s3cr%20et/p%C3%A4ss%3F%231"
        try await withTestHTTPServer(handler: { request in .text("you asked for \(request.uri)") }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            try folder.write("p.yaml", """
                service: p
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  get: { path: "/files/{{secret.PATH_KEY}}" }
                """)
            let environment = ["APIEXPLORER_SECRET_PATH_KEY": secret]
            let call = try await CLI.run(["call", "p/get", "--json", "--catalog", folder.path], state: state, environment: environment)
            #expect(call.status == 0, "\(call.errors)")
            #expect(server.requests.first?.uri == "/files/\(encoded)")
            let export = try await CLI.run(["export", "curl", "p/get", "--catalog", folder.path], state: state, environment: environment)
            let history = try await CLI.run(["history", "--json"], state: state, environment: environment)
            for (what, text) in [("call --json", call.output), ("export curl", export.output), ("history", history.output)] {
                #expect(!text.contains(encoded) && !text.contains("s3cr"), "\(what): \(text)")
                #expect(text.contains("••••"), "\(what): \(text)")
            }
        }
    }

    /// Cookies named like attributes (`secure`, `Path`, `Domain`, `expires`) are cookies all the
    /// same: `--include` and the history mask their values.
    @Test func cookiesNamedLikeAttributesAreMasked() async throws {
        let values = ["secure": "ck-secure-9f8e7d", "Path": "ck-path-6c5b4a", "Domain": "ck-domain-3f2e1d", "expires": "ck-expires-0a9b8c"]
        let setCookies = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value); Path=/; HttpOnly" }
        try await withTestHTTPServer(handler: { _ in
            var headers: HTTPHeaders = [:]
            for line in setCookies { headers.add(name: "Set-Cookie", value: line) }
            return .ok("ok", headers: headers)
        }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            try folder.write("c.yaml", """
                service: c
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  get: { path: /c }
                """)
            let call = try await CLI.run(["call", "c/get", "--include", "--catalog", folder.path], state: state)
            #expect(call.status == 0, "\(call.errors)")
            let history = try await CLI.run(["history", "--json"], state: state)
            for (what, text) in [("--include", call.output), ("history", history.output)] {
                for value in values.values { #expect(!text.contains(value), "\(what): \(value) in \(text)") }
                #expect(text.contains("secure=••••; Path=/; HttpOnly"), "\(what): \(text)")
            }
        }
    }

    /// A bidi override in a catalog title and in a server's message, and a C1 CSI (U+009B), are
    /// shown escaped on a terminal and in every report, which stay well-formed.
    @Test func bidiAndC1ControlsAreShownEscaped() async throws {
        let rlo = "\u{202E}", csi = "\u{9B}"
        try await withTestHTTPServer(handler: { _ in
            .json(#"{"message": "denied \u202e by \u009b31m the server"}"#, status: .forbidden)
        }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            let reports = try TemporaryDirectory()
            try folder.write("b.yaml", """
                service: b
                title: "Bidi \\u202Egnp.exe catalog"
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  fail: { path: /fail, title: "Fail \\u202E\\x9B here", headers: { X-Note: "a\\u202Eb" }, expect: { status: 200 } }
                """)
            let catalog = ["--trust", "--catalog", folder.path]
            for arguments in [["call", "b/fail"] + catalog, ["history"], ["list"] + catalog, ["export", "curl", "b/fail"] + catalog] {
                let (_, output) = try Self.runOnTerminal(arguments, state: state)
                let text = String(decoding: output, as: UTF8.self)
                #expect(!text.contains(rlo) && !text.contains(csi), "\(arguments): \(text)")
            }
            let (_, listed) = try Self.runOnTerminal(["list"] + catalog, state: state)
            #expect(String(decoding: listed, as: UTF8.self).contains("<U+202E>"))
            let test = try await CLI.run(
                ["test", "b", "--live", "--report", "json:\(reports.path)/r.json", "--report", "junit:\(reports.path)/r.xml",
                 "--report", "tap:\(reports.path)/r.tap"] + catalog, state: state)
            #expect(test.status == 1, "\(test.output)\(test.errors)")
            for name in ["r.json", "r.xml", "r.tap"] {
                let text = try String(contentsOf: reports.url.appendingPathComponent(name), encoding: .utf8)
                #expect(!text.contains(rlo) && !text.contains(csi), "\(name): \(text)")
            }
            let json = try Data(contentsOf: reports.url.appendingPathComponent("r.json"))
            #expect((try? JSONSerialization.jsonObject(with: json)) != nil)
            #expect(try String(contentsOf: reports.url.appendingPathComponent("r.json"), encoding: .utf8).contains("\\u202e"))
            // The JUnit report parses as XML (Python's parser, as CI tools use one).
            let parse = try ChildProcess(
                "/usr/bin/python3", ["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", "\(reports.path)/r.xml"], environment: [:])
            #expect(await parse.finish().status == 0)
        }
    }

    /// A capture of a secret name delivers the secret in the response that carries it: that
    /// response is shown with it masked already.
    @Test func aFreshlyCapturedSecretIsMaskedInTheResponseThatDeliversIt() async throws {
        let token = "tok-fresh-4d3c2b1a"
        try await withTestHTTPServer(handler: { _ in .json(#"{"access_token": "\#(token)", "id": 7}"#) }) { server in
            let state = try TemporaryDirectory()
            let folder = try TemporaryDirectory()
            try folder.write("f.yaml", """
                service: f
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  login: { method: POST, path: /login, captures: { sessionToken: $.access_token, id: $.id } }
                """)
            let call = try await CLI.run(["call", "f/login", "--include", "--catalog", folder.path], state: state)
            #expect(call.status == 0, "\(call.errors)")
            #expect(!call.output.contains(token), "\(call.output)")
            #expect(call.output.contains("\"id\""))
        }
    }
}
