import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import TestTraits
import Testing

@testable import Catalog

/// The template language's built-in generators (`{{$uuid}}`, `{{$timestamp}}` …, the names the
/// JetBrains HTTP Client, VS Code REST Client and Postman use), with a pinned clock, randomness
/// and zone; `{{$processEnv NAME}}` and `{{$dotenv NAME}}` as secrets.
@Suite(.offPool) struct TemplateGeneratorTests {
    /// 2024-02-29T23:30:15.250Z, a Thursday.
    static let instant = Date(timeIntervalSince1970: 1_709_249_415.25)
    static let pinned = TemplateGenerators(
        now: { instant }, randomInt: { $0.lowerBound == 0 ? 7 : $0.upperBound }, uuid: { UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")! },
        localOffset: { _ in 2 * 3_600 })

    func value(_ name: String) -> String? {
        if case .success(let text)? = Self.pinned.value(for: name) { return text }
        return nil
    }

    @Test func generatorsUnderTheClientsNames() {
        #expect(value("$uuid") == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
        #expect(value("$guid") == value("$uuid") && value("$random.uuid") == value("$uuid") && value("$randomUUID") == value("$uuid"))
        #expect(value("$timestamp") == "1709249415")
        #expect(value("$timestamp -1 d") == "1709163015")
        #expect(value("$isoTimestamp") == "2024-02-29T23:30:15.250Z")
        #expect(value("$randomInt") == "7", "0 to 1000 without arguments")
        #expect(value("$randomInt 5 10") == "9", "REST Client's range leaves the upper bound out")
        #expect(value("$datetime iso8601") == "2024-02-29T23:30:15Z")
        #expect(value("$datetime rfc1123") == "Thu, 29 Feb 2024 23:30:15 GMT")
        #expect(value("$datetime iso8601 1 M") == "2024-03-29T23:30:15Z")
        #expect(value("$datetime iso8601 1 y") == "2025-02-28T23:30:15Z", "the day clamped to the month's last")
        #expect(value(#"$datetime "DD-MM-YYYY HH:mm:ss.SSS [at] A""#) == "29-02-2024 23:30:15.250 at PM")
        #expect(value("$localDatetime iso8601") == "2024-03-01T01:30:15+02:00", "local time crosses midnight")
        #expect(value(#"$localDatetime "YYYY-MM-DD ddd ZZ""#) == "2024-03-01 Fri +0200")
        #expect(value("$unknown") == nil && Self.pinned.value(for: "$unknown") == nil && Self.pinned.value(for: "plain") == nil)
    }

    @Test func badArgumentsSayHowToWriteThem() {
        for name in ["$randomInt 10 1", "$randomInt a b", "$timestamp 1 century", "$datetime", "$uuid now", "$datetime nonsense"] {
            guard case .failure(let error)? = Self.pinned.value(for: name) else {
                Issue.record("\(name) should fail")
                continue
            }
            #expect(!error.message.isEmpty)
        }
    }

    static let catalog = """
        service: gen
        environments:
          local: { baseURL: "http://127.0.0.1:1/api" }
        endpoints:
          create:
            method: POST
            path: /orders/{{$uuid}}
            query: { at: "{{$timestamp}}" }
            headers: { X-Token: "{{$processEnv GEN_TOKEN}}", X-Env: "{{$dotenv GEN_KEY}}" }
            body: { n: "{{$randomInt 1 3}}", when: "{{$datetime iso8601}}" }
          broken:
            path: /b/{{$randomInt 9 1}}
          unknown:
            path: /u/{{$randomFirstName}}
        """

    @Test func everyCatalogCanUseThemAndTheEnvironmentReadsAreSecrets() throws {
        let service = try loadCleanService(Self.catalog)
        #expect(service.secretNames == ["GEN_TOKEN", "GEN_KEY"])
        let builder = RequestBuilder(
            service: service, environment: service.environments[0],
            secrets: SecretStore(processEnvironment: ["GEN_TOKEN": "not-declared", "APIEXPLORER_SECRET_GEN_TOKEN": "from-process"], dotEnv: ["GEN_KEY": "from-dotenv"], dotEnvPath: "cat/.env"),
            generators: Self.pinned)
        let prepared = try builder.prepare(try #require(service.endpoint("create")))
        #expect(prepared.target.path == "/orders/6f9619ff-8b86-d011-b42d-00c04fc964ff")
        #expect(prepared.target.query == [QueryItem(name: "at", value: "1709249415")])
        #expect(prepared.target.headers["X-Token"] == "from-process", "the secret's variable, never the one named")
        #expect(prepared.target.headers["X-Env"] == "from-dotenv")
        #expect(prepared.target.body == .json(["n": "2", "when": "2024-02-29T23:30:15Z"]))
        let variables = builder.variables(for: try #require(service.endpoint("create")))
        #expect(variables.first { $0.name == "$uuid" }?.source == .generated)
        #expect(variables.first { $0.name == "$processEnv GEN_TOKEN" }?.value == Redactor.mask, "masked like any secret")

        #expect {
            try builder.prepare(try #require(service.endpoint("broken")))
        } throws: { error in
            "\(error)".contains("$randomInt takes no arguments or two whole numbers")
        }
        #expect {
            try builder.prepare(try #require(service.endpoint("unknown")))
        } throws: { error in
            "\(error)".contains("not a built-in generator")
        }
    }

    @Test func formFieldsMayRepeatANameAsAList() throws {
        let service = try loadCleanService("""
            service: forms
            environments: { local: { baseURL: "http://127.0.0.1:1" } }
            endpoints:
              tags: { method: POST, path: /t, form: { tag: [a, b], name: x } }
            """)
        #expect(service.endpoint("tags")?.body == .form([QueryItem(name: "tag", value: "a"), QueryItem(name: "tag", value: "b"), QueryItem(name: "name", value: "x")]))
    }
}
