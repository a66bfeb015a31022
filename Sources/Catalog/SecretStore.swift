import DispatcherCore
import FoundationEssentials
import SystemSupport

/// Where `{{secret.NAME}}` values come from: the process environment first, then the git-ignored
/// `.env` beside the catalog. Values never appear in descriptions, dumps or diagnostics.
public struct SecretStore: Sendable, CustomStringConvertible, CustomReflectable {
    /// Where a secret's value was found.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The credential store of the auth refresh rule (a token obtained at run time).
        case refreshedToken
        /// The process environment.
        case processEnvironment
        /// The `.env` file (its path as shown).
        case dotEnv(String)
        /// The environment's `secretDefaults` in the catalog (demo values).
        case catalogDefault(environment: String)

        public var description: String {
            switch self {
            case .refreshedToken: "the refreshed token"
            case .processEnvironment: "the process environment"
            case .dotEnv(let path): path
            case .catalogDefault(let environment): "secretDefaults of environment \(environment)"
            }
        }
    }

    private let processEnvironment: [String: String]
    private let dotEnv: [String: String]
    /// The `.env` file as shown to the user (`environments/.env`), when the catalog has a folder.
    public let dotEnvPath: String?

    /// Makes a store from the process environment and `.env` values.
    public init(processEnvironment: [String: String] = ProcessEnvironment.variables, dotEnv: [String: String] = [:], dotEnvPath: String? = nil) {
        self.processEnvironment = processEnvironment
        self.dotEnv = dotEnv
        self.dotEnvPath = dotEnvPath
    }

    /// The store for a catalog source: the process environment and the source folder's `.env`.
    public static func load(for source: CatalogSource, processEnvironment: [String: String] = ProcessEnvironment.variables) -> SecretStore {
        guard let directory = source.directory else { return SecretStore(processEnvironment: processEnvironment) }
        let path = source.displayPath(of: ".env")
        let url = directory.appendingFilePath(".env")
        guard let data = FileContents.read(atPath: url.path) else {
            return SecretStore(processEnvironment: processEnvironment, dotEnvPath: path)
        }
        let values = DotEnv.parse(String(decoding: data, as: UTF8.self)).values
        return SecretStore(processEnvironment: processEnvironment, dotEnv: values, dotEnvPath: path)
    }

    /// A secret's value and where it was found.
    public func lookup(_ name: String) -> (value: String, source: Source)? {
        if let value = processEnvironment[name] { return (value, .processEnvironment) }
        if let value = dotEnv[name] { return (value, .dotEnv(dotEnvPath ?? ".env")) }
        return nil
    }

    /// A secret's value.
    public func value(_ name: String) -> String? { lookup(name)?.value }

    /// Where to set a missing secret, for error messages.
    public var whereToSet: String {
        dotEnvPath.map { "set it in the environment or in \($0)" } ?? "set it in the environment"
    }

    /// The standard redactor masking every `.env` value and the values of `names` wherever they appear.
    public func redactor(masking names: some Sequence<String>, base: Redactor = .standard) -> Redactor {
        base.adding(secretValues: Array(dotEnv.values) + names.compactMap { value($0) })
    }

    public var description: String {
        "SecretStore(\(processEnvironment.count) process variables, \(dotEnv.count) from \(dotEnvPath ?? "no .env"))"
    }

    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
