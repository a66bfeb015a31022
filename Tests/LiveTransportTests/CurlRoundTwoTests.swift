import DispatcherCore
import Foundation
import TestSupport
import Testing

@testable import LiveTransport
import TestTraits

/// The transport's side of curl round two (issue 49, item 5); the wire itself is compared with
/// curl in `CurlConformanceTests`.
@Suite(.offPool) struct CurlRoundTwoTests {
    @Test func urlCredentialsArePercentDecodedIntoBasic() throws {
        let credentials = try #require(URLCredentials(URL(string: "http://ann%40corp:p%3Ass%20w@host/x")!))
        #expect(credentials.user == "ann@corp")
        #expect(credentials.password == "p:ss w")
        #expect(credentials.authorization == "Basic " + Data("ann@corp:p:ss w".utf8).base64EncodedString())
        #expect(URLCredentials(URL(string: "http://ann@host/")!)?.authorization == "Basic " + Data("ann:".utf8).base64EncodedString())
        #expect(URLCredentials(URL(string: "http://host/")!) == nil)
        #expect(URLCredentials.removing(from: URL(string: "http://ann:pw@host:8080/a?b=1")!).absoluteString == "http://host:8080/a?b=1")
    }

    @Test func credentialsInTheURLAreSentAsBasicAndNeverInTheRequestLine() async throws {
        try await withServerAndTransport(handler: { request in .ok(request.uri) }) { server, transport in
            let url = URL(string: "http://ann:pw@127.0.0.1:\(server.port)/private")!
            let response = try await transport.send(request(url, in: liveEnvironment(server.baseURL)))
            #expect(response.text == "/private")
            let sent = try #require(server.lastRequest)
            #expect(sent.headers["Authorization"] == ["Basic " + Data("ann:pw".utf8).base64EncodedString()])
            #expect(sent.headers["Host"] == ["127.0.0.1:\(server.port)"])
            // An Authorization the request sets wins, as curl's -H does.
            let own = try await transport.send(request(url, in: liveEnvironment(server.baseURL), headers: ["Authorization": "Bearer t0ken"]))
            #expect(own.status == 200)
            #expect(server.lastRequest?.headers["Authorization"] == ["Bearer t0ken"])
        }
    }

    @Test func internationalHostsGetTheirASCIIForm() throws {
        #expect(InternationalHost.ascii("bücher.example") == "xn--bcher-kva.example")
        #expect(InternationalHost.ascii("BÜCHER.Example") == "xn--bcher-kva.example")
        // ß: non-transitional processing keeps it (IDNA2008), as curl with libidn2 does.
        #expect(InternationalHost.ascii("faß.de") == "xn--fa-hia.de")
        let url = try InternationalHost.ascii(URL(string: "http://bücher.example:8080/a?b=ü")!)
        #expect(url.host == "xn--bcher-kva.example")
        #expect(url.port == 8080)
        #expect(try InternationalHost.ascii(URL(string: "http://plain.example/")!).absoluteString == "http://plain.example/")
    }

    @Test func aStatusLineKeepsItsPhrase() {
        #expect(StatusLineRecorder.phrase(of: Array("HTTP/1.1 200 Fine\r".utf8)) == "Fine")
        #expect(StatusLineRecorder.phrase(of: Array("HTTP/1.1 404 Not Here At All\r".utf8)) == "Not Here At All")
        #expect(StatusLineRecorder.phrase(of: Array("HTTP/1.1 200 \r".utf8)) == "")
        #expect(StatusLineRecorder.phrase(of: Array("HTTP/1.1 200\r".utf8)) == "")
        #expect(StatusLineRecorder.phrase(of: Array("garbage".utf8)) == nil)
    }

    @Test func responsesCarryTheirPhraseAsReceived() async throws {
        try await withServerAndTransport(handler: { request in
            switch request.path {
            case "/fine": .text("x", status: .custom(code: 200, reasonPhrase: "Fine"))
            case "/bare": .text("x", status: .custom(code: 200, reasonPhrase: ""))
            default: .text("x")
            }
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            func line(_ path: String) async throws -> String { try await transport.send(request(server.url(path), in: environment)).receivedStatusLine }
            // Again on the same connection: each response its own line.
            var lines: [String] = []
            for path in ["/fine", "/bare", "/ok", "/fine"] { lines.append(try await line(path)) }
            #expect(lines == ["200 Fine", "200 ", "200 OK", "200 Fine"])
        }
    }
}
