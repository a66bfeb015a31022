import CatalogTestSupport
import DispatcherCore
import Foundation
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// Every kind of diagnostic, with its exact line and column.
@Suite(.offPool) struct DiagnosticTests {
    /// Loads `text` as `cat/test.yaml` and returns its diagnostics as `line:column: severity: message`.
    func diagnose(_ text: String, files: [String: String] = [:]) throws -> [String] {
        let (catalog, _) = try loadCatalog(text, files: files)
        #expect(catalog.diagnostics.allSatisfy { $0.file == "cat/test.yaml" })
        return positions(catalog.diagnostics)
    }

    @Test func descriptionIsTheCompilerForm() {
        let diagnostic = Diagnostic(file: "environments/petstore.yaml", line: 12, column: 5, severity: .error, message: "unknown key 'heders'")
        #expect(diagnostic.description == "environments/petstore.yaml:12:5: error: unknown key 'heders'")
    }

    @Test func yamlSyntaxError() throws {
        let found = try diagnose("""
            service: shop
            environments:
              local:
                baseURL: "http://127.0.0.1:1
            """)
        #expect(found == ["4:33: error: YAML syntax: found unexpected end of stream (while scanning a quoted scalar at line 4, column 14)"])
    }

    @Test func yamlIndentationError() throws {
        let found = try diagnose("""
            service: shop
            environments:
              local:
                baseURL: http://127.0.0.1:1
               headers: {}
            """)
        #expect(found == ["5:4: error: YAML syntax: did not find expected key (while parsing a block mapping at line 3, column 3)"])
    }

