import Catalog
import DispatcherCore
import FoundationEssentials

extension HistoryStore {
    /// The latest response of `endpoint` kept for `environment` in `mode`, for `{{response.…}}`
    /// references outside the explorer (bodies are kept masked and cut at 64 KiB: a secret read
    /// from one comes back as `••••`).
    /// Only responses of `environment`'s own catalog are read: another catalog's, even of a
    /// service with the same id, are not there for it.
    package func latestResponse(of endpoint: EndpointKey, in environment: EnvironmentKey, mode: RequestMode) -> (response: CapturedResponse, date: Date)? {
        guard endpoint.service == environment.service else { return nil }
        let match = summaries().last { summary in
            summary.call.endpoint == endpoint && summary.call.catalog == environment.catalog && summary.call.environment == environment.environment
                && summary.call.mode == mode && summary.status != nil
        }
        guard let match, let record = entry(id: match.id)?.response else { return nil }
        let headers = record.headers.map { HeaderField(name: $0.name, value: $0.value, origin: .server) }
        return (CapturedResponse(status: record.status, headers: headers, body: record.body.data), match.date)
    }
}
