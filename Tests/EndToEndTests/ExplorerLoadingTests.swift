import Foundation
import SystemSupport
import TestSupport
import Testing

extension EndToEnd {
    /// A long load shows how far it has come and can be ended at once by `q`, SIGTERM and SIGHUP,
    /// the terminal restored; a crash restores it before its report (issues 47 and 49).
    @Suite struct ExplorerLoadingTests {
        /// A folder of as many catalog files as a folder may hold: a first launch reads them all.
        static func manyCatalogs() throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-many-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for number in 0..<10_000 {
                let text = "service: s\(number)\nenvironments: { local: { baseURL: \"http://127.0.0.1:9\" } }\nendpoints: { get: { path: /x } }\n"
                try Data(text.utf8).write(to: folder.appendingPathComponent(String(format: "s%05d.yaml", number)))
            }
            return folder
        }

        /// The explorer on `folder` with a fresh state folder (so nothing is cached), once the
        /// loading screen counts files read.
        static func launchLoading(_ folder: URL) async throws -> (session: TmuxSession, state: URL) {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            let session = try ExplorerSessionTests.launch(
                "--trust --catalog \(TmuxSession.quote(folder.path))", environment: ["XDG_STATE_HOME": state.path])
            try await session.waitFor("/10000 catalog files")
            return (session, state)
        }

        /// Whether the load ran to its end: it then writes the folder's launch index.
        static func launchIndexWritten(_ state: URL) -> Bool {
            let cache = state.appendingPathComponent("apiexplorer/catalog-cache").path
            return ((try? DirectoryEntries.names(in: cache)) ?? []).contains { $0.hasSuffix(".launchindex") }
        }

        @Test func sigtermSighupAndQEndALongLoadAtOnce() async throws {
            let folder = try Self.manyCatalogs()
            defer { try? FileManager.default.removeItem(at: folder) }
            for (ending, status) in [("SIGTERM", "EXIT=143"), ("SIGHUP", "EXIT=129"), ("q", "EXIT=0")] {
                let (session, state) = try await Self.launchLoading(folder)
                defer {
                    session.close()
                    try? FileManager.default.removeItem(at: state)
                }
                let loading = try await session.capture()
                #expect(loading.contains("Loading ") && loading.contains("/10000 catalog files"), "\(loading)")
                switch ending {
                case "q": try await session.send("q")
                default:
                    let pid = try #require(try await session.programPID())
                    kill(pid, ending == "SIGTERM" ? SIGTERM : SIGHUP)
                }
                let screen = try await session.waitFor("EXIT=")
                #expect(screen.contains(status), "\(ending): \(screen)")
                ExplorerSessionTests.expectTerminalRestored(try await session.waitFor("STTY:"))
                // It ended during the load, not after it.
                #expect(!Self.launchIndexWritten(state), "\(ending) waited for the load to end")
            }
        }

        /// Keys typed during the load wait for the catalogs; the frame counts the files read meanwhile.
        @Test func theLoadingScreenCountsFilesAndTheCatalogsArriveWhole() async throws {
            let folder = try Self.manyCatalogs()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (session, state) = try await Self.launchLoading(folder)
            defer {
                session.close()
                try? FileManager.default.removeItem(at: state)
            }
            try await session.send("j")
            try await session.waitFor("Enter sends GET /x", timeout: .seconds(600))
            try await session.send("q")
            try await session.waitFor("EXIT=0")
            #expect(Self.launchIndexWritten(state))
        }

        /// A fatal signal while curses holds the terminal: the alternate screen is left and the
        /// tty's settings restored before the crash report, which lands readable on the normal screen.
        @Test func aCrashRestoresTheTerminalBeforeItsReport() async throws {
            for signal in [SIGSEGV, SIGABRT] {
                let session = try ExplorerSessionTests.launch()
                defer { session.close() }
                try await session.waitFor("Endpoints")
                let pid = try #require(try await session.programPID())
                kill(pid, signal)
                let screen = try await session.waitFor("STTY:")
                #expect(screen.contains("EXIT=\(128 + signal)"), "\(screen)")
                ExplorerSessionTests.expectTerminalRestored(screen)
                // Not drawn over: the explorer's frame is gone with the alternate screen, and the
                // lines after it start in the first column (the terminal is no longer raw).
                #expect(!screen.contains("Endpoints"), "\(screen)")
                #expect(screen.split(separator: "\n").contains { $0.hasPrefix("STTY: speed ") }, "\(screen)")
            }
        }
    }
}
