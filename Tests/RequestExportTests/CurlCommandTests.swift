import DispatcherCore
import Foundation
import RequestExport
import Testing
import TestTraits

/// A request as the curl command that sends it: the method only where curl would not choose it,
/// every argument quoted for the shell, secrets masked unless asked for in clear.
@Suite(.offPool) struct CurlCommandTests {
    static func request(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: String? = nil) -> Request {
        Request(
            identifier: "shop/item", method: method, url: URL(string: url)!, headers: Headers(headers, origin: .endpoint),
            body: body.map { Data($0.utf8) }, settings: TransportSettings(environment: Environment(name: "local", baseURL: URL(string: url)!)))
    }

    @Test func theMethodIsSaidOnlyWhereCurlWouldNotChooseIt() {
        // One argument a line, continued with a backslash; quotes only where the shell needs them.
        #expect(Self.request(.get, "https://shop.test/items").curlCommand() == "curl \\\n  https://shop.test/items")
        #expect(Self.request(.head, "https://shop.test/items").curlCommand() == "curl \\\n  --head \\\n  https://shop.test/items")
        #expect(Self.request(.delete, "https://shop.test/items/1").curlCommand() == "curl \\\n  -X DELETE \\\n  https://shop.test/items/1")
    }

    @Test func argumentsAreQuotedForTheShell() {
        let request = Self.request(.post, "https://shop.test/items?q=it's", headers: [("Content-Type", "application/json")], body: #"{"name":"Kid's lamp"}"#)
        #expect(request.curlCommand(redactor: nil) == """
            curl \\
              -X POST \\
              'https://shop.test/items?q=it'\\''s' \\
              -H 'Content-Type: application/json' \\
              --data-raw '{"name":"Kid'\\''s lamp"}'
            """)
    }

    @Test func secretsAreMaskedUnlessAskedForInClear() {
        let request = Self.request(.get, "https://shop.test/me?api_key=k-123", headers: [("Authorization", "Bearer tok-secret-123")])
        let masked = request.curlCommand()
        #expect(!masked.contains("tok-secret-123") && !masked.contains("k-123"))
        #expect(masked.contains("Authorization: Bearer "))
        let clear = request.curlCommand(redactor: nil)
        #expect(clear.contains("Authorization: Bearer tok-secret-123") && clear.contains("api_key=k-123"))
    }
}
