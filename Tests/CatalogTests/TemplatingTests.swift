import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Testing

@testable import Catalog
import TestTraits

/// Placeholders: precedence, rendering everywhere, and errors that name what is missing and where.
@Suite(.offPool) struct TemplatingTests {
    static let catalog = """
        service: shop
        variables: { level: service, region: eu, shared: from-service }
        environments:
          local:
            baseURL: http://127.0.0.1:1/api
            headers: { X-Region: "{{region}}", X-Key: "{{secret.API_KEY}}" }
            variables: { level: environment, env: local, shared: from-environment }
            secretDefaults: { API_KEY: demo-key }
        groups:
          admin: { headers: { Authorization: "Bearer {{secret.ADMIN_TOKEN}}" } }
        endpoints:
          show:
            group: admin
            method: POST
            path: /items/{{itemId}}/{{level}}
            query: { q: "{{query}}", env: "{{env}}" }
            headers: { X-Shared: "{{shared}}" }
            parameters: { itemId: "42", level: endpoint, query: default query }
            body: { "{{env}}-key": "{{level}}", list: ["{{region}}", 1] }
          text:
            method: POST
            path: /text
            body: "hello {{secret.API_KEY}}"
          form:
            method: POST
            path: /form
            form: { who: "{{who}}" }
          missing:
            path: /m/{{nobody}}
            headers: { Authorization: "Bearer {{secret.NOT_SET}}", X-Other: "{{nobody}}" }
        """

    let service: Service

    init() throws {
        service = try loadCleanService(Self.catalog)
    }

    func builder(process: [String: String] = [:], dotEnv: [String: String] = [:]) -> RequestBuilder {
        RequestBuilder(
            service: service, environment: service.environments[0],
            secrets: SecretStore(processEnvironment: process, dotEnv: dotEnv, dotEnvPath: "cat/.env"))
    }

    @Test func precedenceRuntimeThenEndpointThenEnvironmentThenService() throws {
        let endpoint = try #require(service.endpoint("show"))
        let prepared = try builder(process: ["APIEXPLORER_SECRET_ADMIN_TOKEN": "t0k3n-admin"]).prepare(endpoint)
        #expect(prepared.target.path == "/items/42/endpoint")
        #expect(prepared.target.query == [QueryItem(name: "q", value: "default query"), QueryItem(name: "env", value: "local")])
        #expect(prepared.target.headers["X-Shared"] == "from-environment")
        #expect(prepared.target.body == .json(["local-key": "endpoint", "list": ["eu", 1]]))
        #expect(prepared.target.identifier == "shop/show")
        #expect(prepared.environment.headers["X-Region"] == "eu")
        #expect(prepared.environment.headers["X-Key"] == "demo-key")
        #expect(prepared.environment.groupHeaders["admin"]?["Authorization"] == "Bearer t0k3n-admin")

        let runtime = try builder(process: ["APIEXPLORER_SECRET_ADMIN_TOKEN": "x"]).prepare(endpoint, values: ["itemId": "a b/c?", "level": "runtime", "shared": "mine"])
        #expect(runtime.target.path == "/items/a%20b/c%3F/runtime")
        #expect(runtime.target.headers["X-Shared"] == "mine")
    }

    @Test func serviceVariablesAreTheLastResort() throws {
        var endpoint = try #require(service.endpoint("show"))
        endpoint.headers = ["X-Level": "{{level}}", "X-Region": "{{region}}"]
        endpoint.parameters = ["itemId": "1", "query": "q"]
        let prepared = try builder(process: ["APIEXPLORER_SECRET_ADMIN_TOKEN": "x"]).prepare(endpoint)
        #expect(prepared.target.headers["X-Level"] == "environment")
        #expect(prepared.target.headers["X-Region"] == "eu")
    }

    @Test func secretsComeFromTheProcessThenDotEnvThenDefaults() throws {
        let endpoint = try #require(service.endpoint("text"))
        let fromDefault = try builder().prepare(endpoint)
        #expect(fromDefault.target.body == .text("hello demo-key", contentType: nil))
        let fromDotEnv = try builder(dotEnv: ["API_KEY": "dotenv-key"]).prepare(endpoint)
        #expect(fromDotEnv.target.body == .text("hello dotenv-key", contentType: nil))
        let fromProcess = try builder(process: ["APIEXPLORER_SECRET_API_KEY": "process-key"], dotEnv: ["API_KEY": "dotenv-key"]).prepare(endpoint)
        #expect(fromProcess.target.body == .text("hello process-key", contentType: nil))
        #expect(fromProcess.environment.headers["X-Key"] == "process-key")
    }

