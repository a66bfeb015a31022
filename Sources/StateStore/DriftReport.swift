import FoundationEssentials
import JSONSupport
import TextSupport

/// One way a live response differs from its stub.
package enum DriftDifference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The statuses differ.
    case status(stub: Int, live: Int)
    /// The media types differ (nil: none given).
    case contentType(stub: String?, live: String?)
    /// One body is JSON and the other is not.
    case bodyFormat(stub: String, live: String)
    /// A member the stub has is missing live (`always`: missing in every live object; else in some).
    case missingMember(path: String, always: Bool)
    /// A member live has that the stub lacks.
    case extraMember(path: String)
    /// The value types differ (null left aside).
    case type(path: String, stub: [JSONShape.Kind], live: [JSONShape.Kind])
    /// One side can be null where the other never is.
    case nullability(path: String, stubNullable: Bool, liveNullable: Bool)
    /// One side's array has elements and the other's is empty, so their shapes cannot be compared.
    case arrayElements(path: String, stubEmpty: Bool)
    /// The live body breaks the response schema kept at import: where (a JSON Pointer) and how.
    case schema(pointer: String, message: String)

    /// A sentence for people.
    package var description: String {
        switch self {
        case .status(let stub, let live): "status: stub \(stub), live \(live)"
        case .contentType(let stub, let live): "content type: stub \(stub ?? "none"), live \(live ?? "none")"
        case .bodyFormat(let stub, let live): "body: stub is \(stub), live is \(live)"
        case .missingMember(let path, let always): "\(path): missing live\(always ? "" : " in some elements") (the stub has it)"
        case .extraMember(let path): "\(path): live has it, the stub does not"
        case .type(let path, let stub, let live):
            "\(path): stub is \(stub.map(\.rawValue).joined(separator: " or ")), live is \(live.map(\.rawValue).joined(separator: " or "))"
        case .nullability(let path, let stubNullable, _):
            stubNullable ? "\(path): the stub can be null, live never is" : "\(path): live can be null, the stub never is"
        case .arrayElements(let path, let stubEmpty):
            stubEmpty ? "\(path): the stub's array is empty, so live elements are unchecked" : "\(path): live array is empty, so the stub's elements are unchecked"
        case .schema(let pointer, let message): "\(pointer.isEmpty ? "the body" : pointer): live breaks the schema: \(message)"
        }
    }

    /// Whether this is a real difference (false for notes on what could not be compared).
    package var isDrift: Bool {
        if case .arrayElements = self { return false }
        return true
    }
}

/// The result of checking one endpoint.
package struct EndpointDrift: Sendable, Hashable, Codable {
    /// What came of it.
    package enum Outcome: String, Sendable, Hashable, Codable {
        /// Live matches the stub.
        case same
        /// Live differs from the stub.
        case drifted
        /// Not checked (see `reason`).
        case skipped
        /// The live request failed without a response, or could not be built.
        case failed
    }

    /// Why an endpoint without a `stub:` is skipped: there is nothing to compare live with.
    package static let noFixtureReason = "no fixture: the endpoint has no 'stub:' to compare the live answer with"

    /// The endpoint id.
    package var endpoint: String
    /// The method.
    package var method: String
    /// The outcome.
    package var outcome: Outcome
    /// The differences (and notes), for `same` and `drifted`.
    package var differences: [DriftDifference]
    /// Why it was skipped or failed.
    package var reason: String?
    /// The stub's status.
    package var stubStatus: Int?
    /// The live status.
    package var liveStatus: Int?

    /// Makes a result.
    package init(
        endpoint: String, method: String, outcome: Outcome, differences: [DriftDifference] = [], reason: String? = nil, stubStatus: Int? = nil,
        liveStatus: Int? = nil
    ) {
        self.endpoint = endpoint
        self.method = method
        self.outcome = outcome
        self.differences = differences
        self.reason = reason
        self.stubStatus = stubStatus
        self.liveStatus = liveStatus
    }
}

/// A drift check of a service in an environment.
package struct DriftReport: Sendable, Hashable, Codable {
    /// The service id.
    package var service: String
    /// The environment's name.
    package var environment: String
    /// When it ran.
    package var date: Date
    /// One result per endpoint, in catalog order.
    package var endpoints: [EndpointDrift]

    /// Makes a report.
    package init(service: String, environment: String, date: Date, endpoints: [EndpointDrift]) {
        self.service = service
        self.environment = environment
        self.date = date
        self.endpoints = endpoints
    }

    /// Whether any endpoint drifted or could not be checked (what fails CI).
    package var hasProblems: Bool { endpoints.contains { $0.outcome == .drifted || $0.outcome == .failed } }

    /// The report for people:
    /// ```
    /// shop (local): 3 endpoints checked, 1 drifted, 1 skipped
    ///   ✓ getItem        GET   no drift
    ///   ✗ listItems      GET   2 differences
    ///       status: stub 200, live 404
    /// ```
    package var text: String {
        func count(_ outcome: EndpointDrift.Outcome) -> Int { endpoints.filter { $0.outcome == outcome }.count }
        var summary = "\(service) (\(environment)): \(endpoints.count - count(.skipped)) endpoint\(endpoints.count - count(.skipped) == 1 ? "" : "s") checked"
        for (outcome, word) in [(EndpointDrift.Outcome.drifted, "drifted"), (.failed, "failed"), (.skipped, "skipped")] where count(outcome) > 0 {
            summary += ", \(count(outcome)) \(word)"
        }
        let withoutFixture = endpoints.filter { $0.outcome == .skipped && $0.reason == EndpointDrift.noFixtureReason }.count
        if withoutFixture > 0 { summary += " (\(withoutFixture) without a fixture)" }
        var lines = [summary]
        let width = endpoints.map(\.endpoint.count).max() ?? 0
        for result in endpoints {
            let name = result.endpoint.padded(to: width)
            let method = result.method.padded(to: 6)
            let drifts = result.differences.filter(\.isDrift)
            switch result.outcome {
            case .same: lines.append("  ✓ \(name)  \(method)no drift")
            case .drifted: lines.append("  ✗ \(name)  \(method)\(drifts.count) difference\(drifts.count == 1 ? "" : "s")")
            case .skipped: lines.append("  - \(name)  \(method)skipped: \(result.reason ?? "")")
            case .failed: lines.append("  ! \(name)  \(method)failed: \(result.reason ?? "")")
            }
            lines += result.differences.map { "      \($0.isDrift ? "" : "note: ")\($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

extension DriftReport {
    /// The report as pretty JSON (documented in docs/cli.md).
    package var jsonText: String {
        guard let data = try? HistoryStore.encoder.encode(self), let value = try? JSONValue.parse(data) else { return "{}" }
        return value.prettyText()
    }
}
