import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions

/// How a request goes out, whatever its protocol: its `{{prompt.…}}` questions, the trust an
/// untrusted catalog needs to reach outside, the production confirmation, a download's file
/// checked, then a ticket and `.send`. The runtime picks the kinds of exchange the request takes.
extension ExchangesFeature {
    /// Sends the selected endpoint in the active environment and mode.
    static func send(
        example: String?, downloadPath: String? = nil, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        guard let environment = context.environment, let endpoint = context.endpoint, let environmentKey = context.environmentKey else {
            shell.notice = "No endpoint to send."
            return []
        }
        let edits = context.edits
        let edited: CatalogEndpoint
        do throws(EditsError) {
            edited = try endpoint.applying(edits)
        } catch {
            shell.notice = "Not sent: \(error.message) (Edit tab)."
            return []
        }
        // A scratch request has no fixtures: it always goes to the network.
        let mode = context.sendMode(state)
        // A picked example is a fixture: a live send goes to the server without it.
        let example = mode == .live ? nil : example
        var call = EndpointCall(
            endpoint: endpoint.key, catalog: environmentKey.catalog, environment: environment.name, mode: mode, example: example, values: context.values,
            edits: edits.isEmpty ? nil : edits)
        // `download:` in the catalog makes every send of the endpoint a download; `d` asks where.
        call.downloadPath = downloadPath ?? endpoint.download
        if downloadPath == nil, endpoint.download != nil { call.downloadPlace = .downloadsFolder }
        call.captured = capturedValues(for: edited, environment: environmentKey, mode: mode, state, catalog: context.catalog)
        let prompts = unansweredPrompts(for: edited, values: call.values)
        if !prompts.isEmpty {
            shell.present(.exchanges(.prompt(PromptDialog(call: call, prompts: prompts))))
            return []
        }
        return confirmThenDispatch(call, &state, &shell, context)
    }

    /// Sends a call, asking first when its catalog is not trusted and it would reach outside it,
    /// and when it is live and changes data in production.
    static func confirmThenDispatch(_ call: EndpointCall, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let (service, endpoint) = context.catalog.endpoint(call.endpoint),
            let environment = context.catalog.environment(call.environmentKey)?.environment
        else { return dispatch(call, &state, &shell, context) }
        if let question = trustQuestion(for: call, service: service, catalogDownload: endpoint.download) {
            shell.present(.exchanges(.confirmTrust(question)))
            return []
        }
        let method = call.edits?.method ?? endpoint.method
        if call.mode == .live, environment.type.isProduction, ![.get, .head, .options].contains(method) {
            shell.present(.exchanges(.confirmSend(call)))
            return []
        }
        return dispatchCheckingDownload(call, &state, &shell, context)
    }

    /// Sends a call; a download's file is checked first (`.checkDownload`): confined to the
    /// downloads folder when the catalog names it, and replaced only when the person says so.
    static func dispatchCheckingDownload(_ call: EndpointCall, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        if call.downloadPath != nil, !call.downloadIsChecked {
            shell.pendingLoads.insert(.exchanges(.checkDownload(call)))
            return [.exchanges(.checkDownload(call))]
        }
        return dispatch(call, &state, &shell, context)
    }

    /// Where a download's file turned out to be: a problem stops it, an existing file is asked about.
    static func downloadChecked(
        _ call: EndpointCall, path: String, exists: Bool, problem: String?, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        shell.pendingLoads.remove(.exchanges(.checkDownload(call)))
        if let problem {
            shell.notice = "Not downloaded: \(problem)."
            return []
        }
        var checked = call
        checked.downloadPath = path
        checked.downloadPlace = .checked(replaces: false)
        if exists {
            shell.present(.exchanges(.confirmReplace(checked)))
            return []
        }
        return dispatch(checked, &state, &shell, context)
    }