    @Test func unknownKeyWithDidYouMean() throws {
        let found = try diagnose("""
            environments:
              local:
                baseURL: http://127.0.0.1:1
                heders: { A: b }
            endpoints:
              one:
                path: /one
                mehtod: POST
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "4:5: error: unknown key 'heders' in environment 'local'; did you mean 'headers'?",
            "8:5: error: unknown key 'mehtod' in endpoint 'one'; did you mean 'method'?",
        ])
    }

    @Test func didYouMeanFindsTheClosestWordWithinASmallDistance() {
        let names = ["notConnectedToInternet", "timedOut", "cannotFindHost", "Cancelled"]
        #expect(DidYouMean.suggestion(for: "notConectedToInternet", among: names) == "notConnectedToInternet")
        #expect(DidYouMean.suggestion(for: "timeOut", among: names) == "timedOut")
        #expect(DidYouMean.suggestion(for: "TIMEDOUT", among: names) == "timedOut")
        #expect(DidYouMean.suggestion(for: "cancelled", among: names) == "Cancelled")
        // Transposed letters count once; too far, or too different in length, is no suggestion.
        #expect(DidYouMean.suggestion(for: "timdeOut", among: names) == "timedOut")
        #expect(DidYouMean.suggestion(for: "applicationError", among: names) == nil)
        #expect(DidYouMean.suggestion(for: "t", among: names) == nil)
        #expect(DidYouMean.suggestion(for: "", among: names) == nil)
        // Counted in Unicode scalars: one accented letter is one edit.
        #expect(DidYouMean.suggestion(for: "tïmedOut", among: names) == "timedOut")
        #expect(DidYouMean.editDistance("café", "cafe") == 1)
        #expect(DidYouMean.suggestion(for: "cafe", among: ["CAFÉ", "tea"]) == "CAFÉ", "an ASCII word, a candidate that is not")
        #expect(DidYouMean.hint(for: "timeOut", among: names) == "; did you mean 'timedOut'?")
    }

    @Test func boundedEditDistanceIsExactWithinItsLimit() {
        // Words over a small alphabet, so that near and far pairs, transpositions and repeats all occur.
        var generator = SeededGenerator(state: 0xD15)
        let letters = Array("abcab".utf8)
        func word() -> [UInt8] { (0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! } }
        for _ in 0..<3_000 {
            let a = word(), b = word()
            let full = DidYouMean.editDistance(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
            for limit in 0...4 {
                let bounded = DidYouMean.editDistance(a, b, limit: limit)
                if full <= limit {
                    #expect(bounded == full, "\(a) \(b) limit \(limit)")
                } else {
                    #expect(bounded > limit, "\(a) \(b) limit \(limit)")
                }
            }
        }
    }

    @Test func unknownKeyWithoutCloseMatchListsTheKnownKeys() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              one: { path: /one, stub: { zzz: 1 } }
            """)
        #expect(found == [
            "4:30: error: unknown key 'zzz' in the stub of endpoint 'one' (known keys: description, status, headers, body, bodyFile, networkError, message, delay, streamInterval, repeats, echo)",
        ])
    }

    @Test func misplacedKeySaysWhereItBelongs() throws {
        let found = try diagnose("""
            environments:
              production:
                baseURL: https://example.com
                pins: [sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=]
            endpoints: {}
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "4:5: error: 'pins' is not a key of environment 'production'; it belongs under 'tls'",
        ])
    }

    @Test func unknownRootKeyDropsTheService() throws {
        let (catalog, _) = try loadCatalog("""
            service: shop
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpionts:
              one: { path: /one }
            """)
        #expect(catalog.services.isEmpty)
        #expect(positions(catalog.diagnostics) == [
            "1:10: error: service 'shop' was not loaded because of the errors above",
            "4:1: error: unknown key 'endpionts' in a catalog file; did you mean 'endpoints'?",
        ])
    }

    @Test func wrongTypes() throws {
        let found = try diagnose("""
            environments:
              local:
                baseURL: http://127.0.0.1:1
                headers: [Accept, json]
                timeouts: { connect: soon }
                retry: { limit: many }
            endpoints:
              one:
                path: /one
                expectsBody: yes
                stub: { status: "two hundred" }
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "4:14: error: the headers of environment 'local' must be a mapping of names to values, not a list",
            "5:26: error: 'connect' in the timeouts of environment 'local' must be a duration in seconds (5, 0.25) or with a unit (250ms, 2s, 1m), not the text \"soon\"",
            "6:21: error: 'limit' in the retry policy of environment 'local' must be a whole number, not the text \"many\"",
            "10:18: error: 'expectsBody' of endpoint 'one' must be true or false, not the text \"yes\" (write true or false)",
            "11:21: error: the status of the stub of endpoint 'one' must be a whole number, not the text \"two hundred\"",
        ])
    }

    @Test func badURLs() throws {
        let found = try diagnose("""
            environments:
              a: { baseURL: "not a url" }
              b: { baseURL: "ftp://example.com" }
              c: { baseURL: "https://{{tenant}}.example.com" }
              d: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              one: { path: "https://example.com/one" }
              two: { path: "/two?x=1" }
              three: { path: /three }
            """)
        #expect(found == [
            "2:17: error: the baseURL of environment 'a' is not a valid URL: 'not a url' (write it like https://api.example.com/v1)",
            "3:17: error: the baseURL of environment 'b' must start with http:// or https://, not ftp://",
            "4:17: error: the baseURL of environment 'c' cannot hold placeholders: give each deployment its own environment",
            "7:16: error: the path of endpoint 'one' must be a path (/pet/{{petId}}), not a full URL: the base URL comes from the environment",
            "8:16: error: the path of endpoint 'two' holds a query ('?'): put query items under 'query'",
        ])
    }

    @Test func missingFixtureFiles() throws {
        let found = try diagnose("""
            environments:
              local:
                baseURL: http://127.0.0.1:1
                tls: { ca: certs/missing.pem }
            endpoints:
              one:
                path: /one
                stub: { bodyFile: fixtures/missing.json }
              two:
                path: /two
                examples:
                  big: { bodyFile: fixtures/there.json }
                  gone: { bodyFile: "fixtures/gone.json" }
                  typo: { bodyFile: fixtures/there.jsn }
            """, files: ["fixtures/there.json": "{}"])
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "4:16: error: the CA file of environment 'local' does not exist: 'certs/missing.pem'",
            "8:23: error: the body file of the stub of endpoint 'one' does not exist: 'fixtures/missing.json'",
            "13:25: error: the body file of example 'gone' of endpoint 'two' does not exist: 'fixtures/gone.json'",
            "14:25: error: the body file of example 'typo' of endpoint 'two' does not exist: 'fixtures/there.jsn'; did you mean 'fixtures/there.json'?",
        ])
    }

    @Test func duplicateIdsInAFile() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              findPet:
                path: /pet/1
              addPet:
                path: /pet
              findPet:
                path: /pet/2
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "8:3: error: duplicate key 'findPet' (first defined at line 4): ids and keys must be unique",
        ])
    }

    @Test func duplicateKeysInFlowMappingsAndUnknownAliases() throws {
        #expect(try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", baseURL: "http://127.0.0.1:2" }
            """) == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "2:43: error: duplicate key 'baseURL' (first defined at line 2): ids and keys must be unique",
        ])
        #expect(try diagnose("""
            environments:
              local: *nowhere
            """) == ["2:10: error: YAML syntax: the alias *nowhere refers to no anchor &nowhere before it"])
    }

    @Test func duplicateServiceIdsAcrossFiles() throws {
        let folder = try TemporaryCatalog([
            "a.yaml": "service: shop\nenvironments:\n  local: { baseURL: \"http://127.0.0.1:1\" }\n",
            "b.yaml": "# the same id again\nservice: shop\nenvironments:\n  local: { baseURL: \"http://127.0.0.1:2\" }\n",
        ])
        let catalog = folder.load()
        #expect(catalog.services.count == 1)
        #expect(catalog.services.first?.file == "cat/a.yaml")
        #expect(catalog.diagnostics.map(\.description) == [
            "cat/b.yaml:2:10: error: duplicate service id 'shop' (also defined at cat/a.yaml:1:10); this file was not loaded",
        ])
    }

    @Test func unknownGroupReferences() throws {
        let found = try diagnose("""
            environments:
              local:
                baseURL: http://127.0.0.1:1
                groupHeaders: { admn: { X: "1" } }
            groups:
              admin: { headers: { Authorization: "Bearer {{secret.T}}" } }
            endpoints:
              one: { path: /one, group: admim }
              two: { path: /two, group: nobody }
              three: { path: /three, group: admin }
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "4:21: error: unknown group 'admn' in the groupHeaders of environment 'local'; did you mean 'admin'?",
            "8:29: error: unknown group 'admim' in endpoint 'one'; did you mean 'admin'?",
            "9:29: error: unknown group 'nobody' in endpoint 'two' (declare it under 'groups')",
        ])
    }

    @Test func invalidJSONPathPointsAtTheColumn() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            errors:
              - status: 400
                error: badRequest
                message: $.errors[*.message
            """)
        #expect(found == [
            "1:1: error: service 'test' was not loaded because of the errors above",
            "6:24: error: the message of error rule 1 is not a valid JSONPath: expected ',' or ']'",
        ])
    }

    @Test func unquotedPlaceholderIsExplained() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              login:
                path: /login
                body: { password: {{secret.PASSWORD}} }
            """)
        #expect(found == [
            "6:23: error: the body of endpoint 'login' holds an unquoted {{…}}, which YAML reads as a mapping: write it in quotes, \"{{name}}\"",
        ])
    }

    @Test func brokenEndpointIsLeftOutAndTheRestLoads() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
              broken: { baseURL: 42 }
            endpoints:
              good: { path: /good }
              bad: { path: /bad, method: FETCH }
              alsoGood: { path: /also }
            """)
        let service = try #require(catalog.services.first)
        #expect(service.endpoints.map(\.id) == ["good", "alsoGood"])
        #expect(service.environments.map(\.name) == ["local"])
        #expect(service.isPartial)
        #expect(positions(catalog.diagnostics) == [
            "3:22: error: the baseURL of environment 'broken' is not a valid URL: '42' (write it like https://api.example.com/v1)",
            "6:30: error: unknown method 'FETCH' in the method of endpoint 'bad'",
        ])
    }

    @Test func warnings() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local:
                baseURL: http://127.0.0.1:1
                tls: { insecure: true }
            errors:
              - status: 404
                error: notFund
            endpoints:
              one: { path: /one, body: fixtures/a.json }
            """, files: ["fixtures/a.json": "{}"])
        #expect(catalog.services.count == 1)
        #expect(!catalog.hasErrors)
        #expect(positions(catalog.diagnostics) == [
            "4:5: warning: in environment 'local', certificate verification is off (tls.insecure): anyone on the network can read and change the traffic",
            "7:12: warning: 'notFund' is not a built-in error kind, so it is a custom one; did you mean 'notFound'?",
            "9:28: warning: 'body: fixtures/a.json' sends this text; to send the file's contents write 'bodyFile: fixtures/a.json'",
        ])
    }

    @Test func secretDefaultsAreRefusedInProduction() throws {
        let found = try diagnose("""
            environments:
              production:
                type: production
                baseURL: https://example.com
                secretDefaults: { TOKEN: abc }
            """)
        #expect(found.contains(
            "5:5: error: environment 'production' is a production environment: secretDefaults are for local and demo environments; take production secrets from the process environment or .env"))
    }

    @Test func exampleShapes() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              one:
                path: /one
                examples:
                  mixed: { networkError: timedOut, status: 500 }
                  typo: { networkError: timeout }
                  default: { status: 200 }
                  both: { body: x, bodyFile: y }
            """)
        #expect(found == [
            "7:40: error: example 'mixed' of endpoint 'one' is a network error, so it has no 'status': a failure below HTTP has no response",
            "8:29: error: unknown network error 'timeout' in the networkError of example 'typo' of endpoint 'one'; did you mean 'timedOut'?",
            "9:7: error: 'default' names the stub: give this example another name, or make it the 'stub'",
            "10:24: error: example 'both' of endpoint 'one' has both 'body' and 'bodyFile': give one body only",
        ])
    }

    @Test func authRuleProblems() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            auth:
              refresh:
                endpoint: logn
                token: $.token
                into: TOKEN
            endpoints:
              login: { path: /login }
              upload: { path: "/upload/{{secret.TOKEN}}" }
            """)
        #expect(found.contains("5:15: error: auth.refresh.endpoint names 'logn', which is not a loaded endpoint of this service; did you mean 'login'?"))
    }

    @Test func tokenInTheBodyIsRefused() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            auth:
              refresh: { endpoint: login, token: $.token, into: TOKEN }
            endpoints:
              login: { path: /login }
              me: { path: /me, headers: { Authorization: "Bearer {{secret.TOKEN}}" } }
              upload: { path: /upload, body: { token: "{{secret.TOKEN}}" } }
            """)
        #expect(catalog.services.first?.endpoints.map(\.id) == ["login", "me"])
        #expect(positions(catalog.diagnostics) == [
            "8:3: error: endpoint 'upload' uses the refreshed token {{secret.TOKEN}} in its body; a refreshed token can be put in headers and query items only",
        ])
    }

    @Test func unusedTokenVariableIsAWarning() throws {
        let found = try diagnose("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            auth:
              refresh: { endpoint: login, token: $.token, into: TOKEN }
            endpoints:
              login: { path: /login }
            """)
        #expect(found == ["4:53: warning: auth.refresh.into is TOKEN, but no header or query item uses {{secret.TOKEN}}: the refreshed token would go nowhere"])
    }

    @Test func fileLevelProblems() throws {
        let folder = try TemporaryCatalog([
            "empty.yaml": "",
            "list.yaml": "- a\n- b\n",
            "binary.yaml": "service: x\n",
            "two.yaml": "environments: {}\n---\nenvironments: {}\n",
            "noenv.yaml": "service: lonely\n",
        ])
        try folder.write("binary.yaml", Data([0x73, 0x3A, 0x0A, 0xFF, 0xFE, 0x0A]))
        let catalog = folder.load()
        #expect(catalog.services.isEmpty)
        #expect(catalog.diagnostics.map(\.description) == [
            "cat/binary.yaml:2:1: error: the file is not UTF-8 text",
            "cat/empty.yaml:1:1: warning: the file is empty, so it describes no service",
            "cat/list.yaml:1:1: error: a catalog file must be a mapping of names to values, not a list",
            "cat/noenv.yaml:1:1: error: a catalog file needs 'environments' with at least one environment (name, baseURL)",
            "cat/two.yaml:2:1: error: YAML syntax: a second document starts here; a catalog file holds one document",
        ])
    }
}
