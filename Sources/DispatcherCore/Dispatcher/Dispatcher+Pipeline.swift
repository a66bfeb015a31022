import FoundationEssentials

extension Dispatcher {
    /// Attempts, then the error-handler chain (resuming once at most), then the result handlers.
    func run(
        _ original: Request, endpoint: Endpoint, target: T, behavior: StubBehavior, started: Duration,
        environment: Environment
    ) async -> Exchange {
        var trace = TraceRecorder(clock: clock, started: started)
        var original = original
        var attempts = 0
        var resumed = false
        var handlerRetries = 0
        var transfers: [TransferTiming] = []
        // Boxed once: every hook takes `any TargetType`, and each conversion would copy the target anew.
        let boxedTarget: any TargetType = target
        while true {
            let (result, sent) = await attempt(
                original, endpoint: endpoint, target: boxedTarget, behavior: behavior, attempts: &attempts, trace: &trace,
                transfers: &transfers)
            var final = result
            var resume = false
            // A missing fixture is the catalog's gap, not a failure a handler could resolve.
            if case .failure(let error) = result, error.kind != .cancelled, error.kind != .noFixture, !Task.isCancelled {
                let (resolution, passed) = await resolve(error, request: sent)
                for name in passed { trace.record(.passed(by: name)) }
                switch resolution {
                case nil:
                    if !passed.isEmpty || sent.options.errorHandler != nil { trace.record(.unhandled) }
                case (let name, .retry(let delay, let note))?:
                    // A handler's retries are its own to count; this bound only stops one that never passes.
                    guard handlerRetries < Self.handlerRetryLimit else {
                        trace.record(.handled(by: name, note: "asked to send again past \(Self.handlerRetryLimit) times: refused"))
                        break
                    }
                    handlerRetries += 1
                    trace.record(.retriedByHandler(by: name, after: delay, note: note))
                    do {
                        try await clock.sleep(for: delay)
                    } catch {
                        final = .failure(DispatchError.cancelled)
                        break
                    }
                    resume = true
                    // As for a resume: the example described the failure being retried (a 429), so
                    // the next attempt is answered as the server would answer it now.
                    if !endpoint.repeats(original.options.example) { original.options.example = nil }
                case (let name, .resume(let note))?:
                    if resumed {
                        trace.record(.resumeRefused(by: name))
                    } else {
                        trace.record(.resumed(by: name, note: note))
                        resumed = true
                        resume = true
                        original.options.isResumed = true
                        // The example described the failure the handler has just resolved (an expired
                        // token): the resumed request is answered as the server would answer it now —
                        // by the default fixture, or without asking the mock for that example (unless
                        // the example says it repeats: a session revoked for good).
                        if !endpoint.repeats(original.options.example) { original.options.example = nil }
                    }
                case (let name, .recovered(let response, let note))?:
                    trace.record(.handled(by: name, note: note))
                    final = .success(response)
                case (let name, .failed(let rewritten, let note))?:
                    trace.record(.handled(by: name, note: note))
                    final = .failure(rewritten)
                }
            }
            if resume { continue }
            if case .failure(let error) = final, error.kind == .cancelled { trace.record(.cancelled) }
            var exchange = Exchange(
                request: sent, result: final, trace: trace.events, environmentName: environment.name,
                environmentType: environment.type, stubBehavior: behavior, attempts: attempts, notes: [])
            exchange.transfers = transfers
            return await finish(exchange)
        }
    }

    /// Most times the error handlers may send one request again (`ErrorResolution.retry`).
    static var handlerRetryLimit: Int { 10 }

    /// The inline handler first; when it passes, the chain in order. Returns who resolved it and
    /// the handlers that passed it on before, for the trace.
    private func resolve(_ error: DispatchError, request: Request) async -> (resolution: (String, ErrorResolution)?, passed: [String]) {
        if let inline = request.options.errorHandler, let resolution = await inline(error, request) {
            return (("inline handler", resolution), [])
        }
        var passed: [String] = []
        for handler in errorHandlers {
            if let resolution = await handler.handle(error, request: request) { return ((handler.name, resolution), passed) }
            passed.append(handler.name)
        }
        return (nil, passed)
    }

    /// Runs the result handlers and records what they did.
    func finish(_ exchange: Exchange) async -> Exchange {
        guard !resultHandlers.isEmpty else { return exchange }
        var exchange = exchange
        for handler in resultHandlers {
            let notes = await handler.handle(exchange)
            exchange.notes += notes
            let at = exchange.trace.last?.at ?? .zero
            exchange.trace += notes.map { TraceEvent(at: at, kind: .resultHandler(note: $0)) }
        }
        return exchange
    }

