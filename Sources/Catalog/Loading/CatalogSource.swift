import FoundationEssentials
import SystemSupport

/// Where catalogs come from: `--catalog DIR`, else `$APIEXPLORER_CATALOG`, else `./environments`,
/// else the catalogs built into the binary (so an installed `apiexplorer` works from any folder).
public struct CatalogSource: Sendable, Hashable, CustomStringConvertible {
    /// Which rule of the lookup chose the source.
    public enum Origin: String, Sendable, Hashable {
        /// `--catalog DIR` (or `validate DIR`).
        case option
        /// `$APIEXPLORER_CATALOG`.
        case environmentVariable
        /// `./environments` in the current directory.
        case workingDirectory
        /// The catalogs compiled into the binary.
        case bundled
    }

    /// The environment variable naming a catalog folder.
    package static let environmentVariable = "APIEXPLORER_CATALOG"
    /// The folder looked for in the current directory.
    package static let defaultFolderName = "environments"
    /// How bundled files are shown in diagnostics.
    package static let bundledDisplayPath = "<bundled>"

    /// Which rule chose it.
    public var origin: Origin
    /// The folder (absolute); nil for bundled catalogs.
    public var directory: URL?
    /// The folder as the user wrote it, for messages (`environments`, `~/apis`, `<bundled>`).
    public var displayPath: String

    /// Makes a source.
    public init(origin: Origin, directory: URL?, displayPath: String) {
        self.origin = origin
        self.directory = directory
        var shown = displayPath
        while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
        self.displayPath = shown
    }

    /// The bundled catalogs.
    public static let bundled = CatalogSource(origin: .bundled, directory: nil, displayPath: bundledDisplayPath)

    /// A folder given on the command line, relative to `currentDirectory` (the process's when nil).
    public static func folder(_ path: String, origin: Origin = .option, currentDirectory: String? = nil) -> CatalogSource {
        CatalogSource(origin: origin, directory: absoluteURL(path, currentDirectory: currentDirectory), displayPath: path)
    }

    /// Applies the lookup order. An explicit folder or `$APIEXPLORER_CATALOG` is used even when it
    /// does not exist (loading then reports it), so a typo never silently falls back to other catalogs.
    /// `environment` and `currentDirectory` default to the process's, read only when the lookup
    /// gets to them (copying the environment into a dictionary is most of resolving `--catalog`).
    package static func resolve(
        option: String?, environment: [String: String]? = nil, currentDirectory: String? = nil,
        directoryExists: (String) -> Bool = CatalogSource.directoryExists(atPath:)
    ) -> CatalogSource {
        if let option, !option.isEmpty {
            return folder(option, origin: .option, currentDirectory: currentDirectory)
        }
        if let path = (environment ?? ProcessEnvironment.variables)[environmentVariable], !path.isEmpty {
            return folder(path, origin: .environmentVariable, currentDirectory: currentDirectory)
        }
        // A path, not a URL, until the folder is found: the usual launch has none, and URL's first
        // `appendingPathComponent` costs more than the rest of the lookup.
        let workingDirectory = currentDirectory ?? FileManager.default.currentDirectoryPath
        let local = (workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/") + defaultFolderName
        if directoryExists(local) {
            return CatalogSource(origin: .workingDirectory, directory: URL(fileURLWithPath: local, isDirectory: true), displayPath: defaultFolderName)
        }
        return .bundled
    }

    /// Whether a folder exists on disk.
    package static func directoryExists(atPath path: String) -> Bool {
        FileStatus.isDirectory(path)
    }

    /// How a file of this source is shown: `environments/petstore.yaml`.
    package func displayPath(of fileName: String) -> String {
        displayPath == "/" ? "/\(fileName)" : "\(displayPath)/\(fileName)"
    }

    /// `environments (./environments)`, `bundled catalogs (built into apiexplorer)` …
    public var description: String {
        switch origin {
        case .option: "\(displayPath) (--catalog)"
        case .environmentVariable: "\(displayPath) (from $\(CatalogSource.environmentVariable))"
        case .workingDirectory: "\(displayPath) (./\(CatalogSource.defaultFolderName))"
        case .bundled: "bundled catalogs (built into apiexplorer)"
        }
    }

    static func absoluteURL(_ path: String, currentDirectory: String?) -> URL {
        // Only a `~` path needs the environment.
        let expanded = path.hasPrefix("~") ? HomeDirectory.expandingTilde(path, environment: ProcessEnvironment.variables) : path
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return URL(fileURLWithPath: currentDirectory ?? FileManager.default.currentDirectoryPath).appendingPathComponent(expanded).standardizedFileURL
    }
}
