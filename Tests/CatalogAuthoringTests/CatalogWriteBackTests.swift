import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import TestSupport
import Testing
import TestTraits

/// Writing an edited request back into its catalog file changes exactly the lines of what
/// changed, loads back as the edited request, and never writes a file that does not.
@Suite(.offPool) struct CatalogWriteBackTests {
    static let catalog = """
        # Shop API, kept by hand.
        service: shop

        environments:
          local:
            baseURL: http://127.0.0.1:9/shop
            headers:
              Accept: application/json
              X-Client: explorer

        groups:
          signedIn:
            headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" }

        endpoints:
          list:
            title: List items   # shown in the list
            path: /items
            query:
              limit: "10"     # page size
              # the sort order
              sort: name
            headers:
              X-Trace: abc
              X-Mode: fast
            stub:
              body: [{ id: 1 }]

          create:
            title: Create an item
            group: signedIn
            method: POST
            path: /items
            headers: { Content-Type: application/json }
            body:
              name: Lamp
              price: 12
              tags: [a, b]
            stub:
              status: 201

          upload:
            method: PUT
            path: /upload
            bodyFile: fixtures/note.txt

          login:
            method: POST
            path: /login
            form: { user: ann, password: "{{secret.SHOP_PASSWORD}}" }   # sent url-encoded

          quiet:
            path: /quiet
            omitHeaders:
              - Accept

          inline: { path: /inline }

        """

    // MARK: Helpers