    /// Attempts until success, a final failure, or the retry limit. Every `willSend` is followed by
    /// exactly one `didReceive`, whatever happens in between.
    private func attempt(
        _ original: Request, endpoint: Endpoint, target: any TargetType, behavior: StubBehavior, attempts: inout Int,
        trace: inout TraceRecorder, transfers: inout [TransferTiming]
    ) async -> (Result<Response, DispatchError>, Request) {
        var number = 1
        while true {
            attempts += 1
            var request = original
            request.attempt = attempts
            do {
                request = try await interceptor.adapt(request)
            } catch {
                return (.failure(error), request)
            }
            for plugin in plugins { plugin.prepare(&request, target: target) }
            for plugin in plugins { plugin.willSend(request, target: target) }
            // The clock is read once when the attempt starts and once when it ends: the trace and
            // the response's timing share these readings.
            let sentAt = clock.now()
            trace.record(.sent(attempt: attempts, stubbed: behavior.isStubbed), at: sentAt)

            let (result, endedAt) = await perform(request, endpoint: endpoint, target: target, behavior: behavior, sentAt: sentAt)

            if let transfer = Self.transfer(of: result) { transfers.append(transfer) }
            switch result {
            case .success(let response): trace.record(.received(status: response.status, error: nil), at: endedAt)
            case .failure(let error):
                trace.record(.received(status: error.status, error: error.status == nil ? error.kind : nil), at: endedAt)
                trace.record(.errorMapped(kind: error.kind, source: error.source), at: endedAt)
            }
            for plugin in plugins { plugin.didReceive(result, request: request, target: target) }
            var processed = result
            for plugin in plugins { plugin.process(&processed, request: request, target: target) }

            guard case .failure(let error) = processed, error.kind != .cancelled, error.kind != .noFixture, !Task.isCancelled else {
                return (processed, request)
            }
            guard case .retry(let delay) = await interceptor.retry(request, dueTo: error, attempt: number) else {
                return (processed, request)
            }
            trace.record(.retryScheduled(attempt: number, after: delay))
            do {
                try await clock.sleep(for: delay)
            } catch {
                return (.failure(DispatchError.cancelled), request)
            }
            number += 1
        }
    }

    /// The phases the transport recorded for an attempt, from its response or its failure.
    static func transfer(of result: Result<Response, DispatchError>) -> TransferTiming? {
        switch result {
        case .success(let response): response.transfer
        case .failure(let error): error.transportError?.transfer ?? error.response?.transfer
        }
    }

    /// One attempt: the stub or the transport, then the error filter. Returns the result and the
    /// clock's reading when it came.
    private func perform(
        _ request: Request, endpoint: Endpoint, target: any TargetType, behavior: StubBehavior, sentAt: Duration
    ) async -> (Result<Response, DispatchError>, endedAt: Duration) {
        if Task.isCancelled { return (.failure(.cancelled), clock.now()) }
        let response: Response
        let endedAt: Duration
        switch behavior {
        case .never:
            guard let transport else {
                return (.failure(.invalidRequest("Live mode needs a transport; this dispatcher has only stubs.")), clock.now())
            }
            do {
                response = try await transport.send(request)
            } catch {
                return (.failure(errorFilter.error(for: error)), clock.now())
            }
            endedAt = clock.now()
        case .immediate, .delayed:
            if case .delayed(let delay) = behavior {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return (.failure(.cancelled), clock.now())
                }
            }
            if let conversation = request.options.webSocket {
                let response = await stubConversation(conversation, request: request, script: target.webSocketScript, sentAt: sentAt)
                return (Self.conversationOutcome(response, conversation: conversation), clock.now())
            }
            guard let sample = endpoint.sample(named: request.options.example) else {
                let names = endpoint.examples.map(\.name).joined(separator: ", ")
                return (
                    .failure(.invalidRequest(
                        "\(request.identifier) has no example named '\(request.options.example ?? "")'"
                            + (names.isEmpty ? "." : "; it has \(names).")
                    )), clock.now()
                )
            }
            endedAt = clock.now()
            let elapsed = Timing(firstByte: endedAt - sentAt, total: endedAt - sentAt)
            let source = ResponseSource.stub(example: request.options.example)
            switch sample {
            case .status(let status, let body):
                response = Response(status: status, body: body, url: request.url, source: source, timing: elapsed)
            case .response(let status, let headers, let body):
                response = Response(status: status, headers: headers, body: body, url: request.url, source: source, timing: elapsed)
            case .echo(let status, var headers):
                headers.set("Content-Type", "application/json", origin: .body)
                response = Response(status: status, headers: headers, body: echo(request), url: request.url, source: source, timing: elapsed)
            case .networkError(let failure):
                return (.failure(errorFilter.error(for: failure)), endedAt)
            case .noFixture:
                return (.failure(.noFixture(request.identifier)), endedAt)
            }
            // Stubs obey the same cap as the network, so stub and live agree on what is too large.
            let limit = request.settings.maximumBodySize
            if response.body.count > limit {
                let failure = TransportError(
                    .bodyTooLarge,
                    message: "The stub body of \(ByteCount.format(response.body.count)) is larger than the limit of \(ByteCount.format(limit)).")
                return (.failure(errorFilter.error(for: failure)), endedAt)
            }
        }
        if let observe = request.options.onResponsePart, behavior.isStubbed {
            // A stub arrives whole: its head, then its body in one part.
            if observe(.head(status: response.status, headers: response.headers)), !response.body.isEmpty {
                _ = observe(.body(response.body))
            }
        }
        if let conversation = request.options.webSocket, response.status == 101 {
            return (Self.conversationOutcome(response, conversation: conversation), endedAt)
        }
        if let error = errorFilter.error(for: response, request: request) { return (.failure(error), endedAt) }
        if request.options.webSocket != nil { return (.failure(Self.notUpgraded(response)), endedAt) }
        return (.success(response), endedAt)
    }
}

/// Collects trace events with their time since the request started.
struct TraceRecorder {
    let clock: DispatchClock
    let started: Duration
    private(set) var events: [TraceEvent] = []

    init(clock: DispatchClock, started: Duration) {
        self.clock = clock
        self.started = started
    }

    mutating func record(_ kind: TraceEvent.Kind) {
        record(kind, at: clock.now())
    }

    /// Records an event at a clock reading already taken.
    mutating func record(_ kind: TraceEvent.Kind, at reading: Duration) {
        if events.isEmpty { events.reserveCapacity(4) }  // sent, received (, mapped, retry): one allocation
        events.append(TraceEvent(at: reading - started, kind: kind))
    }
}