    /// Sends a request from the history as it was sent (endpoint, environment, mode, example),
    /// asking first where a live request changes data in production.
    static func sendAgain(_ call: EndpointCall, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let found = context.catalog.endpoint(call.endpoint), let environment = context.catalog.environment(call.environmentKey)?.environment else {
            shell.notice = "\(call.endpoint) in \(call.environment) is no longer in the catalog."
            return []
        }
        if let question = trustQuestion(for: call, service: found.service, catalogDownload: found.endpoint.download) {
            shell.present(.exchanges(.confirmTrust(question)))
            return []
        }
        if call.mode == .live, environment.type.isProduction, ![.get, .head, .options].contains(found.endpoint.method) {
            shell.present(.exchanges(.confirmSend(call)))
            return []
        }
        // Show where it goes: its environment and endpoint become the current ones, so the
        // response appears in the response pane.
        shell.requests.append(.showEndpointIn(call.endpoint, call.environmentKey))
        shell.notice = "Sending \(call.endpoint) to \(call.environment) (\(call.mode.badge)) again."
        return dispatchCheckingDownload(call, &state, &shell, context)
    }

    /// Gives the call a ticket, marks it in flight and asks the runtime to send it.
    static func dispatch(_ call: EndpointCall, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        var ticket = RequestTicket(id: state.nextTicket, call: call)
        ticket.showsActivity = context.catalog.endpoint(call.endpoint)?.endpoint.showsActivity ?? true
        state.nextTicket += 1
        state.inFlight[ticket.id] = ticket
        // Weakened TLS is said each time a request goes out with it, not only by validate.
        if call.mode == .live, let environment = context.catalog.environment(call.environmentKey)?.environment,
            let weakness = environment.trust.weaknesses.first, environment.baseURL.scheme?.lowercased() == "https"
        {
            shell.notice = "Warning: in \(call.environment), \(weakness)."
        }
        return [.exchanges(.send(ticket))]
    }

    /// What to ask before `call` when its catalog is not trusted and it would reach outside it:
    /// over the network, or to the catalog's download file. Nil when nothing needs asking.
    static func trustQuestion(for call: EndpointCall, service: Service, catalogDownload: String?) -> TrustQuestion? {
        guard !service.isTrusted, let contentHash = service.contentHash else { return nil }
        let reason: String
        if call.mode == .live {
            reason = "send requests over the network"
        } else if let download = call.downloadPath, call.downloadPlace == .downloadsFolder, download == catalogDownload {
            reason = "write \(download) in the downloads folder"
        } else {
            return nil
        }
        return TrustQuestion(call: call, declaration: TrustDeclaration(service), contentHash: contentHash, reason: reason)
    }

    /// The values captured in an environment for a mode, with the values of the `{{response.…}}`
    /// references `endpoint` uses (from this run's latest responses in the same environment and mode).
    static func capturedValues(
        for endpoint: CatalogEndpoint, environment: EnvironmentKey, mode: RequestMode, _ state: ExchangesState, catalog: CatalogSet
    ) -> [String: CapturedValue] {
        var values = state.captured[environment]?[mode] ?? [:]
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }.filter { $0.hasPrefix(ResponseReference.prefix) }
        guard !names.isEmpty else { return values }
        let references = ResponseReference.values(for: names, service: endpoint.serviceID) { key in
            latestResponse(of: key, environment: environment, mode: mode, state)
        }
        values.merge(references) { _, reference in reference }
        return values
    }

    /// This run's latest response of `key` in an environment and mode, and when it came (what
    /// `{{response.…}}` references read).
    static func latestResponse(
        of key: EndpointKey, environment: EnvironmentKey, mode: RequestMode, _ state: ExchangesState
    ) -> (response: CapturedResponse, date: Date)? {
        guard let record = state.responses[key], record.call.environmentKey == environment, record.call.mode == mode,
            let response = record.exchange.response
        else { return nil }
        return (CapturedResponse(response), state.receivedAt[key] ?? Date(timeIntervalSince1970: 0))
    }

    /// The prompts a request of the endpoint asks that have no answer among `values`.
    static func unansweredPrompts(for endpoint: CatalogEndpoint, values: [String: String]) -> [Prompt] {
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }
        var seen = Set<String>()
        return endpoint.prompts(among: names).filter { values[$0.placeholder] == nil && seen.insert($0.name).inserted }
    }
}
