import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Testing
import TestTraits

/// RFC 6265 §5.3 step 5 with the Public Suffix List (libpsl, as curl): a cookie for a whole
/// registry (`co.uk`, `github.io`) is refused; one for a registrable domain under it is kept.
@Suite(.offPool) struct PublicSuffixTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    func url(_ text: String) -> URL { URL(string: text)! }

    @Test func aPublicSuffixIsRefusedAsACookieDomain() {
        let jar = PublicSuffixList.jar()
        jar.store(setCookie: ["wide=1; Domain=co.uk", "mine=2; Domain=example.co.uk"], from: url("http://www.example.co.uk/"), at: now)
        jar.store(setCookie: ["pages=3; Domain=github.io"], from: url("http://someone.github.io/"), at: now)
        #expect(jar.all(at: now).map(\.name) == ["mine"])
        #expect(jar.header(for: url("http://shop.example.co.uk/"), at: now) == "mine=2")
        #expect(jar.header(for: url("http://other.co.uk/"), at: now) == nil)
        #expect(jar.header(for: url("http://another.github.io/"), at: now) == nil)
    }

    /// Sessions (what `call` and the explorer send through) keep their cookies in such a jar.
    @Test func aSessionsJarRefusesPublicSuffixes() throws {
        let service = try loadCleanService("""
            service: site
            environments:
              live: { baseURL: "http://www.example.co.uk", fixtures: never }
            endpoints:
              home: { path: / }
            """)
        let session = ServiceSession(service: service, environment: service.environments[0])
        session.cookies.store(setCookie: ["wide=1; Domain=co.uk"], from: url("http://www.example.co.uk/"), at: now)
        #expect(session.cookies.all(at: now).isEmpty)
    }

    /// Without the list (a core-only program), a single label is still refused.
    @Test func theCoresOwnJarRefusesSingleLabels() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Domain=com", "b=2; Domain=example.com"], from: url("http://www.example.com/"), at: now)
        #expect(jar.all(at: now).map(\.name) == ["b"])
    }
}
