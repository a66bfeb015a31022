import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import StateStore
import TerminalKit
import TestSupport
import Testing
import TestTraits

/// Drafts and run-time values in the real runtime: kept in the state folder as they are made,
/// restored at the next launch; the body edited in $EDITOR.
@Suite(.offPool) struct EditingRuntimeTests {
    static func runtime(state folder: TemporaryDirectory, terminal: HeadlessTerminal, environment: [String: String] = [:]) -> ExplorerRuntime {
        let catalog = TestCatalog.load()
        let services = ExplorerServices(
            loadCatalog: { (catalog, SecretStore()) }, transport: nil, environment: environment,
            drafts: ExplorerStateFiles.drafts(in: folder.url), values: ExplorerStateFiles.values(in: folder.url))
        return ExplorerRuntime(device: terminal, services: services)
    }

    @Test func draftsAndValuesSurviveARestart() async throws {
        let folder = try TemporaryDirectory()
        let key = DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "getItem"), in: TestCatalog.key("shop", "local"))
        do {
            let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
            let runtime = Self.runtime(state: folder, terminal: terminal)
            let running = Task { await runtime.run() }
            await runtime.waitUntilIdle()
            for key in try KeyEvent.parseSequence("j Tab 6 Enter C-u P U T Enter 7 Enter C-u 4 2 Enter") {
                runtime.post(.terminal(.key(key)))
            }
            await runtime.waitUntilIdle()
            runtime.post(.terminalClosed)
            await running.value
        }
        let local = TestCatalog.key("shop", "local")
        #expect(ExplorerStateFiles.drafts(in: folder.url).load() == [local: ["getItem": EndpointEdits(method: .put)]])
        #expect(ExplorerStateFiles.values(in: folder.url).load() == [local: ["id": "42"]])

        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = Self.runtime(state: folder, terminal: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        let state = runtime.currentState
        #expect(state.drafts[key] == EndpointEdits(method: .put))
        #expect(state.editing.runtimeValues[local] == ["id": "42"])
        #expect(state.notice?.contains("Restored 1 draft") == true)
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func theBodyIsEditedInTheEditorAndCheckedWhenItComesBack() async throws {
        let folder = try TemporaryDirectory()
        // An "editor" that writes a JSON body into the file it is given.
        let editor = folder.url.appendingPathComponent("editor.sh")
        try Data("#!/bin/sh\nprintf '{\"name\": \"Desk\",\\n \"legs\": 4}\\n' > \"$1\"\n".utf8).write(to: editor)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = Self.runtime(state: folder, terminal: terminal, environment: ["EDITOR": editor.path, "PATH": "/usr/bin:/bin"])
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        // createItem, Edit tab, the body row, O
        for key in try KeyEvent.parseSequence("j j Tab 6 j j j j O") { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        let key = DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "createItem"), in: TestCatalog.key("shop", "local"))
        #expect(runtime.currentState.drafts[key]?.body == .text("{\"name\": \"Desk\",\n \"legs\": 4}", isJSON: true))
        #expect(terminal.suspensionCount == 1)
        runtime.post(.terminalClosed)
        await running.value
    }
}

