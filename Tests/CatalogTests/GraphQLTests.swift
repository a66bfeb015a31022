import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// `graphql:` bodies: decoded with their diagnostics, sent as GraphQL's JSON by POST.
@Suite(.offPool) struct GraphQLTests {
    static let catalog = """
        service: pets
        variables: { petId: "7" }
        environments:
          local:
            baseURL: http://127.0.0.1:1/api
            fixtures: immediate
        endpoints:
          getPet:
            path: /graphql
            graphql:
              query: "query GetPet($id: ID!) { pet(id: $id) { name {{extra}} } }"
              variables: { id: "{{petId}}", first: 10, tags: [a, "{{petId}}"] }
              operationName: GetPet
            parameters: { extra: owner }
          bare:
            path: /graphql
            graphql: { query: "{ pets { name } }" }
          byGet:
            method: GET
            path: /graphql
            graphql: { query: "{ pets { name } }" }
        """

    func session() throws -> (ServiceSession, RecordingTransport, Service) {
        let service = try loadCleanService(Self.catalog)
        let transport = RecordingTransport { request throws(TransportError) in Response.json(200, #"{"data": {}}"#) }
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]),
            transport: transport, clock: .instant)
        return (session, transport, service)
    }

    @Test func decodesTheOperationAndDefaultsToPost() throws {
        let service = try loadCleanService(Self.catalog)
        let getPet = try #require(service.endpoint("getPet"))
        #expect(getPet.method == .post)
        #expect(getPet.graphQL?.operationName == "GetPet")
        #expect(getPet.graphQL?.variables == ["id": "{{petId}}", "first": 10, "tags": ["a", "{{petId}}"]])
        #expect(getPet.placeholders == ["extra", "petId"])
        #expect(service.endpoint("bare")?.graphQL == GraphQLOperation(query: "{ pets { name } }"))
        #expect(service.endpoint("byGet")?.method == .get, "a method written stays")
    }

    @Test func sendsGraphQLsJSONWithPlaceholdersRendered() async throws {
        let (session, transport, _) = try session()
        let exchange = await session.send("getPet", options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error == nil, "\(exchange.error?.message ?? "")")
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try JSONValue.parse(request.body ?? Data())
        #expect(body == [
            "query": "query GetPet($id: ID!) { pet(id: $id) { name owner } }",
            "variables": ["id": "7", "first": 10, "tags": ["a", "7"]],
            "operationName": "GetPet",
        ])
        _ = await session.send("bare", options: RequestOptions(stubBehavior: .never))
        #expect(try JSONValue.parse(transport.requests.last?.body ?? Data()) == ["query": "{ pets { name } }"])
    }

    @Test func wrongShapesAreErrorsAtTheirPlace() throws {
        let (catalog, _) = try loadCatalog("""
            service: pets
            environments: { local: { baseURL: "http://127.0.0.1:1" } }
            endpoints:
              noQuery:
                path: /graphql
                graphql: { variables: { id: "1" } }
              numberQuery:
                path: /graphql
                graphql: { query: 42 }
              listVariables:
                path: /graphql
                graphql: { query: "{ a }", variables: [1, 2] }
              typo:
                path: /graphql
                graphql: { query: "{ a }", operationNam: A }
              twoBodies:
                path: /graphql
                body: { a: 1 }
                graphql: { query: "{ a }" }
              notMapping:
                path: /graphql
                graphql: "{ a }"
              good:
                path: /graphql
                graphql: { query: "{ a }" }
            """)
        #expect(positions(catalog.diagnostics) == [
            "6:14: error: the graphql body of endpoint 'noQuery' needs 'query'",
            "9:23: error: the query of the graphql body of endpoint 'numberQuery' must be text, not the number 42",
            "12:43: error: the variables of the graphql body of endpoint 'listVariables' must be a mapping of names to values, not a list",
            "15:32: error: unknown key 'operationNam' in the graphql body of endpoint 'typo'; did you mean 'operationName'?",
            "19:5: error: endpoint 'twoBodies' has 'body' and 'graphql': give one body only",
            "22:14: error: the graphql body of endpoint 'notMapping' must be a mapping of names to values, not the text \"{ a }\"",
        ])
        #expect(catalog.services.first?.endpoints.map(\.id) == ["good"])
    }

    @Test func anEditedBodyStaysAnOperationOnlyWhileItHasTheShapeOfOne() throws {
        let service = try loadCleanService(Self.catalog)
        let getPet = try #require(service.endpoint("getPet"))
        let operation = try #require(getPet.graphQL)
        #expect(GraphQLOperation(requestBody: operation.requestBody) == operation)
        #expect(GraphQLOperation(requestBody: ["query": "{ a }", "extra": 1]) == nil)
        #expect(GraphQLOperation(requestBody: ["variables": [:]]) == nil)
        let renamed = try getPet.applying(EndpointEdits(body: .text(#"{"query": "{ b }", "operationName": "B"}"#, isJSON: true)))
        #expect(renamed.graphQL == GraphQLOperation(query: "{ b }", operationName: "B"))
        let plain = try getPet.applying(EndpointEdits(body: .text(#"{"name": "Rex"}"#, isJSON: true)))
        #expect(plain.graphQL == nil)
    }

    // MARK: Errors inside a 200

    static let errorsCatalog = """
        service: pets
        environments:
          local: { baseURL: "http://127.0.0.1:1/api" }
        errors:
          - status: 2xx
            when: $.errors[?(@.code == 'mine')]
            error: ownError
        endpoints:
          getPet:
            path: /graphql
            graphql: { query: "{ pet { owner { x } } }" }
          rest:
            path: /rest
        """

    func answer(_ endpoint: String, _ body: String) async throws -> DispatchError? {
        let service = try loadCleanService(Self.errorsCatalog)
        let transport = RecordingTransport { request throws(TransportError) in Response.json(200, body) }
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]),
            transport: transport, clock: .instant)
        return await session.send(endpoint, options: RequestOptions(stubBehavior: .never)).error
    }

    @Test func errorsInA200AreAGraphQLErrorWithEachMessageAndPath() async throws {
        let body = #"""
            {"data": {"pet": null}, "errors": [
              {"message": "Cannot query field \"x\" on type \"Owner\".", "path": ["pet", "owner"], "locations": [{"line": 1, "column": 17}]},
              {"message": "Not allowed", "path": ["pets", 0, "name"]},
              {"message": "Rate limited"}]}
            """#
        let error = try #require(try await answer("getPet", body))
        #expect(error.kind == .custom("graphQLError"))
        #expect(error.kind == ErrorRule.graphQLErrorKind)
        #expect(error.details == [
            #"Cannot query field "x" on type "Owner". (at pet.owner)"#, "Not allowed (at pets[0].name)", "Rate limited",
        ])
        #expect(error.message == error.details.joined(separator: "; "))
        #expect(error.status == 200)
        #expect(error.source == "rule \(ErrorRule.graphQLRuleName)")
    }

    @Test func noErrorsOrAnEmptyListIsASuccess() async throws {
        #expect(try await answer("getPet", #"{"data": {"pet": {"name": "Rex"}}}"#) == nil)
        #expect(try await answer("getPet", #"{"data": {"pet": null}, "errors": []}"#) == nil)
    }

    @Test func onlyGraphQLEndpointsGetTheRuleAndTheCatalogsRulesComeFirst() async throws {
        let errors = #"{"errors": [{"message": "Boom"}]}"#
        #expect(try await answer("rest", errors) == nil, "a REST endpoint's 'errors' member is the catalog's business")
        let own = try #require(try await answer("getPet", #"{"errors": [{"message": "Mine", "code": "mine"}]}"#))
        #expect(own.kind == .custom("ownError"))
        let service = try loadCleanService(Self.errorsCatalog)
        #expect(service.errorFilter.rules.map(\.name).last == ErrorRule.graphQLRuleName)
        #expect(service.errorFilter.rules.last?.targets == ["pets/getPet"])
    }
}
