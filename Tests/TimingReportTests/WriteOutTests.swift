import DispatcherCore
import Testing
import TestTraits
import TimingReport

/// `--write-out` as curl writes it: names, formats, escapes and curl's sums over redirects.
@Suite(.offPool) struct WriteOutTests {
    /// A redirect on a new TLS connection, then the answer on a reused one.
    static let transfer = TransferTiming(hops: [
        HopTiming(
            url: "https://api.example/old", status: 302, started: .zero, nameLookup: .microseconds(1_000), connect: .microseconds(3_000),
            tlsHandshake: .microseconds(10_000), requestStart: .microseconds(10_100), requestSent: .microseconds(10_200),
            firstByte: .microseconds(50_000), lastByte: .microseconds(50_500),
            connection: ConnectionFacts(reused: false, remoteAddress: "10.0.0.1", remotePort: 443, tlsVersion: "TLSv1.3", httpVersion: "HTTP/1.1")),
        HopTiming(
            url: "https://api.example/new", status: 200, started: .microseconds(51_000), nameLookup: .zero, requestStart: .microseconds(100),
            requestSent: .microseconds(150), firstByte: .microseconds(20_000), lastByte: .microseconds(49_000),
            connection: ConnectionFacts(reused: true, remoteAddress: "10.0.0.1", remotePort: 443, tlsVersion: "TLSv1.3", httpVersion: "HTTP/1.1"),
            bytesReceived: 1000),
    ])

    static let facts = WriteOut.Facts(
        status: 200, transfer: transfer, urlEffective: "https://api.example/new", url: "https://api.example/old", method: "GET",
        headers: [("Content-Type", "application/json"), ("X-Id", "a"), ("x-id", "b")], sizeDownload: 1000, numRedirects: 1,
        httpVersion: "HTTP/1.1")

    func render(_ format: String, _ facts: WriteOut.Facts = Self.facts) -> String {
        WriteOut(facts).render(format).pieces.map(\.text).joined()
    }

    @Test func timesAreSecondsWithSixDecimalsAddedUpOverTheHopsAsLibcurlDoes() {
        // The second hop's connect and handshake are its start (reused): curl counts them as 0 there.
        #expect(render("%{time_namelookup} %{time_connect} %{time_appconnect}") == "0.001000 0.003000 0.010000")
        #expect(render("%{time_pretransfer} %{time_starttransfer}") == "0.010200 0.070000")
        #expect(render("%{time_redirect} %{time_total}") == "0.051000 0.100000")
    }

    @Test func countsSizesAndTheConnection() {
        #expect(render("%{http_code} %{num_redirects} %{num_connects} %{size_download} %{speed_download}") == "200 1 1 1000 10000")
        #expect(render("%{remote_ip}:%{remote_port} %{url_effective} %{url} %{scheme} %{http_version}")
            == "10.0.0.1:443 https://api.example/new https://api.example/old HTTPS 1.1")
        #expect(render("%{content_type}|%header{x-id}|%{method}") == "application/json|a, b|GET")
    }

    @Test func escapesPercentAndUnknownVariables() {
        #expect(render("a\\tb\\nc\\\\d %% 100%") == "a\tb\nc\\\\d % 100%")
        let (pieces, warnings) = WriteOut(Self.facts).render("[%{nonsense}]")
        #expect(pieces.map(\.text).joined() == "[]")
        #expect(warnings == ["unknown --write-out variable: 'nonsense'"])
    }

    @Test func noResponseIsCodeZeroOnThreeDigitsAndZeroTimes() {
        let facts = WriteOut.Facts(status: nil, transfer: nil, urlEffective: "http://x/", method: "GET", exitCode: 1, errorMessage: "refused")
        #expect(render("%{http_code} %{time_total} %{remote_ip}| %{exitcode} %{errormsg}", facts) == "000 0.000000 | 1 refused")
    }

    @Test func standardErrorAndOutputSwitch() {
        let pieces = WriteOut(Self.facts).render("a%{stderr}b%{stdout}c").pieces
        #expect(pieces.map(\.text) == ["a", "b", "c"])
        #expect(pieces.map(\.toStandardError) == [false, true, false])
    }

    @Test func jsonHoldsEveryVariableInCurlsOrder() throws {
        let json = render("%{json}")
        #expect(json.hasPrefix("{\"content_type\":\"application/json\","))
        #expect(json.contains("\"http_code\":200,"))
        #expect(json.contains("\"time_total\":0.100000,"))
        #expect(json.contains("\"errormsg\":null,"))
        for name in WriteOut.variables where !["json", "stderr", "stdout"].contains(name) {
            #expect(json.contains("\"\(name)\":"), "\(name) missing")
        }
    }
}
