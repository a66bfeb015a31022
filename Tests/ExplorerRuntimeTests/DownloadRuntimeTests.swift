import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import TerminalKit
import TestSupport
import Testing
import TestTraits

/// `d` in the real runtime: the body goes to the file typed, and the Body tab browses that file.
@Suite(.offPool) struct DownloadRuntimeTests {
    static let catalog = """
        service: files
        environments:
          local: { baseURL: "http://127.0.0.1:9", fixtures: immediate }
        endpoints:
          report:
            path: /files/report.json
            stub: { body: { title: Quarterly, rows: [1, 2, 3] } }

        """

    @Test func dDownloadsTheBodyToTheFileTypedAndTheBodyTabShowsIt() async throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("saved.json").path
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["files.yaml": Self.catalog]), source: .bundled)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil, device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        runtime.post(.terminal(.key(try KeyEvent(parsing: "d"))))
        await runtime.waitUntilIdle()
        guard case .exchanges(.download(let dialog))? = runtime.currentState.overlay else {
            Issue.record("no download question")
            return
        }
        // The name comes from the endpoint's path.
        #expect(dialog.input.text == "report.json")
        runtime.post(.terminal(.key(try KeyEvent(parsing: "C-u"))))
        for character in target { runtime.post(.terminal(.key(KeyEvent(.character(character))))) }
        runtime.post(.terminal(.key(try KeyEvent(parsing: "Enter"))))
        await runtime.waitUntilIdle()
        let response = try #require(runtime.currentState.responses[EndpointKey(service: "files", endpoint: "report")]?.exchange.response)
        #expect(response.downloadedFile?.path == target)
        #expect(response.body.isEmpty)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == #"{"title":"Quarterly","rows":[1,2,3]}"#)
        let screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains(#""title": "Quarterly""#), "\(screen)")
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func anEndpointThatSaysDownloadIsDownloadedOnEnter() async throws {
        let folder = try TemporaryDirectory()
        // The catalog names a file; it goes in the downloads folder.
        let target = folder.url.appendingPathComponent("always.json").path
        let text = Self.catalog + "    download: always.json\n"
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["files.yaml": text]), source: .bundled)
        #expect(catalog.service("files")?.endpoint("report")?.download == "always.json")
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(
            catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil, device: terminal,
            environment: ["APIEXPLORER_DOWNLOADS": folder.path])
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        runtime.post(.terminal(.key(try KeyEvent(parsing: "Enter"))))
        await runtime.waitUntilIdle()
        #expect(runtime.currentState.responses[EndpointKey(service: "files", endpoint: "report")]?.exchange.response?.downloadedFile?.path == target, "\(runtime.currentState.notice ?? "")")
        #expect(FileManager.default.fileExists(atPath: target))
        runtime.post(.terminalClosed)
        await running.value
    }
}
