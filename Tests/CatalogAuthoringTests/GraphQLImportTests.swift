import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import TestSupport
import Testing
import TestTraits

/// `import graphql`: the SWAPI schema (SDL as published, and the introspection result graphql-core
/// builds from it) becomes a catalog whose endpoints send valid operations and answer in stub mode.
@Suite(.offPool) struct GraphQLImportTests {
    static let url = URL(string: "https://swapi-graphql.netlify.app/graphql")!

    static func swapi(_ file: String = "swapi.graphql") throws -> CatalogImport {
        try GraphQLImporter.catalog(schema: try interopResource("real/graphql/\(file)"), documentName: file, url: url, service: "swapi")
    }

    @Test func schemaBecomesOneEndpointPerRootField() async throws {
        let (folder, catalog) = try loadWritten(try Self.swapi())
        let service = try #require(catalog.service("swapi"))
        #expect(service.environments.first?.baseURL.absoluteString == "https://swapi-graphql.netlify.app")
        #expect(service.endpoints.map(\.id) == [
            "allFilms", "film", "allPeople", "person", "allPlanets", "planet", "allSpecies", "species",
            "allStarships", "starship", "allVehicles", "vehicle", "node",
        ])
        let person = try #require(service.endpoint("person"))
        #expect(person.method == .post && person.path == "/graphql" && person.group == "queries")
        let operation = try #require(person.graphQL)
        #expect(operation.operationName == "Person")
        #expect(operation.query.hasPrefix("query Person($id: ID, $personID: ID) {\n  person(id: $id, personID: $personID) {\n    name\n"))
        #expect(operation.query.contains("    homeworld {\n      name\n"), "objects are selected one level down")
        #expect(operation.variables == ["id": .null, "personID": .null], "optional arguments are sent as null")

        // A required argument is a placeholder with a sample value.
        let node = try #require(service.endpoint("node"))
        #expect(node.graphQL?.variables == ["id": .string("{{id}}")])
        #expect(node.parameters == ["id": "1"])
        #expect(node.graphQL?.query.contains("node(id: $id) {\n    __typename\n    id\n") == true)

        // The catalog keeps the query readable (a literal block), and stub mode answers the selection's shape.
        #expect(folder.read("swapi.yaml")?.contains("      query: |-\n        query AllFilms(") == true)
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let exchange = await caller.call(EndpointSelection(service: service, endpoint: person, environment: service.environments[0]), mode: .stub).exchange
        #expect(exchange.error == nil)
        let body = try JSONValue.parse(try #require(exchange.response?.body))
        #expect(body["data"]?["person"]?["homeworld"]?["name"] == .string("text"))
        let sent = try JSONValue.parse(exchange.request.body ?? Data())
        #expect(sent["operationName"] == .string("Person"))
        await RealDocumentImportTests.expectStubsAnswer(catalog)
    }

    @Test func introspectionResultGivesTheSameCatalogAsTheSDL() throws {
        let fromSDL = try Self.swapi().drafts[0].yaml
        let fromIntrospection = try Self.swapi("swapi.introspection.json").drafts[0].yaml
        let body = { (text: String) in text.split(separator: "\n").dropFirst().joined(separator: "\n") }
        #expect(body(fromSDL) == body(fromIntrospection))
    }

    @Test func everySchemaSyntaxIsRead() throws {
        // GraphQL's own kitchen sink: extensions, directives with arguments, descriptions, block
        // strings, unions, default values; its root types are not defined, which the import says.
        #expect {
            try GraphQLImporter.catalog(
                schema: try interopResource("real/graphql/schema-kitchen-sink.graphql"), documentName: "schema-kitchen-sink.graphql", url: Self.url)
        } throws: { error in
            "\(error)".contains("has no query or mutation fields")
        }
        let sdl = #"""
            """
            The shop.
            """
            type Query {
              "A pet by id"
              pet(id: ID!, include: [Extra!] = [TOYS]): Pet @deprecated(reason: "use node")
              search(filter: Filter!): [Result!]!
            }
            type Mutation { adopt(input: AdoptInput!): Pet }
            type Subscription { adopted: Pet }
            enum Extra { TOYS FOOD }
            input Filter { name: String!, limit: Int! = 10, kind: Extra! }
            input AdoptInput { petId: ID!, note: String }
            union Result = | Pet | Owner
            type Pet implements Node & Named { id: ID! name: String owner: Owner tags: [String!] }
            type Owner implements Node { id: ID! pets(first: Int!): [Pet] }
            interface Node { id: ID! }
            interface Named { name: String }
            extend type Pet { age: Int }
            """#
        let result = try GraphQLImporter.catalog(schema: Data(sdl.utf8), documentName: "shop.graphql", url: URL(string: "http://127.0.0.1:9/graphql")!)
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("shop"))
        #expect(service.title == "The shop.")
        #expect(service.endpoints.map(\.id) == ["pet", "search", "adopt"])
        #expect(result.messages.contains { $0.contains("1 subscription field was left out") })
        let pet = try #require(service.endpoint("pet")?.graphQL)
        #expect(pet.query == "query Pet($id: ID!, $include: [Extra!]) {\n  pet(id: $id, include: $include) {\n    id\n    name\n    owner {\n      id\n    }\n    tags\n    age\n  }\n}")
        #expect(pet.variables == ["id": .string("{{id}}"), "include": .null], "a non-null argument with a default may be left out")
        let search = try #require(service.endpoint("search"))
        #expect(search.graphQL?.variables == ["filter": .object(["name": .string("{{filter_name}}"), "kind": .string("{{filter_kind}}")])])
        #expect(search.parameters == ["filter_name": "value", "filter_kind": "TOYS"])
        #expect(search.graphQL?.query.contains("    __typename\n    ... on Pet {\n      id\n      name\n      tags\n      age\n    }\n    ... on Owner {\n      id\n    }\n") == true)
        #expect(service.endpoint("adopt")?.group == "mutations")
    }

    @Test func syntaxErrorsSayWhere() {
        for (sdl, place, words) in [
            ("type Query {\n  pet(id: ID!: Pet\n}", "2:14", "expected a name, found ':'"),
            ("type Query { a: String }\nquery { a }", "2:1", "starts an operation"),
            ("type Query { a: \"open\n}", "1:17", "does not end on its line"),
            ("", "1:1", "empty"),
        ] {
            #expect {
                try GraphQLImporter.catalog(schema: Data(sdl.utf8), documentName: "bad.graphql", url: Self.url)
            } throws: { error in
                "\(error)".contains("bad.graphql:\(place): ") && "\(error)".contains(words)
            }
        }
        #expect {
            try GraphQLImporter.catalog(schema: Data(#"{"data": {}}"#.utf8), documentName: "bad.json", url: Self.url)
        } throws: { error in
            "\(error)".contains("not an introspection result")
        }
    }
}
