import Foundation
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

/// Cookies across runs of `call`: kept in the state folder when the catalog says
/// `cookies: { persist: true }` (owner-only), and read and written as Netscape `cookies.txt` with
/// `-b` and `-c` as curl does.
@Suite(.offPool) struct CallCookieTests {
    static func catalog(baseURL: String, persist: Bool) -> String {
        """
        service: site
        \(persist ? "cookies: { persist: true }" : "")
        environments:
          local: { baseURL: "\(baseURL)", fixtures: never }
        endpoints:
          login: { method: POST, path: /login }
          me: { path: /me }
        """
    }

    /// A server that sets a session cookie on /login and says which cookie /me came with.
    func withSite(_ body: (TestHTTPServer, LockedValue<[String]>) async throws -> Void) async throws {
        let seen = LockedValue<[String]>([])
        try await withTestHTTPServer(handler: { request in
            if request.path == "/login" {
                return .ok("{}", headers: ["Set-Cookie": "session=s3cret; Path=/; HttpOnly", "Content-Type": "application/json"])
            }
            seen.withLock { $0.append(request.header("Cookie") ?? "") }
            return .json(#"{"me":true}"#)
        }) { server in try await body(server, seen) }
    }

    /// Signs in with `call site/login -c JAR` (cookies not persisted): the folders and the jar's path.
    func signIn(_ server: TestHTTPServer) async throws -> (catalog: TemporaryDirectory, state: TemporaryDirectory, jar: String) {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try catalog.write("site.yaml", Self.catalog(baseURL: server.baseURL.absoluteString, persist: false))
        let jar = state.url.appendingPathComponent("jar.txt").path
        let login = try await CLI.run(["call", "site/login", "-c", jar, "--catalog", catalog.path, "--no-history"], state: state)
        #expect(login.status == 0, "\(login.errors)")
        return (catalog, state, jar)
    }

    /// The usual cookie sign-in (httpbin's /cookies/set): `302` with `Set-Cookie`, then the page it
    /// points to. As `curl -L -c jar`: the redirect's cookie goes to the next hop and into `-c`.
    @Test func aCookieSetByARedirectGoesOnAndIntoTheJarFile() async throws {
        let seen = LockedValue<[String]>([])
        try await withTestHTTPServer(handler: { request in
            seen.withLock { $0.append("\(request.path) \(request.header("Cookie") ?? "-")") }
            if request.path == "/login" { return .redirect(to: "/home", headers: ["Set-Cookie": "session=s3cret; Path=/; HttpOnly"]) }
            return .json(#"{"me":true}"#)
        }) { server in
            let (catalog, state, jar) = try await signIn(server)
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts3cret"))
            _ = try await CLI.run(["call", "site/me", "-b", jar, "--catalog", catalog.path, "--no-history"], state: state)
            #expect(seen.withLock { $0 } == ["/login -", "/home session=s3cret", "/me session=s3cret"])
        }
    }

    @Test func persistedCookiesGoWithTheNextRunsRequests() async throws {
        try await withSite { server, seen in
            let catalog = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try catalog.write("site.yaml", Self.catalog(baseURL: server.baseURL.absoluteString, persist: true))
            let login = try await CLI.run(["call", "site/login", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(login.status == 0, "\(login.errors)")
            let file = state.url.appendingPathComponent("apiexplorer/cookies.json")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let me = try await CLI.run(["call", "site/me", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(me.status == 0, "\(me.errors)")
            #expect(seen.withLock { $0 } == ["session=s3cret"])
        }
    }

    @Test func withoutPersistNothingIsKeptButCookiesTxtCarriesThem() async throws {
        try await withSite { server, seen in
            let (catalog, state, jar) = try await signIn(server)
            #expect(!FileManager.default.fileExists(atPath: state.url.appendingPathComponent("apiexplorer/cookies.json").path))
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
            #expect(text.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts3cret"))
            let attributes = try FileManager.default.attributesOfItem(atPath: jar)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            _ = try await CLI.run(["call", "site/me", "--catalog", catalog.path, "--no-history"], state: state)
            _ = try await CLI.run(["call", "site/me", "-b", jar, "--catalog", catalog.path, "--no-history"], state: state)
            #expect(seen.withLock { $0 } == ["", "session=s3cret"])

            try "127.0.0.1\tTRUE\t/\n".write(toFile: jar, atomically: true, encoding: .utf8)
            let broken = try await CLI.run(["call", "site/me", "-b", jar, "--catalog", catalog.path, "--no-history"], state: state)
            #expect(broken.status == 2)
            #expect(broken.errors.contains("jar.txt:1: a cookie line has 7 tab-separated fields"))
        }
    }
}
