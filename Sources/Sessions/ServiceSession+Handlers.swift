import Catalog
import DispatcherCore
import FoundationEssentials
import HTTPEcho

/// The handlers a catalog declares (`handlers:`, `results:`, an endpoint's `handlers:`), made into
/// the core's error handlers and result handlers.
extension ServiceSession {
    /// What the actions act on.
    struct HandlerContext: Sendable {
        let service: Service
        let environmentName: String
        let credentials: CredentialStore
        let cookies: CookieJar
        let refresh: TokenRefreshHandler?
        /// The sign-outs of the session's requests, for the caller.
        let signOuts: SignOutLog

        /// `signed out of petstore · staging`.
        var signedOut: String { "\(ServiceSession.signedOutPrefix) \(service.id) · \(environmentName)" }
    }

    /// How a sign-out note begins (the explorer shows such notes as a banner).
    package static let signedOutPrefix = "signed out of"

    /// The chain in the catalog's order, the token refresh where `refresh` stands; a chain that
    /// leaves `refresh` out still refreshes first when `auth.refresh` is given (as before chains).
    static func errorHandlers(_ rules: [HandlerRule], context: HandlerContext) -> [any ErrorHandler] {
        var chain: [any ErrorHandler] = rules.compactMap { handler(for: $0, context: context) }
        if let refresh = context.refresh, !rules.contains(where: { $0.action == .refresh }) { chain.insert(refresh, at: 0) }
        return chain
    }

    /// One rule as an error handler (nil for `refresh` without `auth.refresh`, which the catalog reported).
    static func handler(for rule: HandlerRule, context: HandlerContext) -> (any ErrorHandler)? {
        if rule.action == .refresh { return context.refresh }
        return MatchingErrorHandler(name: rule.name, match: .any) { error, request in
            guard rule.matcher.matches(error) else { return nil }
            return resolve(error, request: request, action: rule.action, context: context)
        }
    }

    /// An endpoint's own handlers, asked before the chain: the first that acts stops it.
    static func inlineHandler(for endpoint: CatalogEndpoint, context: HandlerContext) -> InlineErrorHandler? {
        guard !endpoint.handlers.isEmpty else { return nil }
        let handlers = endpoint.handlers.compactMap { handler(for: $0, context: context) }
        return { error, request in
            for handler in handlers {
                // The trace names the inline handler: the rule's name goes into the note.
                switch await handler.handle(error, request: request) {
                case nil: continue
                case .recovered(let response, let note): return .recovered(response, note: "\(handler.name): \(note)")
                case .failed(let error, let note): return .failed(error, note: "\(handler.name): \(note)")
                case .resume(let note): return .resume(note: "\(handler.name): \(note)")
                case .retry(let after, let note): return .retry(after: after, note: "\(handler.name): \(note)")
                }
            }
            return nil
        }
    }

    /// The result handlers `results:` declares (sign-outs).
    static func resultHandlers(_ rules: [HandlerRule], context: HandlerContext) -> [any ResultHandler] {
        rules.map { rule in RuleResultHandler(rule: rule, context: context) }
    }

    /// What an action does with an error it took.
    static func resolve(_ error: DispatchError, request: Request, action: HandlerRule.Action, context: HandlerContext) -> ErrorResolution? {
        switch action {
        case .refresh:
            return nil
        case .signOut:
            signOut(context)
            context.signOuts.record(.byHandler(error.kind), for: request.id)
            var failed = error
            failed.message = "\(error.message) (\(context.signedOut): sign in again)"
            return .failed(failed, note: context.signedOut)
        case .retry(let limit, let backoff):
            // Attempts so far, the first included: `limit` more are allowed.
            guard request.attempt <= limit else { return nil }
            if let retryAfter = error.retryAfter {
                return .retry(after: retryAfter, note: "retry \(request.attempt) of \(limit), after \(retryAfter.secondsText) s as Retry-After said")
            }
            let delay = backoff * request.attempt
            return .retry(after: delay, note: "retry \(request.attempt) of \(limit), after \(delay.secondsText) s of backoff")
        case .message(let text):
            var failed = error
            failed.message = text
            return .failed(failed, note: "message replaced by the catalog")
        case .recover(let name):
            let endpointID = request.identifier.split(separator: "/", maxSplits: 1).last.map(String.init) ?? ""
            guard let named = context.service.endpoint(endpointID)?.example(named: name) else { return nil }
            // Its body file, when the load left it unread: a problem with it fails the request, saying so.
            let example: CatalogExample
            switch named.readingBodyFile() {
            case .success(let read): example = read
            case .failure(let problem):
                var failed = error
                failed.message = "\(error.message) (the example '\(name)' cannot recover it: \(problem))"
                return .failed(failed, note: "the example '\(name)' cannot be read")
            }
            let response: Response
            switch example.sample {
            case .status(let status, let body):
                response = Response(status: status, body: body, url: request.url, source: .stub(example: name))
            case .response(let status, let headers, let body):
                response = Response(status: status, headers: headers, body: body, url: request.url, source: .stub(example: name))
            case .echo(let status, let headers):
                response = Response(status: status, headers: headers, body: RequestEcho.body(for: request), url: request.url, source: .stub(example: name))
            case .networkError, .noFixture:
                return nil
            }
            return .recovered(response, note: "recovered with the example '\(name)' (\(error.kind))")
        }
    }

    /// Forgets the environment's token and cookies.
    static func signOut(_ context: HandlerContext) {
        context.credentials.clear()
        context.cookies.remove()
    }
}

/// A `results:` rule: acts on a final error it matches before the caller sees it.
struct RuleResultHandler: ResultHandler {
    let rule: HandlerRule
    let context: ServiceSession.HandlerContext

    func handle(_ exchange: Exchange) async -> [String] {
        guard let error = exchange.error, rule.matcher.matches(error), rule.action == .signOut else { return [] }
        ServiceSession.signOut(context)
        context.signOuts.record(.byHandler(error.kind), for: exchange.request.id)
        return ["\(context.signedOut): \(error.kind)"]
    }
}
