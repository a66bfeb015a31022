import Foundation
import NIOHTTP1
import TestSupport

/// The scenarios of `CurlConformanceTests`: redirects, cookies along them and between calls,
/// bodies as typed, query encoding, methods and header values.
extension CurlScenario {
    static let all: [CurlScenario] = redirects + cookies + bodies + queries + methodsAndHeaders + roundTwo

    /// One call of endpoint `e`, and curl with `flags` on `path`.
    static func one(_ name: String, _ endpoint: String, path: String, curl flags: [String], answer: @escaping @Sendable (TestRequest, Int) -> TestResponse = { _, _ in .ok("ok") }) -> CurlScenario {
        CurlScenario(name: name, endpoints: "  e: \(endpoint)", steps: [CurlStep(endpoint: "e", curlPath: path, curl: flags)], answer: answer)
    }

    /// `/r/N` redirects with `status` to `/r/N-1`; `/r/0` answers 200. `cookie` gives each hop's
    /// `Set-Cookie` (by N), if any.
    static func chain(_ status: HTTPResponseStatus, cookie: @escaping @Sendable (Int) -> String? = { _ in nil }) -> @Sendable (TestRequest, Int) -> TestResponse {
        { request, _ in
            let left = Int(request.path.split(separator: "/").last ?? "0") ?? 0
            var headers: HTTPHeaders = [:]
            if let value = cookie(left) { headers.add(name: "Set-Cookie", value: value) }
            guard request.path.hasPrefix("/r/"), left > 0 else { return .text("done", headers: headers) }
            return .redirect(to: "/r/\(left - 1)", status: status, headers: headers)
        }
    }

    static let statuses: [HTTPResponseStatus] = [.movedPermanently, .found, .seeOther, .temporaryRedirect, .permanentRedirect]

    // MARK: Redirects

    static let redirects: [CurlScenario] =
        statuses.map { status in
            one("GET through a \(status.code)", "{ path: /r/1 }", path: "/r/1", curl: ["-L"], answer: chain(status))
        }
        + statuses.map { status in
            // 301/302/303 turn the POST into a GET without its body; 307/308 send it again.
            one("POST form through a \(status.code)", "{ method: POST, path: /r/1, form: { a: \"1\", b: two words } }", path: "/r/1",
                curl: ["-L", "-d", "a=1&b=two%20words"], answer: chain(status))
        }
        + [
            one("a chain of three 302s", "{ path: /r/3 }", path: "/r/3", curl: ["-L"], answer: chain(.found)),
            one(
                "POST through 307, 308 then 302", "{ method: POST, path: /m/a, form: { k: v } }", path: "/m/a", curl: ["-L", "-d", "k=v"],
                answer: { request, _ in
                    switch request.path {
                    case "/m/a": .redirect(to: "/m/b", status: .temporaryRedirect)
                    case "/m/b": .redirect(to: "/m/c", status: .permanentRedirect)
                    case "/m/c": .redirect(to: "/m/d", status: .found)
                    default: .ok("end")
                    }
                }),
            one("HEAD through a 302", "{ method: HEAD, path: /r/1 }", path: "/r/1", curl: ["-L", "-I"], answer: chain(.found)),
            one(
                "a relative Location", "{ path: /a/b/c }", path: "/a/b/c", curl: ["-L"],
                answer: { request, _ in request.path == "/a/b/c" ? .redirect(to: "../x/y?z=1") : .ok("there") }),
            one(
                "an absolute Location on the same origin", "{ path: /abs }", path: "/abs", curl: ["-L"],
                answer: { request, port in request.path == "/abs" ? .redirect(to: "http://127.0.0.1:\(port)/landed") : .ok("there") }),
            one(
                "Authorization is dropped on another host", "{ path: /away, headers: { Authorization: Basic dXNlcjpwYXNz, X-Plain: kept } }",
                path: "/away", curl: ["-L", "-H", "Authorization: Basic dXNlcjpwYXNz", "-H", "X-Plain: kept"],
                answer: { request, port in request.path == "/away" ? .redirect(to: "http://localhost:\(port)/landing") : .ok("landed") }),
            one(
                "a cookie is not sent to another host", "{ path: /away }", path: "/away", curl: ["-L"],
                answer: { request, port in
                    request.path == "/away"
                        ? .redirect(to: "http://localhost:\(port)/landing", headers: ["Set-Cookie": "sid=1; Path=/"]) : .ok("landed")
                }),
            one(
                "a redirect not followed without -L", "{ path: /r/1 }", path: "/r/1", curl: [], answer: chain(.found))
                .with(environment: "redirects: false"),
        ]