    /// The lines removed (`-`) and added (`+`) between two texts, in order: a longest-common-subsequence line diff.
    static func diff(_ old: String, _ new: String) -> [String] {
        let a = old.components(separatedBy: "\n"), b = new.components(separatedBy: "\n")
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [String] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                i += 1
                j += 1
            } else if j == b.count || (i < a.count && lengths[i + 1][j] >= lengths[i][j + 1]) {
                result.append("-" + a[i])
                i += 1
            } else {
                result.append("+" + b[j])
                j += 1
            }
        }
        return result
    }

    /// A folder holding `text` as shop.yaml (and a fixture), and its service.
    func folder(_ text: String = catalog) throws -> (TemporaryDirectory, Service) {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", text)
        try folder.write("fixtures/note.txt", "a note\n")
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        return (folder, try #require(catalog.service("shop")))
    }

    /// Writes `edits` into endpoint `id` of `text`, then returns the line diff, the new text and the endpoint as it loads.
    func write(_ edits: EndpointEdits, into id: String, of text: String = catalog) throws -> (diff: [String], text: String, endpoint: CatalogEndpoint) {
        let (folder, service) = try folder(text)
        try CatalogUpdate.writing(edits, endpoint: id, of: service).commit()
        let new = try #require(folder.read("shop.yaml"))
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        return (Self.diff(text, new), new, try #require(catalog.service("shop")?.endpoint(id)))
    }

    static let listHeaders: [EndpointEdits.Item] = [.init(name: "X-Trace", value: "abc"), .init(name: "X-Mode", value: "fast")]
    static let listQuery: [EndpointEdits.Item] = [.init(name: "limit", value: "10"), .init(name: "sort", value: "name")]

    // MARK: Method and path

    @Test func aChangedMethodOrPathReplacesOrAddsOneLine() throws {
        var result = try write(EndpointEdits(method: .post), into: "list")
        #expect(result.diff == ["+    method: POST"])
        #expect(result.text.contains("    title: List items   # shown in the list\n    method: POST\n    path: /items\n"))
        #expect(result.endpoint.method == .post)

        result = try write(EndpointEdits(method: .get), into: "create")
        #expect(result.diff == ["-    method: POST", "+    method: GET"])

        result = try write(EndpointEdits(path: "/items/{{id}}"), into: "list")
        #expect(result.diff == ["-    path: /items", "+    path: /items/{{id}}"])
        #expect(result.endpoint.path == "/items/{{id}}")

        // GET where no method is written is what the file already says.
        result = try write(EndpointEdits(method: .get), into: "list")
        #expect(result.diff.isEmpty)
    }

    // MARK: Query and headers

    @Test func editingOneHeaderOfHttpbinsFlowMappingChangesThatLine() throws {
        let folder = try TemporaryDirectory()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("environments")
        let copy = folder.url.appendingPathComponent("environments")
        try FileManager.default.copyItem(at: source, to: copy)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: copy, displayPath: copy.path), trust: .everything)
        let service = try #require(catalog.service("httpbin"))
        let before = try String(contentsOf: copy.appendingPathComponent("httpbin.yaml"), encoding: .utf8)

        let edits = EndpointEdits(headers: [.init(name: "Content-Type", value: "text/csv")])
        try CatalogUpdate.writing(edits, endpoint: "put", of: service).commit()
        let after = try String(contentsOf: copy.appendingPathComponent("httpbin.yaml"), encoding: .utf8)
        #expect(Self.diff(before, after) == ["-    headers: { Content-Type: text/plain; charset=utf-8 }", "+    headers: { Content-Type: text/csv }"])
    }

    @Test func aBlockMappingChangesKeyByKeyAndKeepsComments() throws {
        var headers = Self.listHeaders
        headers[1].value = "slow"
        var result = try write(EndpointEdits(headers: headers), into: "list")
        #expect(result.diff == ["-      X-Mode: fast", "+      X-Mode: slow"])

        var query = Self.listQuery
        query[0].value = "20"
        result = try write(EndpointEdits(query: query), into: "list")
        #expect(result.diff == [#"-      limit: "10"     # page size"#, #"+      limit: "20"     # page size"#])

        query = Self.listQuery + [.init(name: "page", value: "{{page}}")]
        result = try write(EndpointEdits(query: query), into: "list")
        #expect(result.diff == [#"+      page: "{{page}}""#])
        #expect(result.text.contains("      sort: name\n      page: \"{{page}}\"\n    headers:\n"))
        #expect(result.endpoint.query == [QueryItem(name: "limit", value: "10"), QueryItem(name: "sort", value: "name"), QueryItem(name: "page", value: "{{page}}")])

        // An item turned off is not sent, so it leaves the file; the comment above the next one stays.
        query = Self.listQuery
        query[0].isEnabled = false
        result = try write(EndpointEdits(query: query), into: "list")
        #expect(result.diff == [#"-      limit: "10"     # page size"#])
        #expect(result.endpoint.query == [QueryItem(name: "sort", value: "name")])

        // A new first item goes before the others; a bare name is null.
        query = [.init(name: "verbose", value: nil)] + Self.listQuery
        result = try write(EndpointEdits(query: query), into: "list")
        #expect(result.diff == ["+      verbose: null"])
        #expect(result.text.contains("    query:\n      verbose: null\n      limit:"))
    }

    @Test func aRepeatedQueryNameIsAListAndAMovedKeyMovesItsLine() throws {
        var result = try write(EndpointEdits(query: Self.listQuery + [.init(name: "sort", value: "price")]), into: "list")
        #expect(result.diff == ["-      sort: name", "+      sort: [name, price]"])
        #expect(result.endpoint.query.map(\.value) == ["10", "name", "price"])

        result = try write(EndpointEdits(query: Self.listQuery.reversed()), into: "list")
        #expect(result.endpoint.query.map(\.name) == ["sort", "limit"])
        #expect(result.diff.count == 2)

        // Items of one name around another cannot be written in order: refused.
        let (_, service) = try folder()
        let interleaved = EndpointEdits(query: [.init(name: "a", value: "1"), .init(name: "b", value: "2"), .init(name: "a", value: "3")])
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(interleaved, endpoint: "list", of: service) }
    }

    @Test func anAbsentEntryIsAddedWhereItBelongsAndAnEmptiedOneRemoved() throws {
        var result = try write(EndpointEdits(query: [.init(name: "mode", value: "full")]), into: "create")
        #expect(result.diff == ["+    query: { mode: full }"])
        #expect(result.text.contains("    path: /items\n    query: { mode: full }\n    headers: { Content-Type: application/json }\n"))

        result = try write(EndpointEdits(headers: []), into: "create")
        #expect(result.diff == ["-    headers: { Content-Type: application/json }"])

        result = try write(EndpointEdits(headers: Self.listHeaders.map { EndpointEdits.Item(name: $0.name, value: $0.value, isEnabled: false) }), into: "list")
        #expect(result.diff == ["-    headers:", "-      X-Trace: abc", "-      X-Mode: fast"])
        #expect(result.endpoint.headers.isEmpty)
    }

    // MARK: Omitted headers

    @Test func inheritedHeadersTurnedOffBecomeOmitHeaders() throws {
        var result = try write(EndpointEdits(removedHeaders: ["X-Client"]), into: "list")
        #expect(result.diff == ["+    omitHeaders: [X-Client]"])
        #expect(result.text.contains("      X-Mode: fast\n    omitHeaders: [X-Client]\n    stub:\n"))
        #expect(result.endpoint.omittedHeaders == ["X-Client"])

        // Another one is added to the list; one already there (in any case) changes nothing.
        result = try write(EndpointEdits(removedHeaders: ["Accept"]), into: "list", of: result.text)
        #expect(result.diff == ["-    omitHeaders: [X-Client]", "+    omitHeaders: [X-Client, Accept]"])
        result = try write(EndpointEdits(removedHeaders: ["x-client"]), into: "list", of: result.text)
        #expect(result.diff.isEmpty)

        // A block list gains a line.
        result = try write(EndpointEdits(removedHeaders: ["X-Client"]), into: "quiet")
        #expect(result.diff == ["+      - X-Client"])
        #expect(result.endpoint.omittedHeaders == ["Accept", "X-Client"])
    }

    // MARK: Bodies

    @Test func aJSONBodyInBlockStyleChangesMemberByMember() throws {
        var result = try write(EndpointEdits(body: .text(#"{"name": "Lamp", "price": 13, "tags": ["a", "b"]}"#, isJSON: true)), into: "create")
        #expect(result.diff == ["-      price: 12", "+      price: 13"])

        result = try write(EndpointEdits(body: .text(#"{"name": "Lamp", "price": 12, "tags": ["a", "b"], "owner": {"id": 7, "note": "{{note}}"}}"#, isJSON: true)), into: "create")
        #expect(result.diff == [#"+      owner: { id: 7, note: "{{note}}" }"#])
        #expect(result.endpoint.body == .json(try JSONValue.parse(#"{"name": "Lamp", "price": 12, "tags": ["a", "b"], "owner": {"id": 7, "note": "{{note}}"}}"#)))

        // Numbers keep their literal, strings that look like other things are quoted.
        let json = #"{"name": "true", "price": 12.50, "tags": [], "code": "007"}"#
        result = try write(EndpointEdits(body: .text(json, isJSON: true)), into: "create")
        #expect(result.diff == ["-      name: Lamp", "-      price: 12", "-      tags: [a, b]", #"+      name: "true""#, "+      price: 12.50", "+      tags: []", #"+      code: "007""#])
        #expect(result.endpoint.body == .json(try JSONValue.parse(json)))
    }

    @Test func aFlowJSONBodyIsRewrittenOnItsLine() throws {
        let text = Self.catalog.replacingOccurrences(of: "    body:\n      name: Lamp\n      price: 12\n      tags: [a, b]\n", with: "    body: { name: Lamp }   # the item\n")
        let result = try write(EndpointEdits(body: .text(#"{"name": "Desk", "size": [1, 2]}"#, isJSON: true)), into: "create", of: text)
        #expect(result.diff == ["-    body: { name: Lamp }   # the item", "+    body: { name: Desk, size: [1, 2] }   # the item"])
    }

    @Test func textBodiesAndSwitchingKinds() throws {
        // JSON to text: the key's lines are replaced where they were.
        var result = try write(EndpointEdits(body: .text("plain words", isJSON: false)), into: "create")
        #expect(result.diff == ["-    body:", "-      name: Lamp", "-      price: 12", "-      tags: [a, b]", #"+    body: "plain words""#])
        #expect(result.endpoint.body == .text("plain words", contentType: nil))

        // Several lines are a literal block.
        result = try write(EndpointEdits(body: .text("line one\n  indented\n\nlast\n", isJSON: false)), into: "create")
        #expect(result.text.contains("    body: |\n      line one\n        indented\n\n      last\n    stub:\n"))
        #expect(result.endpoint.body == .text("line one\n  indented\n\nlast\n", contentType: nil))

        // JSON to a form, a form to none.
        result = try write(EndpointEdits(body: .form([.init(name: "name", value: "Lamp"), .init(name: "price", value: "12")])), into: "create")
        #expect(result.diff == ["-    body:", "-      name: Lamp", "-      price: 12", "-      tags: [a, b]", #"+    form: { name: Lamp, price: "12" }"#])
        result = try write(EndpointEdits(body: EndpointEdits.Body.none), into: "create")
        #expect(result.diff == ["-    body:", "-      name: Lamp", "-      price: 12", "-      tags: [a, b]"])
        #expect(result.endpoint.body == .none)
    }

    @Test func formsChangeOnTheirLine() throws {
        var result = try write(EndpointEdits(body: .form([.init(name: "user", value: "bob"), .init(name: "password", value: "{{secret.SHOP_PASSWORD}}")])), into: "login")
        #expect(result.diff == [
            #"-    form: { user: ann, password: "{{secret.SHOP_PASSWORD}}" }   # sent url-encoded"#,
            #"+    form: { user: bob, password: "{{secret.SHOP_PASSWORD}}" }   # sent url-encoded"#,
        ])
        // Every field off is still a form, an empty one.
        result = try write(EndpointEdits(body: .form([.init(name: "user", value: "ann", isEnabled: false)])), into: "login")
        #expect(result.diff == [#"-    form: { user: ann, password: "{{secret.SHOP_PASSWORD}}" }   # sent url-encoded"#, "+    form: {}   # sent url-encoded"])
        #expect(result.endpoint.body == .form([]))
    }

    @Test func aBodyFromAFileBecomesAnInlineBody() throws {
        let result = try write(EndpointEdits(body: .text("a new note", isJSON: false)), into: "upload")
        #expect(result.diff == ["-    bodyFile: fixtures/note.txt", #"+    body: "a new note""#])
        #expect(result.endpoint.body == .text("a new note", contentType: nil))
    }

    // MARK: The whole file

    @Test func crlfFilesStayCRLF() throws {
        let text = Self.catalog.replacingOccurrences(of: "\n", with: "\r\n")
        var headers = Self.listHeaders
        headers[1].value = "slow"
        let edits = EndpointEdits(
            method: .put, query: Self.listQuery + [.init(name: "page", value: "2")], headers: headers, removedHeaders: ["Accept"],
            body: .text(#"{"a": 1}"#, isJSON: true))
        let result = try write(edits, into: "list", of: text)
        let lf = try write(edits, into: "list")
        #expect(result.text == lf.text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(!result.text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(result.endpoint.method == .put)
        #expect(lf.diff == [
            "+    method: PUT", "+      page: \"2\"", "-      X-Mode: fast", "+      X-Mode: slow", "+    omitHeaders: [Accept]", "+    body: { a: 1 }",
        ])
    }

    @Test func aFlowStyleEndpointIsRefusedWithItsPlace() throws {
        let (folder, service) = try folder()
        do {
            _ = try CatalogUpdate.writing(EndpointEdits(path: "/other"), endpoint: "inline", of: service)
            Issue.record("a flow-style endpoint was edited")
        } catch {
            #expect(error.message.hasSuffix("shop.yaml:57:3: endpoint 'inline' is written in flow style ({ … }); write it as a block mapping (one key per line) to save edits into it"), "\(error.message)")
        }
        #expect(folder.read("shop.yaml") == Self.catalog)
    }

    @Test func whatWouldNotLoadAsAskedIsNeverWritten() throws {
        let (folder, service) = try folder()
        // The loader refuses a path with a query: the check finds the new error.
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(EndpointEdits(path: "/items?x=1"), endpoint: "list", of: service) }
        // A JSON body that is one string would load as text.
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(EndpointEdits(body: .text(#""word""#, isJSON: true)), endpoint: "list", of: service) }
        // JSON that does not parse.
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(EndpointEdits(body: .text("{", isJSON: true)), endpoint: "list", of: service) }
        // A form field without a value.
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(EndpointEdits(body: .form([.init(name: "a", value: nil)])), endpoint: "list", of: service) }
        #expect(throws: AuthoringError.self) { try CatalogUpdate.writing(EndpointEdits(), endpoint: "missing", of: service) }
        #expect(folder.read("shop.yaml") == Self.catalog)
        #expect(folder.fileNames() == ["fixtures", "shop.yaml"])

        // A change the check refuses explains what would differ.
        let shared = Self.catalog.replacingOccurrences(of: "    headers: { Content-Type: application/json }\n", with: "    headers: &json { Content-Type: application/json }\n")
            .replacingOccurrences(of: "    bodyFile: fixtures/note.txt\n", with: "    bodyFile: fixtures/note.txt\n    headers: *json\n")
        let (other, anchored) = try self.folder(shared)
        do {
            _ = try CatalogUpdate.writing(EndpointEdits(headers: [.init(name: "Content-Type", value: "text/csv")]), endpoint: "create", of: anchored)
            Issue.record("an edit changing another endpoint was accepted")
        } catch {
            #expect(error.message.contains("nothing was written"), "\(error.message)")
        }
        #expect(other.read("shop.yaml") == shared)
    }

    @Test func aCopyIsANewEndpointAtTheEnd() throws {
        let (folder, service) = try folder()
        var headers = EndpointEdits.items(of: try #require(service.endpoint("create")).headers)
        headers.append(.init(name: "X-Copy", value: "1"))
        let update = try CatalogUpdate.copying("create", of: service, as: "createTwo", with: EndpointEdits(headers: headers, removedHeaders: ["Accept"]))
        try update.commit()
        let text = try #require(folder.read("shop.yaml"))
        #expect(text == Self.catalog + """

              createTwo:
                title: Create an item (copy)
                group: signedIn
                method: POST
                path: /items
                headers: { Content-Type: application/json, X-Copy: "1" }
                omitHeaders: [Accept]
                body:
                  name: Lamp
                  price: 12
                  tags: [a, b]
                stub:
                  status: 201

            """)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let copy = try #require(catalog.service("shop")?.endpoint("createTwo"))
        #expect(copy.group == "signedIn")
        #expect(copy.headers.map(\.name) == ["Content-Type", "X-Copy"])
        #expect(copy.omittedHeaders == ["Accept"])
        #expect(catalog.service("shop")?.endpoints.last?.id == "createTwo")

        let titled = try CatalogUpdate.copying("list", of: service, as: "listAgain", title: "Again", with: EndpointEdits())
        #expect(titled.text.contains("  listAgain:\n    title: Again   # shown in the list\n    path: /items\n"))
        #expect(throws: AuthoringError.self) { try CatalogUpdate.copying("list", of: service, as: "create", with: EndpointEdits()) }
        #expect(throws: AuthoringError.self) { try CatalogUpdate.copying("inline", of: service, as: "inline2", with: EndpointEdits()) }
    }

    // MARK: Round trips over the bundled catalogs

    /// Edits of every kind for an endpoint, and all of them at once.
    static func generatedEdits(for endpoint: CatalogEndpoint, inherited: [String]) -> [EndpointEdits] {
        var query = EndpointEdits.items(of: endpoint.query)
        if !query.isEmpty { query[0].value = "changed {{page}}" }
        if query.count > 1 { query[1].isEnabled = false }
        query.append(.init(name: "added", value: "yes"))
        var headers = EndpointEdits.items(of: endpoint.headers)
        if !headers.isEmpty { headers[0].value = "edited: value" }
        headers.append(.init(name: "X-Edited", value: "{{requestId}}"))
        let removed = Set(inherited.prefix(2))
        var list = [
            EndpointEdits(method: endpoint.method == .post ? .patch : .post),
            EndpointEdits(path: endpoint.path + "/edited"),
            EndpointEdits(query: query),
            EndpointEdits(headers: headers),
            EndpointEdits(removedHeaders: removed),
            EndpointEdits(body: .text(#"{"name": "Chair", "tags": ["a", "{{x}}"], "price": 1.50, "none": null, "nested": {"deep": [{"k": true}]}}"#, isJSON: true)),
            EndpointEdits(body: .text("two\nlines\n", isJSON: false)),
            EndpointEdits(body: .form([.init(name: "a", value: "1"), .init(name: "b c", value: "yes")])),
            EndpointEdits(body: EndpointEdits.Body.none),
            EndpointEdits(method: .delete, path: "/all", query: query, headers: headers, removedHeaders: removed, body: .text("[1, 2]", isJSON: true)),
        ]
        if case .json(.object(var object)) = endpoint.body, let first = object.first {
            object[first.key] = "replaced"
            object["addedMember"] = ["x": 1]
            list.append(EndpointEdits(body: .text(JSONValue.object(object).compactText, isJSON: true)))
        }
        // A WebSocket's handshake is a GET without a body: only its URL and headers can change.
        if endpoint.webSocket != nil { return list.filter { $0.body == nil && $0.method == nil } }
        return list
    }

    @Test(arguments: ["httpbin", "petstore"])
    func everyBundledEndpointLoadsBackAsEdited(_ serviceID: String) throws {
        let folder = try TemporaryDirectory()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("environments")
        let copy = folder.url.appendingPathComponent("environments")
        try FileManager.default.copyItem(at: source, to: copy)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: copy, displayPath: copy.path), trust: .everything)
        let service = try #require(catalog.service(serviceID))
        let original = try String(contentsOf: copy.appendingPathComponent("\(serviceID).yaml"), encoding: .utf8)
        let comments = original.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        for endpoint in service.endpoints {
            var inherited = service.environments.flatMap { $0.headers.map(\.name) }
            if let group = endpoint.group { inherited += service.environments.flatMap { $0.groupHeaders[group]?.map(\.name) ?? [] } }
            for edits in Self.generatedEdits(for: endpoint, inherited: Array(Set(inherited)).sorted()) {
                let update: CatalogUpdate
                do {
                    update = try CatalogUpdate.writing(edits, endpoint: endpoint.id, of: service)
                } catch {
                    Issue.record("\(serviceID)/\(endpoint.id): \(error.message)\n\(edits)")
                    continue
                }
                let after = try update.validate(serviceID: serviceID)
                let written = try #require(after.endpoint(endpoint.id))
                let expected = try endpoint.applying(edits)
                #expect(written.method == expected.method && written.path == expected.path && written.query == expected.query)
                #expect(written.headers.map { "\($0.name): \($0.value)" } == expected.headers.map { "\($0.name): \($0.value)" })
                // A catalog holds an edited JSON body as YAML; a send carries the bytes typed.
                var expectedBody = expected.body
                if case .text(let text, true)? = edits.body { expectedBody = .json(try JSONValue.parse(text)) }
                #expect(written.body == expectedBody, "\(endpoint.id)")
                #expect(Set(written.omittedHeaders.map { $0.lowercased() }) == Set((endpoint.omittedHeaders.union(edits.removedHeaders)).map { $0.lowercased() }))
                #expect(written.stub == endpoint.stub && written.examples == endpoint.examples && written.parameters == endpoint.parameters)
                #expect(after.endpoints.map(\.id) == service.endpoints.map(\.id))
                let lines = Set(update.text.components(separatedBy: "\n"))
                #expect(comments.allSatisfy(lines.contains), "a comment was lost editing \(endpoint.id)")
            }
            // A copy with every kind of edit at once loads back too (a WebSocket's: all but method and body).
            var all = try #require(Self.generatedEdits(for: endpoint.webSocket == nil ? endpoint : CatalogEndpoint(id: endpoint.id, serviceID: serviceID, path: endpoint.path), inherited: inherited).dropFirst(9).first)
            if endpoint.webSocket != nil {
                all.method = nil
                all.body = nil
            }
            let update = try CatalogUpdate.copying(endpoint.id, of: service, as: endpoint.id + "Copy", with: all)
            let copied = try #require(try update.validate(serviceID: serviceID).endpoint(endpoint.id + "Copy"))
            #expect(copied.path == "/all" && copied.title == endpoint.title + " (copy)" && copied.group == endpoint.group)
        }
    }
}
