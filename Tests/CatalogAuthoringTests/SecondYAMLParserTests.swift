import Catalog
import CatalogAuthoring
import CatalogTestSupport
import Foundation
import JSONSupport
import SystemSupport
import TestSupport
import TestTraits
import Testing
import YAMLSupport

/// Issue 50: 32 of 249 written catalogs could not be read by other YAML parsers (an unquoted `?`
/// inside a flow mapping). Every catalog the importers write from the documents in the test
/// resources, and from a document made of the strings YAML parsers disagree on, is read by
/// ruamel.yaml (PyPI; `scripts/install-dependencies` installs it) to the same values as ours.
@Suite(.offPool) struct SecondYAMLParserTests {
    /// Strings that end or change a plain scalar in one parser or another.
    static let awkward = [
        "what?", "a?b=1", "/responses?beta=true", "key: value", "a #b", "#x", "- item", "? complex", "x,y", "[a]", "{b}", "yes", "No", "on", "~",
        "null", "2024-01-01", "2024-01-01T12:00:00Z", "12:30", "1_000", "0b101", "0o17", "012", "1e3", ".5", "10.0.0.1", "=", "<<", "@handle",
        "`tick`", "100%", "a: b: c", "tab\there", " lead", "trail ", "ünï", "nel\u{85}x", "ls\u{2028}x", "c1\u{90}x", "del\u{7F}x", "bom\u{FEFF}x",
        "quote\"s", "back\\slash", "multi\nline", "*alias", "&anchor", "!tag", "|pipe", ">fold", "'single'",
    ]

