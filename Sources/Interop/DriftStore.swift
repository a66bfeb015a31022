import Foundation

/// The last drift result of every endpoint checked, per service and environment, kept in
/// `drift.json` in the state directory so the TUI can show a drift badge on checked endpoints.
public struct DriftStore: Sendable {
    /// The file name in the state directory.
    public static let fileName = "drift.json"

    /// One endpoint's last result.
    public struct Record: Sendable, Hashable, Codable {
        /// When it was checked.
        public var date: Date
        /// The result.
        public var result: EndpointDrift
    }

    /// The folder holding the file.
    public let directory: URL

    /// Makes a store in `directory` (the state directory by default).
    public init(directory: URL = StateDirectory.url()) {
        self.directory = directory
    }

    /// The file.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Records every endpoint of a report, replacing earlier results of those endpoints.
    public func save(_ report: DriftReport) throws(InteropError) {
        var all = (try? load()) ?? [:]
        var endpoints = all[key(report.service, report.environment)] ?? [:]
        for result in report.endpoints { endpoints[result.endpoint] = Record(date: report.date, result: result) }
        all[key(report.service, report.environment)] = endpoints
        let data: Data
        do {
            data = try HistoryStore.encoder.encode(all)
        } catch {
            throw .file("cannot encode drift results: \(error)")
        }
        try StateDirectory.create(directory)
        try AtomicFile.write(data, to: fileURL, permissions: 0o600)
    }

    /// The last result for an endpoint of a service in an environment, if it was checked.
    public func last(service: String, environment: String, endpoint: String) -> Record? {
        (try? load())?[key(service, environment)]?[endpoint]
    }

    /// Every last result of a service in an environment, by endpoint id.
    public func results(service: String, environment: String) -> [String: Record] {
        (try? load())?[key(service, environment)] ?? [:]
    }

    /// Every last result, by `service/environment` and then endpoint id, read once.
    public func everyResult() -> [String: [String: Record]] {
        (try? load()) ?? [:]
    }

    private func load() throws -> [String: [String: Record]] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [:] }
        return try HistoryStore.decoder.decode([String: [String: Record]].self, from: data)
    }

    private func key(_ service: String, _ environment: String) -> String { "\(service)/\(environment)" }
}
