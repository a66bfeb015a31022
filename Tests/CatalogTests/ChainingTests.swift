import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import Testing
import TestTraits

/// Captures, response references and prompts: a response feeds later requests.
@Suite(.offPool) struct ChainingTests {
    static let yaml = """
        service: pets
        environments:
          local:
            baseURL: http://127.0.0.1:9
        endpoints:
          addPet:
            method: POST
            path: /pet
            body: { name: Rex }
            captures: { petId: $.id, etag: header ETag, created: status, token: $.auth.token }
          getPet:
            path: /pet/{{petId}}
            headers: { If-None-Match: "{{response.addPet header ETag}}" }
          rename:
            method: PUT
            path: /pet/{{response.addPet $.id}}
            body: { name: "{{prompt.name}}", kind: "{{prompt.kind}}" }
            prompts:
              name: What is the pet called?
              kind: { message: Which kind?, default: dog, choices: [dog, cat] }
          bad:
            path: /x
            captures: { oops: "id", worse: "header" }
            prompts:
              kind: { default: bird, choices: [dog, cat] }
        """

    static func service() throws -> (Service, CatalogSet) {
        let catalog = CatalogLoader.load(
            fileSystem: InMemoryFileSystem(texts: ["pets.yaml": yaml]), source: .bundled)
        return (try #require(catalog.service("pets")), catalog)
    }

    static let response = CapturedResponse(
        status: 201, headers: [HeaderField(name: "ETag", value: "\"v1\"", origin: .server)],
        body: Data(#"{"id": 12, "name": "Rex", "auth": {"token": "tok-123456"}}"#.utf8))

    @Test func capturesAreReadFromTheBodyHeadersAndStatus() throws {
        let (service, _) = try Self.service()
        let addPet = try #require(service.endpoint("addPet"))
        let date = Date(timeIntervalSince1970: 1000)
        let values = addPet.capturedValues(from: Self.response, at: date)
        #expect(values.mapValues(\.value) == ["petId": "12", "etag": "\"v1\"", "created": "201", "token": "tok-123456"])
        #expect(values["petId"]?.endpoint == addPet.key && values["petId"]?.date == date)
    }

    @Test func badCapturesAndPromptsAreReportedWhereTheyAre() throws {
        let (_, catalog) = try Self.service()
        let messages = catalog.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains("capture 'oops' of endpoint 'bad': 'id' is not $.a.json.path, header NAME, status or body") })
        #expect(messages.contains { $0.contains("capture 'worse'") && $0.contains("'header' needs a header name") })
        #expect(messages.contains { $0.contains("the default of prompt 'kind' of endpoint 'bad' is not one of its choices") })
        #expect(catalog.diagnostics.allSatisfy { $0.file.hasSuffix("pets.yaml") && $0.line > 1 })
        #expect(catalog.diagnostics.count == 3)
    }

    @Test func capturedValuesAndResponseReferencesFillTheRequestWithTheirSources() throws {
        let (service, _) = try Self.service()
        let environment = try #require(service.environment(named: "local"))
        let builder = RequestBuilder(service: service, environment: environment, secrets: SecretStore(processEnvironment: [:]))
        let addPet = try #require(service.endpoint("addPet"))
        let getPet = try #require(service.endpoint("getPet"))
        let date = Date(timeIntervalSince1970: 1000)
        var captured = addPet.capturedValues(from: Self.response, at: date)
        captured.merge(ResponseReference.values(for: getPet.placeholders, service: "pets") { key in
            key == addPet.key ? (Self.response, date) : nil
        }) { _, new in new }
        let prepared = try builder.prepare(getPet, captured: captured)
        #expect(prepared.target.path == "/pet/12")
        #expect(prepared.target.headers["If-None-Match"] == "\"v1\"")
        let sources = builder.variables(for: getPet, captured: captured).map { "\($0.name) ← \($0.source?.description ?? "none")" }
        #expect(sources == ["petId ← captured from pets/addPet", "response.addPet header ETag ← response of pets/addPet"])
        // A run-time value wins over a captured one.
        #expect(try builder.prepare(getPet, values: ["petId": "99"], captured: captured).target.path == "/pet/99")
    }

    @Test func aReferenceToAnEndpointWithoutAResponseSaysToSendItFirst() throws {
        let (service, _) = try Self.service()
        let environment = try #require(service.environment(named: "local"))
        let builder = RequestBuilder(service: service, environment: environment, secrets: SecretStore(processEnvironment: [:]))
        let rename = try #require(service.endpoint("rename"))
        #expect {
            try builder.prepare(rename, values: ["prompt.name": "Rex", "prompt.kind": "dog"])
        } throws: { error in
            (error as? UnresolvedPlaceholderError)?.description
                == "pets/rename: path uses {{response.addPet $.id}}, which has no value (send pets/addPet first in this environment, or check that its latest response has $.id)"
        }
    }

    @Test func promptsAreDeclaredOrPlainAndUnansweredOnesSayHowToAnswer() throws {
        let (service, _) = try Self.service()
        let rename = try #require(service.endpoint("rename"))
        let prompts = rename.prompts(among: rename.placeholders)
        #expect(prompts == [
            Prompt(name: "name", message: "What is the pet called?"),
            Prompt(name: "kind", message: "Which kind?", defaultValue: "dog", choices: ["dog", "cat"]),
        ])
        let environment = try #require(service.environment(named: "local"))
        let builder = RequestBuilder(service: service, environment: environment, secrets: SecretStore(processEnvironment: [:]))
        let captured = ["response.addPet $.id": CapturedValue(value: "12", endpoint: EndpointKey(service: "pets", endpoint: "addPet"), date: Date())]
        #expect {
            try builder.prepare(rename, captured: captured)
        } throws: { error in
            (error as? UnresolvedPlaceholderError)?.description.contains(
                "uses {{prompt.name}}, which has no value (it is asked when the request is sent: answer it in the explorer, or give --var prompt.name=… to call)") == true
        }
        let prepared = try builder.prepare(rename, values: ["prompt.name": "Fido", "prompt.kind": "cat"], captured: captured)
        #expect(prepared.target.path == "/pet/12")
        #expect(prepared.target.body == .json(["name": "Fido", "kind": "cat"]))
    }

    @Test func selectorsReadTheirWords() throws {
        #expect(try ResponseSelector.parse("status").get() == .status)
        #expect(try ResponseSelector.parse("header  Location ").get() == .header("Location"))
        #expect(try ResponseSelector.parse("body").get() == .wholeBody)
        #expect(throws: ResponseSelector.SelectorError.self) { try ResponseSelector.parse("$[").get() }
        #expect(ResponseReference.parse("petId", service: "pets") == nil)
        #expect(try ResponseReference.parse("response.pets/list $[0].id", service: "pets")?.get().endpoint == EndpointKey(service: "pets", endpoint: "list"))
        // Another service's responses are another catalog's: never read.
        guard case .failure(let problem)? = ResponseReference.parse("response.other/list $[0].id", service: "pets") else {
            Issue.record("a reference to another service parsed")
            return
        }
        #expect(problem.isOtherCatalog && problem.message.contains("another catalog's"))
    }
}