    /// An OpenAPI document whose titles, parameters, examples and enums are those strings.
    static var awkwardDocument: String {
        var paths: [String: Any] = [:]
        for (index, text) in awkward.enumerated() {
            paths["/p\(index)"] = [
                "get": [
                    "operationId": "op\(index)", "summary": text, "description": text, "tags": [text],
                    "parameters": [["name": "q\(index)", "in": "query", "required": true, "example": text, "schema": ["type": "string"]],
                                   ["name": "X-H\(index)", "in": "header", "required": true, "example": text, "schema": ["type": "string"]]],
                    "responses": ["200": ["description": text, "content": ["application/json": ["example": ["value": text, text: 1]]]]],
                ] as [String: Any]
            ]
        }
        let document: [String: Any] = ["openapi": "3.0.3", "info": ["title": "Awkward?", "version": "1"], "servers": [["url": "https://api.example.com/v1?x=y"]], "paths": paths]
        return String(decoding: try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The catalogs written from each document: folder name → import.
    static func imports() throws -> [(String, CatalogImport)] {
        var result: [(String, CatalogImport)] = []
        result.append(("awkward", try OpenAPIImporter.catalog(from: Data(awkwardDocument.utf8), documentName: "awkward.json")))
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
        for name in ["api-with-examples", "callback-example", "link-example", "petstore-expanded", "uspto"] {
            result.append((name, try OpenAPIImporter.catalog(from: try interopResource("real/openapi/\(name).yaml"), documentName: "\(name).yaml")))
        }
        result.append(("box", try OpenAPIImporter.catalog(from: try interopResource("real/openapi/box-platform-api.json"), documentName: "box.json")))
        for name in ["uber", "petstore-expanded"] {
            result.append(("swagger-\(name)", try OpenAPIImporter.catalog(from: try interopResource("real/swagger/\(name).yaml"), documentName: "\(name).yaml")))
        }
        result.append((
            "swagger-separate",
            try OpenAPIImporter.catalog(
                from: try interopResource("real/swagger/petstore-separate/spec/swagger.yaml"), documentName: "swagger.yaml",
                files: DocumentFiles(folder: resources.appendingPathComponent("real/swagger/petstore-separate/spec").path))))
        for name in ["collection-v2", "nested-v2-collection", "code-generators-collection"] {
            result.append(("postman-\(name)", try PostmanImporter.catalog(collection: try interopResource("real/postman/\(name).json"), documentName: "\(name).json")))
        }
        result.append(("postman-acme", try PostmanImporter.catalog(collection: try interopResource("postman/acme.postman_collection.json"), documentName: "acme.json")))
        result.append(("insomnia", try InsomniaImporter.catalog(export: try interopResource("real/insomnia/insomnia4.yaml"), documentName: "insomnia4.yaml")))
        result.append(("insomnia-shop", try InsomniaImporter.catalog(export: try interopResource("insomnia/shop.insomnia.json"), documentName: "shop.json")))
        for name in ["browsertime-recalculate-style", "deep-input", "wikipedia-webpagetest-excerpt"] {
            result.append(("har-\(name)", try HARImporter.catalog(har: try interopResource("real/har/\(name).har"), documentName: "\(name).har")))
        }
        result.append(("har-shop", try HARImporter.catalog(har: try interopResource("har/shop.har"), documentName: "shop.har")))
        for name in ["environment-variables", "kulala-advanced", "multiline-url", "templated-url"] {
            let text = String(decoding: try interopResource("real/http/\(name).http"), as: UTF8.self)
            result.append(("http-\(name)", try HTTPFileImporter.catalog(text: text, documentName: "\(name).http")))
        }
        let petstore = String(decoding: try interopResource("http/petstore.http"), as: UTF8.self)
        result.append(("http-petstore", try HTTPFileImporter.catalog(text: petstore, documentName: "petstore.http", files: DocumentFiles(folder: resources.appendingPathComponent("http").path))))
        for name in ["swapi.graphql", "swapi.introspection.json"] {
            result.append(("graphql-\(name)", try GraphQLImporter.catalog(schema: try interopResource("real/graphql/\(name)"), documentName: name, url: URL(string: "http://localhost:4000/graphql")!)))
        }
        return result
    }

    @Test(.enabled(if: SecondYAMLParserTests.ruamelIsInstalled, "ruamel.yaml is not installed (scripts/install-dependencies)"))
    func everyWrittenCatalogReadsTheSameInRuamelYAML() async throws {
        let root = try TemporaryDirectory()
        var files: [String] = []
        for (name, result) in try Self.imports() {
            let folder = root.url.appendingPathComponent(name)
            let written = try result.write(into: folder, force: false)
            files += written.drafts.map { "\(name)/\($0.service).yaml" }
        }
        #expect(files.count >= 25)
        // One Python process reads them all and prints what each holds as JSON (dates as text).
        let script = """
            json, sys = __import__("json"), __import__("sys")
            from ruamel.yaml import YAML
            yaml = YAML(typ="safe", pure=True)
            out = {}
            for path in sys.argv[2:]:
                try:
                    with open(sys.argv[1] + "/" + path, encoding="utf-8") as f:
                        out[path] = {"value": yaml.load(f)}
                except Exception as e:
                    out[path] = {"error": str(e).replace(sys.argv[1], "")}
            print(json.dumps(out, default=str))
            """
        let run = await (try ChildProcess("/usr/bin/env", ["python3", "-c", script, root.path] + files, environment: ProcessInfo.processInfo.environment, directory: root.path)).finish()
        #expect(run.status == 0, "\(run.errors)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String: Any]])
        for file in files {
            let entry = try #require(parsed[file])
            #expect(entry["error"] == nil, "\(file): ruamel.yaml: \(entry["error"] ?? "")")
            guard let theirs = entry["value"] else { continue }
            let text = try String(contentsOf: root.url.appendingPathComponent(file), encoding: .utf8)
            let ours = try #require(try YAMLComposer.compose(text).root?.jsonValue(), "\(file)")
            let oursAsObject = try JSONSerialization.jsonObject(with: Data(ours.compactText.utf8), options: [.fragmentsAllowed])
            #expect((oursAsObject as? NSObject)?.isEqual(theirs) == true, "\(file): the parsers read different values")
        }
    }

    static let ruamelIsInstalled: Bool = {
        (try? ChildProcess("/usr/bin/env", ["python3", "-c", "import ruamel.yaml"], environment: ProcessInfo.processInfo.environment, directory: "/").collect().status) == 0
    }()
}
