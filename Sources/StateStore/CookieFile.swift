import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import Synchronization

/// Live cookie jars kept between runs (`cookies: { persist: true }`): the state folder's
/// `cookies.json`, readable by the owner only, replaced atomically.
package final class CookieFile: CookiePersistence {
    private let file: EnvironmentStateFile<[Cookie]>
    /// The file's name in the state folder.
    package static let fileName = "cookies.json"
    /// Saves are read-modify-write: one at a time.
    private let lock = Mutex(())

    /// The cookie file in the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) {
        file = EnvironmentStateFile(name: Self.fileName, directoryPath: directoryPath)
    }

    /// The cookie file in `directory`.
    package convenience init(directory: URL) {
        self.init(directoryPath: directory.path)
    }

    /// Where the cookies are.
    package var fileURL: URL { file.fileURL }

    package func cookies(for environment: EnvironmentKey) -> [Cookie] {
        lock.withLock { _ in file.load()[environment] ?? [] }
    }

    package func keep(_ cookies: [Cookie], for environment: EnvironmentKey) {
        lock.withLock { _ in
            // A full disk must not fail a request: the cookies are then kept for this run only.
            try? file.update { $0[environment] = cookies.isEmpty ? nil : cookies }
        }
    }
}
