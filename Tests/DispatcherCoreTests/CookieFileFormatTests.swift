import DispatcherCore
import Foundation
import Testing
import TestTraits

/// Netscape `cookies.txt`, as curl writes (`-c`) and reads (`-b`) it.
@Suite(.offPool) struct CookieFileFormatTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func cookiesRoundTripWithTheirFlags() throws {
        let cookies = [
            Cookie(name: "session", value: "abc", domain: "api.example.com", isHostOnly: true, path: "/", isSecure: false, isHTTPOnly: true, created: now),
            Cookie(
                name: "pref", value: "dark", domain: "example.com", isHostOnly: false, path: "/app", isSecure: true,
                expires: Date(timeIntervalSince1970: 1_900_000_000), created: now),
        ]
        let text = CookieJar.netscapeText(cookies)
        #expect(text.contains("#HttpOnly_api.example.com\tFALSE\t/\tFALSE\t0\tsession\tabc\n"))
        #expect(text.contains(".example.com\tTRUE\t/app\tTRUE\t1900000000\tpref\tdark\n"))
        #expect(try CookieJar.cookies(netscape: text, at: now) == cookies)
    }

    @Test func curlsFileIsReadExpiredCookiesDroppedAndMistakesPlaced() throws {
        let curl = """
            # Netscape HTTP Cookie File
            # https://curl.se/docs/http-cookies.html

            .example.com\tTRUE\t/\tFALSE\t1999999999\ta\t1\r
            example.com\tFALSE\t/\tFALSE\t1000\told\tgone
            """
        let cookies = try CookieJar.cookies(netscape: curl, at: now)
        #expect(cookies.map(\.name) == ["a"])
        #expect(cookies[0].value == "1" && !cookies[0].isHostOnly && cookies[0].domain == "example.com")
        #expect(throws: CookieJar.FileError(line: 2, message: "the expiry 'soon' is not a number of seconds since 1970")) {
            try CookieJar.cookies(netscape: "# c\nexample.com\tFALSE\t/\tFALSE\tsoon\tn\tv", at: now)
        }
        #expect(throws: CookieJar.FileError(line: 1, message: "the subdomain and secure fields are TRUE or FALSE")) {
            try CookieJar.cookies(netscape: "example.com\tyes\t/\tFALSE\t0\tn\tv", at: now)
        }
    }

    @Test func aJarTellsItsObserverOfEveryChange() {
        let jar = CookieJar()
        let seen = LockedCount()
        jar.observe { seen.record($0.count) }
        jar.store(setCookie: ["a=1"], from: URL(string: "http://h.example/x")!, at: now)
        jar.add([Cookie(name: "b", value: "2", domain: "h.example", created: now)])
        jar.remove(named: "a")
        #expect(seen.values == [1, 2, 1])
        #expect(jar.header(for: URL(string: "http://h.example/")!, at: now) == "b=2")
    }
}

private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int] = []
    func record(_ value: Int) { lock.withLock { recorded.append(value) } }
    var values: [Int] { lock.withLock { recorded } }
}