    // MARK: Cookies

    /// Endpoints `e` and `later` (at `laterPath`); curl gets `-L` on the first step.
    static func cookieScenario(
        _ name: String, first path: String, later laterPath: String? = nil, answer: @escaping @Sendable (TestRequest, Int) -> TestResponse
    ) -> CurlScenario {
        var steps = [CurlStep(endpoint: "e", curlPath: path, curl: ["-L"])]
        var endpoints = "  e: { path: \(path) }"
        if let laterPath {
            steps.append(CurlStep(endpoint: "later", curlPath: laterPath, curl: ["-L"]))
            endpoints += "\n  later: { path: \(laterPath) }"
        }
        return CurlScenario(name: name, endpoints: endpoints, steps: steps, answer: answer)
    }

    /// Answers `/set` with `values` as `Set-Cookie`, anything else with 200.
    static func setting(_ values: [String]) -> @Sendable (TestRequest, Int) -> TestResponse {
        { request, _ in
            guard request.path == "/set" else { return .ok("ok") }
            var headers: HTTPHeaders = [:]
            for value in values { headers.add(name: "Set-Cookie", value: value) }
            return .ok("set", headers: headers)
        }
    }

    static let cookies: [CurlScenario] = [
        cookieScenario("a cookie set by a 302 sign-in goes to the next hop and later", first: "/r/1", later: "/me", answer: chain(.found) { $0 == 1 ? "sid=abc; Path=/; HttpOnly" : nil }),
        cookieScenario("a cookie set on the final hop goes with the next call", first: "/r/1", later: "/me", answer: chain(.found) { $0 == 0 ? "fin=1; Path=/" : nil }),
        cookieScenario("every hop of a chain sets one", first: "/r/3", later: "/me", answer: chain(.seeOther) { "h\($0)=v\($0); Path=/" }),
        cookieScenario("a later hop replaces a cookie", first: "/r/2", later: "/me", answer: chain(.temporaryRedirect) { "sid=n\($0); Path=/" }),
        cookieScenario("a 307 chain keeps cookies", first: "/r/2", later: "/me", answer: chain(.permanentRedirect) { $0 == 2 ? "a=1; Path=/" : nil }),
        cookieScenario("Path limits where a cookie goes", first: "/set", later: "/b/x", answer: setting(["p=1; Path=/a", "q=2; Path=/b"])),
        cookieScenario("the default path is the directory", first: "/set", later: "/other", answer: setting(["d=1"])),
        cookieScenario("longer paths first", first: "/set", later: "/p/x/y", answer: setting(["a=1; Path=/", "b=2; Path=/p/x", "c=3; Path=/p"])),
        cookieScenario("HttpOnly is kept and sent", first: "/set", later: "/me", answer: setting(["h=1; HttpOnly; Path=/"])),
        cookieScenario("Secure is not stored from http", first: "/set", later: "/me", answer: setting(["s=1; Secure; Path=/", "plain=1; Path=/"])),
        cookieScenario("Max-Age keeps, Max-Age=0 drops", first: "/set", later: "/me", answer: setting(["keep=1; Max-Age=3600; Path=/", "gone=1; Max-Age=0; Path=/"])),
        cookieScenario(
            "Expires in the future keeps, in the past drops", first: "/set", later: "/me",
            answer: setting(["future=1; Expires=Wed, 01 Jan 2098 00:00:00 GMT; Path=/", "past=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"])),
        cookieScenario("a Domain that is not the host is refused", first: "/set", later: "/me", answer: setting(["x=1; Domain=example.com; Path=/", "y=2; Path=/"])),
        CurlScenario(
            name: "a cookie deleted by a later call", endpoints: "  e: { path: /set }\n  drop: { path: /drop }\n  later: { path: /me }",
            steps: [
                CurlStep(endpoint: "e", curlPath: "/set", curl: []), CurlStep(endpoint: "drop", curlPath: "/drop", curl: []),
                CurlStep(endpoint: "later", curlPath: "/me", curl: []),
            ],
            answer: { request, _ in
                switch request.path {
                case "/set": .ok("set", headers: ["Set-Cookie": "sid=1; Path=/"])
                case "/drop": .ok("dropped", headers: ["Set-Cookie": "sid=; Max-Age=0; Path=/"])
                default: .ok("me")
                }
            }),
    ]

