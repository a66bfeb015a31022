import DispatcherCore
import Foundation
import Testing
import TestSupport
import TestTraits

@Suite(.offPool) struct RedactionTests {
    @Test func theLoggerRedactsSecretsByDefault() async {
        let log = EventLog()
        let logger = NetworkLoggerPlugin(options: .verbose) { entry in entry.lines.forEach(log.append) }
        let target = Target(
            .post, "/login", query: [QueryItem(name: "api_key", value: "k-9876"), QueryItem(name: "page", value: "2")],
            headers: ["Cookie": "sid=abc123; theme=dark", "X-API-Key": "key-55", "Accept": "application/json"],
            body: .json(["user": "ann", "password": "hunter22", "nested": ["refresh_token": "rt-1"]]),
            sampleResponse: .response(
                status: 200, headers: Headers([("Set-Cookie", "sid=xyz789; Path=/; HttpOnly")], origin: .server),
                body: Data(#"{"access_token":"at-42","user":"ann"}"#.utf8)))
        // A clock that stands still: the logged time is the clock's, not a busy machine's 13 ms.
        let dispatcher = Dispatcher<Target>(
            environment: environment(), plugins: [BearerAuthPlugin(store: CredentialStore(token: "sekrit-token")), logger],
            clock: DispatchClock(ManualClock()))
        _ = await dispatcher.send(target)

        let text = log.all.joined(separator: "\n")
        for secret in ["k-9876", "abc123", "key-55", "hunter22", "rt-1", "sekrit-token", "xyz789", "at-42"] {
            #expect(!text.contains(secret), "leaked \(secret)")
        }
        #expect(text.contains("→ POST https://api.example.test/v1/login?api_key=••••&page=2"))
        #expect(text.contains("Authorization: Bearer ••••"))
        #expect(text.contains("Cookie: sid=••••; theme=••••"))
        #expect(text.contains("Set-Cookie: sid=••••; Path=/; HttpOnly"))
        #expect(text.contains(#""user":"ann""#))
        #expect(text.contains("← 200 OK in 0 ms"))
    }

    @Test func revealingLogsInClearOnlyWhenAsked() async {
        let log = EventLog()
        let logger = NetworkLoggerPlugin(redactor: nil) { entry in entry.lines.forEach(log.append) }
        let dispatcher = Dispatcher<Target>(environment: environment(), plugins: [BearerAuthPlugin(store: CredentialStore(token: "visible")), logger])
        _ = await dispatcher.send(Target(.get, "/me", sampleResponse: sample(200, "{}")))
        #expect(log.all.contains("  Authorization: Bearer visible"))
    }

    @Test func knownSecretValuesAreMaskedAnywhere() {
        let redactor = Redactor.standard.adding(secretValues: ["p4ssw0rd-value", "ab"])
        #expect(redactor.text("user=ann&x=p4ssw0rd-value!") == "user=ann&x=••••!")
        #expect(redactor.text("ab stays, too short to be a secret") == "ab stays, too short to be a secret")
        #expect(redactor.url("https://ann:pw@host/path?q=p4ssw0rd-value&token=t") == "https://ann:••••@host/path?q=••••&token=••••")
        #expect(redactor.header(name: "X-Custom", value: "p4ssw0rd-value") == "••••")
    }

    @Test func namesDecideWhatIsSecret() {
        let redactor = Redactor.standard
        for name in ["Authorization", "proxy-authorization", "X-Api-Key", "X-Session-Id", "client_secret", "refreshToken", "Cookie"] {
            #expect(redactor.isSensitive(name: name), "\(name)")
        }
        for name in ["Accept", "author", "page", "Content-Type", "keyboard"] {
            #expect(!redactor.isSensitive(name: name), "\(name)")
        }
        #expect(redactor.isSensitiveQuery("key"))
        #expect(redactor.isSensitiveQuery("sig"))
        #expect(redactor.header(name: "Authorization", value: "token-without-scheme") == "••••")
        #expect(redactor.body(Data("user=ann&password=x%20y".utf8), contentType: "application/x-www-form-urlencoded") == "user=ann&password=••••")
        // Nothing to mask: shown byte for byte, not re-encoded (curl -d sends JSON with this type too).
        #expect(redactor.body(Data(#"{"a":1}&b=c d"#.utf8), contentType: "application/x-www-form-urlencoded") == #"{"a":1}&b=c d"#)
        #expect(redactor.body(Data([0xFF, 0xFE, 0x00]), contentType: "application/octet-stream") == "(3 bytes of binary data)")
    }

    @Test func byteCountsReadWell() {
        #expect(ByteCount.format(999) == "999 B")
        #expect(ByteCount.format(1234) == "1.2 kB")
        #expect(ByteCount.format(56_789_000) == "57 MB")
    }

    /// A secret is masked in every form a request or a document carries it in.
    @Test func aSecretIsMaskedInEveryEncoding() {
        let secret = "s3cr et/päss?#1\"q"
        let redactor = Redactor.standard.adding(secretValues: [secret])
        let forms = [
            secret, "s3cr%20et/p%C3%A4ss%3F%231%22q", "s3cr%20et/p%c3%a4ss%3f%231%22q", "s3cr%20et%2Fp%C3%A4ss%3F%231%22q", "s3cr+et%2Fp%C3%A4ss%3F%231%22q",
            #"s3cr et/päss?#1\"q"#, Data(secret.utf8).base64EncodedString(),
        ]
        for form in forms {
            #expect(redactor.text("before \(form) after") == "before •••• after", "\(form)")
        }
        // The registry masks the same forms.
        let registered = Redactor.standard.knowing(SecretRegistry([secret]))
        #expect(registered.text("/files/s3cr%20et/p%C3%A4ss%3F%231%22q") == "/files/••••")
    }

    /// A cookie is a cookie whatever it is called: `secure=…`, `Path=…` are masked in `Cookie`,
    /// and in `Set-Cookie` the first pair is the cookie, the rest its attributes.
    @Test func cookiesNamedLikeAttributesAreMasked() {
        let redactor = Redactor.standard
        #expect(redactor.header(name: "Cookie", value: "secure=abc1; Path=def2; Domain=ghi3") == "secure=••••; Path=••••; Domain=••••")
        #expect(redactor.header(name: "Set-Cookie", value: "secure=abc1; Path=/; Secure; HttpOnly") == "secure=••••; Path=/; Secure; HttpOnly")
        #expect(redactor.header(name: "set-cookie", value: "expires=abc1; Expires=Wed, 21 Oct 2026 07:28:00 GMT") == "expires=••••; Expires=Wed, 21 Oct 2026 07:28:00 GMT")
    }

    @Test func aSizeOverALimitNeverReadsAsTheLimit() {
        let shown = ByteCount.format(16 << 20 + 1, over: 16 << 20)
        #expect(shown.size == "16,777,217 bytes" && shown.limit == "16,777,216 bytes")
        #expect(ByteCount.format(20_000_000, over: 16 << 20) == (size: "20 MB", limit: "17 MB"))
        #expect(ByteCount.exact(1) == "1 byte")
    }
}
