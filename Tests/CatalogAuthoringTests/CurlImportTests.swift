import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import CatalogAuthoring
import RequestExport
import Sessions
import JSONSupport
import TestSupport
import Testing
import TestTraits

/// curl command lines: reading them, importing them as endpoints, and the round trip back.
@Suite(.offPool) struct CurlImportTests {
    @Test func readsShellQuotingAndOptions() throws {
        let request = try CurlCommandParser.parse(#"""
            curl -sSL -XPUT 'https://api.example.com/items/7?x=1' \
              -H "Accept: application/json" -H'X-Quote: it'\''s' \
              -H $'X-Escaped: a\tb' --compressed -A "agent/1" -e https://ref.example.com \
              --data-raw '{"name": "Lamp"}' -H 'Content-Type: application/json'
            """#)
        #expect(request.method == .put)
        #expect(request.url.absoluteString == "https://api.example.com/items/7?x=1")
        #expect(request.headers.map(\.name) == ["Accept", "X-Quote", "X-Escaped", "User-Agent", "Referer", "Content-Type"])
        #expect(request.header("x-quote") == "it's")
        #expect(request.header("X-Escaped") == "a\tb")
        #expect(request.body == #"{"name": "Lamp"}"#)
        #expect(request.ignoredOptions == ["-s", "-S", "-L", "--compressed"])
    }

    @Test func methodDefaultsAndDataForms() throws {
        #expect(try CurlCommandParser.parse("curl example.com").method == .get)
        #expect(try CurlCommandParser.parse("curl example.com").url.absoluteString == "http://example.com")
        let form = try CurlCommandParser.parse("curl https://x.io/login -d user=ann -d 'pass=a b'")
        #expect(form.method == .post)
        #expect(form.body == "user=ann&pass=a b")
        #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
        let get = try CurlCommandParser.parse("curl -G https://x.io/search --data-urlencode 'q=a b' -d page=2")
        #expect(get.method == .get && get.body == nil)
        #expect(get.url.absoluteString == "https://x.io/search?q=a%20b&page=2")
        #expect(try CurlCommandParser.parse("curl -I https://x.io").method == .head)
        let json = try CurlCommandParser.parse(#"curl --json '{"a":1}' https://x.io"#)
        #expect(json.method == .post && json.header("Content-Type") == "application/json" && json.header("Accept") == "application/json")
        let basic = try CurlCommandParser.parse("curl -u ann:secret https://x.io -k")
        #expect(basic.header("Authorization") == "Basic YW5uOnNlY3JldA==")
        #expect(basic.insecure)
    }

    @Test func getDataWithASpaceOrALonePercentIsEncodedNotATrap() throws {
        // Found by FuzzCurl: setting a query with a space trapped in URLComponents.
        let request = try CurlCommandParser.parse("curl -G -d 'x=a b' -d 'p=50%' -d 'q=%41' https://h.example/p")
        #expect(request.url.absoluteString == "https://h.example/p?x=a%20b&p=50%25&q=%41")
    }

    @Test func multipartFormsBecomeMultipartBodies() throws {
        let request = try CurlCommandParser.parse(
            "curl https://x.io/up -F title=Trip -F 'photo=@pics/beach.png;type=image/png;filename=\"sea.png\"' --form-string 'raw=@not-a-file' -F 'note=<notes.txt' -H 'Content-Type: multipart/form-data; boundary=theirs'")
        #expect(request.method == .post)
        #expect(request.body == nil)
        #expect(request.form == [
            CurlFormField(name: "title", value: "Trip"),
            CurlFormField(name: "photo", file: "pics/beach.png", filename: "sea.png", contentType: "image/png"),
            CurlFormField(name: "raw", value: "@not-a-file"),
            CurlFormField(name: "note", file: "notes.txt"),
        ])
        // Their boundary cannot be ours: the header goes.
        #expect(request.header("Content-Type") == nil)
        let draft = try CurlImporter.catalog(for: request, service: "x", id: "upload")
        #expect(draft.yaml.contains("""
                multipart:
                  - { name: title, value: Trip }
                  - { name: photo, file: pics/beach.png, filename: sea.png, contentType: image/png }
                  - { name: raw, value: "@not-a-file" }
                  - { name: note, file: notes.txt }
            """), "\(draft.yaml)")
    }

    @Test func rejectsWhatItCannotRepresent() {
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("wget https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl 'https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl -F novalue https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl -F a=b -d c=d https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl -d @body.json https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl --frobnicate https://x.io") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl ftp://x.io/file") }
        #expect(throws: AuthoringError.self) { try CurlCommandParser.parse("curl -X BREW https://x.io") }
    }

    @Test func importKeepsSecretsOutOfTheCatalog() throws {
        let request = try CurlCommandParser.parse(
            #"curl 'https://api.shop.io/v1/users/42/orders?limit=5&api_key=KEY12345' -H 'Authorization: Bearer tok.en.value' -H 'Cookie: sid=s3cr3t' --json '{"note":"hi","password":"pw-1234"}'"#)
        let draft = try CurlImporter.catalog(for: request)
        let yaml = draft.yaml
        for secret in ["KEY12345", "tok.en.value", "s3cr3t", "pw-1234"] { #expect(!yaml.contains(secret), "\(secret)") }
        #expect(draft.service == "shop")
        let endpoint = try #require(draft.endpoints.first)
        #expect(endpoint.id == "postOrders")
        #expect(endpoint.path == "/v1/users/{{userId}}/orders")
        #expect(endpoint.parameters.map { "\($0.0)=\($0.1)" } == ["userId=42"])
        #expect(yaml.contains("Authorization: \"Bearer {{secret.SHOP_TOKEN}}\""))
        #expect(yaml.contains("api_key: \"{{secret.SHOP_API_KEY}}\""))
        #expect(draft.notes.count == 4)
    }

    /// Answers 200 to anything: the round trip needs the request as sent, not a server.
    struct Accepting: Transport {
        func send(_ request: Request) async throws(TransportError) -> Response { Response(status: 200, url: request.url) }
    }

    /// Imports `command` into a catalog folder, sends it (live, to a transport that answers 200:
    /// the request as the network gets it) with the secrets the command held, and reads back
    /// the exported curl command.
    func roundTrip(_ command: String) async throws -> (original: CurlRequest, exported: CurlRequest, text: String) {
        let original = try CurlCommandParser.parse(command)
        let (endpoint, secrets) = try CurlImporter.endpoint(for: original, service: "shop")
        var draft = try CurlImporter.catalog(for: original, service: "shop")
        draft.endpoints = [endpoint]
        let folder = try TemporaryDirectory()
        try draft.write(into: folder.url, force: false)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let selection = try EndpointSelection.resolve("shop/\(endpoint.id)", environment: nil, in: catalog)
        let store = SecretStore(processEnvironment: Dictionary(uniqueKeysWithValues: secrets.map { (SecretStore.environmentPrefix + $0.name, $0.value) }))
        let outcome = await EndpointCaller(catalog: catalog, secrets: store, transport: Accepting()).call(selection, mode: .live)
        #expect(outcome.exchange.error == nil)
        let text = outcome.exchange.request.curlCommand(redactor: nil)
        return (original, try CurlCommandParser.parse(text), outcome.exchange.request.curlCommand(redactor: outcome.redactor))
    }

    /// `-u 'user:pa:ss'` and a URL's userinfo become the Basic secret, whose note says which
    /// form it takes (the encoded pair), never written into the catalog (issue 49, item 5).
    @Test func basicCredentialsBecomeASecretWhoseFormTheNoteSays() throws {
        let dashU = try CurlCommandParser.parse("curl -u 'user:pa:ss' https://api.example.com/me")
        let draft = try CurlImporter.catalog(for: dashU)
        #expect(draft.endpoints.first?.headers.first { $0.0 == "Authorization" }?.1 == "Basic {{secret.EXAMPLE_BASIC}}")
        let note = try #require(draft.notes.map(\.description).first { $0.contains("EXAMPLE_BASIC") })
        #expect(note.contains("it is the base64 of USER:PASSWORD as Authorization: Basic carries it"), "\(note)")

        let inURL = try CurlCommandParser.parse("curl https://ann%40corp:p%3Ass@api.example.com/me")
        #expect(inURL.url.absoluteString == "https://api.example.com/me")
        #expect(inURL.header("Authorization") == "Basic " + Data("ann@corp:p:ss".utf8).base64EncodedString())
        let (_, secrets) = try CurlImporter.endpoint(for: inURL, service: "example")
        #expect(secrets.map(\.value) == [Data("ann@corp:p:ss".utf8).base64EncodedString()])
        let notes = try CurlImporter.catalog(for: inURL).notes.map(\.description)
        #expect(notes.contains { $0.contains("the URL held a user and password") }, "\(notes)")
        #expect(!(try CurlImporter.catalog(for: inURL)).yaml.contains("p%3Ass"))
        // curl: -u wins over the URL's userinfo.
        let both = try CurlCommandParser.parse("curl -u bob:x https://ann:pw@api.example.com/me")
        #expect(both.header("Authorization") == "Basic " + Data("bob:x".utf8).base64EncodedString())
        // A scratch request typed with credentials sends them the same way.
        let scratch = try ScratchRequest.parse("GET http://ann:pw@127.0.0.1:9/x")
        #expect(scratch.url.absoluteString == "http://127.0.0.1:9/x")
        #expect(scratch.header("Authorization") == "Basic " + Data("ann:pw".utf8).base64EncodedString())
    }

    @Test func importThenExportGivesAnEquivalentCommand() async throws {
        let json = try await roundTrip(
            #"curl -X PUT 'https://api.shop.io/v1/items/7?verbose&limit=5&api_key=KEY12345' -H 'Accept: application/json' -H 'Authorization: Bearer tok.en.value' -H 'Content-Type: application/json' -d '{"name": "Lamp", "tags": ["a"], "price": 1.50}'"#)
        #expect(json.exported.method == json.original.method)
        #expect(json.exported.url == json.original.url)
        #expect(json.exported.headers.map { "\($0.name): \($0.value)" } == json.original.headers.map { "\($0.name): \($0.value)" })
        // Byte for byte: the spacing and the number's spelling (1.50) survive the import.
        #expect(json.exported.body == json.original.body)
        #expect(!json.text.contains("tok.en.value") && !json.text.contains("KEY12345"))

        let form = try await roundTrip("curl https://shop.io/login -d user=ann -d password=hunter22")
        #expect(form.exported.method == .post)
        #expect(form.exported.url == form.original.url)
        #expect(form.exported.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(FormEncoding.decode(form.exported.body ?? "") == FormEncoding.decode(form.original.body ?? ""))

        let plain = try await roundTrip("curl -X DELETE https://shop.io/items/9 -H 'X-Trace: abc'")
        #expect(plain.exported == plain.original)
    }
}