    // MARK: Bodies

    static let binary: [UInt8] = [0, 1, 2, 0x0D, 0x0A, 0xFF, 0xFE, 0x7F, 0x80, 0x0A, 0x00, 0x1B] + Array("tail".utf8)

    static let bodies: [CurlScenario] = [
        one(
            "JSON with its spacing", #"{ method: POST, path: /j, headers: { Content-Type: application/json }, body: '{"k": "v",  "n": 1.50, "a": [ 1 ]}' }"#,
            path: "/j", curl: ["-H", "Content-Type: application/json", "--data-raw", #"{"k": "v",  "n": 1.50, "a": [ 1 ]}"#]),
        one(
            "text with CR, LF and a trailing newline", #"{ method: PUT, path: /t, headers: { Content-Type: text/plain }, body: "one\r\ntwo\n" }"#,
            path: "/t", curl: ["-X", "PUT", "-H", "Content-Type: text/plain", "--data-binary", "one\r\ntwo\n"]),
        // curl's --data-urlencode writes a space as `+` and lowercase hex; apiexplorer `%20` and
        // uppercase (RFC 3986 §2.1): curl is given the bytes apiexplorer must send.
        one(
            "a form with characters to encode", #"{ method: POST, path: /f, form: { q: "a b&c=d+e", e: "é/ü", t: "~-._*" } }"#,
            path: "/f", curl: ["-d", "q=a%20b%26c%3Dd%2Be&e=%C3%A9%2F%C3%BC&t=~-._%2A"]),
        one(
            "a form with a repeated name", "{ method: POST, path: /f, form: { tag: [a, b], x: \"1\" } }", path: "/f",
            curl: ["-d", "tag=a", "-d", "tag=b", "-d", "x=1"]),
        CurlScenario(
            name: "a binary file", endpoints: "  e: { method: POST, path: /bin, headers: { Content-Type: application/octet-stream }, bodyFile: blob.bin }",
            steps: [CurlStep(endpoint: "e", curlPath: "/bin", curl: ["-H", "Content-Type: application/octet-stream", "--data-binary", "@blob.bin"])],
            attachments: ["blob.bin": binary]),
        CurlScenario(
            name: "a multipart form with a field and a file",
            endpoints: "  e:\n    method: POST\n    path: /up\n    multipart:\n      - { name: title, value: Trip }\n      - { name: photo, file: photo.png, contentType: image/png }",
            steps: [CurlStep(endpoint: "e", curlPath: "/up", curl: ["-F", "title=Trip", "-F", "photo=@photo.png;type=image/png"])],
            attachments: ["photo.png": binary], isMultipart: true),
        one(
            "an empty body with Content-Length 0", "{ method: POST, path: /empty, headers: { Content-Type: text/plain }, body: \"\" }", path: "/empty",
            curl: ["-H", "Content-Type: text/plain", "-d", ""]),
        one(
            "PUT JSON", #"{ method: PUT, path: /items/7, headers: { Content-Type: application/json }, body: '{"name":"Lamp"}' }"#,
            path: "/items/7", curl: ["-X", "PUT", "-H", "Content-Type: application/json", "--data-raw", #"{"name":"Lamp"}"#]),
        one(
            "PATCH JSON", #"{ method: PATCH, path: /items/7, headers: { Content-Type: application/merge-patch+json }, body: '{"price": 2}' }"#,
            path: "/items/7", curl: ["-X", "PATCH", "-H", "Content-Type: application/merge-patch+json", "--data-raw", #"{"price": 2}"#]),
        one(
            "JSON through a 307 keeps its bytes",
            #"{ method: POST, path: /r/1, headers: { Content-Type: application/json }, body: '{ "signed" : true }' }"#, path: "/r/1",
            curl: ["-L", "-H", "Content-Type: application/json", "--data-raw", #"{ "signed" : true }"#], answer: chain(.temporaryRedirect)),
    ]

    // MARK: Query strings

    /// curl is given the URL as apiexplorer must write it (RFC 3986 percent-encoding, uppercase hex,
    /// `%20`): its `--data-urlencode` writes `+` and lowercase hex instead.
    static let queries: [CurlScenario] = [
        one("spaces, plus and ampersand in a value", #"{ path: /q, query: { q: "a b+c&d" } }"#, path: "/q?q=a%20b%2Bc%26d", curl: []),
        one("non-ASCII in a value", #"{ path: /q, query: { name: "é😀" } }"#, path: "/q?name=%C3%A9%F0%9F%98%80", curl: []),
        one(
            "reserved characters in a value", #"{ path: /q, query: { r: ":/?#[]@!$'()*,;=" } }"#,
            path: "/q?r=%3A%2F%3F%23%5B%5D%40%21%24%27%28%29%2A%2C%3B%3D", curl: ["-g"]),
        one("a repeated name", "{ path: /q, query: { tag: [a, b], n: \"1\" } }", path: "/q?tag=a&tag=b&n=1", curl: []),
        one("a bare name", "{ path: /q, query: { verbose: null, a: \"1\" } }", path: "/q?verbose&a=1", curl: []),
        one("a path with escapes and a tilde", "{ path: /items/a%20b/~x }", path: "/items/a%20b/~x", curl: []),
    ]

    // MARK: Methods and headers

    static let methodsAndHeaders: [CurlScenario] = [
        one("DELETE", "{ method: DELETE, path: /items/7 }", path: "/items/7", curl: ["-X", "DELETE"]),
        // AsyncHTTPClient frames an OPTIONS without a body with `Content-Length: 0`; curl sends none.
        one("OPTIONS", "{ method: OPTIONS, path: /items }", path: "/items", curl: ["-X", "OPTIONS"]).with(differences: ["content-length"]),
        one("HEAD", "{ method: HEAD, path: /items }", path: "/items", curl: ["-I"]),
        one(
            "header values with quotes, commas and spaces", #"{ path: /h, headers: { X-Note: '"quoted", a=b; c', X-Spaces: "a  b" } }"#, path: "/h",
            curl: ["-H", #"X-Note: "quoted", a=b; c"#, "-H", "X-Spaces: a  b"]),
        one("an Accept the endpoint gives", "{ path: /h, headers: { Accept: application/json } }", path: "/h", curl: ["-H", "Accept: application/json"]),
    ]

    // MARK: Round two (issue 49)

    /// A sign-in that redirects to itself, setting the cookie the next request carries.
    static func signIn(_ request: TestRequest, _ port: Int) -> TestResponse {
        guard request.path == "/login" else { return .ok("ok") }
        if request.headers["Cookie"].contains(where: { $0.contains("sid=1") }) { return .ok("signed in") }
        return .redirect(to: "/login", headers: ["Set-Cookie": "sid=1; Path=/"])
    }

    /// Everything the capture server gets back, byte for byte in both outputs.
    static func whole(_ output: String) -> String { output }
    /// The first line of `-i` output: the status line as printed.
    static func statusLine(_ output: String) -> String { String(output.prefix { $0 != "\r" && $0 != "\n" }) }

    static let roundTwo: [CurlScenario] = [
        one("a redirect to itself that sets a cookie", "{ path: /login }", path: "/login", curl: ["-L"], answer: signIn),
        one(
            "a chain through the same URL twice, the cookie changing", "{ path: /step }", path: "/step", curl: ["-L"],
            answer: { request, _ in
                let cookie = request.headers["Cookie"].first ?? ""
                if cookie.contains("n=2") { return .ok("done") }
                return .redirect(to: "/step", headers: ["Set-Cookie": cookie.contains("n=1") ? "n=2; Path=/" : "n=1; Path=/"])
            }),
        one("credentials in the base URL", "{ path: /private }", path: "/private", curl: []).changing(\.userinfo, "ann:pw"),
        one("percent-encoded credentials in the base URL", "{ path: /private }", path: "/private", curl: []).changing(\.userinfo, "ann%40corp:p%3Ass%20w"),
        one("a user without a password in the base URL", "{ path: /private }", path: "/private", curl: []).changing(\.userinfo, "ann"),
        one(
            "credentials in the URL stay on a redirect to the same host", "{ path: /r/1 }", path: "/r/1", curl: ["-L"], answer: chain(.found)
        ).changing(\.userinfo, "ann:pw"),
        // curl 7.x adds `Proxy-Connection: Keep-Alive` to what it sends a proxy, a header no RFC
        // defines (HTTP/1.1 connections persist anyway): a documented difference.
        one("plain http through http_proxy", #"{ path: /through, query: { q: "1" } }"#, path: "/through?q=1", curl: [])
            .changing(\.origin, "http://origin.example:8080").with(differences: ["proxy-connection"]),
        one("plain http through http_proxy, default port", "{ method: POST, path: /form, form: { a: \"1\" } }", path: "/form", curl: ["-d", "a=1"])
            .changing(\.origin, "http://origin.example").with(differences: ["proxy-connection"]),
        one("an international host through http_proxy", "{ path: /b }", path: "/b", curl: [])
            .changing(\.origin, "http://bücher.example:8080").with(differences: ["proxy-connection"]),
        one("an international host with capitals", "{ path: /b }", path: "/b", curl: [])
            .changing(\.origin, "http://BÜCHER.Example").with(differences: ["proxy-connection"]),
        // The CONNECT line is the same; its `Host` is AsyncHTTPClient's, without the port curl writes.
        with(
            one("https through https_proxy: CONNECT", "{ path: /secret }", path: "/secret", curl: [], answer: { _, _ in .status(.forbidden) })
                .changing(\.origin, "https://origin.example").with(differences: ["proxy-connection", "host"]), curlFails: true),
        one("OPTIONS *", "{ method: OPTIONS, path: \"*\" }", path: "", curl: ["-X", "OPTIONS", "--request-target", "*"])
            .with(differences: ["content-length"]),
        with(
            one(
                "a body coded gzip, gzip", "{ path: /twice }", path: "/twice", curl: ["--compressed"],
                answer: { _, _ in
                    TestResponse(
                        headers: ["Content-Encoding": "gzip, gzip", "Content-Type": "text/plain"],
                        behaviour: .body(TestCompression.gzip(TestCompression.gzip(Array("twice coded\n".utf8)))))
                }), output: whole),
        with(
            one(
                "a body coded deflate then gzip", "{ path: /mixed }", path: "/mixed", curl: ["--compressed"],
                answer: { _, _ in
                    TestResponse(
                        headers: ["Content-Encoding": "deflate", "Content-Encoding": "gzip", "Content-Type": "text/plain"],
                        behaviour: .body(TestCompression.gzip(TestCompression.zlib(Array("mixed coded\n".utf8)))))
                }), output: whole),
        with(
            one("a status line with its own phrase", "{ path: /fine }", path: "/fine", curl: ["-i"], answer: { _, _ in .text("x", status: .custom(code: 200, reasonPhrase: "Fine")) }),
            output: statusLine, callFlags: ["-i"]),
        with(
            one("a status line without a phrase", "{ path: /bare }", path: "/bare", curl: ["-i"], answer: { _, _ in .text("x", status: .custom(code: 200, reasonPhrase: "")) }),
            output: statusLine, callFlags: ["-i"]),
        with(
            one("an error status line with its own phrase", "{ path: /gone }", path: "/gone", curl: ["-i"], answer: { _, _ in .text("x", status: .custom(code: 404, reasonPhrase: "Nothing Here")) }),
            output: statusLine, callFlags: ["-i"]),
    ]

    /// The scenario comparing what both print (`output` picks what must be equal).
    static func with(
        _ scenario: CurlScenario, output: (@Sendable (String) -> String)? = nil, callFlags: [String] = [], curlFails: Bool = false
    ) -> CurlScenario {
        var copy = scenario
        copy.comparesOutput = output
        copy.callFlags = callFlags
        copy.curlFails = curlFails
        return copy
    }

    /// The scenario with one of its settings changed (`changing(\.origin, "http://origin.example")`).
    func changing<Value>(_ path: WritableKeyPath<CurlScenario, Value>, _ value: Value) -> CurlScenario {
        var copy = self
        copy[keyPath: path] = value
        return copy
    }

    /// The scenario with header names it differs in on purpose.
    func with(differences: Set<String>) -> CurlScenario { changing(\.differences, differences) }

    /// The scenario with extra environment keys.
    func with(environment: String) -> CurlScenario { changing(\.environment, environment) }
}
