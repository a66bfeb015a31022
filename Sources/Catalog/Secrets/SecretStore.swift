import DispatcherCore
import FoundationEssentials
import SystemSupport

/// Where `{{secret.NAME}}` values come from: what the catalog declares, never any environment
/// variable it happens to name. A trusted catalog reads `APIEXPLORER_SECRET_NAME` from the process
/// environment, or the variable it declares for NAME (`secrets: { NAME: { env: VARIABLE } }`);
/// any catalog reads the git-ignored `.env` beside it. Values never appear in descriptions, dumps
/// or diagnostics.
public struct SecretStore: Sendable, CustomStringConvertible, CustomReflectable {
    /// Where a secret's value was found.
    package enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The credential store of the auth refresh rule (a token obtained at run time).
        case refreshedToken
        /// The process environment, with the variable's name.
        case processEnvironment(String)
        /// The `.env` file (its path as shown).
        case dotEnv(String)
        /// The environment's `secretDefaults` in the catalog (demo values).
        case catalogDefault(environment: String)

        package var description: String {
            switch self {
            case .refreshedToken: "the refreshed token"
            case .processEnvironment(let variable): "$\(variable)"
            case .dotEnv(let path): path
            case .catalogDefault(let environment): "secretDefaults of environment \(environment)"
            }
        }
    }

    /// The prefix of the environment variables any trusted catalog may read secrets from.
    package static let environmentPrefix = "APIEXPLORER_SECRET_"

    private let processEnvironment: [String: String]
    private let dotEnv: [String: String]
    /// The `.env` file as shown to the user (`environments/.env`), when the catalog has a folder.
    package let dotEnvPath: String?

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
        // A FIFO, a device or an oversized `.env` gives no secrets (`validate` says why).
        guard let data = FileContents.read(atPath: url.path, atMost: DotEnv.maximumFileSize) else {
            return SecretStore(processEnvironment: processEnvironment, dotEnvPath: path)
        }
        let values = DotEnv.parse(String(decoding: data, as: UTF8.self)).values
        return SecretStore(processEnvironment: processEnvironment, dotEnv: values, dotEnvPath: path)
    }

    /// The environment variables `service` may read `name` from, in order: the variable it
    /// declares for it, then `APIEXPLORER_SECRET_NAME`. None when the service is not trusted.
    package static func environmentVariables(for name: String, in service: Service) -> [String] {
        guard service.isTrusted else { return [] }
        return (service.secretVariables[name].map { [$0] } ?? []) + [environmentPrefix + name]
    }

    /// A secret's value for `service` and where it was found.
    package func lookup(_ name: String, for service: Service) -> (value: String, source: Source)? {
        for variable in Self.environmentVariables(for: name, in: service) {
            if let value = processEnvironment[variable] { return (value, .processEnvironment(variable)) }
        }
        if let value = dotEnv[name] { return (value, .dotEnv(dotEnvPath ?? ".env")) }
        return nil
    }

    /// A secret's value for `service`.
    package func value(_ name: String, for service: Service) -> String? { lookup(name, for: service)?.value }

    /// Where a missing secret can be set, for error messages.
    package func hint(for service: Service) -> SecretHint {
        SecretHint(dotEnvPath: dotEnvPath, readsEnvironment: service.isTrusted, declaredVariables: service.secretVariables)
    }

    /// The standard redactor masking every `.env` value and the values of `names` wherever they appear.
    package func redactor(masking names: some Sequence<String>, for service: Service, base: Redactor = .standard) -> Redactor {
        base.adding(secretValues: Array(dotEnv.values) + names.compactMap { value($0, for: service) })
    }

    public var description: String {
        "SecretStore(\(processEnvironment.count) process variables, \(dotEnv.count) from \(dotEnvPath ?? "no .env"))"
    }

    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Where a secret without a value can be set, said in an error.
package struct SecretHint: Sendable, Hashable {
    /// The `.env` beside the catalog, as shown.
    package var dotEnvPath: String?
    /// Whether the catalog is trusted to read secrets from the process environment.
    package var readsEnvironment: Bool
    /// The environment variables the catalog declares, by secret name.
    package var declaredVariables: [String: String]

    /// `set $APIEXPLORER_SECRET_TOKEN, or TOKEN in cat/.env`.
    package func sentence(for name: String) -> String {
        let file = dotEnvPath.map { " or \(name) in \($0)" } ?? ""
        guard readsEnvironment else {
            return "the catalog is not trusted, so no secret is read from the environment: set \(name) in \(dotEnvPath ?? ".env"), "
                + "or trust the catalog (apiexplorer trust)"
        }
        let variable = declaredVariables[name] ?? SecretStore.environmentPrefix + name
        return "set $\(variable) in the environment\(file)"
    }
}