    @Test func formValuesAreRendered() throws {
        let prepared = try builder().prepare(try #require(service.endpoint("form")), values: ["who": "me & you"])
        #expect(prepared.target.body == .form([QueryItem(name: "who", value: "me & you")]))
    }

    @Test func unresolvedNamesSayWhatAndWhere() throws {
        let endpoint = try #require(service.endpoint("missing"))
        #expect {
            try builder().prepare(endpoint)
        } throws: { error in
            guard let error = error as? UnresolvedPlaceholderError else { return false }
            return error.description == """
                shop/missing: path uses {{nobody}}, which has no value (set it as a run-time value, in the endpoint's parameters or in the environment's variables, or capture it from a response)
                shop/missing: header Authorization uses {{secret.NOT_SET}}, which has no value (set $APIEXPLORER_SECRET_NOT_SET in the environment or NOT_SET in cat/.env)
                shop/missing: header X-Other uses {{nobody}}, which has no value (set it as a run-time value, in the endpoint's parameters or in the environment's variables, or capture it from a response)
                """
                && error.dispatchError.kind == .invalidRequest
        }
    }

    @Test func groupHeaderSecretsAreReportedWithTheirGroup() throws {
        let endpoint = try #require(service.endpoint("show"))
        #expect {
            try builder().prepare(endpoint)
        } throws: { error in
            (error as? UnresolvedPlaceholderError)?.description
                == "shop/show: group admin header Authorization uses {{secret.ADMIN_TOKEN}}, which has no value (set $APIEXPLORER_SECRET_ADMIN_TOKEN in the environment or ADMIN_TOKEN in cat/.env)"
        }
    }

    @Test func variablesListEveryPlaceholderWithItsSource() throws {
        let endpoint = try #require(service.endpoint("show"))
        let variables = builder(dotEnv: ["ADMIN_TOKEN": "s3cr3t"]).variables(for: endpoint, values: ["itemId": "5"])
        let shown = variables.map { "\($0.name)=\($0.value ?? "nil") [\($0.source?.description ?? "none")]" }
        #expect(shown == [
            "itemId=5 [run-time value]", "level=endpoint [endpoint parameters]", "query=default query [endpoint parameters]",
            "env=local [environment local]", "shared=from-environment [environment local]", "region=eu [service variables]",
            "secret.API_KEY=•••• [secretDefaults of environment local]", "secret.ADMIN_TOKEN=•••• [cat/.env]",
        ])
    }

    @Test func secretsAreShownOnlyWhenRevealedAndARunTimeSecretWins() throws {
        let endpoint = try #require(service.endpoint("show"))
        let variables = builder(dotEnv: ["ADMIN_TOKEN": "s3cr3t"])
            .variables(for: endpoint, values: ["secret.API_KEY": "typed-key"], revealingSecrets: true)
        let secrets = variables.filter(\.isSecret).map { "\($0.name)=\($0.value ?? "nil") [\($0.source?.description ?? "none")]" }
        #expect(secrets == ["secret.API_KEY=typed-key [run-time value]", "secret.ADMIN_TOKEN=s3cr3t [cat/.env]"])
        let prepared = try builder(dotEnv: ["ADMIN_TOKEN": "s3cr3t"]).prepare(endpoint, values: ["secret.API_KEY": "typed-key"])
        #expect(prepared.environment.headers.fields.contains { $0.value.contains("typed-key") })
    }
}

/// The `.env` reader.
@Suite(.offPool) struct DotEnvTests {
    @Test func readsTheUsualForms() {
        let (values, problems) = DotEnv.parse("""
            # a comment
            PLAIN=value
            export EXPORTED=yes
              SPACED = spaced value   # trailing comment
            SINGLE='literal $HOME \\n #not a comment'
            DOUBLE="line\\nbreak \\"quoted\\" # kept"
            EMPTY=
            MULTI="first
            second"
            URL=https://example.com/#anchor
            WINDOWS=crlf\r
            """)
        #expect(problems.isEmpty)
        #expect(values == [
            "PLAIN": "value", "EXPORTED": "yes", "SPACED": "spaced value", "SINGLE": "literal $HOME \\n #not a comment",
            "DOUBLE": "line\nbreak \"quoted\" # kept", "EMPTY": "", "MULTI": "first\nsecond", "URL": "https://example.com/#anchor",
            "WINDOWS": "crlf",
        ])
    }

    @Test func problemsNeverShowValues() {
        let (values, problems) = DotEnv.parse("ghp_PastedTokenWithoutName\n=nameless\nOK=1\nBAD='unterminated\n")
        #expect(values == ["OK": "1"])
        #expect(problems.map { "\($0.line):\($0.column) \($0.message)" } == [
            "1:1 expected NAME=value: no '=' after the name",
            "2:1 expected NAME=value",
            "4:1 the quoted value of BAD is never closed",
        ])
    }
}
