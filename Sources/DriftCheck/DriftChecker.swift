import Catalog
import ContractCheck
import DispatcherCore
import FoundationEssentials
import JSONSupport
import Sessions
import StateStore

/// Compares what an API answers live with what its stub says: status, content type, and the
/// JSON shape (members present or missing, value types, nullability, array element shapes).
/// Values themselves are not compared: live data changes, its shape should not. When the catalog
/// keeps the response schemas of its import (`schemas:`), the live body is also checked against
/// its schema (`ResponseContract`, the engine of contract checks).
package enum DriftChecker {
    /// The differences between a stub response and a live one.
    package static func compare(stub: Response, live: Response) -> [DriftDifference] {
        var differences: [DriftDifference] = []
        if stub.status != live.status { differences.append(.status(stub: stub.status, live: live.status)) }
        let stubType = stub.mediaType, liveType = live.mediaType
        // A stub without a Content-Type says nothing about it.
        if let stubType, stubType != liveType { differences.append(.contentType(stub: stubType, live: liveType)) }
        let stubJSON = json(stub), liveJSON = json(live)
        switch (stubJSON, liveJSON) {
        case (let stubValue?, let liveValue?):
            differences += compare(stub: JSONShape(stubValue), live: JSONShape(liveValue), path: "$")
        case (.some, nil) where !live.body.isEmpty:
            differences.append(.bodyFormat(stub: "JSON", live: "not JSON"))
        case (nil, .some) where !stub.body.isEmpty:
            differences.append(.bodyFormat(stub: "not JSON", live: "JSON"))
        default:
            break
        }
        return differences
    }

    /// The differences between two shapes, at `path` (`$.items[*].name`).
    package static func compare(stub: JSONShape, live: JSONShape, path: String) -> [DriftDifference] {
        var differences: [DriftDifference] = []
        let stubNullable = stub.kinds.contains(.null), liveNullable = live.kinds.contains(.null)
        let stubKinds = stub.kinds.subtracting([.null]), liveKinds = live.kinds.subtracting([.null])
        if stubNullable != liveNullable { differences.append(.nullability(path: path, stubNullable: stubNullable, liveNullable: liveNullable)) }
        if !stubKinds.isEmpty, !liveKinds.isEmpty, stubKinds != liveKinds {
            differences.append(.type(path: path, stub: stubKinds.sorted(), live: liveKinds.sorted()))
        }
        if stubKinds.contains(.object), liveKinds.contains(.object) {
            for (key, member) in stub.members {
                let childPath = memberPath(path, key)
                guard let liveMember = live.member(key) else {
                    if !member.optional { differences.append(.missingMember(path: childPath, always: true)) }
                    continue
                }
                if liveMember.optional, !member.optional { differences.append(.missingMember(path: childPath, always: false)) }
                differences += compare(stub: member.shape, live: liveMember.shape, path: childPath)
            }
            for (key, _) in live.members where stub.member(key) == nil {
                differences.append(.extraMember(path: memberPath(path, key)))
            }
        }
        if stubKinds.contains(.array), liveKinds.contains(.array) {
            switch (stub.element?.shape, live.element?.shape) {
            case (let stubElement?, let liveElement?): differences += compare(stub: stubElement, live: liveElement, path: path + "[*]")
            case (nil, .some): differences.append(.arrayElements(path: path, stubEmpty: true))
            case (.some, nil): differences.append(.arrayElements(path: path, stubEmpty: false))
            case (nil, nil): break
            }
        }
        return differences
    }

    /// Checks every endpoint of `service` in `environment`: each is sent in stub mode and live,
    /// and the two responses compared. Methods that change data (POST, PUT, PATCH, DELETE) are
    /// skipped unless `includeUnsafe`, so a check never writes to a real API by surprise.
    package static func check(
        service: Service, environment: Environment, caller: EndpointCaller, includeUnsafe: Bool = false, values: [String: String] = [:],
        date: Date
    ) async -> DriftReport {
        var results: [EndpointDrift] = []
        // A schemas file that cannot be read leaves the shapes compared (the loader warned about a missing one).
        let contract = (try? ResponseContract(service: service)) ?? nil
        for endpoint in service.endpoints {
            let selection = EndpointSelection(service: service, endpoint: endpoint, environment: environment)
            results.append(await check(selection, caller: caller, includeUnsafe: includeUnsafe, values: values, contract: contract))
        }
        return DriftReport(service: service.id, environment: environment.name, date: date, endpoints: results)
    }

    /// Checks one endpoint (and its live body against `contract`'s schema, when given).
    package static func check(
        _ selection: EndpointSelection, caller: EndpointCaller, includeUnsafe: Bool = false, values: [String: String] = [:],
        contract: ResponseContract? = nil
    ) async -> EndpointDrift {
        let endpoint = selection.endpoint
        let method = endpoint.method
        func result(_ outcome: EndpointDrift.Outcome, reason: String) -> EndpointDrift {
            EndpointDrift(endpoint: endpoint.id, method: method.rawValue, outcome: outcome, reason: reason)
        }
        // A gRPC call is a POST whatever the method does: any of them may change data.
        if let rpc = endpoint.rpc, !includeUnsafe {
            return result(.skipped, reason: "the gRPC method \(rpc.method) may change data (--include-unsafe checks it)")
        }
        guard includeUnsafe || [.get, .head, .options].contains(method) else {
            return result(.skipped, reason: "\(method.rawValue) may change data (--include-unsafe checks it)")
        }
        guard endpoint.stub.isFixture else { return result(.skipped, reason: EndpointDrift.noFixtureReason) }
        if case .networkError = endpoint.stub.sample {
            return result(.skipped, reason: "the stub is a network error, so there is no response to compare")
        }
        // Reasons are kept in the drift file: known secret values in error messages are masked.
        let stubOutcome = await caller.call(selection, mode: .stub, values: values)
        let stub = stubOutcome.exchange
        guard let stubResponse = stub.response else {
            let reason = stub.error.map { $0.kind == .invalidRequest ? $0.message : "stub: \($0.message)" } ?? "the stub gave no response"
            return result(.failed, reason: stubOutcome.redactor.text(reason))
        }
        let liveOutcome = await caller.call(selection, mode: .live, values: values)
        guard let liveResponse = liveOutcome.exchange.response else {
            return result(.failed, reason: liveOutcome.redactor.text(liveOutcome.exchange.error.map { "\($0.kind.name): \($0.message)" } ?? "no response"))
        }
        var differences = compare(stub: stubResponse, live: liveResponse)
        if let contract {
            differences += contract.check(endpoint: endpoint.id, response: liveResponse).violations.map {
                .schema(pointer: $0.instancePointer, message: liveOutcome.redactor.text($0.message))
            }
        }
        return EndpointDrift(
            endpoint: endpoint.id, method: method.rawValue, outcome: differences.contains(where: \.isDrift) ? .drifted : .same,
            differences: differences, stubStatus: stubResponse.status, liveStatus: liveResponse.status)
    }

    private static func json(_ response: Response) -> JSONValue? {
        guard !response.body.isEmpty else { return nil }
        let type = response.mediaType ?? ""
        // A gRPC call's body is its messages as JSON (`RPCStatus`), whatever its content type says.
        guard type.isEmpty || type.contains("json") || type.hasPrefix(RPCStatus.contentType) else { return nil }
        return try? JSONValue.parse(response.body)
    }

    private static func memberPath(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(key.first?.isNumber ?? true)
        return plain ? "\(path).\(key)" : "\(path)['\(key.replacing("'", with: "\\'"))']"
    }
}
