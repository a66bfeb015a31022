import Catalog
import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last drift result of every endpoint checked, per catalog, service and environment, kept in
/// `drift.json` in the state directory so the explorer can show a drift badge on checked endpoints
/// (results kept before they were per catalog are not read: the next `check` makes them again).
package struct DriftStore: Sendable {
    /// The file name in the state directory.
    package static let fileName = "drift.json"
    /// The largest file read: a result per endpoint of every catalog checked is a few MiB.
    static let maximumFileSize = 32 << 20

    /// One endpoint's last result.
    package struct Record: Sendable, Hashable, Codable {
        /// When it was checked.
        package var date: Date
        /// The result.
        package var result: EndpointDrift
    }

    /// The file's contents: catalog → service → environment → endpoint id → last result.
    typealias Contents = [String: [String: [String: [String: Record]]]]

    /// The folder holding the file, as a path.
    package let directoryPath: String

    /// Makes a store in the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) {
        self.directoryPath = directoryPath
    }

    /// Makes a store in `directory`.
    package init(directory: URL) {
        self.init(directoryPath: directory.path)
    }

    /// The folder holding the file.
    package var directory: URL { URL(fileURLWithPath: directoryPath) }
    /// The file.
    package var fileURL: URL { URL(fileURLWithPath: filePath) }
    private var filePath: String { URL.joinedFilePath(directoryPath, Self.fileName) }

    /// Records every endpoint of a report, replacing earlier results of those endpoints.
    package func save(_ report: DriftReport, of catalog: CatalogID) throws(SystemError) {
        var all: Contents
        do {
            all = try load()
        } catch let error as FileReadError {
            // Too large, or not a file: left as it is rather than replaced by this report alone.
            throw SystemError("\(error); the drift results were not saved", number: EFBIG)
        } catch {
            all = [:]  // damaged: what it held is lost already
        }
        var endpoints = all[catalog.rawValue]?[report.service]?[report.environment] ?? [:]
        for result in report.endpoints { endpoints[result.endpoint] = Record(date: report.date, result: result) }
        all[catalog.rawValue, default: [:]][report.service, default: [:]][report.environment] = endpoints
        guard let data = try? HistoryStore.encoder.encode(all) else {
            throw SystemError("cannot encode drift results", number: EINVAL)
        }
        try StateDirectory.create(directory)
        try AtomicFile.write(data, to: fileURL, permissions: 0o600)
    }

    /// The last result for an endpoint (by id) of a service in an environment, if it was checked.
    package func last(_ endpoint: String, in environment: EnvironmentKey) -> Record? {
        results(environment)[endpoint]
    }

    /// Every last result of a service in an environment, by endpoint id.
    package func results(_ environment: EnvironmentKey) -> [String: Record] {
        (try? load())?[environment.catalog.rawValue]?[environment.service]?[environment.environment] ?? [:]
    }

    /// Every last result, by catalog, service and environment and then endpoint id, read once.
    package func everyResult() -> [EnvironmentKey: [String: Record]] {
        var results: [EnvironmentKey: [String: Record]] = [:]
        for (catalog, services) in (try? load()) ?? [:] {
            for (service, environments) in services {
                for (environment, endpoints) in environments {
                    results[EnvironmentKey(catalog: CatalogID(rawValue: catalog), service: service, environment: environment)] = endpoints
                }
            }
        }
        return results
    }

    private func load() throws -> Contents {
        guard let data = try FileContents.contentsIfPresent(atPath: filePath, limit: Self.maximumFileSize) else { return [:] }
        return try HistoryStore.decoder.decode(Contents.self, from: data)
    }
}
