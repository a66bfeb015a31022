import Catalog
import OAuth2
import FoundationEssentials
import Synchronization

/// Live OAuth 2.0 tokens kept between runs (`persist: true`): the state folder's `tokens.json`,
/// readable by the owner only, replaced atomically; never in the history, exports or logs.
public final class TokenFile: TokenPersistence {
    private let file: EnvironmentStateFile<OAuth2Token>
    /// Saves are read-modify-write: one at a time.
    private let lock = Mutex(())

    /// The token file in the folder at `directoryPath` (the state directory by default).
    public init(directoryPath: String = StateDirectory.path()) {
        file = EnvironmentStateFile(name: "tokens.json", directoryPath: directoryPath)
    }

    /// The token file in `directory`.
    public convenience init(directory: URL) {
        self.init(directoryPath: directory.path)
    }

    /// Where the tokens are.
    public var fileURL: URL { file.fileURL }

    public func token(for environment: EnvironmentKey) -> OAuth2Token? {
        lock.withLock { _ in file.load()[environment] }
    }

    /// Every token kept, by service and environment.
    public func all() -> [EnvironmentKey: OAuth2Token] {
        lock.withLock { _ in file.load() }
    }

    public func keep(_ token: OAuth2Token?, for environment: EnvironmentKey) {
        lock.withLock { _ in
            // A full disk must not fail a request: the token is then kept for this run only.
            try? file.update { $0[environment] = token }
        }
    }
}