/// Catalog files changed while the explorer runs.
@Suite(.offPool) struct CatalogReloadRuntimeTests {
    /// A runtime over `shop.yaml` in a temporary folder, read and reloaded from disk.
    static func runtimeOverAFolder(_ folder: TemporaryDirectory, terminal: HeadlessTerminal) throws -> ExplorerRuntime {
        try Data(TestCatalog.shop.utf8).write(to: folder.url.appendingPathComponent("shop.yaml"))
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
        let services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(from: source), transport: nil, environment: [:],
            reloadCatalog: ExplorerServices.reloading(from: source))
        return ExplorerRuntime(device: terminal, services: services)
    }

    @Test func aDraftWrittenIntoItsFileChangesOnlyItsLinesAndTheExplorerFollows() async throws {
        let folder = try TemporaryDirectory()
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = try Self.runtimeOverAFolder(folder, terminal: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        // getItem, Edit tab: the method becomes PUT, then W and yes.
        for key in try KeyEvent.parseSequence("j Tab 6 Enter C-u P U T Enter W y") { runtime.post(.terminal(.key(key))) }
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("Wrote shop/getItem") }
        await runtime.waitUntilIdle()
        let written = try String(contentsOf: folder.url.appendingPathComponent("shop.yaml"), encoding: .utf8)
        let before = TestCatalog.shop.split(separator: "\n", omittingEmptySubsequences: false)
        let after = written.split(separator: "\n", omittingEmptySubsequences: false)
        // getItem had no method line: one line is added, every other line is as it was.
        let added = after.filter { !before.contains($0) }
        #expect(added.map { $0.trimmingCharacters(in: .whitespaces) } == ["method: PUT"])
        #expect(after.filter { $0.trimmingCharacters(in: .whitespaces) != "method: PUT" } == before)
        let state = runtime.currentState
        #expect(state.catalog.endpoint(EndpointKey(service: "shop", endpoint: "getItem"))?.endpoint.method == .put)
        #expect(state.drafts.isEmpty)
        // The file as it was is kept beside it; u puts it back and the edits into the draft again.
        #expect(try String(contentsOf: folder.url.appendingPathComponent("shop.yaml~"), encoding: .utf8) == TestCatalog.shop)
        runtime.post(.terminal(.key(try #require(KeyEvent("u")))))
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("The catalog file is back as it was before W") }
        await runtime.waitUntilIdle()
        #expect(try String(contentsOf: folder.url.appendingPathComponent("shop.yaml"), encoding: .utf8) == TestCatalog.shop)
        #expect(runtime.currentState.catalog.endpoint(EndpointKey(service: "shop", endpoint: "getItem"))?.endpoint.method == .get)
        #expect(runtime.currentState.drafts.count == 1)
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func aDraftSavedAsANewEndpointIsAddedAndSelected() async throws {
        let folder = try TemporaryDirectory()
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = try Self.runtimeOverAFolder(folder, terminal: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence("j Tab 6 Enter C-u P U T Enter N C-u p u t I t e m Enter") { runtime.post(.terminal(.key(key))) }
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("Saved as shop/putItem") }
        await runtime.waitUntilIdle()
        let state = runtime.currentState
        #expect(state.catalog.endpoint(EndpointKey(service: "shop", endpoint: "putItem"))?.endpoint.method == .put)
        #expect(state.catalog.endpoint(EndpointKey(service: "shop", endpoint: "getItem"))?.endpoint.method == .get)
        #expect(state.selectedEndpoint?.id == "putItem")
        #expect(state.drafts.isEmpty)
        let written = try String(contentsOf: folder.url.appendingPathComponent("shop.yaml"), encoding: .utf8)
        #expect(written.hasPrefix(TestCatalog.shop.components(separatedBy: "  getItem:")[0]))
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func anAppendedEndpointAppearsAndABrokenFileKeepsItsLastGoodVersion() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("shop.yaml")
        try Data(TestCatalog.shop.utf8).write(to: file)
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(from: source), transport: nil, environment: [:],
            reloadCatalog: ExplorerServices.reloading(from: source))
        let runtime = ExplorerRuntime(device: terminal, services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence("j j") { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        #expect(runtime.currentState.selectedEndpoint?.id == "createItem")

        // An endpoint added at the top: the cursor stays on createItem.
        let added = TestCatalog.shop.replacingOccurrences(of: "endpoints:\n", with: "endpoints:\n  health:\n    path: /health\n")
        try Data(added.utf8).write(to: URL(fileURLWithPath: file.path + ".tmp"))
        rename(file.path + ".tmp", file.path)
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("/health") }
        await runtime.waitUntilIdle()
        #expect(runtime.currentState.selectedEndpoint?.id == "createItem")
        #expect(runtime.currentState.notice == "Reloaded shop.yaml: 1 endpoint added.")

        // Broken: the last good version stays, with its errors.
        try Data((added + "\n  broken: [unclosed\n").utf8).write(to: file)
        // The bar names the first error where it is, as the launch does.
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("/shop.yaml:") && $0.contains(": error: ") }
        let state = runtime.currentState
        #expect(state.catalog.service("shop")?.endpoints.count == 5)
        #expect(state.catalog.diagnostics.contains { $0.isError })
        // D and the message log show the errors with file:line:column, as at launch.
        let error = try #require(state.catalog.diagnostics.first { $0.isError && !$0.message.contains("last good version") })
        #expect(error.line > 1)
        let place = "shop.yaml:\(error.line):\(error.column)"
        #expect(state.messages.entries.contains { $0.text.contains(place) })
        runtime.post(.terminal(.key(try #require(KeyEvent("D")))))
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains(place) }
        runtime.post(.terminalClosed)
        await running.value
    }
}

/// Scratch requests in the real runtime: read, sent through the core, saved into a catalog file.
@Suite(.offPool) struct ScratchRuntimeTests {
    /// Answers every request with `{"ok":true}` and keeps what it was sent.
    struct RecordingTransport: Transport {
        let sent = LockedValue<[Request]>([])

        func send(_ request: Request) async throws(TransportError) -> Response {
            sent.withLock { $0.append(request) }
            return Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: Data(#"{"ok":true}"#.utf8))
        }
    }

    @Test func aPastedCurlCommandIsSentWithTheEnvironmentsSettingsAndSaved() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("shop.yaml")
        try Data(TestCatalog.shop.utf8).write(to: file)
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
        let transport = RecordingTransport()
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(from: source), transport: transport, environment: [:],
            reloadCatalog: ExplorerServices.reloading(from: source))
        let runtime = ExplorerRuntime(device: terminal, services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        runtime.post(.terminal(.key(try #require(KeyEvent.parseSequence("C-n").first))))
        for character in "curl -X POST http://127.0.0.1:9/shop/items/5?x=1 -H 'X-Trace: t1' -d '{\"name\":\"Desk\"}'" {
            runtime.post(.terminal(.key(KeyEvent(.character(character)))))
        }
        runtime.post(.terminal(.key(try #require(KeyEvent.parseSequence("Enter").first))))
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("\"ok\": true") }
        await runtime.waitUntilIdle()
        let request = try #require(transport.sent.withLock { $0.first })
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/shop/items/5?x=1")
        #expect(request.headers["X-Trace"] == "t1")

        for key in try KeyEvent.parseSequence("W C-u s h o p Enter") { runtime.post(.terminal(.key(key))) }
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains("Saved as shop/") }
        await runtime.waitUntilIdle()
        let state = runtime.currentState
        #expect(state.scratch.entries.isEmpty)
        let saved = try #require(state.selectedEndpoint)
        #expect(saved.serviceID == "shop" && saved.method == .post)
        #expect(saved.path == "/items/{{itemId}}")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix(TestCatalog.shop))
        runtime.post(.terminalClosed)
        await running.value
    }
}

