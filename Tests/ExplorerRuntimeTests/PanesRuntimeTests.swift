import Catalog
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import StateStore
import TerminalKit
import TestSupport
import Testing
import TestTraits

/// The list's width in the real runtime: kept in the state folder (`panes.json`) when set, read at
/// the next launch; two explorers sharing the folder never leave a damaged file.
@Suite(.offPool) struct PanesRuntimeTests {
    static func run(state folder: TemporaryDirectory, keys: String) async throws -> AppState {
        let catalog = TestCatalog.load()
        var services = ExplorerServices(loadCatalog: { (catalog, SecretStore()) }, transport: nil, environment: [:])
        services.panes = PanesFile(directoryPath: folder.url.path)
        let runtime = ExplorerRuntime(device: HeadlessTerminal(size: Size(width: 120, height: 40)), services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence(keys) { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        let state = runtime.currentState
        runtime.post(.terminalClosed)
        await running.value
        return state
    }

    @Test func theWidthSetIsTheNextLaunchsWidth() async throws {
        let folder = try TemporaryDirectory()
        let first = try await Self.run(state: folder, keys: "> > >")
        #expect(first.layout.sidebarWidth == 38 + 3 * PanesState.step)
        #expect(PanesFile(directoryPath: folder.url.path).load().listWidth == 50)
        let next = try await Self.run(state: folder, keys: "")
        #expect(next.layout.sidebarWidth == 50)
    }

    @Test func aMissingOrDamagedFileLeavesTheAutomaticWidth() async throws {
        let folder = try TemporaryDirectory()
        #expect(try await Self.run(state: folder, keys: "").layout.sidebarWidth == 38)
        try Data("{ not json".utf8).write(to: folder.url.appendingPathComponent("panes.json"))
        #expect(try await Self.run(state: folder, keys: "").layout.sidebarWidth == 38)
    }

    /// Writers in parallel (two explorers): every read sees a whole file holding one of the widths.
    @Test func writersInParallelLeaveAWholeFile() async throws {
        let folder = try TemporaryDirectory()
        let file = PanesFile(directoryPath: folder.url.path)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for width in 0..<50 {
                        try? file.update { $0.listWidth = 20 + writer * 50 + width }
                        let read = file.load().listWidth
                        #expect(read != nil && (20..<220).contains(read!))
                    }
                }
            }
        }
        #expect(file.load().listWidth.map { (20..<220).contains($0) } == true)
    }
}
