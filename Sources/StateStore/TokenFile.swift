import Catalog
import OAuth2
import FoundationEssentials
import Sessions
import Synchronization

/// Live OAuth 2.0 tokens kept between runs (`persist: true`): the state folder's `tokens.json`,
/// readable by the owner only, replaced atomically; never in the history, exports or logs.
package final class TokenFile: TokenPersistence {
    private let file: EnvironmentStateFile<OAuth2Token>
    /// The file's name in the state folder.
    package static let fileName = "tokens.json"
    /// Saves are read-modify-write: one at a time.
    private let lock = Mutex(())

    /// The token file in the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) {
        file = EnvironmentStateFile(name: Self.fileName, directoryPath: directoryPath)
    }

    /// The token file in `directory`.
    package convenience init(directory: URL) {
        self.init(directoryPath: directory.path)
    }

    /// Where the tokens are.
    package var fileURL: URL { file.fileURL }

    package func token(for environment: EnvironmentKey) -> OAuth2Token? {
        lock.withLock { _ in file.load()[environment] }
    }

    /// Every token kept, by catalog, service and environment.
    package func all() -> [EnvironmentKey: OAuth2Token] {
        lock.withLock { _ in file.load() }
    }

    package func keep(_ token: OAuth2Token?, for environment: EnvironmentKey) {
        lock.withLock { _ in
            // A full disk must not fail a request: the token is then kept for this run only.
            try? file.update { $0[environment] = token }
        }
    }
}
