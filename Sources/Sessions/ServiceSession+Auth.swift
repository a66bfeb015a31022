import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport

extension ServiceSession {
    /// Sends the refresh endpoint through the session's own dispatcher and reads the new token.
    /// Its inline error handler keeps a failing refresh from reaching the refresh handler again.
    static func refresh(
        with endpoint: CatalogEndpoint, rule: AuthRefreshRule, builder: RequestBuilder, reference: DispatcherReference
    ) async throws(DispatchError) -> String {
        guard let dispatcher = reference.dispatcher else {
            throw DispatchError(kind: .cancelled, message: "the session was closed", source: "token refresh")
        }
        let context = RefreshContext.current
        var endpoint = endpoint
        // A stubbed refresh answers from the login's fixture, which a load may have left unread.
        if (context?.stubBehavior ?? builder.environment.fixtures).isStubbed {
            switch endpoint.readingFixtures(for: nil) {
            case .success(let read): endpoint = read
            case .failure(let problem):
                throw DispatchError(kind: .invalidRequest, message: "\(endpoint.key): \(problem)", source: "token refresh")
            }
        }
        let prepared: PreparedRequest
        do {
            prepared = try builder.prepare(endpoint, values: context?.values ?? [:])
        } catch {
            throw error.dispatchError
        }
        let options = RequestOptions(stubBehavior: context?.stubBehavior) { error, _ in
            .failed(error, note: "the refresh request failed; not refreshing again")
        }
        let exchange = await dispatcher.send(prepared.target, environment: prepared.environment, options: options)
        let response = try exchange.result.get()
        guard let body = try? JSONValue.parse(response.body), let value = rule.token.first(in: body) else {
            throw DispatchError(
                kind: .decodingFailed, message: "\(endpoint.key) answered without a token at \(rule.token)", status: response.status,
                response: response, source: "token refresh")
        }
        switch value {
        case .string(let token) where !token.isEmpty: return token
        case .number(let literal): return literal
        default:
            throw DispatchError(
                kind: .decodingFailed, message: "\(endpoint.key) answered with \(value.typeName) at \(rule.token), not a token",
                status: response.status, response: response, source: "token refresh")
        }
    }

    /// Fills `{{secret.NAME}}` in headers and the URL with the credential store's current token at
    /// every attempt, so a request resumed after a refresh carries the new token. Without a token
    /// the header is left out, the server answers 401, and the refresh rule gets one.
    static func tokenAdapter(for name: String, store: CredentialStore, registry: SecretRegistry) -> Interceptor.Adapter {
        let placeholder = "{{secret.\(name)}}"
        let encodedPlaceholder = FormEncoding.escape(placeholder)
        return Interceptor.Adapter(name: "auth token") { request in
            let token = store.token
            // A refreshed token is masked by value from its first use on.
            if let token { registry.register(token) }
            if request.headers.contains(where: { $0.value.contains(placeholder) }) {
                var fields: [HeaderField] = []
                for var field in request.headers.fields {
                    if field.value.contains(placeholder) {
                        guard let token, !token.isEmpty else { continue }
                        field.value = field.value.replacing(placeholder, with: token)
                    }
                    fields.append(field)
                }
                request.headers = Headers(fields)
            }
            let url = request.url.absoluteString
            if url.contains(encodedPlaceholder),
                let replaced = URL(string: url.replacing(encodedPlaceholder, with: FormEncoding.escape(token ?? "")))
            {
                request.url = replaced
            }
        }
    }

}
