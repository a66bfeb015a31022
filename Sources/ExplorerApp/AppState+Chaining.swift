import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions

extension AppState {
    /// The values captured in the active service and environment for the current mode, with the
    /// values of the `{{response.…}}` references `endpoint` uses (from this run's latest responses
    /// in the same environment and mode).
    func capturedValues(for endpoint: CatalogEndpoint, environment: EnvironmentKey, mode: RequestMode) -> [String: CapturedValue] {
        var values = captured[environment]?[mode] ?? [:]
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }.filter { $0.hasPrefix(ResponseReference.prefix) }
        guard !names.isEmpty else { return values }
        let references = ResponseReference.values(for: names, service: endpoint.serviceID) { key in
            guard let record = responses[key], record.call.environmentKey == environment, record.call.mode == mode,
                let response = record.exchange.response
            else { return nil }
            return (CapturedResponse(response), receivedAt[key] ?? Date(timeIntervalSince1970: 0))
        }
        values.merge(references) { _, reference in reference }
        return values
    }

    /// Takes the endpoint's captures from a response that just arrived; returns the names taken.
    mutating func capture(from record: CallOutcome, at date: Date) -> [String] {
        guard let response = record.exchange.response, let endpoint = catalog.endpoint(record.call.endpoint)?.endpoint,
            !endpoint.captures.isEmpty
        else { return [] }
        let values = endpoint.capturedValues(from: CapturedResponse(response), at: date)
        guard !values.isEmpty else { return [] }
        captured[record.call.environmentKey, default: CapturedValues()][record.call.mode].merge(values) { _, new in new }
        return values.keys.sorted()
    }

    /// The prompts a request of the selected endpoint asks that have no answer among `values`.
    func unansweredPrompts(for endpoint: CatalogEndpoint, values: [String: String]) -> [Prompt] {
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }
        var seen = Set<String>()
        return endpoint.prompts(among: names).filter { values[$0.placeholder] == nil && seen.insert($0.name).inserted }
    }
}
